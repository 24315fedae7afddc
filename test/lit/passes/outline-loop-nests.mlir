// RUN: npu-opt %s --split-input-file --outline-loop-nests | FileCheck %s

// Each top-level loop nest moves into a private noinline function marked
// `npu-loop-nest`, called where it stood; constants are cloned in, other
// values from outside become arguments; a nest's results are the function's.
// Distinct buffers (a noalias argument, an allocation) stay noalias; the glue
// left in the model's function is compiled without optimization.
// CHECK-LABEL: func.func @model
// CHECK-SAME: passthrough = ["noinline", "optnone"]
// CHECK: %[[A:.*]] = "memref.alloc"
// CHECK: call @model_nest0(%arg0, %[[A]])
// CHECK: %[[S:.*]] = call @model_nest1(%[[A]]) : (memref<8xf32>) -> f32
// CHECK: "memref.store"(%[[S]], %arg1
// CHECK: func.func private @model_nest0(%arg0: memref<8xf32> {llvm.noalias}, %arg1: memref<8xf32> {llvm.noalias})
// CHECK-SAME: passthrough = ["noinline", ["npu-loop-nest", "true"]]
// CHECK: arith.constant 2.000000e+00
// CHECK: "scf.for"
// CHECK: return
// CHECK: func.func private @model_nest1(%arg0: memref<8xf32> {llvm.noalias}) -> f32
// CHECK: %[[R:.*]] = "scf.for"
// CHECK: return %[[R]]
func.func @model(%x: memref<8xf32> {llvm.noalias}, %y: memref<f32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %a = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<8xf32>
  "scf.for"(%c0, %c8, %c1) ({
  ^bb0(%i: index):
    %v = "memref.load"(%x, %i) : (memref<8xf32>, index) -> f32
    %w = arith.mulf %v, %two : f32
    "memref.store"(%w, %a, %i) : (f32, memref<8xf32>, index) -> ()
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  %s = "scf.for"(%c0, %c8, %c1, %zero) ({
  ^bb0(%i: index, %acc: f32):
    %v = "memref.load"(%a, %i) : (memref<8xf32>, index) -> f32
    %n = arith.addf %acc, %v : f32
    "scf.yield"(%n) : (f32) -> ()
  }) : (index, index, index, f32) -> f32
  "memref.store"(%s, %y) : (f32, memref<f32>) -> ()
  "memref.dealloc"(%a) : (memref<8xf32>) -> ()
  return
}

// -----

// Two views of one buffer may alias: neither argument is noalias; nor is an
// argument the caller does not mark noalias.
// CHECK-LABEL: func.func @views
// CHECK: func.func private @views_nest0(%arg0: memref<4xf32>, %arg1: memref<4xf32>, %arg2: memref<4xf32>)
// CHECK-SAME: passthrough
func.func @views(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<2x4xf32>
  %p = "memref.reinterpret_cast"(%a) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 4>, static_strides = array<i64: 1>}> : (memref<2x4xf32>) -> memref<4xf32>
  %q = "memref.reinterpret_cast"(%a) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 4>, static_strides = array<i64: 1>}> : (memref<2x4xf32>) -> memref<4xf32>
  "scf.for"(%c0, %c4, %c1) ({
  ^bb0(%i: index):
    %v = "memref.load"(%p, %i) : (memref<4xf32>, index) -> f32
    %u = "memref.load"(%x, %i) : (memref<4xf32>, index) -> f32
    %s = arith.addf %v, %u : f32
    "memref.store"(%s, %q, %i) : (f32, memref<4xf32>, index) -> ()
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  "memref.dealloc"(%a) : (memref<2x4xf32>) -> ()
  return
}

// -----

// Private functions (outlined ones, helpers) and functions without loops stay
// as they are.
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: passthrough
// CHECK: "scf.for"
// CHECK-LABEL: func.func @straight
// CHECK-NOT: passthrough
// CHECK: return
// CHECK-NOT: func.func
func.func private @helper(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  "scf.for"(%c0, %c4, %c1) ({
  ^bb0(%i: index):
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}
func.func @straight(%x: memref<f32>) {
  %v = "memref.load"(%x) : (memref<f32>) -> f32
  %w = arith.addf %v, %v : f32
  "memref.store"(%w, %x) : (f32, memref<f32>) -> ()
  return
}

// -----

// Two nests that come out the same (one kernel on other buffers) share one
// function; a nest that differs (another constant) gets its own.
// CHECK-LABEL: func.func @same
// CHECK: call @same_nest0(%arg0, %arg1)
// CHECK: call @same_nest0(%arg1, %arg2)
// CHECK: call @same_nest2(%arg2, %arg0)
// CHECK: func.func private @same_nest0(
// CHECK: arith.constant 2.000000e+00
// CHECK-NOT: func.func private @same_nest1
// CHECK: func.func private @same_nest2(
// CHECK: arith.constant 3.000000e+00
func.func @same(%x: memref<4xf32> {llvm.noalias}, %y: memref<4xf32> {llvm.noalias}, %z: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  "scf.for"(%c0, %c4, %c1) ({
  ^bb0(%i: index):
    %v = "memref.load"(%x, %i) : (memref<4xf32>, index) -> f32
    %w = arith.mulf %v, %two : f32
    "memref.store"(%w, %y, %i) : (f32, memref<4xf32>, index) -> ()
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  "scf.for"(%c0, %c4, %c1) ({
  ^bb0(%i: index):
    %v = "memref.load"(%y, %i) : (memref<4xf32>, index) -> f32
    %w = arith.mulf %v, %two : f32
    "memref.store"(%w, %z, %i) : (f32, memref<4xf32>, index) -> ()
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  "scf.for"(%c0, %c4, %c1) ({
  ^bb0(%i: index):
    %v = "memref.load"(%z, %i) : (memref<4xf32>, index) -> f32
    %w = arith.mulf %v, %three : f32
    "memref.store"(%w, %x, %i) : (f32, memref<4xf32>, index) -> ()
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

// A nest whose outer loop is marked parallel and does enough work takes the
// loop's bounds and step as its last arguments and carries `npu-parallel` with
// the ops it runs (1 + 1000 x (1 + 1000 x 4 + 1)); the constants the body uses
// keep their values. A marked loop with little work stays a plain nest.
// CHECK-LABEL: func.func @par
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[N:.*]] = arith.constant 1000 : index
// CHECK: call @par_nest0(%arg0, %[[C0]], %[[N]], %[[C1]]) : (memref<1000x1000xf32>, index, index, index) -> ()
// CHECK: call @par_nest1(%arg1) : (memref<8xf32>) -> ()
// CHECK: func.func private @par_nest0(%arg0: memref<1000x1000xf32> {llvm.noalias}, %arg1: index, %arg2: index, %arg3: index)
// CHECK-SAME: ["npu-parallel", "4002001"]
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK: "scf.for"(%arg1, %arg2, %arg3)
// CHECK: "scf.for"(%[[Z]],
// CHECK-NOT: npu.parallel
// CHECK: func.func private @par_nest1(
// CHECK-NOT: npu-parallel
// CHECK: return
func.func @par(%x: memref<1000x1000xf32> {llvm.noalias}, %y: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c1000 = arith.constant 1000 : index
  %two = arith.constant 2.0 : f32
  "scf.for"(%c0, %c1000, %c1) ({
  ^bb0(%i: index):
    "scf.for"(%c0, %c1000, %c1) ({
    ^bb1(%j: index):
      %v = "memref.load"(%x, %i, %j) : (memref<1000x1000xf32>, index, index) -> f32
      %w = arith.mulf %v, %two : f32
      "memref.store"(%w, %x, %i, %j) : (f32, memref<1000x1000xf32>, index, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  "scf.for"(%c0, %c8, %c1) ({
  ^bb0(%i: index):
    %v = "memref.load"(%y, %i) : (memref<8xf32>, index) -> f32
    %w = arith.mulf %v, %two : f32
    "memref.store"(%w, %y, %i) : (f32, memref<8xf32>, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  return
}

// -----

// Two nests of one shape that read different globals (a bias each) share a
// function: a global is an argument, not cloned into the nest.
// CHECK-LABEL: func.func @globals
// CHECK: %[[G0:.*]] = "memref.get_global"() <{name = @b0}>
// CHECK: %[[G1:.*]] = "memref.get_global"() <{name = @b1}>
// CHECK: call @globals_nest0(%[[G0]], %arg0)
// CHECK: call @globals_nest0(%[[G1]], %arg1)
// CHECK: func.func private @globals_nest0(%arg0: memref<4xf32> {llvm.noalias}, %arg1: memref<4xf32> {llvm.noalias})
// CHECK-NOT: get_global
// CHECK: return
// CHECK-NOT: func.func private @globals_nest1
"memref.global"() <{constant, initial_value = dense<1.0> : tensor<4xf32>, sym_name = "b0", sym_visibility = "private", type = memref<4xf32>}> : () -> ()
"memref.global"() <{constant, initial_value = dense<2.0> : tensor<4xf32>, sym_name = "b1", sym_visibility = "private", type = memref<4xf32>}> : () -> ()
func.func @globals(%x: memref<4xf32> {llvm.noalias}, %y: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %g0 = "memref.get_global"() <{name = @b0}> : () -> memref<4xf32>
  %g1 = "memref.get_global"() <{name = @b1}> : () -> memref<4xf32>
  "scf.for"(%c0, %c4, %c1) ({
  ^bb0(%i: index):
    %v = "memref.load"(%g0, %i) : (memref<4xf32>, index) -> f32
    "memref.store"(%v, %x, %i) : (f32, memref<4xf32>, index) -> ()
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  "scf.for"(%c0, %c4, %c1) ({
  ^bb0(%i: index):
    %v = "memref.load"(%g1, %i) : (memref<4xf32>, index) -> f32
    "memref.store"(%v, %y, %i) : (f32, memref<4xf32>, index) -> ()
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

// An inner loop whose bounds are values (a block of k between indices computed
// at run time) counts once, unless `npu.trips` says how often it runs: with
// 2000 the marked nest does enough work for threads (1 + 100 x (1 + 2000 x 4 + 1)),
// without it not (1 + 100 x 6). The attribute does not stay in the nest.
// CHECK-LABEL: func.func @trips
// CHECK: func.func private @trips_nest0(
// CHECK-SAME: ["npu-parallel", "800201"]
// CHECK-NOT: npu.trips
// CHECK: func.func private @trips_nest1(
// CHECK-NOT: npu-parallel
// CHECK: return
func.func @trips(%x: memref<100x2000xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %two = arith.constant 2.0 : f32
  "scf.for"(%c0, %c100, %c1) ({
  ^bb0(%i: index):
    "scf.for"(%c0, %n, %c1) ({
    ^bb1(%j: index):
      %v = "memref.load"(%x, %i, %j) : (memref<100x2000xf32>, index, index) -> f32
      %w = arith.mulf %v, %two : f32
      "memref.store"(%w, %x, %i, %j) : (f32, memref<100x2000xf32>, index, index) -> ()
      "scf.yield"() : () -> ()
    }) {npu.trips = 2000 : i64} : (index, index, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  "scf.for"(%c0, %c100, %c1) ({
  ^bb0(%i: index):
    "scf.for"(%c0, %n, %c1) ({
    ^bb1(%j: index):
      %v = "memref.load"(%x, %i, %j) : (memref<100x2000xf32>, index, index) -> f32
      %w = arith.mulf %v, %two : f32
      "memref.store"(%w, %x, %i, %j) : (f32, memref<100x2000xf32>, index, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  return
}

// -----

// A parallel loop inside a nest that is not parallel (an RNN's product per
// step inside its loop over the steps), with work enough (1 + 8 x (1 + 1000 x 4 + 1)),
// becomes a function of its own marked `npu-parallel`, called from the nest
// on every step; a marked inner loop of little work stays where it is.
// CHECK-LABEL: func.func @inner
// CHECK: call @inner_nest0(%arg0, %arg1)
// CHECK: func.func private @inner_nest0_par0(%arg0: memref<8x1000xf32> {llvm.noalias}, %arg1: index, %arg2: index, %arg3: index)
// CHECK-SAME: ["npu-parallel", "32017"]
// CHECK: func.func private @inner_nest0(%arg0: memref<8x1000xf32> {llvm.noalias}, %arg1: memref<4xf32> {llvm.noalias})
// CHECK-NOT: npu-parallel
// CHECK: "scf.for"
// CHECK: call @inner_nest0_par0(%arg0,
// CHECK: "scf.for"
// CHECK-NOT: call
// CHECK: return
func.func @inner(%x: memref<8x1000xf32> {llvm.noalias}, %y: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c1000 = arith.constant 1000 : index
  %two = arith.constant 2.0 : f32
  "scf.for"(%c0, %c32, %c1) ({
  ^bb0(%s: index):
    "scf.for"(%c0, %c8, %c1) ({
    ^bb1(%i: index):
      "scf.for"(%c0, %c1000, %c1) ({
      ^bb2(%j: index):
        %v = "memref.load"(%x, %i, %j) : (memref<8x1000xf32>, index, index) -> f32
        %w = arith.mulf %v, %two : f32
        "memref.store"(%w, %x, %i, %j) : (f32, memref<8x1000xf32>, index, index) -> ()
        "scf.yield"() : () -> ()
      }) : (index, index, index) -> ()
      "scf.yield"() : () -> ()
    }) {npu.parallel} : (index, index, index) -> ()
    "scf.for"(%c0, %c4, %c1) ({
    ^bb1(%i: index):
      %v = "memref.load"(%y, %i) : (memref<4xf32>, index) -> f32
      %w = arith.mulf %v, %two : f32
      "memref.store"(%w, %y, %i) : (f32, memref<4xf32>, index) -> ()
      "scf.yield"() : () -> ()
    }) {npu.parallel} : (index, index, index) -> ()
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}
