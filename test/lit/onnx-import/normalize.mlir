// Older opset forms are normalized on import to the newest: attributes that
// later became inputs are constant operands, Upsample is Resize.
// RUN: npu-translate --import-onnx %onnx_node/test_loop11/model.onnx | FileCheck %s --check-prefix=UNSQUEEZE
// RUN: npu-translate --import-onnx %onnx_node/test_upsample_nearest/model.onnx | FileCheck %s --check-prefix=UPSAMPLE

// Unsqueeze-11 had `axes` as an attribute:
// UNSQUEEZE: %[[AXES:.*]] = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}>
// UNSQUEEZE-NEXT: "onnx.Unsqueeze"(%arg3, %[[AXES]]) : (tensor<i64>, tensor<1xi64>)
// UNSQUEEZE-NOT: axes =

// UPSAMPLE: %[[NONE:.*]] = "onnx.NoValue"() : () -> none
// UPSAMPLE-NEXT: "onnx.Resize"(%arg0, %[[NONE]], %arg1) <{mode = "nearest"}>
