// Sequences and optional values run on both paths and give what ONNX Runtime
// gives. A sequence input travels as its elements (`--input 's[0]=…'`), a
// sequence output as one file per element (`inserted[0].npy`, …), an empty
// sequence as `none_left[].npy` and an empty optional as no file. The model
// inserts, reads, counts, stacks, splits, erases to nothing, maps a body over
// a sequence, grows one in a Loop, and reads optional inputs given and not.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/a.npy', n.array([1, 2], dtype=n.float32)); n.save('%t/b.npy', n.array([3, -4], dtype=n.float32)); n.save('%t/x.npy', n.array([5, 6], dtype=n.float32)); n.save('%t/p.npy', n.array(1))"
// RUN: npu-run %t/m.onnx --input 's[0]=%t/a.npy' --input 's[1]=%t/b.npy' --input x=%t/x.npy --input pos=%t/p.npy --input q=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu 's[0]=%t/a.npy' 's[1]=%t/b.npy' x=%t/x.npy pos=%t/p.npy q=%t/x.npy | FileCheck %s
// RUN: npu-run %t/m.onnx --target npu --input 's[0]=%t/a.npy' --input 's[1]=%t/b.npy' --input x=%t/x.npy --input pos=%t/p.npy --input q=%t/x.npy --output-dir %t/npu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu 's[0]=%t/a.npy' 's[1]=%t/b.npy' x=%t/x.npy pos=%t/p.npy q=%t/x.npy | FileCheck %s
// CHECK: inserted[0]: match
// CHECK-NEXT: inserted[1]: match
// CHECK-NEXT: inserted[2]: match
// CHECK-NEXT: n: match
// CHECK-NEXT: last: match
// CHECK-NEXT: stacked: match
// CHECK-NEXT: parts[0]: match
// CHECK-NEXT: parts[1]: match
// CHECK-NEXT: none_left: match
// CHECK-NEXT: nothing: match
// CHECK-NEXT: has: match
// CHECK-NEXT: got: match
// CHECK-NEXT: scaled[0]: match
// CHECK-NEXT: scaled[1]: match
// CHECK-NEXT: scaled[2]: match
// CHECK-NEXT: grown[0]: match
// CHECK-NEXT: grown[1]: match
// CHECK-NEXT: grown[2]: match
// CHECK-NEXT: picked: match
// The comparison can fail: a corrupted element differs, a missing one is missed.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/grown[1].npy'); a += 1; n.save('%t/cpu/grown[1].npy', a)"
// RUN: rm '%t/cpu/scaled[2].npy'
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu 's[0]=%t/a.npy' 's[1]=%t/b.npy' x=%t/x.npy pos=%t/p.npy q=%t/x.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: scaled: differs (got 2 elements, ONNX Runtime 3)
// CORRUPT: grown[1]: differs
// A sequence input without its elements, a position past the end and an
// optional read while empty are errors naming the node.
// RUN: not npu-run %t/m.onnx --input x=%t/x.npy --input pos=%t/p.npy 2>&1 | FileCheck %s --check-prefix=NOSEQ
// NOSEQ: error: sequence input 's' needs its elements as 's[0]', 's[1]', … (or 's[]' for an empty sequence)
// RUN: not npu-run %t/m.onnx --input 's[0]=%t/a.npy' --input x=%t/x.npy --input pos=%t/p.npy 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE-DAG: OptionalGetElement{{.*}} error: cannot resolve 'onnx.OptionalGetElement' at compile time: the optional is empty (OptionalGetElement of nothing)
// RANGE-DAG: SequenceAt{{.*}} error: cannot resolve 'onnx.SequenceAt' at compile time: position 1 is out of range for a sequence of 1 tensors
// An empty sequence input is `s[]` (any file: it only says "empty"); an input
// not given is random, as for tensors; --compare reads the elements back from
// the files --output-dir wrote.
// RUN: npu-translate --import-onnx %t/e.onnxtext | npu-translate --export-onnx -o %t/e.onnx
// RUN: npu-run %t/e.onnx --input 's[]=%t/a.npy' --input x=%t/x.npy --output-dir %t/empty
// RUN: python3 %S/Inputs/match_ort.py %t/e.onnx %t/empty 's[]=%t/a.npy' x=%t/x.npy | FileCheck %s --check-prefix=EMPTY
// EMPTY: out[0]: match
// RUN: npu-run %t/e.onnx --input 's[0]=%t/a.npy' --seed 3 --output-dir %t/rand
// RUN: npu-run %t/e.onnx --input 's[0]=%t/a.npy' --seed 3 --compare %t/rand 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: out: ok
// A sequence's element names must not meet another input's name.
// RUN: npu-translate --import-onnx %t/clash.onnxtext | npu-translate --export-onnx -o %t/clash.onnx
// RUN: not npu-run %t/clash.onnx --input 's[0]=%t/a.npy' --input 's[0]=%t/a.npy' 2>&1 | FileCheck %s --check-prefix=CLASH
// CLASH: error: sequence input 's' travels as 's[0]', which is also the name of another input; rename one

//--- e.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (seq(float[2]) s, float[2] x) => (seq(float[2]) out) {
  out = SequenceInsert (s, x)
}

//--- clash.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (seq(float[2]) s, float[2] "s[0]") => (float[2] y) {
  y = Identity ("s[0]")
}

//--- m.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (seq(float[2]) s, float[2] x, int64[] pos, optional(float[2]) o, optional(float[2]) q) => (seq(float[2]) inserted, int64[] n, float[2] last, float[3,2] stacked, seq(float[2]) parts, seq(float[2]) none_left, optional(float[2]) nothing, bool[] has, float[2] got, seq(float[2]) scaled, seq(float[]) grown, float[2] picked) {
  inserted = SequenceInsert (s, x, pos)
  n = SequenceLength (inserted)
  minus1 = Constant <value = int64 {-1}> ()
  last = SequenceAt (inserted, minus1)
  stacked = ConcatFromSequence <axis = 0, new_axis = 1> (inserted)
  two = Constant <value = float[2,2] {1.0, 2.0, 3.0, 4.0}> ()
  parts = SplitToSequence <axis = 0, keepdims = 0> (two)
  zero = Constant <value = int64 {0}> ()
  one_left = SequenceErase (parts, zero)
  none_left = SequenceErase (one_left)
  nothing = Identity (o)
  has = OptionalHasElement (o)
  got = OptionalGetElement (q)
  scaled = SequenceMap (inserted) <body = mbody (float[2] e) => (float[2] e2) { e2 = Mul (e, e) }>
  empty = SequenceEmpty <dtype = 1> ()
  three = Constant <value = int64 {3}> ()
  yes = Constant <value = bool {1}> ()
  grown = Loop (three, yes, empty) <
    body = lbody (int64[] i, bool[] c, seq(float) acc) => (bool[] c2, seq(float) acc2) {
      c2 = Identity (c)
      fi = Cast <to = 1> (i)
      acc2 = SequenceInsert (acc, fi)
    }
  >
  picked = SequenceAt (s, pos)
}
