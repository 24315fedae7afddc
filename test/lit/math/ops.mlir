// math round trip: custom form ↔ generic form (flags printed only when set:
// an absent `fastmath` is none; the integer ops have none), a predicate's i1
// result, fpowi's two types; mlir-opt prints the same custom form.
// RUN: npu-opt %s | npu-opt | FileCheck %s
// RUN: npu-opt %s --mlir-print-op-generic | npu-opt | FileCheck %s
// RUN: npu-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: npu-opt %s > %t.ours
// RUN: %llvm_tools_dir/mlir-opt %s > %t.upstream
// RUN: diff %t.ours %t.upstream
// The generic form reads back in mlir-opt as the same custom form.
// RUN: npu-opt %s --mlir-print-op-generic | %llvm_tools_dir/mlir-opt > %t.back
// RUN: diff %t.ours %t.back

// CHECK-LABEL: func.func @floats(%arg0: f32, %arg1: vector<16xf32>, %arg2: i32)
func.func @floats(%x: f32, %v: vector<16xf32>, %n: i32) -> vector<16xf32> {
  // CHECK: %[[E:.*]] = math.exp %arg0 : f32
  // GENERIC: "math.exp"(%arg0) : (f32) -> f32
  %0 = math.exp %x : f32
  // CHECK: math.tanh %arg1 fastmath<fast> : vector<16xf32>
  // GENERIC: "math.tanh"(%arg1) <{fastmath = #arith.fastmath<fast>}> : (vector<16xf32>) -> vector<16xf32>
  %1 = math.tanh %v fastmath<fast> : vector<16xf32>
  // CHECK: math.fma %arg0, %arg0, %[[E]] fastmath<nnan,ninf> : f32
  %2 = math.fma %x, %x, %0 fastmath<nnan,ninf> : f32
  // CHECK: math.powf %arg0, %[[E]] : f32
  %3 = math.powf %x, %0 : f32
  // CHECK: math.isnan %arg0 : f32
  // GENERIC: "math.isnan"(%arg0) : (f32) -> i1
  %4 = math.isnan %x : f32
  // CHECK: math.isinf %arg1 : vector<16xf32>
  // GENERIC: "math.isinf"(%arg1) : (vector<16xf32>) -> vector<16xi1>
  %5 = math.isinf %v : vector<16xf32>
  // CHECK: math.fpowi %arg0, %arg2 : f32, i32
  // GENERIC: "math.fpowi"(%arg0, %arg2) : (f32, i32) -> f32
  %6 = math.fpowi %x, %n : f32, i32
  // CHECK: math.roundeven %arg1 {tag = 1 : i64} : vector<16xf32>
  %7 = math.roundeven %v {tag = 1} : vector<16xf32>
  // CHECK: math.erf
  // CHECK: math.sqrt
  // CHECK: math.atan2
  %8 = math.erf %7 : vector<16xf32>
  %9 = math.sqrt %x : f32
  %10 = math.atan2 %x, %9 : f32
  return %8 : vector<16xf32>
}

// CHECK-LABEL: func.func @ints(%arg0: i32, %arg1: vector<4xi8>)
func.func @ints(%i: i32, %v: vector<4xi8>) -> i32 {
  // CHECK: math.absi %arg0 : i32
  // GENERIC: "math.absi"(%arg0) : (i32) -> i32
  %0 = math.absi %i : i32
  // CHECK: math.ctpop %arg1 : vector<4xi8>
  %1 = math.ctpop %v : vector<4xi8>
  // CHECK: math.ipowi %arg0, %arg0 : i32
  // GENERIC: "math.ipowi"(%arg0, %arg0) : (i32, i32) -> i32
  %2 = math.ipowi %i, %i : i32
  return %2 : i32
}
