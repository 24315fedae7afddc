// A dim written as -1 (paddle2onnx writes free dims so) is a free dim, as
// ONNX Runtime reads it; any other negative dim is an error naming the input.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 -c "import onnx, onnx.helper as h; x = h.make_tensor_value_info('x', 1, [-1, 3]); y = h.make_tensor_value_info('y', 1, [-1, 3]); m = h.make_model(h.make_graph([h.make_node('Relu', ['x'], ['y'])], 'g', [x], [y]), opset_imports=[h.make_opsetid('', 17)]); onnx.save(m, '%t/m1.onnx'); x.type.tensor_type.shape.dim[0].dim_value = -2; onnx.save(h.make_model(h.make_graph([h.make_node('Relu', ['x'], ['y'])], 'g', [x], [y]), opset_imports=[h.make_opsetid('', 17)]), '%t/m2.onnx')"
// RUN: npu-translate --import-onnx %t/m1.onnx | FileCheck %s
// RUN: not npu-translate --import-onnx %t/m2.onnx 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: func.func @g(%arg0: tensor<?x3xf32> {onnx.name = "x"}) -> (tensor<?x3xf32> {onnx.name = "y"})
// BAD: error: graph input: negative dimension -2
