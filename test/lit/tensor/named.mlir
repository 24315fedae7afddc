// Named structured ops: they verify, print back, and tensor-generalize turns
// each into the tensor.generic it stands for.
// RUN: npu-opt %s | npu-opt | FileCheck %s --check-prefix=RT
// RUN: npu-opt %s --tensor-generalize | FileCheck %s

// RT-LABEL: func.func @named
// RT: "tensor.fill"
// RT: "tensor.matmul"
// RT: "tensor.batch_matmul"
// RT: "tensor.transpose"
// RT: "tensor.broadcast"
// RT: "tensor.reduce"
// RT: "tensor.extract_slice"
// RT: "tensor.insert_slice"

// CHECK-LABEL: func.func @named
// CHECK-NOT: "tensor.fill"
// fill: the scalar captured, yielded everywhere.
// CHECK: "tensor.generic"(%{{.*}}) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], operandSegmentSizes = array<i32: 0, 1>}>
// CHECK-NEXT: ^bb0(%{{.*}}: f32):
// CHECK-NEXT: "tensor.yield"(%arg3)
// matmul: (m, n, k).
// CHECK: indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: arith.addf
// batch_matmul: (b, m, n, k).
// CHECK: indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// transpose [1, 0]: out (d0, d1) reads in (d1, d0).
// CHECK: indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]
// broadcast along dim 0.
// CHECK: indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// reduce max along dim 1.
// CHECK: indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]
// CHECK: arith.maximumf
// extract_slice: offsets 1, 2, strides 1, 2.
// CHECK: indexing_maps = [affine_map<(d0, d1) -> (d0 + 1, d1 * 2 + 2)>, affine_map<(d0, d1) -> (d0, d1)>]
// insert_slice at 1, 0: the loops run over the source (loop_ranges).
// CHECK: indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0 + 1, d1)>], iterator_types = ["parallel", "parallel"], loop_ranges = array<i64: 2, 3>
func.func @named(%a: tensor<4x5xf32>, %b: tensor<5x6xf32>, %x: tensor<2x4x5xf32>, %s: f32, %v: tensor<6xf32>, %small: tensor<2x3xf32>, %x2: tensor<2x5x4xf32>) {
  %e = "tensor.empty"() : () -> tensor<4x6xf32>
  %f = "tensor.fill"(%s, %e) : (f32, tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = "tensor.matmul"(%a, %b, %f) : (tensor<4x5xf32>, tensor<5x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %y = "tensor.empty"() : () -> tensor<2x4x4xf32>
  %bm = "tensor.batch_matmul"(%x, %x2, %y) : (tensor<2x4x5xf32>, tensor<2x5x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %t0 = "tensor.empty"() : () -> tensor<6x4xf32>
  %t = "tensor.transpose"(%m, %t0) <{permutation = array<i64: 1, 0>}> : (tensor<4x6xf32>, tensor<6x4xf32>) -> tensor<6x4xf32>
  %br = "tensor.broadcast"(%v, %e) <{dimensions = array<i64: 0>}> : (tensor<6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %r0 = "tensor.empty"() : () -> tensor<4xf32>
  %r = "tensor.reduce"(%m, %r0) <{dimensions = array<i64: 1>, kind = "max"}> : (tensor<4x6xf32>, tensor<4xf32>) -> tensor<4xf32>
  %sl0 = "tensor.empty"() : () -> tensor<3x2xf32>
  %sl = "tensor.extract_slice"(%m, %sl0) <{static_offsets = array<i64: 1, 2>, static_strides = array<i64: 1, 2>}> : (tensor<4x6xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %in = "tensor.insert_slice"(%small, %m) <{static_offsets = array<i64: 1, 0>}> : (tensor<2x3xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return
}

// Convolutions and pooling: windows read at o * stride + k * dilation.
// CHECK-LABEL: func.func @windows
// CHECK: indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 * 2 + d5, d3 * 2 + d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>]
// CHECK: indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d2 + d5, d3 + d6, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d2, d3, d1)>]
// CHECK: indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2 + d5 * 2, d3 + d6 * 2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>]
// CHECK: indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"], loop_ranges = array<i64: 1, 3, 3, 3, 2, 2>
// CHECK: arith.maximumf
func.func @windows(%x: tensor<1x3x7x7xf32>, %w: tensor<8x3x3x3xf32>, %xh: tensor<1x7x7x3xf32>, %wh: tensor<3x3x3x8xf32>, %dw: tensor<3x3x3xf32>) {
  %o = "tensor.empty"() : () -> tensor<1x8x3x3xf32>
  %c = "tensor.conv_2d_nchw_fchw"(%x, %w, %o) <{strides = array<i64: 2, 2>}> : (tensor<1x3x7x7xf32>, tensor<8x3x3x3xf32>, tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %oh = "tensor.empty"() : () -> tensor<1x5x5x8xf32>
  %ch = "tensor.conv_2d_nhwc_hwcf"(%xh, %wh, %oh) : (tensor<1x7x7x3xf32>, tensor<3x3x3x8xf32>, tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  %od = "tensor.empty"() : () -> tensor<1x3x3x3xf32>
  %d = "tensor.depthwise_conv_2d_nchw_chw"(%x, %dw, %od) <{dilations = array<i64: 2, 2>}> : (tensor<1x3x7x7xf32>, tensor<3x3x3xf32>, tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %p = "tensor.pooling_nchw_max"(%x, %od) <{kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>}> : (tensor<1x3x7x7xf32>, tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  return
}
