// A graph output that is an initializer keeps its own type when the model
// declares it with a symbolic dim or no shape; the declaration is kept as onnx.declared_type. A declaration of
// another element type is an error naming the output.
// RUN: split-file %s %t
// RUN: npu-translate --import-onnx %t/symbolic.onnxtext | FileCheck %s
// RUN: npu-translate --import-onnx %t/symbolic.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/x.npy', n.ones(2, n.float32))"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --output-dir %t/out
// RUN: python3 -c "import numpy as n; print(n.load('%t/out/w.npy').tolist())" | FileCheck %s --check-prefix=VALUES
// RUN: not npu-translate --import-onnx %t/elem.onnxtext 2>&1 | FileCheck %s --check-prefix=ELEM

// CHECK: func.func @g(%arg0: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"}, tensor<3xf32> {onnx.declared_type = tensor<?xf32>, onnx.dims = ["N"], onnx.name = "w"})
// VALUES: [1.0, 2.0, 3.0]
// ELEM: error: graph output 'w' is declared as tensor<3xi64> but its value is tensor<3xf32>

//--- symbolic.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x) => (float[2] y, float[N] w) <float[3] w = {1, 2, 3}> {
  y = Identity (x)
}
//--- elem.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x) => (float[2] y, int64[3] w) <float[3] w = {1, 2, 3}> {
  y = Identity (x)
}
