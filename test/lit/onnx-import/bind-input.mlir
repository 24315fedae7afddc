// --bind-input NAME=FILE.pb turns a graph input into a constant of a known
// value, so shapes it carries (here Resize's `sizes`) fold to static ones.
// A name that is not an input, a file that is not a tensor, or a tensor that
// disagrees with the input's declared type is an error and nothing is written.
// --list-shape-inputs names the inputs to bind: those whose values decide
// shapes, directly (Resize's sizes) or through other ops (AffineGrid's size
// through the expanded function's shape math); a model with none lists none.
// RUN: npu-translate --import-onnx %onnx_node/test_resize_upsample_sizes_nearest/model.onnx --list-shape-inputs | FileCheck %s --check-prefix=LIST --implicit-check-not=X
// RUN: npu-translate --import-onnx %onnx_node/test_affine_grid_2d_expanded/model.onnx --list-shape-inputs | FileCheck %s --check-prefix=LISTEXP --implicit-check-not=theta
// RUN: npu-translate --import-onnx %onnx_node/test_abs/model.onnx --list-shape-inputs | count 0
// RUN: npu-translate --import-onnx %onnx_node/test_resize_upsample_sizes_nearest/model.onnx --ignore-value-info --bind-input sizes=%onnx_node/test_resize_upsample_sizes_nearest/test_data_set_0/input_1.pb | npu-opt --onnx-shape-inference | FileCheck %s
// RUN: not npu-translate --import-onnx %onnx_node/test_resize_upsample_sizes_nearest/model.onnx --bind-input nope=%onnx_node/test_resize_upsample_sizes_nearest/test_data_set_0/input_1.pb 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not npu-translate --import-onnx %onnx_node/test_resize_upsample_sizes_nearest/model.onnx --bind-input sizes=%onnx_node/test_resize_upsample_sizes_nearest/model.onnx 2>&1 | FileCheck %s --check-prefix=NOTTENSOR
// RUN: not npu-translate --import-onnx %onnx_node/test_resize_upsample_sizes_nearest/model.onnx --bind-input sizes=%onnx_node/test_resize_upsample_sizes_nearest/test_data_set_0/input_0.pb 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not npu-translate --import-onnx %onnx_node/test_resize_upsample_sizes_nearest/model.onnx --bind-input sizes 2>&1 | FileCheck %s --check-prefix=SYNTAX

// CHECK: func.func @test_resize_upsample_sizes_nearest(%arg0: tensor<1x1x2x2xf32> {onnx.name = "X"}) -> (tensor<1x1x7x8xf32>
// CHECK: %[[SIZES:.*]] = "onnx.Constant"() <{value = dense<[1, 1, 7, 8]> : tensor<4xi64>}>
// CHECK: "onnx.Resize"(%arg0, %{{.*}}, %{{.*}}, %[[SIZES]]){{.*}} -> tensor<1x1x7x8xf32>
// NAME: error: --bind-input: the graph has no input 'nope' (its inputs: X, sizes)
// NOTTENSOR: error: --bind-input sizes: '{{.*}}model.onnx': not a valid ONNX tensor
// TYPE: error: --bind-input: input 'sizes' is declared with element type 7 but the tensor has 1
// SYNTAX: error: --bind-input expects NAME=FILE.pb, got 'sizes'
// LIST: {{^}}sizes{{$}}
// LISTEXP: {{^}}size{{$}}
