// Interop with upstream MLIR 22: our generic output is accepted by mlir-opt,
// and what it prints back (generic, custom, with debug info) parses in ours to
// the same module.
// RUN: npu-opt %s --allow-unregistered-dialect --mlir-print-op-generic -o %t.ours
// RUN: mlir-opt %t.ours --allow-unregistered-dialect --mlir-print-op-generic -o %t.upstream
// RUN: npu-opt %t.upstream --allow-unregistered-dialect --mlir-print-op-generic -o %t.back
// RUN: diff %t.ours %t.back
// RUN: mlir-opt %t.ours --allow-unregistered-dialect | npu-opt --allow-unregistered-dialect --mlir-print-op-generic -o %t.custom
// RUN: diff %t.ours %t.custom
// RUN: npu-opt %s --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo -o %t.dbg
// RUN: mlir-opt %t.dbg --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo | npu-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo -o %t.dbgback
// RUN: diff %t.dbg %t.dbgback

module @m attributes {npu.target = "npu16"} {
  func.func private @decl(i32, f32 {onnx.name = "x"}) -> i64
  func.func @f(%a: i32, %b: i32, %x: f32, %t: tensor<2x?xf32>, %m: memref<4x4xi8, strided<[4, 1], offset: 8>, 2>) -> (i32, f32) {
    %c = arith.constant 7 : i32
    %w = arith.constant dense<[[1.0, -2.5], [0.1, 3.0e10]]> : tensor<2x2xf32>
    %s = arith.constant dense<0.5> : tensor<4xf16>
    %0 = arith.addi %a, %c overflow<nsw> : i32
    %1 = arith.muli %0, %b : i32
    %2 = arith.cmpi ult, %1, %a : i32
    %3 = arith.select %2, %0, %1 : i32
    %4 = arith.mulf %x, %x fastmath<fast> : f32
    %5 = arith.cmpf oge, %4, %x : f32
    %6 = arith.sitofp %3 : i32 to f32
    %7 = arith.truncf %6 : f32 to bf16
    %r:2 = "acme.conv"(%t, %w) <{pads = array<i64: 1, 1, 1, 1>, map = affine_map<(d0, d1)[s0] -> (d1, d0 + s0)>}> {loc_tag = "conv1"} : (tensor<2x?xf32>, tensor<2x2xf32>) -> (tensor<2x?xf32>, !acme.token)
    "acme.region"() ({
    ^bb0(%arg: i32):
      "acme.yield"(%arg) : (i32) -> ()
    }) : () -> ()
    "acme.blob"() {w = dense_resource<weights> : tensor<3xi8>, e = dense<> : tensor<0xi32>, b = dense<[true, false]> : tensor<2xi1>} : () -> ()
    %8 = func.call @g(%6) : (f32) -> f32
    return %3, %8 : i32, f32
  }
  func.func @g(%x: f32) -> f32 {
    "acme.br"()[^bb1] : () -> ()
  ^bb1:
    return %x : f32
  }
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x04000000010203"
    }
  }
#-}
