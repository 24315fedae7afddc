// Loops that are bad input: a trip count of 10^12 without scan outputs stops
// at --max-loop-iterations with an error naming the node and a non-zero exit
// (on both paths), and a loop of exactly the limit runs; with a scan output
// the 10^12 rows are refused at compile time by the tensor limit; a negative
// trip count runs no iteration and gives an empty scan output, as ONNX Runtime.
// RUN: rm -rf %t && split-file %s %t
// RUN: sed 's/TRIPS/1000000000000/' %t/loop.onnxtext > %t/huge.onnxtext
// RUN: sed 's/TRIPS/1000/' %t/loop.onnxtext > %t/thousand.onnxtext
// RUN: sed 's/TRIPS/1000000000000/' %t/scan.onnxtext > %t/huge-scan.onnxtext
// RUN: sed 's/TRIPS/-3/' %t/scan.onnxtext > %t/negative.onnxtext
// RUN: npu-translate --import-onnx %t/huge.onnxtext | npu-translate --export-onnx -o %t/huge.onnx
// RUN: npu-translate --import-onnx %t/thousand.onnxtext | npu-translate --export-onnx -o %t/thousand.onnx
// RUN: npu-translate --import-onnx %t/huge-scan.onnxtext | npu-translate --export-onnx -o %t/huge-scan.onnx
// RUN: npu-translate --import-onnx %t/negative.onnxtext | npu-translate --export-onnx -o %t/negative.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/x.npy', n.ones(2, n.float32))"
// RUN: not npu-run %t/huge.onnx --input x=%t/x.npy --max-loop-iterations 1000 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: not npu-run %t/huge.onnx --target npu16,cpu --input x=%t/x.npy --max-loop-iterations 1000 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: npu-run %t/thousand.onnx --input x=%t/x.npy --max-loop-iterations 1000 --output-dir %t/thousand
// RUN: python3 %S/Inputs/match_ort.py %t/thousand.onnx %t/thousand x=%t/x.npy | FileCheck %s --check-prefix=MATCH
// RUN: not npu-run %t/huge-scan.onnx --input x=%t/x.npy 2>&1 | FileCheck %s --check-prefix=TOOBIG
// RUN: npu-run %t/negative.onnx --input x=%t/x.npy --output-dir %t/negative
// RUN: python3 %S/Inputs/match_ort.py %t/negative.onnx %t/negative x=%t/x.npy | FileCheck %s --check-prefix=NEG
// LIMIT: error: Loop 'Loop#2': ran 1000 iterations and would run more (a loop that does not end?); raise the limit
// MATCH: y: match
// TOOBIG: error: node 'Loop#2' (onnx.Loop) computes a tensor of type tensor<1000000000000x2xf32>
// NEG: y: match
// NEG: s: match

//--- loop.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x) => (float[2] y) {
  n = Constant <value = int64 {TRIPS}> ()
  t = Constant <value = bool {1}> ()
  y = Loop (n, t, x) <
    body = b (int64[] i, bool[] c, float[2] a) => (bool[] co, float[2] a2) {
      co = Identity (c)
      h = Constant <value = float {0.5}> ()
      a2 = Mul (a, h)
    }
  >
}

//--- scan.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x) => (float[2] y, float[?,2] s) {
  n = Constant <value = int64 {TRIPS}> ()
  t = Constant <value = bool {1}> ()
  y, s = Loop (n, t, x) <
    body = b (int64[] i, bool[] c, float[2] a) => (bool[] co, float[2] a2, float[2] r) {
      co = Identity (c)
      a2 = Add (a, a)
      r = Identity (a)
    }
  >
}
