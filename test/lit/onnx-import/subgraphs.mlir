// Subgraphs (If, Loop) become regions ending in onnx.Yield; subgraph inputs are
// block arguments and outer values stay visible. If's then region comes first
// (test_if's then_branch yields 1..5, its else_branch 5..1).
// RUN: npu-translate --import-onnx %onnx_node/test_if/model.onnx | FileCheck %s --check-prefix=IF
// RUN: npu-translate --import-onnx %onnx_node/test_loop11/model.onnx | FileCheck %s --check-prefix=LOOP

// IF: %[[R:.*]] = "onnx.If"(%arg0) ({
// IF-NEXT: "onnx.Constant"() <{value = dense<[1.000000e+00, 2.000000e+00
// IF-NEXT: "onnx.Yield"
// IF-NEXT: }, {
// IF-NEXT: "onnx.Constant"() <{value = dense<[5.000000e+00, 4.000000e+00
// IF: return %[[R]] : tensor<5xf32>

// LOOP: %{{.*}}:2 = "onnx.Loop"(%arg0, %arg1, %arg2) ({
// LOOP-NEXT: ^bb0(%arg3: tensor<i64>, %arg4: tensor<i1>, %arg5: tensor<1xf32>):
// LOOP: "onnx.Yield"
