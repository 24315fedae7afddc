// Locations of every kind parse, print with --mlir-print-debuginfo, round trip,
// and #loc aliases may be used before they are defined (as mlir-opt emits them).
// RUN: npu-opt %s --allow-unregistered-dialect --mlir-print-debuginfo | FileCheck %s
// RUN: npu-opt %s --allow-unregistered-dialect --mlir-print-debuginfo | npu-opt --allow-unregistered-dialect --mlir-print-debuginfo | FileCheck %s
// RUN: npu-opt %s --allow-unregistered-dialect | FileCheck %s --check-prefix=NODEBUG

// CHECK: "l.unknown"() : () -> () loc(unknown)
"l.unknown"() : () -> () loc(unknown)
// CHECK: "l.file"() : () -> () loc("model.onnx":3:7)
"l.file"() : () -> () loc("model.onnx":3:7)
// CHECK: "l.name"() : () -> () loc("conv1")
"l.name"() : () -> () loc("conv1")
// CHECK: "l.child"() : () -> () loc("conv1"("model.onnx":0:0))
"l.child"() : () -> () loc("conv1"("model.onnx":0:0))
// CHECK: "l.fused"() : () -> () loc(fused["a", "b":1:2])
"l.fused"() : () -> () loc(fused["a", "b":1:2])
// CHECK: "l.fusedmeta"() : () -> () loc(fused<"rewrite">["a"])
"l.fusedmeta"() : () -> () loc(fused<"rewrite">["a"])
// CHECK: "l.callsite"() : () -> () loc(callsite("callee" at "caller":4:5))
"l.callsite"() : () -> () loc(callsite("callee" at "caller":4:5))
// CHECK: "l.alias"() : () -> () loc("aliased":9:9)
"l.alias"() : () -> () loc(#loc1)
// CHECK: "l.implicit"() : () -> () loc("{{.*}}locations.mlir":[[@LINE+1]]:1)
"l.implicit"() : () -> ()
// CHECK: "l.args"() ({
// CHECK: ^bb0(%arg0: i32 loc("arg":1:1)):
"l.args"() ({
^bb0(%a: i32 loc("arg":1:1)):
  "l.end"() : () -> ()
}) : () -> ()
#loc1 = loc("aliased":9:9)

// NODEBUG-NOT: loc(
