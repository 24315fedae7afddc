// Sparse tensors (a sparse initializer, a Constant's sparse_value) import as
// dense constants: values scattered at linear or coordinate indices into
// zeros. The exported dense model runs in ONNX Runtime like the sparse one.
// Bad sparse tensors are errors naming the tensor; nothing is allocated for
// a dense size past 1 GiB.
// RUN: python3 %S/Inputs/make_sparse_models.py %t
// RUN: npu-translate --import-onnx %t/good.onnx | FileCheck %s
// RUN: npu-translate --import-onnx %t/good.onnx | npu-translate --export-onnx -o %t/dense.onnx
// RUN: python3 %S/Inputs/compare_sparse_ort.py %t/good.onnx %t/dense.onnx | FileCheck %s --check-prefix=ORT
// RUN: not npu-translate --import-onnx %t/range.onnx 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not npu-translate --import-onnx %t/huge.onnx 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not npu-translate --import-onnx %t/shape.onnx 2>&1 | FileCheck %s --check-prefix=SHAPE

// CHECK-DAG: "onnx.Constant"() <{value = dense<{{\[}}[1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 2.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 3.000000e+00]]> : tensor<3x4xf32>}>
// CHECK-DAG: "onnx.Constant"() <{value = dense<{{\[}}[0.000000e+00, 5.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>}>
// ORT: outputs match
// RANGE: error: sparse initializer 'W': sparse tensor 'W': position 12 of value 0 is outside its 12 elements
// HUGE: error: sparse initializer 'W': sparse tensor 'W' of shape [1048576, 1048576] would take 4398046511104 bytes dense (at most 1073741824)
// SHAPE: error: sparse initializer 'W': sparse tensor 'W': indices of shape Some([3]) do not fit 2 values of a rank-2 tensor
