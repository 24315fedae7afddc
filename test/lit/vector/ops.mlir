// vector ops as upstream MLIR writes them (generic form: ours has no custom
// form for vector yet): every op verifies, prints back the same, and mlir-opt
// reads our output and prints what we read back to the same module.
// RUN: npu-opt %s --mlir-print-op-generic > %t.ours
// RUN: npu-opt %t.ours --mlir-print-op-generic | diff %t.ours -
// RUN: %llvm_tools_dir/mlir-opt %t.ours --mlir-print-op-generic | npu-opt --mlir-print-op-generic | diff %t.ours -
// RUN: FileCheck %s --input-file %t.ours
// CHECK: "vector.load"(%arg0, %arg2) : (memref<64xf32>, index) -> vector<16xf32>
// CHECK: "vector.store"
// CHECK: "vector.create_mask"(%arg3) : (index) -> vector<16xi1>
// CHECK: "vector.broadcast"(%arg4) : (f32) -> vector<16xf32>
// CHECK: "vector.maskedload"
// CHECK: "vector.maskedstore"
// CHECK: "vector.fma"
// CHECK: "vector.shuffle"{{.*}}mask = array<i64: 0, 2, 4
// CHECK: "vector.reduction"{{.*}}kind = #vector.kind<add>
// CHECK: "vector.bitcast"{{.*}}(vector<4xi8>) -> vector<1xi32>
// CHECK: "vector.gather"

"builtin.module"() ({
  "func.func"() <{function_type = (memref<64xf32>, memref<64xi8>, index, index, f32) -> f32, sym_name = "vectors"}> ({
  ^bb0(%arg0: memref<64xf32>, %arg1: memref<64xi8>, %arg2: index, %arg3: index, %arg4: f32):
    %0 = "vector.load"(%arg0, %arg2) : (memref<64xf32>, index) -> vector<16xf32>
    "vector.store"(%0, %arg0, %arg2) : (vector<16xf32>, memref<64xf32>, index) -> ()
    %1 = "vector.create_mask"(%arg3) : (index) -> vector<16xi1>
    %2 = "vector.broadcast"(%arg4) : (f32) -> vector<16xf32>
    %3 = "vector.maskedload"(%arg0, %arg2, %1, %2) : (memref<64xf32>, index, vector<16xi1>, vector<16xf32>) -> vector<16xf32>
    "vector.maskedstore"(%arg0, %arg2, %1, %3) : (memref<64xf32>, index, vector<16xi1>, vector<16xf32>) -> ()
    %4 = "vector.fma"(%0, %3, %2) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
    %5 = "vector.shuffle"(%4, %4) <{mask = array<i64: 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30>}> : (vector<16xf32>, vector<16xf32>) -> vector<16xf32>
    %6 = "vector.reduction"(%5) <{fastmath = #arith.fastmath<none>, kind = #vector.kind<add>}> : (vector<16xf32>) -> f32
    %7 = "vector.load"(%arg1, %arg2) : (memref<64xi8>, index) -> vector<4xi8>
    %8 = "vector.bitcast"(%7) : (vector<4xi8>) -> vector<1xi32>
    %9 = "vector.broadcast"(%arg2) : (index) -> vector<16xindex>
    %10 = "vector.gather"(%arg0, %arg2, %9, %1, %2) : (memref<64xf32>, index, vector<16xindex>, vector<16xi1>, vector<16xf32>) -> vector<16xf32>
    "func.return"(%6) : (f32) -> ()
  }) : () -> ()
}) : () -> ()
