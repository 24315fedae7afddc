// tensor.pad and tensor.concat round-trip, and tensor-generalize writes them
// as fills of the border and inserts (each then a tensor.generic).
// RUN: npu-opt %s | npu-opt | FileCheck %s --check-prefix=RT
// RUN: npu-opt %s --tensor-generalize | FileCheck %s

// RT-LABEL: func.func @f
// RT: "tensor.pad"(%arg0, %arg2) <{high = array<i64: 0, 2>, low = array<i64: 1, 0>}> : (tensor<2x3xf32>, f32) -> tensor<3x5xf32>
// RT: "tensor.concat"(%arg0, %arg1) <{dim = 0 : i64}> : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>

// CHECK-LABEL: func.func @f
// pad: the border filled with the value (the row before, the two columns
// after; not the interior), then the source at offset (1, 0).
// CHECK: "tensor.generic"(%{{.*}}) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], loop_ranges = array<i64: 1, 5>
// CHECK: "tensor.yield"(%arg2)
// CHECK: "tensor.generic"(%{{.*}}) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1 + 3)>], iterator_types = ["parallel", "parallel"], loop_ranges = array<i64: 3, 2>
// CHECK: "tensor.yield"(%arg2)
// CHECK: indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0 + 1, d1)>], iterator_types = ["parallel", "parallel"], loop_ranges = array<i64: 2, 3>
// concat: the first operand at 0, the second at 2.
// CHECK: indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], loop_ranges = array<i64: 2, 3>
// CHECK: indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0 + 2, d1)>], iterator_types = ["parallel", "parallel"], operandSegmentSizes
// CHECK-NOT: tensor.pad
// CHECK-NOT: tensor.concat
func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %v: f32) -> (tensor<3x5xf32>, tensor<6x3xf32>) {
  %p = "tensor.pad"(%a, %v) <{low = array<i64: 1, 0>, high = array<i64: 0, 2>}> : (tensor<2x3xf32>, f32) -> tensor<3x5xf32>
  %c = "tensor.concat"(%a, %b) <{dim = 0 : i64}> : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  return %p, %c : tensor<3x5xf32>, tensor<6x3xf32>
}
