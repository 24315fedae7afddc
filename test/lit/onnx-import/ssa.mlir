// An ONNX graph names each value once: a node output that reuses the name
// of an initializer, a graph input, an earlier node's output or another
// output of its own node is an error naming the node and the value (ONNX
// Runtime refuses these models too), with a non-zero exit and no output.
// A graph input with an initializer of the same name (its default) is fine.
// RUN: rm -rf %t && split-file %s %t
// RUN: not npu-translate --import-onnx %t/initializer.onnxtext -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=INIT
// RUN: not test -e %t/out.mlir
// RUN: not npu-translate --import-onnx %t/input.onnxtext 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: not npu-translate --import-onnx %t/twice.onnxtext 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not npu-translate --import-onnx %t/own.onnxtext 2>&1 | FileCheck %s --check-prefix=OWN
// RUN: npu-translate --import-onnx %t/default.onnxtext | FileCheck %s --check-prefix=DEFAULT
// INIT: error: node 'relu' (Relu in domain 'ai.onnx', opset 17): output 'w' is already defined (a graph input, an initializer or an earlier output): an ONNX graph names each value once
// INPUT: error: node 'neg' (Neg in domain 'ai.onnx', opset 17): output 'x' is already defined
// TWICE: error: node 'second' (Neg in domain 'ai.onnx', opset 17): output 'a' is already defined
// OWN: error: node 'split' (Split in domain 'ai.onnx', opset 17): output 'p' is already defined
// DEFAULT: func.func @g

//--- initializer.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[3] x) => (float[3] y) <float[3] w = {1, 2, 3}> {
  [relu] w = Relu (x)
  y = Add (x, w)
}
//--- input.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[3] x) => (float[3] y) {
  [neg] x = Neg (x)
  y = Relu (x)
}
//--- twice.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[3] x) => (float[3] a) {
  [first] a = Relu (x)
  [second] a = Neg (x)
}
//--- own.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[4] x) => (float[2] p) {
  [split] p, p = Split <num_outputs = 2> (x)
}
//--- default.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[3] x, float[3] w) => (float[3] y) <float[3] w = {1, 2, 3}> {
  y = Add (x, w)
}
