// npu-partition: each op asks the backends of a list in order and goes to the
// first that takes it (the CPU last); runs of one backend become functions
// called in order; ops that fell back carry their reason code and message;
// the report and the partition graph.
// RUN: npu-opt %s --pass-pipeline='builtin.module(npu-partition{report=%t.report dot=%t.dot})' | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.report
// RUN: FileCheck %s --check-prefix=DOT < %t.dot
// npu-opt's reporting flags set the same options.
// RUN: npu-opt %s --npu-partition --show-cpu-operations --dump-partitions=%t.dot2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --check-prefix=DOT < %t.dot2
// RUN: npu-opt %s --pass-pipeline='builtin.module(npu-partition, convert-onnx-to-npu)' --show-cpu-operations -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not npu-opt %s --cse --show-cpu-operations 2>&1 | FileCheck %s --check-prefix=NOPART
// NOPART: npu-opt: error: --show-cpu-operations and --dump-partitions report what npu-partition decides; add it to the pipeline
// An explicit list: the same as the default, or the CPU alone.
// RUN: npu-opt %s --pass-pipeline='builtin.module(npu-partition{targets=npu16,cpu report=-})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: npu-opt %s --pass-pipeline='builtin.module(npu-partition{targets=cpu report=-})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPUONLY
// CPUONLY: cpu: 5 ops (100.0%) in 1 partitions
// RUN: not npu-opt %s --pass-pipeline='builtin.module(npu-partition{targets=acme,cpu})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown backend 'acme'; registered: cpu, npu16
// Placement files: a node by name or a regex forced onto a backend (the CPU here); bad files are errors naming the line.
// RUN: printf 'c1 cpu  # by name\n/relu.*/ npu16\n' > %t.place
// RUN: npu-opt %s --pass-pipeline='builtin.module(npu-partition{placement=%t.place report=-})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLACE
// PLACE: CPU operations (3 of 5):
// PLACE-DAG: onnx.Conv "c1" [placement] placed on cpu by {{.*}}.place:1
// PLACE-DAG: onnx.Relu "r1" [fusion] runs only together with c1, which is not placed on npu16
// PLACE: npu16: 2 ops (40.0%) in 1 partitions; cpu: 3 ops (60.0%) in 1 partitions
// RUN: printf 'nosuchnode cpu\n' > %t.none
// RUN: not npu-opt %s --pass-pipeline='builtin.module(npu-partition{placement=%t.none})' 2>&1 | FileCheck %s --check-prefix=NONODE
// NONODE: error: {{.*}}.none:1: names no node of the model
// RUN: printf 'c1 acme\n' > %t.other
// RUN: not npu-opt %s --pass-pipeline='builtin.module(npu-partition{placement=%t.other})' 2>&1 | FileCheck %s --check-prefix=NOTLISTED
// NOTLISTED: error: {{.*}}.other:1: backend 'acme' is not in the target list (npu16,cpu)
// RUN: printf 'c1\n' > %t.bad
// RUN: not npu-opt %s --pass-pipeline='builtin.module(npu-partition{placement=%t.bad})' 2>&1 | FileCheck %s --check-prefix=BADLINE
// BADLINE: error: {{.*}}.bad:1: expected 'NODE BACKEND' or '/REGEX/ BACKEND', got 'c1'
// RUN: printf '/c[/ cpu\n' > %t.re
// RUN: not npu-opt %s --pass-pipeline='builtin.module(npu-partition{placement=%t.re})' 2>&1 | FileCheck %s --check-prefix=BADRE
// BADRE: error: {{.*}}.re:1: bad regular expression
// RUN: not npu-opt %s --pass-pipeline='builtin.module(npu-partition{targets=cpu,npu16})' 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: error: 'cpu' must come last: it is the fallback of every backend before it

// The NPU ops before and after the Softmax, which waits on the first, form
// two partitions; the Relu after the Softmax cannot fuse into it and runs
// alone on the vector unit, before the second Conv.
// CHECK-LABEL: func.func private @g_npu16_0(%arg0: tensor<1x4x6x6xf32>) -> tensor<1x8x6x6xf32> attributes {backend.partition = "npu16"}
// CHECK: "onnx.Constant"
// CHECK: "onnx.Conv"
// CHECK: "onnx.Relu"
// CHECK-LABEL: func.func private @g_cpu0
// CHECK-SAME: backend.partition = "cpu"
// CHECK: "onnx.Softmax"{{.*}}{backend.reason = "axis 1 of a rank-4 input (over the innermost dim only)", backend.reason_code = "attribute"}
// CHECK-NOT: "onnx.Relu"
// CHECK-LABEL: func.func private @g_npu16_1
// CHECK: "onnx.Relu"
// CHECK: "onnx.Conv"
// CHECK-LABEL: func.func @g(
// CHECK: %[[A:.*]] = call @g_npu16_0(%arg0)
// CHECK: %[[B:.*]] = call @g_cpu0(%[[A]])
// CHECK: %[[C:.*]] = call @g_npu16_1(%[[B]])
// CHECK: return %[[C]]

// REPORT: CPU operations (1 of 5):
// REPORT-NEXT: onnx.Softmax "sm" [attribute] axis 1 of a rank-4 input (over the innermost dim only)
// REPORT-NEXT: npu16: 4 ops (80.0%) in 2 partitions; cpu: 1 ops (20.0%) in 1 partitions

// DOT: digraph partitions {
// DOT: subgraph cluster_0 {
// DOT: label="g_npu16_0";
// DOT: [label="c1\nonnx.Conv", fillcolor=palegreen];
// DOT: [label="sm\nonnx.Softmax", fillcolor=lightsalmon, tooltip="[attribute] axis 1 of a rank-4 input (over the innermost dim only)"];
// DOT: n0 -> n1;

func.func @g(%x: tensor<1x4x6x6xf32>) -> tensor<1x8x6x6xf32> {
  %w = "onnx.Constant"() <{value = dense<0.5> : tensor<8x4x3x3xf32>}> : () -> tensor<8x4x3x3xf32>
  %w2 = "onnx.Constant"() <{value = dense<0.25> : tensor<8x8x1x1xf32>}> : () -> tensor<8x8x1x1xf32>
  %0 = "onnx.Conv"(%x, %w) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x4x6x6xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32> loc("c1")
  %1 = "onnx.Relu"(%0) : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> loc("r1")
  %2 = "onnx.Softmax"(%1) <{axis = 1 : i64}> : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> loc("sm")
  %3 = "onnx.Relu"(%2) : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> loc("relu_after_softmax")
  %4 = "onnx.Conv"(%3, %w2) <{kernel_shape = array<i64: 1, 1>}> : (tensor<1x8x6x6xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x6x6xf32> loc("c2")
  return %4 : tensor<1x8x6x6xf32>
}
