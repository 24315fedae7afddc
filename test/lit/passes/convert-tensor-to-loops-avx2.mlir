// convert-tensor-to-loops shapes its register tiles for the host
// (`NPU_CPU_TARGET` pins it; convert-tensor-to-loops.mlir is AVX-512's). A
// 24x64 product over k = 9: on AVX-512 a tile is 6 rows x 4 vectors of 16
// lanes (24 accumulators of 32 registers); on AVX2, whose 16 registers hold 8
// lanes, 6 rows x 1 vector (12 registers), as ONNX Runtime's FMA3 kernel:
// AVX-512's tile there spills 48 registers and ran 2-3x slower.
// RUN: env NPU_CPU_TARGET=avx512 npu-opt %s --split-input-file --convert-tensor-to-loops | FileCheck %s --check-prefix=AVX512
// RUN: env NPU_CPU_TARGET=avx2 npu-opt %s --split-input-file --convert-tensor-to-loops | FileCheck %s --check-prefix=AVX2
// AVX512-LABEL: func.func @product
// AVX512: %[[FMA:.*]]:24 = "scf.for"
// AVX512-COUNT-24: "vector.fma"
// AVX512-NOT: "vector.fma"
// AVX2-LABEL: func.func @product
// AVX2: %[[FMA:.*]]:6 = "scf.for"
// AVX2-COUNT-6: "vector.fma"
// AVX2-NOT: "vector.fma"
func.func @product(%a: memref<24x9xf32>, %b: memref<9x64xf32>, %c: memref<24x64xf32>) {
  "tensor.generic"(%a, %b, %c) <{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<24x9xf32>, memref<9x64xf32>, memref<24x64xf32>) -> ()
  return
}

// -----

// 56 columns, on AVX2 three whole vectors in a loop whose masks are all 16
// lanes (LLVM loads and stores them plainly; AVX2's masked accesses cost),
// and the last 8 columns as a tile of their own after it. AVX-512 masks cost
// nothing: its 56 columns are one tile of 4 vectors.
// AVX2-LABEL: func.func @tail
// AVX2: %[[END:.*]] = arith.constant 48 : index
// AVX2: "scf.for"(%{{.*}}, %[[END]], %{{.*}})
// AVX2: %[[WHOLE:.*]] = arith.constant 16 : index
// AVX2-NEXT: %[[M:.*]] = "vector.create_mask"(%[[WHOLE]])
// AVX2-COUNT-6: "vector.maskedstore"(%arg2, {{.*}}, %[[M]]
// AVX2: arith.constant 48 : index
// AVX2: %[[MT:.*]] = "vector.create_mask"
// AVX2: "scf.for"
// AVX2-COUNT-6: "vector.maskedstore"(%arg2, {{.*}}, %[[MT]]
// AVX512-LABEL: func.func @tail
// AVX512: "scf.for"
// AVX512-COUNT-24: "vector.fma"
// AVX512-NOT: "vector.fma"
func.func @tail(%a: memref<12x9xf32>, %b: memref<9x56xf32>, %c: memref<12x56xf32>) {
  "tensor.generic"(%a, %b, %c) <{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<12x9xf32>, memref<9x56xf32>, memref<12x56xf32>) -> ()
  return
}
