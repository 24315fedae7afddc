// The CPU path on threads: large loop nests (a product, a convolution, a
// vectorized elementwise op) split their outer loop over `--threads`; the
// outputs match ONNX Runtime and are the same bits on one thread and on three.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: npu-translate --import-onnx %t/m.onnx --emit=loops | FileCheck %s --check-prefix=LOOPS
// LOOPS-COUNT-3: ["npu-parallel", "{{[0-9]+}}"]
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(3); f = lambda *s: (0.1 * r.standard_normal(s)).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(a=f(300, 512), b=f(512, 200), x=f(1, 16, 66, 66), w=f(32, 16, 3, 3), s=f(1, 64, 160, 160)).items()]"
// RUN: npu-run %t/m.onnx --threads 1 --input a=%t/a.npy --input b=%t/b.npy --input x=%t/x.npy --input w=%t/w.npy --input s=%t/s.npy --output-dir %t/one
// RUN: npu-run %t/m.onnx --threads 3 --input a=%t/a.npy --input b=%t/b.npy --input x=%t/x.npy --input w=%t/w.npy --input s=%t/s.npy --output-dir %t/three
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/three a=%t/a.npy b=%t/b.npy x=%t/x.npy w=%t/w.npy s=%t/s.npy | FileCheck %s
// CHECK: mm: match
// CHECK: conv: match
// CHECK: sig: match
// RUN: python3 -c "import numpy as n; print(*[k + (': same' if n.array_equal(n.load('%t/one/' + k + '.npy'), n.load('%t/three/' + k + '.npy')) else ': differs') for k in ('mm', 'conv', 'sig')])" | FileCheck %s --check-prefix=SAME
// SAME: mm: same conv: same sig: same
// The comparison can fail: one changed bit differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/three/conv.npy'); a.flat[12345] = n.nextafter(a.flat[12345], n.float32(10)); n.save('%t/three/conv.npy', a)"
// RUN: python3 -c "import numpy as n; print(*[k + (': same' if n.array_equal(n.load('%t/one/' + k + '.npy'), n.load('%t/three/' + k + '.npy')) else ': differs') for k in ('mm', 'conv', 'sig')])" | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: mm: same conv: differs sig: same
// A thread count of 0 is refused.
// RUN: not npu-run %t/m.onnx --threads 0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: invalid value '0' for '--threads <THREADS>'

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[300,512] a, float[512,200] b, float[1,16,66,66] x, float[32,16,3,3] w, float[1,64,160,160] s) => (float[300,200] mm, float[1,32,64,64] conv, float[1,64,160,160] sig) {
  mm = MatMul (a, b)
  conv = Conv <kernel_shape = [3, 3]> (x, w)
  sig = Sigmoid (s)
}
