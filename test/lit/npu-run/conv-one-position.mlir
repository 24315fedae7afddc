// A Conv with one output position (the 1x1 convs of a squeeze-and-excitation
// block after a global pool, a 3x3 kernel over a 3x3 map) runs as a product
// with the output channels along the vector lanes (the weight transposed, at
// compile time when bound): against ONNX Runtime (1e-5 relative / 1e-6
// absolute), with a bias, a batch of two, 40 channels (a masked tail), and
// with the weights given at run time.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(6); f = lambda *s: r.standard_normal(s).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(2, 24, 1, 1), w=f(40, 24, 1, 1), b=f(40), x3=f(1, 8, 3, 3), w3=f(20, 8, 3, 3)).items()]"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --input x3=%t/x3.npy --input w3=%t/w3.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy b=%t/b.npy x3=%t/x3.npy w3=%t/w3.npy | FileCheck %s
// RUN: npu-run %t/m.onnx --bind w,b,w3 --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --input x3=%t/x3.npy --input w3=%t/w3.npy --output-dir %t/bound
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/bound x=%t/x.npy w=%t/w.npy b=%t/b.npy x3=%t/x3.npy w3=%t/w3.npy | FileCheck %s
// CHECK: y: match
// CHECK: y3: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/y.npy'); a[1, 33, 0, 0] += 0.001; n.save('%t/cpu/y.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy b=%t/b.npy x3=%t/x3.npy w3=%t/w3.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: y: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[2,24,1,1] x, float[40,24,1,1] w, float[40] b, float[1,8,3,3] x3, float[20,8,3,3] w3) => (float[2,40,1,1] y, float[1,20,1,1] y3) {
  y = Conv (x, w, b)
  y3 = Conv (x3, w3)
}
