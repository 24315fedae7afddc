// Operators of other domains import with their domain in the op name
// (`onnx.ms.QLinearAdd`, `onnx.ml.Binarizer`; com.microsoft reuses default-
// domain names) and each imported domain's version on the function; the export
// writes them back with their domain and imports only the domains it uses (a
// model of ai.onnx.ml alone imports no default opset). A domain we have no
// table for, or a node of a domain the model does not import, is an error.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/ms.onnxtext | FileCheck %s
// RUN: npu-translate --import-onnx %t/ms.onnxtext | npu-translate --export-onnx -o %t/ms.onnx
// RUN: npu-translate --import-onnx %t/ms.onnx | FileCheck %s
// RUN: python3 -c "import onnx; m = onnx.load('%t/ms.onnx'); print(sorted((o.domain, o.version) for o in m.opset_import), [(n.domain, n.op_type) for n in m.graph.node if n.domain])" | FileCheck %s --check-prefix=PROTO
// RUN: npu-translate --import-onnx %t/ml.onnxtext | npu-translate --export-onnx -o %t/ml.onnx
// RUN: python3 -c "import onnx; m = onnx.load('%t/ml.onnx'); print(sorted((o.domain, o.version) for o in m.opset_import))" | FileCheck %s --check-prefix=MLONLY
// RUN: not npu-translate --import-onnx %t/unknown.onnxtext 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not npu-translate --import-onnx %t/unimported.onnxtext 2>&1 | FileCheck %s --check-prefix=UNIMPORTED
// RUN: not npu-translate --import-onnx %t/nodefault.onnxtext 2>&1 | FileCheck %s --check-prefix=NODEFAULT

// CHECK: attributes {onnx.opset = 13 : i64, onnx.opset.ai.onnx.ml = 3 : i64, onnx.opset.com.microsoft = 1 : i64
// CHECK: "onnx.ms.QLinearAdd"
// CHECK: "onnx.ml.Binarizer"({{.*}}) <{threshold = 5.000000e-01 : f32}>
// PROTO: [('', 13), ('ai.onnx.ml', 3), ('com.microsoft', 1)] [('com.microsoft', 'QLinearAdd'), ('ai.onnx.ml', 'Binarizer')]
// MLONLY: [('ai.onnx.ml', 1)]
// UNKNOWN: error: node 'n' (Frob in domain 'com.example'): unsupported domain (operators are known for ai.onnx, ai.onnx.ml, ai.onnx.preview.training, ai.onnx.preview, com.microsoft)
// UNIMPORTED: error: node 'n' (QLinearAdd in domain 'com.microsoft'): the model imports no opset of this domain
// NODEFAULT: error: node 'n' (Relu in domain 'ai.onnx'): the model imports no opset of this domain

//--- ms.onnxtext
<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1, "ai.onnx.ml" : 3]>
g (float[1,4] a, float[1,4] b) => (float[1,4] y, float[1,4] t) {
  aq, as, az = DynamicQuantizeLinear(a)
  bq, bs, bz = DynamicQuantizeLinear(b)
  ys = Constant<value = float {0.05}>()
  yz = Constant<value = uint8 {128}>()
  yq = com.microsoft.QLinearAdd(aq, as, az, bq, bs, bz, ys, yz)
  y = DequantizeLinear(yq, ys, yz)
  t = ai.onnx.ml.Binarizer<threshold = 0.5>(y)
}

//--- ml.onnxtext
<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[1,4] a) => (float[1,4] t) {
  t = ai.onnx.ml.Binarizer<threshold = 0.5>(a)
}

//--- unknown.onnxtext
<ir_version: 8, opset_import: ["" : 13, "com.example" : 1]>
g (float[1,4] a) => (float[1,4] t) {
  [n] t = com.example.Frob(a)
}

//--- unimported.onnxtext
<ir_version: 8, opset_import: ["" : 13]>
g (uint8[1,4] a, float s, uint8 z) => (uint8[1,4] t) {
  [n] t = com.microsoft.QLinearAdd(a, s, z, a, s, z, s, z)
}

//--- nodefault.onnxtext
<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[1,4] a) => (float[1,4] t) {
  [n] t = Relu(a)
}
