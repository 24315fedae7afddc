// The CPU path's integer products against ONNX Runtime, bit for bit: a
// MatMulInteger as dynamic quantization writes it (u8 activations with a zero
// point, s8 weights) at 20 rows (B's panels copied, a row tail) and at one row
// (a GEMV reading B in place), a ConvInteger with both zero points, and
// elementwise integer ops on 16 lanes (an i8 Add, an i32 Mul with a
// broadcast) beside an i32 Div, which stays scalar.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(7); u = lambda *s: r.integers(0, 256, s).astype(n.uint8); i = lambda *s: r.integers(-128, 128, s).astype(n.int8); q = lambda *s: r.integers(-1000, 1000, s).astype(n.int32); [n.save('%t/' + k + '.npy', v) for k, v in dict(a=u(20, 37), v=u(1, 37), b=i(37, 50), x=u(1, 5, 9, 11), w=i(12, 5, 3, 3), p=i(3, 40), s=i(3, 40), m=q(3, 40), d=q(1, 40), e=r.integers(1, 50, (3, 40)).astype(n.int32)).items()]"
// RUN: npu-run %t/m.onnx --input a=%t/a.npy --input v=%t/v.npy --input b=%t/b.npy --input x=%t/x.npy --input w=%t/w.npy --input p=%t/p.npy --input s=%t/s.npy --input m=%t/m.npy --input d=%t/d.npy --input e=%t/e.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu a=%t/a.npy v=%t/v.npy b=%t/b.npy x=%t/x.npy w=%t/w.npy p=%t/p.npy s=%t/s.npy m=%t/m.npy d=%t/d.npy e=%t/e.npy | FileCheck %s
// CHECK: mm: match
// CHECK: gemv: match
// CHECK: conv: match
// CHECK: sum: match
// CHECK: prod: match
// CHECK: quot: match
// The comparison can fail: an integer off by one differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/mm.npy'); a[19, 49] += 1; n.save('%t/cpu/mm.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu a=%t/a.npy v=%t/v.npy b=%t/b.npy x=%t/x.npy w=%t/w.npy p=%t/p.npy s=%t/s.npy m=%t/m.npy d=%t/d.npy e=%t/e.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: mm: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 14]>
g (uint8[20,37] a, uint8[1,37] v, int8[37,50] b, uint8[1,5,9,11] x, int8[12,5,3,3] w, int8[3,40] p, int8[3,40] s, int32[3,40] m, int32[1,40] d, int32[3,40] e) => (int32[20,50] mm, int32[1,50] gemv, int32[1,12,9,11] conv, int8[3,40] sum, int32[3,40] prod, int32[3,40] quot) {
  za = Constant <value = uint8 {131}> ()
  zw = Constant <value = int8 {-3}> ()
  mm = MatMulInteger (a, b, za)
  gemv = MatMulInteger (v, b, za)
  conv = ConvInteger <pads = [1, 1, 1, 1]> (x, w, za, zw)
  sum = Add (p, s)
  prod = Mul (m, d)
  quot = Div (m, e)
}
