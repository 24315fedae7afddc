// Round trip of builtin types, attributes and the module form: custom and
// generic output both parse back to the same text.
// RUN: npu-opt %s --allow-unregistered-dialect | npu-opt --allow-unregistered-dialect | FileCheck %s
// RUN: npu-opt %s --allow-unregistered-dialect --mlir-print-op-generic | npu-opt --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: module @types
module @types {
  // CHECK: "t.ints"() : () -> (i1, i8, i16, i32, i64, si8, ui32, index, i3)
  "t.ints"() : () -> (i1, i8, i16, i32, i64, si8, ui32, index, i3)
  // CHECK: "t.floats"() : () -> (f16, bf16, f32, f64, none)
  "t.floats"() : () -> (f16, bf16, f32, f64, none)
  // CHECK: "t.tensors"() : () -> (tensor<2x?x4xf32>, tensor<*xf32>, tensor<f32>, tensor<0x3xi8>, tensor<4xf32, #npu.layout<nhwc>>)
  "t.tensors"() : () -> (tensor<2x?x4xf32>, tensor<*xf32>, tensor<f32>, tensor<0x3xi8>, tensor<4xf32, #npu.layout<nhwc>>)
  // CHECK: "t.memrefs"() : () -> (memref<4x8xf32>, memref<4x?xf32, strided<[?, 1], offset: 4>, 1>, memref<2xi8, #npu.mem<sram>>, memref<*xf32>, memref<4xf32, affine_map<(d0) -> (d0 + 1)>>)
  "t.memrefs"() : () -> (memref<4x8xf32>, memref<4x?xf32, strided<[?, 1], offset: 4>, 1>, memref<2xi8, #npu.mem<sram>>, memref<*xf32>, memref<4xf32, affine_map<(d0) -> (d0 + 1)>>)
  // CHECK: "t.vectors"() : () -> (vector<4x8xf32>, vector<[4]xi8>, vector<2x[4]xf32>)
  "t.vectors"() : () -> (vector<4x8xf32>, vector<[4]xi8>, vector<2x[4]xf32>)
  // CHECK: "t.compound"() : () -> (tuple<i32, tuple<>>, complex<f32>, (i32, f32) -> (), () -> ((i1) -> i1))
  "t.compound"() : () -> (tuple<i32, tuple<>>, complex<f32>, (i32, f32) -> (), () -> ((i1) -> i1))
  // CHECK: "t.dialect"() : () -> (!npu.buf<sram, 16x16xi8>, !npu<"opaque body">, !npu.token)
  "t.dialect"() : () -> (!npu.buf<sram, 16x16xi8>, !npu<"opaque body">, !npu.token)
}

// CHECK-LABEL: module @attrs
module @attrs {
  // CHECK: "a.ints"() {a = 1 : i64, b = -3 : si8, c = 255 : ui8, d = true, e = false, f = -1 : i8, g = 7 : index}
  "a.ints"() {a = 1, b = -3 : si8, c = 255 : ui8, d = true, e = false, f = 255 : i8, g = 7 : index} : () -> ()
  // CHECK: "a.floats"() {a = 1.500000e+00 : f32, b = 1.000000e-01 : f64, c = 3.14159265358979 : f64, d = 0x7FC00000 : f32, e = 0xFF800000 : f32, f = -0.000000e+00 : f64, g = 1.500000e+00 : f16, h = 1.000977e-01 : bf16, i = 1.000000e+30 : f64}
  "a.floats"() {a = 1.5 : f32, b = 0.1, c = 3.14159265358979 : f64, d = 0x7FC00000 : f32, e = 0xFF800000 : f32, f = -0.0, g = 1.5 : f16, h = 0.1 : bf16, i = 1.0e30} : () -> ()
  // CHECK: "a.strings"() {a = "plain", b = "q\22\\\0A", c = "typed" : i32, "quoted key"}
  "a.strings"() {a = "plain", b = "q\"\\\n", c = "typed" : i32, "quoted key"} : () -> ()
  // CHECK: "a.containers"() {a = [1 : i32, "x", [], {}], b = {k = @sym, u}, c = i32, d = tensor<2xf32>, e = (i32) -> i64}
  "a.containers"() {a = [1 : i32, "x", [], {}], b = {u, k = @sym}, c = i32, d = tensor<2xf32>, e = (i32) -> i64} : () -> ()
  // CHECK: "a.symbols"() {a = @a::@b::@c, b = @"with space"}
  "a.symbols"() {a = @a::@b::@c, b = @"with space"} : () -> ()
  // CHECK: "a.dense"() {a = dense<1> : tensor<2x2xi8>, b = dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>, c = dense<[1.000000e+00, -2.500000e+00]> : tensor<2xf32>, d = dense<> : tensor<0xf32>, e = dense<[true, false]> : tensor<2xi1>, f = dense<5> : tensor<i64>, g = dense<[1, 2]> : vector<2xi16>, h = dense<2.000000e+00> : tensor<3xf16>}
  "a.dense"() {a = dense<1> : tensor<2x2xi8>, b = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, c = dense<[1.0, -2.5]> : tensor<2xf32>, d = dense<> : tensor<0xf32>, e = dense<[true, false]> : tensor<2xi1>, f = dense<5> : tensor<i64>, g = dense<[1, 2]> : vector<2xi16>, h = dense<2.0> : tensor<3xf16>} : () -> ()
  // CHECK: "a.hex"() {a = dense<[1, 2]> : tensor<2xi16>, b = dense<"0x0001020304050607
  "a.hex"() {a = dense<"0x01000200"> : tensor<2xi16>, b = dense<"0x000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F6061626364656667"> : tensor<104xi8>} : () -> ()
  // CHECK: "a.arrays"() {a = array<i64: 1, -2>, b = array<f32: 1.500000e+00>, c = array<i32>, d = array<i1: true, false>}
  "a.arrays"() {a = array<i64: 1, -2>, b = array<f32: 1.5>, c = array<i32>, d = array<i1: true, false>} : () -> ()
  // CHECK: "a.maps"() {a = affine_map<(d0, d1) -> (d1, d0)>, b = affine_map<(d0, d1)[s0] -> (d0 + s0 * 2, d0 - d1, d0 floordiv 4, (d0 + d1) mod 3, -d0, d0 - 3, d1 ceildiv s0)>, c = affine_map<() -> (0)>}
  "a.maps"() {a = affine_map<(i, j) -> (j, i)>, b = affine_map<(d0, d1)[s0] -> (d0 + s0 * 2, d0 - d1, d0 floordiv 4, (d0 + d1) mod 3, -d0, d0 - 3, d1 ceildiv s0)>, c = affine_map<() -> (0)>} : () -> ()
  // CHECK: "a.layouts"() {a = strided<[4, 1]>, b = strided<[?, 1], offset: ?>}
  "a.layouts"() {a = strided<[4, 1]>, b = strided<[?, 1], offset: ?>} : () -> ()
  // CHECK: "a.dialect"() {a = #npu.tile<16x16, "x">, b = #npu<"opaque">}
  "a.dialect"() {a = #npu.tile<16x16, "x">, b = #npu<"opaque">} : () -> ()
  // CHECK: "a.props"() <{p = 1 : i32}> {q = 2 : i32}
  "a.props"() <{p = 1 : i32}> {q = 2 : i32} : () -> ()
}

#alias = affine_map<(d0) -> (d0)>
!talias = tensor<4xf32>
// CHECK-LABEL: module @aliases
module @aliases {
  // CHECK: "a.use"() {m = affine_map<(d0) -> (d0)>} : () -> tensor<4xf32>
  "a.use"() {m = #alias} : () -> !talias
}

// CHECK-LABEL: module @resources
module @resources {
  // CHECK: "r.use"() {w = dense_resource<weights> : tensor<2xi32>}
  "r.use"() {w = dense_resource<weights> : tensor<2xi32>} : () -> ()
}
// CHECK: {-#
// CHECK-NEXT: dialect_resources: {
// CHECK-NEXT: builtin: {
// CHECK-NEXT: weights: "0x040000000100000002000000"
// CHECK: #-}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000100000002000000"
    }
  }
#-}
