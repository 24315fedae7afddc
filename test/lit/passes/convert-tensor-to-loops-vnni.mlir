// convert-tensor-to-loops on AVX-512 VNNI: a contraction of bytes in groups
// of four, `acc + extui(a[i, 4k + r]) * extsi(b[k, j, r])` with r of 4, runs as
// one `vpdpbusd` per 16 columns and k (A's four bytes broadcast as a word,
// B's 64 bytes one masked load); both bytes sign-extended, it stays the
// generic integer kernel. The numbers: npu-run/int8-vnni.mlir.
// REQUIRES: vnni
// RUN: npu-opt %s --split-input-file --convert-tensor-to-loops | FileCheck %s

// CHECK-LABEL: func.func @dot4
// CHECK: "vector.create_mask"({{.*}}) : (index) -> vector<64xi1>
// CHECK: "scf.for"
// CHECK: "vector.maskedload"(%arg1, {{.*}}) : (memref<2x20x4xi8>, index, index, index, vector<64xi1>, vector<64xi8>) -> vector<64xi8>
// CHECK: "vector.load"(%arg0, {{.*}}) : (memref<7x8xi8>, index, index) -> vector<4xi8>
// CHECK-NEXT: "vector.bitcast"({{.*}}) : (vector<4xi8>) -> vector<1xi32>
// CHECK-NEXT: "vector.broadcast"({{.*}}) : (vector<1xi32>) -> vector<16xi32>
// CHECK-NEXT: "vector.bitcast"({{.*}}) : (vector<16xi32>) -> vector<64xi8>
// CHECK-NEXT: "llvm.call_intrinsic"(%{{.*}}, %{{.*}}, %{{.*}}) <{intrin = "llvm.x86.avx512.vpdpbusd.512", op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 3, 0>}> : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK-NOT: tensor.generic
func.func @dot4(%a: memref<7x8xi8>, %b: memref<2x20x4xi8>, %o: memref<7x20xi32>) {
  "tensor.generic"(%a, %b, %o) <{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2 * 4 + d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %u = arith.extui %x : i8 to i32
    %s = arith.extsi %y : i8 to i32
    %p = arith.muli %u, %s : i32
    %r = arith.addi %acc, %p : i32
    "tensor.yield"(%r) : (i32) -> ()
  }) : (memref<7x8xi8>, memref<2x20x4xi8>, memref<7x20xi32>) -> ()
  return
}

// -----

// Both bytes signed: no vpdpbusd.
// CHECK-LABEL: func.func @signed
// CHECK-NOT: llvm.call_intrinsic
// CHECK: return
func.func @signed(%a: memref<7x8xi8>, %b: memref<2x20x4xi8>, %o: memref<7x20xi32>) {
  "tensor.generic"(%a, %b, %o) <{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2 * 4 + d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %u = arith.extsi %x : i8 to i32
    %s = arith.extsi %y : i8 to i32
    %p = arith.muli %u, %s : i32
    %r = arith.addi %acc, %p : i32
    "tensor.yield"(%r) : (i32) -> ()
  }) : (memref<7x8xi8>, memref<2x20x4xi8>, memref<7x20xi32>) -> ()
  return
}
