// If, Loop and Scan run on the CPU path (scf.if and scf.while with their
// carried values) and give what ONNX Runtime gives: an If whose branches read
// values from outside, a Loop of constant trip count that swaps its carried
// values (a Fibonacci step) and stacks a scan output, a Loop that runs until
// its condition turns false, a Scan with a state, a reversed scan input along
// axis 1 and a reversed scan output. Both branches of the If are taken, and
// the NPU path runs the same model.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/x.npy', n.arange(6, dtype=n.float32).reshape(2, 3) - 2); n.save('%t/t.npy', n.array(True)); n.save('%t/f.npy', n.array(False))"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input c=%t/t.npy --output-dir %t/then
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input c=%t/f.npy --output-dir %t/else
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/then x=%t/x.npy c=%t/t.npy | FileCheck %s
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/else x=%t/x.npy c=%t/f.npy | FileCheck %s
// On the NPU path the control flow falls back to the CPU, with the reason.
// RUN: npu-run %t/m.onnx --target npu -v --input x=%t/x.npy --input c=%t/f.npy --output-dir %t/npu | FileCheck %s --check-prefix=PLACED
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu x=%t/x.npy c=%t/f.npy | FileCheck %s
// PLACED: onnx.Loop {{.*}} [no-lowering] no NPU lowering for onnx.Loop
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/then/fib.npy'); a[0] += 1; n.save('%t/then/fib.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/then x=%t/x.npy c=%t/t.npy | FileCheck %s --check-prefix=CORRUPT
// CHECK: picked: match
// CHECK: fib: match
// CHECK: fibs: match
// CHECK: doubled: match
// CHECK: total: match
// CHECK: sums: match
// CORRUPT: fib: differs

//--- m.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[2,3] x, bool[] c) => (float[2,3] picked, float[2] fib, float[5,2] fibs, float[3] doubled, float[3] total, float[2,3] sums) {
  two = Constant <value = float[1] {2.0}> ()
  picked = If (c) <
    then_branch = t () => (float[2,3] y) { y = Add (x, two) },
    else_branch = e () => (float[2,3] y) { s = Mul (x, x) y = Neg (s) }
  >
  n = Constant <value = int64 {5}> ()
  yes = Constant <value = bool {1}> ()
  a0 = Constant <value = float[2] {0.0, 1.0}> ()
  b0 = Constant <value = float[2] {1.0, 1.0}> ()
  fib, fib_b, fibs = Loop (n, yes, a0, b0) <
    body = fibbody (int64[] i, bool[] ci, float[2] a, float[2] b) => (bool[] co, float[2] a2, float[2] b2, float[2] row) {
      co = Identity (ci)
      a2 = Identity (b)
      b2 = Add (a, b)
      row = Identity (a)
    }
  >
  big = Constant <value = int64 {100}> ()
  v0 = Constant <value = float[3] {1.0, 2.0, 3.0}> ()
  doubled = Loop (big, yes, v0) <
    body = dbody (int64[] j, bool[] cj, float[3] v) => (bool[] go, float[3] v2) {
      v2 = Add (v, v)
      m = ReduceMax <keepdims = 0> (v2)
      lim = Constant <value = float {50.0}> ()
      go = Less (m, lim)
    }
  >
  z0 = Constant <value = float[3] {0.0, 0.0, 0.0}> ()
  xt = Transpose <perm = [1, 0]> (x)
  total, sums = Scan (z0, xt) <
    num_scan_inputs = 1,
    scan_input_axes = [1],
    scan_input_directions = [1],
    scan_output_directions = [1],
    body = sbody (float[3] acc, float[3] col) => (float[3] acc2, float[3] out) {
      acc2 = Add (acc, col)
      out = Identity (acc2)
    }
  >
}
