// Pow with a constant exponent of 2 is x·x (as ONNX Runtime computes it),
// vectorized, not a call of powf per element; an exponent of 3, or one given
// at run time, still calls powf. Against ONNX Runtime over signed zeros,
// infinities, NaN, subnormals and values whose square overflows.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(2); x = r.standard_normal(64).astype(n.float32) * n.float32(1e3); x[:8] = [0.0, -0.0, n.inf, -n.inf, n.nan, 1e-40, -3e19, 2e19]; n.save('%t/x.npy', x); n.save('%t/e.npy', n.full(64, 2.0, n.float32))"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input e=%t/e.npy --output-dir %t/out
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/out x=%t/x.npy e=%t/e.npy | FileCheck %s
// CHECK: s: match
// CHECK: c: match
// CHECK: d: match
// The square is x·x in f32 bit for bit (NaN as NaN), and the comparison can
// fail: a square one ulp off differs.
// RUN: python3 -c "import numpy as n; x = n.load('%t/x.npy'); print('square:', 'exact' if n.array_equal((x * x).view(n.uint32), n.load('%t/out/s.npy').view(n.uint32)) else 'differs')" | FileCheck %s --check-prefix=EXACT
// EXACT: square: exact
// RUN: python3 -c "import numpy as n; a = n.load('%t/out/s.npy'); a[9] = n.nextafter(a[9], n.float32(n.inf)); n.save('%t/out/s.npy', a)"
// RUN: python3 -c "import numpy as n; x = n.load('%t/x.npy'); print('square:', 'exact' if n.array_equal((x * x).view(n.uint32), n.load('%t/out/s.npy').view(n.uint32)) else 'differs')" | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: square: differs
// The square a vector times itself; powf for the cube and the run-time
// exponent (nests of one shape share a function: the square as powf would
// share the cube's).
// RUN: npu-translate --import-onnx %t/m.onnx --emit loops | FileCheck %s --check-prefix=LOOPS
// LOOPS: arith.mulf %[[X:[0-9]+]], %[[X]] : vector<16xf32>
// LOOPS-COUNT-2: math.powf
// LOOPS-NOT: math.powf

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[64] x, float[64] e) => (float[64] s, float[64] c, float[64] d) {
  two = Constant <value = float {2.0}> ()
  three = Constant <value = float {3.0}> ()
  s = Pow (x, two)
  c = Pow (x, three)
  d = Pow (x, e)
}
