// Bad models: a clear error and a non-zero exit, never a panic, no output file.
// RUN: head -c 60 %onnx_node/test_conv_with_strides_padding/model.onnx > %t.trunc
// RUN: not npu-translate --import-onnx %t.trunc -o %t.out 2>&1 | FileCheck %s --check-prefix=TRUNC
// RUN: not test -e %t.out
// RUN: not npu-translate --import-onnx %s 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: not npu-translate --import-onnx %t.missing 2>&1 | FileCheck %s --check-prefix=MISSING

// TRUNC: error: not a valid ONNX model
// TEXT: error: not a valid ONNX model
// MISSING: error: could not read
