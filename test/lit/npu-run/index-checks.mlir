// Indices out of range are refused as ONNX Runtime refuses them, naming the
// node; they used to be clamped (Gather of [3, 7, -4] into a length-3 axis
// answered [30, 30, 10]); GatherND checks each component against its dim.
// In range, negative indices count from the end.
// Indices known at compile time are checked then; code built for use outside
// npu-run (--emit=lib) aborts on a failed check.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx --mlir-print-debuginfo %t/gather.onnxtext | npu-translate --export-onnx -o %t/gather.onnx
// RUN: npu-translate --import-onnx --mlir-print-debuginfo %t/elements.onnxtext | npu-translate --export-onnx -o %t/elements.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/x.npy', n.array([10, 20, 30], n.float32)); n.save('%t/bad.npy', n.array([2, 7, -4])); n.save('%t/ok.npy', n.array([2, -1, -3])); n.save('%t/m.npy', n.arange(6, dtype=n.float32).reshape(2, 3)); n.save('%t/bad2.npy', n.array([[0, -3], [2, 3]], n.int32))"
// RUN: not npu-run %t/gather.onnx --input x=%t/x.npy --input i=%t/bad.npy --output-dir %t/no 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: not npu-run %t/gather.onnx --target npu --input x=%t/x.npy --input i=%t/bad.npy 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: python3 -c "import numpy as n; n.save('%t/min.npy', n.array([0, -2**63, 1]))"
// RUN: not npu-run %t/gather.onnx --input x=%t/x.npy --input i=%t/min.npy 2>&1 | FileCheck %s --check-prefix=MIN
// RUN: not ls %t/no
// RUN: not npu-run %t/elements.onnx --input x=%t/m.npy --input i=%t/bad2.npy 2>&1 | FileCheck %s --check-prefix=ELEMENTS
// RUN: npu-translate --import-onnx --mlir-print-debuginfo %t/nd.onnxtext | npu-translate --export-onnx -o %t/nd.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/ndbad.npy', n.array([[0, 1], [1, 3]])); n.save('%t/ndok.npy', n.array([[0, 1], [-1, -3]]))"
// RUN: not npu-run %t/nd.onnx --input x=%t/m.npy --input i=%t/ndbad.npy 2>&1 | FileCheck %s --check-prefix=ND
// RUN: npu-run %t/nd.onnx --input x=%t/m.npy --input i=%t/ndok.npy --output-dir %t/ndok
// RUN: python3 -c "import numpy as n; print(n.load('%t/ndok/y.npy').tolist())" | FileCheck %s --check-prefix=NDOK
// RUN: npu-run %t/gather.onnx --input x=%t/x.npy --input i=%t/ok.npy --output-dir %t/ok
// RUN: python3 -c "import numpy as n; print(n.load('%t/ok/y.npy').tolist())" | FileCheck %s --check-prefix=OK
// RUN: npu-translate --import-onnx --mlir-print-debuginfo %t/const.onnxtext | npu-translate --export-onnx -o %t/const.onnx
// RUN: not npu-run %t/const.onnx --input x=%t/x.npy 2>&1 | FileCheck %s --check-prefix=CONST
// RUN: npu-translate --import-onnx %t/gather.onnxtext | npu-translate --mlir-to-llvmir --emit=lib -o %t/g.so
// RUN: python3 %S/Inputs/call-gather.py %t/g.so 2,-1,-3 | FileCheck %s --check-prefix=LIB
// RUN: not --crash python3 %S/Inputs/call-gather.py %t/g.so 2,7,-4
// GATHER: error: Gather 'pick': index 7 is out of range for axis 0 of size 3; indices must be in [-3, 2]
// MIN: error: Gather 'pick': index -9223372036854775808 is out of range for axis 0 of size 3
// ELEMENTS: error: GatherElements 'ge': index 3 is out of range for axis 1 of size 3; indices must be in [-3, 2]
// ND: error: GatherND 'nd': index 3 is out of range for data dims [2, 3] (component j must be in [-dims[j], dims[j]-1])
// NDOK: [1.0, 3.0]
// OK: [30.0, 30.0, 10.0]
// CONST: error: {{.*}}Gather 'fixed': index -4 is out of range for axis 0 of size 3; indices must be in [-3, 2]
// LIB: [30.0, 30.0, 10.0]

//--- gather.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[3] x, int64[3] i) => (float[3] y) {
  [pick] y = Gather (x, i)
}
//--- elements.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[2,3] x, int32[2,2] i) => (float[2,2] y) {
  [ge] y = GatherElements <axis = 1> (x, i)
}
//--- nd.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[2,3] x, int64[2,2] i) => (float[2] y) {
  [nd] y = GatherND (x, i)
}
//--- const.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[3] x) => (float[2] y) <int64[2] i = {0, -4}> {
  [fixed] y = Gather (x, i)
}
