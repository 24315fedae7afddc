// `npu-run onnx-tests`: exact test names, a time limit per test, the slowest
// tests, per-test times in the report; and narrow floats compared bit for bit
// (a flipped bit of an 8-bit float output is a mismatch, not NaN == NaN) and
// written to .npy as their exact float32 values.
// RUN: rm -rf %t && mkdir -p %t
// RUN: npu-run onnx-tests %onnx_node --test test_abs --test test_cast_FLOAT_to_FLOAT8E4M3FN --report %t/report.md 2>%t/progress | FileCheck %s --check-prefix=PASS
// PASS: slowest: test_{{abs|cast_FLOAT_to_FLOAT8E4M3FN}} {{[0-9.]+}}s, test_{{abs|cast_FLOAT_to_FLOAT8E4M3FN}} {{[0-9.]+}}s
// PASS-NEXT: 2 passed, 0 failed
// RUN: FileCheck %s --check-prefix=PROGRESS < %t/progress
// PROGRESS: [2/2] test_{{.*}} (0 failed so far)
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.md
// REPORT: | Abs | 1 | 1 | 100% |
// REPORT: | test | outcome | seconds |
// REPORT: | test_abs | pass | {{[0-9.]+}} |
// REPORT: | test_cast_FLOAT_to_FLOAT8E4M3FN | pass | {{[0-9.]+}} |
// RUN: not npu-run onnx-tests %onnx_node --test test_abs --timeout 0 2>/dev/null | FileCheck %s --check-prefix=TIMEOUT
// TIMEOUT: ERROR test_abs: timeout: still running after 0 s
// TIMEOUT: 0 passed, 1 failed
// RUN: not npu-run onnx-tests %onnx_node --test test_no_such_test 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: npu-run: error: no node test named 'test_no_such_test' in
//
// RUN: npu-run %onnx_node/test_cast_FLOAT_to_FLOAT8E4M3FN/model.onnx --test-data %onnx_node/test_cast_FLOAT_to_FLOAT8E4M3FN/test_data_set_0 --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=F8
// F8: output: ok
// RUN: python3 -c "import numpy as n; a = n.load('%t/out/output.npy'); print(a.dtype, a.ravel()[6], a.ravel()[8], a.ravel()[11])" | FileCheck %s --check-prefix=NPY
// NPY: float32 448.0 nan -448.0
// RUN: python3 -c "import onnx; t = onnx.load_tensor('%onnx_node/test_cast_FLOAT_to_FLOAT8E4M3FN/test_data_set_0/output_0.pb'); b = bytearray(t.raw_data); b[0] ^= 1; t.raw_data = bytes(b); onnx.save_tensor(t, '%t/output_0.pb')"
// RUN: not npu-run %onnx_node/test_cast_FLOAT_to_FLOAT8E4M3FN/model.onnx --input input=%onnx_node/test_cast_FLOAT_to_FLOAT8E4M3FN/test_data_set_0/input_0.pb --compare %t 2>&1 | FileCheck %s --check-prefix=FLIP
// FLIP: output: MISMATCH: 1 of 15 elements differ bit for bit; first at 0: 0.46875 (0x2f) vs expected 0.4375 (0x2e)
// What --output-dir writes (8-bit floats widened to float32) reads back through --compare.
// RUN: npu-run %onnx_node/test_cast_FLOAT_to_FLOAT8E4M3FN/model.onnx --input input=%onnx_node/test_cast_FLOAT_to_FLOAT8E4M3FN/test_data_set_0/input_0.pb --compare %t/out 2>&1 | FileCheck %s --check-prefix=BACK
// BACK: output: ok
