// The llvm dialect ops the loop level emits round-trip in generic form, and
// MLIR's translation takes them: vpdpbusd by name through llvm.call_intrinsic.
// RUN: npu-opt %s | FileCheck %s
// RUN: npu-opt %s | mlir-opt --convert-vector-to-llvm --convert-func-to-llvm | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM
// CHECK-LABEL: func.func @dot4
// CHECK: "llvm.call_intrinsic"(%arg0, %arg1, %arg2) <{intrin = "llvm.x86.avx512.vpdpbusd.512", op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 3, 0>}> : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: "vector.bitcast"
// LLVM: call <16 x i32> @llvm.x86.avx512.vpdpbusd.512(<16 x i32> %{{.*}}, <64 x i8> %{{.*}}, <64 x i8> %{{.*}})
func.func @dot4(%acc: vector<16xi32>, %a: vector<64xi8>, %b: vector<64xi8>) -> vector<16xi32> {
  %r = "llvm.call_intrinsic"(%acc, %a, %b) <{intrin = "llvm.x86.avx512.vpdpbusd.512", op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 3, 0>}> : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
  %c = "vector.bitcast"(%r) : (vector<16xi32>) -> vector<64xi8>
  %d = "vector.bitcast"(%c) : (vector<64xi8>) -> vector<16xi32>
  return %d : vector<16xi32>
}
