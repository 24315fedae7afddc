// arith round trip: custom form ↔ generic form, with upstream's default properties.
// RUN: npu-opt %s | npu-opt | FileCheck %s
// RUN: npu-opt %s --mlir-print-op-generic | npu-opt | FileCheck %s
// RUN: npu-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @ints(%arg0: i32, %arg1: i32, %arg2: index)
func.func @ints(%a: i32, %b: i32, %i: index) {
  // CHECK: arith.constant 7 : i32
  // CHECK: arith.constant -1 : i8
  // CHECK: arith.constant true
  // CHECK: arith.constant 4 : index
  // GENERIC: "arith.constant"() <{value = 7 : i32}> : () -> i32
  %c7 = arith.constant 7 : i32
  %m1 = arith.constant 255 : i8
  %t = arith.constant true
  %c4 = arith.constant 4 : index
  // CHECK: arith.addi %arg0, %arg1 : i32
  // GENERIC: "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %0 = arith.addi %a, %b : i32
  // CHECK: arith.subi %arg0, %arg1 overflow<nsw, nuw> : i32
  // GENERIC: "arith.subi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<nsw, nuw>}>
  %1 = arith.subi %a, %b overflow<nsw, nuw> : i32
  // CHECK: arith.muli
  // CHECK: arith.divsi
  // CHECK: arith.divui
  // CHECK: arith.ceildivsi
  // CHECK: arith.floordivsi
  // CHECK: arith.remsi
  // CHECK: arith.remui
  // CHECK: arith.andi
  // CHECK: arith.ori
  // CHECK: arith.xori
  // CHECK: arith.shli
  // CHECK: arith.shrsi
  // CHECK: arith.shrui
  // CHECK: arith.maxsi
  // CHECK: arith.maxui
  // CHECK: arith.minsi
  // CHECK: arith.minui
  // GENERIC: "arith.divsi"(%arg0, %arg1) : (i32, i32) -> i32
  %2 = arith.muli %a, %b : i32
  %3 = arith.divsi %a, %b : i32
  %4 = arith.divui %a, %b : i32
  %5 = arith.ceildivsi %a, %b : i32
  %6 = arith.floordivsi %a, %b : i32
  %7 = arith.remsi %a, %b : i32
  %8 = arith.remui %a, %b : i32
  %9 = arith.andi %a, %b : i32
  %10 = arith.ori %a, %b : i32
  %11 = arith.xori %a, %b : i32
  %12 = arith.shli %a, %b : i32
  %13 = arith.shrsi %a, %b : i32
  %14 = arith.shrui %a, %b : i32
  %15 = arith.maxsi %a, %b : i32
  %16 = arith.maxui %a, %b : i32
  %17 = arith.minsi %a, %b : i32
  %18 = arith.minui %a, %b : i32
  // CHECK: arith.cmpi sge, %arg0, %arg1 : i32
  // GENERIC: "arith.cmpi"(%arg0, %arg1) <{predicate = 5 : i64}> : (i32, i32) -> i1
  %19 = arith.cmpi sge, %a, %b : i32
  // CHECK: arith.select %{{.*}}, %arg0, %arg1 : i32
  %20 = arith.select %19, %a, %b : i32
  // CHECK: arith.extsi %arg0 : i32 to i64
  // CHECK: arith.extui %arg0 : i32 to i64
  // CHECK: arith.trunci %arg0 : i32 to i8
  // CHECK: arith.index_cast %arg0 : i32 to index
  // CHECK: arith.index_castui %arg2 : index to i32
  // GENERIC: "arith.trunci"(%arg0) <{overflowFlags = #arith.overflow<none>}> : (i32) -> i8
  %21 = arith.extsi %a : i32 to i64
  %22 = arith.extui %a : i32 to i64
  %23 = arith.trunci %a : i32 to i8
  %24 = arith.index_cast %a : i32 to index
  %25 = arith.index_castui %i : index to i32
  return
}

// CHECK-LABEL: func.func @floats(%arg0: f32, %arg1: f32, %arg2: f16)
func.func @floats(%x: f32, %y: f32, %h: f16) {
  // CHECK: arith.constant 1.500000e+00 : f32
  // CHECK: arith.constant 0x7FC00000 : f32
  %c = arith.constant 1.5 : f32
  %nan = arith.constant 0x7FC00000 : f32
  // CHECK: arith.addf %arg0, %arg1 : f32
  // GENERIC: "arith.addf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %0 = arith.addf %x, %y : f32
  // CHECK: arith.mulf %arg0, %arg1 fastmath<fast> : f32
  %1 = arith.mulf %x, %y fastmath<fast> : f32
  // CHECK: arith.subf
  // CHECK: arith.divf
  // CHECK: arith.remf
  // CHECK: arith.maximumf
  // CHECK: arith.minimumf
  // CHECK: arith.maxnumf
  // CHECK: arith.minnumf
  // CHECK: arith.negf %arg0 : f32
  %2 = arith.subf %x, %y : f32
  %3 = arith.divf %x, %y : f32
  %4 = arith.remf %x, %y : f32
  %5 = arith.maximumf %x, %y : f32
  %6 = arith.minimumf %x, %y : f32
  %7 = arith.maxnumf %x, %y : f32
  %8 = arith.minnumf %x, %y : f32
  %9 = arith.negf %x : f32
  // CHECK: arith.cmpf ult, %arg0, %arg1 : f32
  // GENERIC: "arith.cmpf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>, predicate = 11 : i64}> : (f32, f32) -> i1
  %10 = arith.cmpf ult, %x, %y : f32
  // CHECK: arith.extf %arg2 : f16 to f32
  // CHECK: arith.truncf %arg0 : f32 to f16
  // CHECK: arith.fptosi %arg0 : f32 to i32
  // CHECK: arith.sitofp
  // CHECK: arith.uitofp
  // CHECK: arith.fptoui
  // CHECK: arith.bitcast %arg0 : f32 to i32
  %11 = arith.extf %h : f16 to f32
  %12 = arith.truncf %x : f32 to f16
  %13 = arith.fptosi %x : f32 to i32
  %14 = arith.sitofp %13 : i32 to f32
  %15 = arith.uitofp %13 : i32 to f32
  %16 = arith.fptoui %x : f32 to i32
  %17 = arith.bitcast %x : f32 to i32
  return
}

// CHECK-LABEL: func.func @shaped(%arg0: tensor<4xf32>, %arg1: vector<4xi1>, %arg2: vector<4xf32>)
func.func @shaped(%t: tensor<4xf32>, %m: vector<4xi1>, %v: vector<4xf32>) {
  // CHECK: arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  // CHECK: arith.addf %arg0, %{{.*}} : tensor<4xf32>
  %0 = arith.addf %t, %c : tensor<4xf32>
  // CHECK: arith.cmpf olt, %arg0, %{{.*}} : tensor<4xf32>
  %1 = arith.cmpf olt, %t, %0 : tensor<4xf32>
  // CHECK: arith.select %arg1, %arg2, %arg2 : vector<4xi1>, vector<4xf32>
  %2 = arith.select %m, %v, %v : vector<4xi1>, vector<4xf32>
  return
}
