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

// Every other op of one float operand, each once; copysign, and the bit counts.
// CHECK-LABEL: func.func @the_rest(%arg0: f32, %arg1: vector<16xf32>, %arg2: i64)
func.func @the_rest(%x: f32, %v: vector<16xf32>, %n: i64) -> f32 {
  // CHECK: %[[R0:.*]] = math.absf %arg0 : f32
  // GENERIC: "math.absf"
  %r0 = math.absf %x : f32
  // CHECK: %[[R1:.*]] = math.acos %[[R0]] : f32
  // GENERIC: "math.acos"
  %r1 = math.acos %r0 : f32
  // CHECK: %[[R2:.*]] = math.acosh %[[R1]] : f32
  // GENERIC: "math.acosh"
  %r2 = math.acosh %r1 : f32
  // CHECK: %[[R3:.*]] = math.asin %[[R2]] : f32
  // GENERIC: "math.asin"
  %r3 = math.asin %r2 : f32
  // CHECK: math.asinh %arg1 fastmath<contract> : vector<16xf32>
  // GENERIC: "math.asinh"(%arg1) <{fastmath = #arith.fastmath<contract>}> : (vector<16xf32>) -> vector<16xf32>
  %v4 = math.asinh %v fastmath<contract> : vector<16xf32>
  // CHECK: %[[R5:.*]] = math.atan %[[R3]] : f32
  // GENERIC: "math.atan"
  %r5 = math.atan %r3 : f32
  // CHECK: %[[R6:.*]] = math.atanh %[[R5]] : f32
  // GENERIC: "math.atanh"
  %r6 = math.atanh %r5 : f32
  // CHECK: %[[R7:.*]] = math.cbrt %[[R6]] : f32
  // GENERIC: "math.cbrt"
  %r7 = math.cbrt %r6 : f32
  // CHECK: %[[R8:.*]] = math.ceil %[[R7]] : f32
  // GENERIC: "math.ceil"
  %r8 = math.ceil %r7 : f32
  // CHECK: math.cos %arg1 fastmath<contract> : vector<16xf32>
  // GENERIC: "math.cos"(%arg1) <{fastmath = #arith.fastmath<contract>}> : (vector<16xf32>) -> vector<16xf32>
  %v9 = math.cos %v fastmath<contract> : vector<16xf32>
  // CHECK: %[[R10:.*]] = math.cosh %[[R8]] : f32
  // GENERIC: "math.cosh"
  %r10 = math.cosh %r8 : f32
  // CHECK: %[[R11:.*]] = math.erfc %[[R10]] : f32
  // GENERIC: "math.erfc"
  %r11 = math.erfc %r10 : f32
  // CHECK: %[[R12:.*]] = math.exp2 %[[R11]] : f32
  // GENERIC: "math.exp2"
  %r12 = math.exp2 %r11 : f32
  // CHECK: %[[R13:.*]] = math.expm1 %[[R12]] : f32
  // GENERIC: "math.expm1"
  %r13 = math.expm1 %r12 : f32
  // CHECK: math.floor %arg1 fastmath<contract> : vector<16xf32>
  // GENERIC: "math.floor"(%arg1) <{fastmath = #arith.fastmath<contract>}> : (vector<16xf32>) -> vector<16xf32>
  %v14 = math.floor %v fastmath<contract> : vector<16xf32>
  // CHECK: %[[R15:.*]] = math.log %[[R13]] : f32
  // GENERIC: "math.log"
  %r15 = math.log %r13 : f32
  // CHECK: %[[R16:.*]] = math.log10 %[[R15]] : f32
  // GENERIC: "math.log10"
  %r16 = math.log10 %r15 : f32
  // CHECK: %[[R17:.*]] = math.log1p %[[R16]] : f32
  // GENERIC: "math.log1p"
  %r17 = math.log1p %r16 : f32
  // CHECK: %[[R18:.*]] = math.log2 %[[R17]] : f32
  // GENERIC: "math.log2"
  %r18 = math.log2 %r17 : f32
  // CHECK: math.round %arg1 fastmath<contract> : vector<16xf32>
  // GENERIC: "math.round"(%arg1) <{fastmath = #arith.fastmath<contract>}> : (vector<16xf32>) -> vector<16xf32>
  %v19 = math.round %v fastmath<contract> : vector<16xf32>
  // CHECK: %[[R20:.*]] = math.rsqrt %[[R18]] : f32
  // GENERIC: "math.rsqrt"
  %r20 = math.rsqrt %r18 : f32
  // CHECK: %[[R21:.*]] = math.sin %[[R20]] : f32
  // GENERIC: "math.sin"
  %r21 = math.sin %r20 : f32
  // CHECK: %[[R22:.*]] = math.sinh %[[R21]] : f32
  // GENERIC: "math.sinh"
  %r22 = math.sinh %r21 : f32
  // CHECK: %[[R23:.*]] = math.tan %[[R22]] : f32
  // GENERIC: "math.tan"
  %r23 = math.tan %r22 : f32
  // CHECK: math.trunc %arg1 fastmath<contract> : vector<16xf32>
  // GENERIC: "math.trunc"(%arg1) <{fastmath = #arith.fastmath<contract>}> : (vector<16xf32>) -> vector<16xf32>
  %v24 = math.trunc %v fastmath<contract> : vector<16xf32>
  // CHECK: math.copysign %[[R23]], %arg0 : f32
  %c = math.copysign %r23, %x : f32
  // CHECK: math.ctlz %arg2 : i64
  // GENERIC: "math.ctlz"(%arg2) : (i64) -> i64
  %z = math.ctlz %n : i64
  // CHECK: math.cttz %arg2 : i64
  %t = math.cttz %n : i64
  return %c : f32
}
