// npu-quantize: post-training int8 quantization into a QDQ model. A small CNN
// (Conv+BatchNorm+Relu, a residual Add, Clip(0, 6), MaxPool, global pooling,
// Gemm) calibrated on four inputs: the BatchNorm folds into its Conv, the Relu
// and the Clip from 0 go into the QuantizeLinear after them, weights are int8
// per output channel. ONNX Runtime runs the result, which gives what ONNX
// Runtime's own quantizer's model gives (same settings) within an output step;
// npu16 runs all of it but the input's quantization and the output's
// dequantization in int8, as one program, bit for bit against the host reference.
// RUN: rm -rf %t && python3 %S/Inputs/small_cnn.py %t
// RUN: npu-quantize %t/cnn.onnx --calibrate %t/cal --per-channel -o %t/q.onnx | FileCheck %s
// CHECK: quantized 8 activations, 5 weights and biases by minmax over 4 samples
// CHECK: accuracy on the calibration set (int8 against float):
// CHECK-NEXT: y max abs error {{[0-9.]+e-[23]}}, mean abs error
// RUN: python3 %S/Inputs/against_ort.py %t/cnn.onnx %t/q.onnx %t/cal %t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: ONNX Runtime runs it: ours vs ONNX Runtime's quantizer: {{0\.[0-9]+|1\.00}} output steps
// RUN: npu-run %t/q.onnx --target npu -v --check-reference --input x=%t/x.npy 2>&1 | FileCheck %s --check-prefix=NPU
// NPU: npu16: 27 ops (93.1%) in 1 partitions
// NPU: conv1
// NPU: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit
// 
// The other calibration methods, and symmetric per-tensor quantization.
// RUN: npu-quantize %t/cnn.onnx --calibrate %t/cal --method percentile -o %t/p.onnx | FileCheck %s --check-prefix=METHOD
// RUN: npu-quantize %t/cnn.onnx --calibrate %t/cal --method entropy --symmetric-activations -o %t/e.onnx | FileCheck %s --check-prefix=METHOD
// METHOD: y max abs error {{[0-9.]+e-[12]}}
// 
// Bad input: an error naming the problem, nothing written.
// RUN: mkdir -p %t/empty && not npu-quantize %t/cnn.onnx --calibrate %t/empty -o %t/bad.onnx 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: npu-quantize: error: {{.*}}empty: no calibration inputs (.npy, .pb, or folders of them)
// RUN: not ls %t/bad.onnx
// RUN: mkdir -p %t/wrong && python3 -c "import numpy as n; n.save('%t/wrong/a.npy', n.zeros([1, 3, 8, 8], n.float32))"
// RUN: not npu-quantize %t/cnn.onnx --calibrate %t/wrong -o %t/bad.onnx 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: npu-quantize: error: {{.*}}x
// RUN: not npu-quantize %t/cnn.onnx --calibrate %t/cal --method kl -o %t/bad.onnx 2>&1 | FileCheck %s --check-prefix=METHODNAME
// METHODNAME: invalid value 'kl' for '--method <METHOD>'
// RUN: not ls %t/bad.onnx
