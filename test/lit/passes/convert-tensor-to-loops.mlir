// convert-tensor-to-loops: a generic on memrefs becomes an scf.for nest of
// loads, the body and stores; a reduction keeps its accumulator in iter_args;
// a matmul-like contraction becomes register-tiled vector code; other
// generics with a last output dim of 4 or more (8 on AVX2) run 16 lanes at a
// time along it.
// RUN: env NPU_CPU_TARGET=avx512 npu-opt %s --split-input-file --convert-tensor-to-loops | FileCheck %s

// Too short to vectorize (3 lanes): scalar loops.
// CHECK-LABEL: func.func @relu
// CHECK: "scf.for"
// CHECK: "memref.load"(%arg0
// CHECK: arith.maximumf
// CHECK: "memref.store"({{.*}}, %arg1
// CHECK-NOT: tensor.generic
func.func @relu(%a: memref<3xf32>, %o: memref<3xf32>) {
  "tensor.generic"(%a, %o) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %z : f32
    "tensor.yield"(%r) : (f32) -> ()
  }) : (memref<3xf32>, memref<3xf32>) -> ()
  return
}

// -----

// The row sum loads out[i] once, carries it through the k loop, stores once.
// CHECK-LABEL: func.func @rowsum
// CHECK: "scf.for"
// CHECK: %[[ACC:.*]] = "memref.load"(%arg1
// CHECK: "scf.for"({{.*}}, %[[ACC]])
// CHECK: arith.addf
// CHECK: "scf.yield"
// CHECK: "memref.store"({{.*}}, %arg1
func.func @rowsum(%a: memref<4x5xf32>, %o: memref<4xf32>) {
  "tensor.generic"(%a, %o) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<4x5xf32>, memref<4xf32>) -> ()
  return
}

// -----

// A matmul: masked vector loads of B and C, broadcast A, fused multiply-adds.
// CHECK-LABEL: func.func @matmul
// CHECK: "vector.create_mask"
// CHECK: "vector.maskedload"(%arg2
// CHECK: "vector.maskedload"(%arg1
// CHECK: "memref.load"(%arg0
// CHECK: "vector.broadcast"
// CHECK: "vector.fma"
// CHECK: "vector.maskedstore"(%arg2
func.func @matmul(%a: memref<9x7xf32>, %b: memref<7x40xf32>, %c: memref<9x40xf32>) {
  "tensor.generic"(%a, %b, %c) <{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<9x7xf32>, memref<7x40xf32>, memref<9x40xf32>) -> ()
  return
}

// -----

// An elementwise op with a per-row operand (no index uses j: one scalar,
// broadcast) and a constant: 16 lanes along j with a masked tail, the
// constant splat.
// CHECK-LABEL: func.func @bias_relu
// CHECK: "scf.for"
// CHECK: "scf.for"
// CHECK: "vector.create_mask"
// CHECK: "vector.maskedload"(%arg0
// CHECK: "memref.load"(%arg1
// CHECK: "vector.broadcast"
// CHECK: arith.addf {{.*}} : vector<16xf32>
// CHECK: arith.maximumf {{.*}} : vector<16xf32>
// CHECK: "vector.maskedstore"(%arg2
// CHECK-NOT: tensor.generic
func.func @bias_relu(%a: memref<3x40xf32>, %b: memref<3xf32>, %o: memref<3x40xf32>) {
  "tensor.generic"(%a, %b, %o) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    %c = arith.constant 0.0 : f32
    %r = arith.maximumf %s, %c : f32
    "tensor.yield"(%r) : (f32) -> ()
  }) : (memref<3x40xf32>, memref<3xf32>, memref<3x40xf32>) -> ()
  return
}

// -----

// A depthwise 3x3 conv of stride 1 on rows 14 wide: a multiply-add whose
// input every output loop moves, so no tile of rows can share its vectors;
// the contraction kernel leaves it to the vectorized loops, which keep four
// channels' sums in four accumulators (the kernel ran one chain), each tap
// one multiply-add; the 9 taps unrolled, no loop over them.
// CHECK-LABEL: func.func @depthwise_narrow
// CHECK: %[[A0:.*]] = "vector.maskedload"(%arg2
// CHECK: %[[A1:.*]] = "vector.maskedload"(%arg2
// CHECK: %[[A2:.*]] = "vector.maskedload"(%arg2
// CHECK: %[[A3:.*]] = "vector.maskedload"(%arg2
// CHECK-NOT: "scf.for"
// CHECK-NOT: arith.mulf
// CHECK: "vector.fma"(%{{.*}}, %{{.*}}, %[[A0]])
// CHECK-NOT: "scf.for"
// CHECK-COUNT-35: "vector.fma"({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// CHECK-NOT: "vector.fma"
// CHECK-NOT: arith.addf
// CHECK-COUNT-4: "vector.maskedstore"(%arg2
func.func @depthwise_narrow(%x: memref<8x16x16xf32>, %w: memref<8x3x3xf32>, %o: memref<8x14x14xf32>) {
  "tensor.generic"(%x, %w, %o) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d2 + d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<8x16x16xf32>, memref<8x3x3xf32>, memref<8x14x14xf32>) -> ()
  return
}

// -----

// A 5x5 window has 25 taps, more than are unrolled: the four accumulators
// go through the two reduction loops (5 trips each), a multiply-add each per tap.
// CHECK-LABEL: func.func @depthwise_5x5
// CHECK: %[[A0:.*]] = "vector.maskedload"(%arg2
// CHECK: %[[A1:.*]] = "vector.maskedload"(%arg2
// CHECK: %[[A2:.*]] = "vector.maskedload"(%arg2
// CHECK: %[[A3:.*]] = "vector.maskedload"(%arg2
// CHECK: "scf.for"({{.*}}, %[[A0]], %[[A1]], %[[A2]], %[[A3]])
// CHECK: "scf.for"
// CHECK-COUNT-4: "vector.fma"({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// CHECK-NOT: "vector.fma"
// CHECK-COUNT-4: "vector.maskedstore"(%arg2
func.func @depthwise_5x5(%x: memref<8x18x18xf32>, %w: memref<8x5x5xf32>, %o: memref<8x14x14xf32>) {
  "tensor.generic"(%x, %w, %o) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d2 + d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<8x18x18xf32>, memref<8x5x5xf32>, memref<8x14x14xf32>) -> ()
  return
}

// -----

// A depthwise 3x3 conv of stride 2: the window's column is 2·j + kx, read as
// elements [0, 16) and [15, 31) from lane 0's (two masked loads, 2·rem - 1 of
// them valid) and a shuffle of the first's even lanes and the second's odd
// ones; the sums stay in vectors through the 9 taps (unrolled) and are stored
// once: four output rows at a time, four independent accumulators (one chain
// waited on every multiply-add). The row's whole vector (columns 0-15) runs
// with masks of all 16 lanes, which LLVM turns into plain loads and stores;
// a copy of the loop from column 16 keeps the masks of the columns left.
// CHECK-LABEL: func.func @depthwise_stride2
// CHECK: arith.constant 20 : index
// CHECK: arith.constant 20 : index
// CHECK-NEXT: %[[REM:.*]] = arith.constant 16 : index
// CHECK: %[[M:.*]] = "vector.create_mask"(%[[REM]])
// CHECK: %[[TWICE:.*]] = arith.muli %[[REM]]
// CHECK: %[[SPAN:.*]] = arith.subi %[[TWICE]]
// CHECK: %[[HI:.*]] = arith.subi %[[SPAN]]
// CHECK: %[[MLO:.*]] = "vector.create_mask"(%[[SPAN]])
// CHECK: %[[MHI:.*]] = "vector.create_mask"(%[[HI]])
// CHECK: %[[A0:.*]] = "vector.maskedload"(%arg2, {{.*}}, %[[M]]
// CHECK: %[[A1:.*]] = "vector.maskedload"(%arg2, {{.*}}, %[[M]]
// CHECK: %[[A2:.*]] = "vector.maskedload"(%arg2, {{.*}}, %[[M]]
// CHECK: %[[A3:.*]] = "vector.maskedload"(%arg2, {{.*}}, %[[M]]
// CHECK-NOT: "scf.for"
// CHECK: %[[LO:.*]] = "vector.maskedload"(%arg0, {{.*}}, %[[MLO]]
// CHECK: %[[UP:.*]] = "vector.maskedload"(%arg0, {{.*}}, %[[MHI]]
// CHECK: "vector.shuffle"(%[[LO]], %[[UP]]) <{mask = array<i64: 0, 2, 4, 6, 8, 10, 12, 14, 17, 19, 21, 23, 25, 27, 29, 31>}>
// CHECK-NOT: "vector.gather"
// CHECK: "memref.load"(%arg1
// CHECK-NOT: arith.mulf
// CHECK: "vector.fma"({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// CHECK-COUNT-4: "vector.maskedstore"(%arg2, {{.*}}, %[[M]]
// CHECK: "scf.for"
// CHECK: %[[LEFT:.*]] = arith.subi
// CHECK-NEXT: %[[MT:.*]] = "vector.create_mask"(%[[LEFT]])
// CHECK-COUNT-4: "vector.maskedstore"(%arg2, {{.*}}, %[[MT]]
func.func @depthwise_stride2(%x: memref<2x9x41xf32>, %w: memref<2x3x3xf32>, %o: memref<2x4x20xf32>) {
  "tensor.generic"(%x, %w, %o) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 2 + d3, d2 * 2 + d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<2x9x41xf32>, memref<2x3x3xf32>, memref<2x4x20xf32>) -> ()
  return
}

// -----

// Only a reduction's term added to its accumulator becomes a multiply-add:
// a product added to an input (an elementwise Mul then Add, two ONNX nodes)
// keeps its two roundings, and so does a product used twice.
// CHECK-LABEL: func.func @products_kept
// CHECK: %[[P:.*]] = arith.mulf {{.*}} : vector<16xf32>
// CHECK: %[[S:.*]] = arith.addf {{.*}}%[[P]]{{.*}} : vector<16xf32>
// CHECK: arith.mulf %[[P]], %[[S]] : vector<16xf32>
// CHECK: %[[Q:.*]] = arith.mulf {{.*}} : vector<16xf32>
// CHECK: arith.addf {{.*}}%[[Q]]{{.*}} : vector<16xf32>
// CHECK-NOT: "vector.fma"
// CHECK: return
func.func @products_kept(%a: memref<40xf32>, %b: memref<40xf32>, %o: memref<40xf32>, %o2: memref<40xf32>) {
  "tensor.generic"(%a, %b, %o) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    %t = arith.mulf %p, %s : f32
    "tensor.yield"(%t) : (f32) -> ()
  }) : (memref<40xf32>, memref<40xf32>, memref<40xf32>) -> ()
  "tensor.generic"(%a, %b, %o2) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    %q = arith.mulf %x, %y : f32
    %r = arith.addf %x, %q : f32
    "tensor.yield"(%r) : (f32) -> ()
  }) : (memref<40xf32>, memref<40xf32>, memref<40xf32>) -> ()
  return
}

// -----

// j inside a division: no vector form (scalar loops).
// CHECK-LABEL: func.func @pairs
// CHECK-NOT: vector.
// CHECK: "memref.load"
// CHECK: return
func.func @pairs(%a: memref<20xf32>, %o: memref<40xf32>) {
  "tensor.generic"(%a, %o) <{indexing_maps = [affine_map<(d0) -> (d0 floordiv 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    "tensor.yield"(%x) : (f32) -> ()
  }) : (memref<20xf32>, memref<40xf32>) -> ()
  return
}

// -----

// 17 rows of a batched product: each 72x48 panel of B (one column tile of
// three vectors covers N = 33: threads share the batch loop) is copied
// into one buffer allocated in each iteration of the batch loop, the
// outermost (zeros past N come from the masked load), the tiles
// read it with plain vector loads, and it is freed last in that iteration, so
// the batch loop's iterations are independent (`npu.parallel`); the 5 rows
// past two tiles of 6 are a tile of their own.
// CHECK-LABEL: func.func @batched_panels
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK-NEXT: %[[PANEL:.*]] = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<72x48xf32>
// CHECK: "vector.maskedload"(%arg1
// CHECK: "vector.store"({{.*}}, %[[PANEL]]
// CHECK: "vector.load"(%[[PANEL]]
// CHECK: "vector.fma"
// CHECK: "vector.load"(%[[PANEL]]
// CHECK: "memref.dealloc"(%[[PANEL]])
// CHECK-NEXT: "scf.yield"
// CHECK-NEXT: }) {npu.parallel}
// CHECK-NEXT: return
func.func @batched_panels(%a: memref<2x17x72xf32>, %b: memref<2x72x33xf32>, %c: memref<2x17x33xf32>) {
  "tensor.generic"(%a, %b, %c) <{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<2x17x72xf32>, memref<2x72x33xf32>, memref<2x17x33xf32>) -> ()
  return
}

// -----

// The same product over 9 terms reads B where it is: a panel of 9 rows would
// cost about what the tiles' reads of it do.
// CHECK-LABEL: func.func @short_panels
// CHECK-NOT: "memref.alloc"
// CHECK: "vector.maskedload"(%arg1
// CHECK: "vector.fma"
// CHECK: return
func.func @short_panels(%a: memref<2x17x9xf32>, %b: memref<2x9x33xf32>, %c: memref<2x17x33xf32>) {
  "tensor.generic"(%a, %b, %c) <{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<2x17x9xf32>, memref<2x9x33xf32>, memref<2x17x33xf32>) -> ()
  return
}

// -----

// An integer product as dynamic quantization writes it: u8 activations minus
// their zero point (read once, broadcast), s8 weights, i32 accumulators. The
// body is cloned on vectors: B's row widened from 16 x i8, A's element
// broadcast and widened, `muli` and `addi` on 16 lanes of i32.
// CHECK-LABEL: func.func @u8s8_product
// CHECK: "memref.load"(%arg2)
// CHECK: "vector.broadcast"{{.*}} : (i8) -> vector<16xi8>
// CHECK: "scf.for"
// CHECK: "vector.maskedload"(%arg1{{.*}} -> vector<16xi8>
// CHECK: arith.extsi {{.*}} : vector<16xi8> to vector<16xi32>
// CHECK: arith.extui {{.*}} : vector<16xi8> to vector<16xi32>
// CHECK: arith.subi {{.*}} : vector<16xi32>
// CHECK: arith.muli {{.*}} : vector<16xi32>
// CHECK: arith.addi {{.*}} : vector<16xi32>
// CHECK: "vector.maskedstore"(%arg3
func.func @u8s8_product(%a: memref<3x5xi8>, %b: memref<5x20xi8>, %za: memref<i8>, %c: memref<3x20xi32>) {
  "tensor.generic"(%a, %b, %za, %c) <{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], operandSegmentSizes = array<i32: 3, 1>}> ({
  ^bb0(%x: i8, %w: i8, %z: i8, %acc: i32):
    %xe = arith.extui %x : i8 to i32
    %we = arith.extsi %w : i8 to i32
    %ze = arith.extui %z : i8 to i32
    %d = arith.subi %xe, %ze : i32
    %p = arith.muli %d, %we : i32
    %s = arith.addi %acc, %p : i32
    "tensor.yield"(%s) : (i32) -> ()
  }) : (memref<3x5xi8>, memref<5x20xi8>, memref<i8>, memref<3x20xi32>) -> ()
  return
}

// -----

// An integer division stays scalar: a masked-off lane would divide by zero.
// CHECK-LABEL: func.func @int_div
// CHECK-NOT: vector.
// CHECK: arith.divsi {{.*}} : i32
// CHECK-NOT: vector.
// CHECK: return
func.func @int_div(%a: memref<40xi32>, %b: memref<40xi32>, %c: memref<40xi32>) {
  "tensor.generic"(%a, %b, %c) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: i32, %y: i32, %o: i32):
    %q = arith.divsi %x, %y : i32
    "tensor.yield"(%q) : (i32) -> ()
  }) : (memref<40xi32>, memref<40xi32>, memref<40xi32>) -> ()
  return
}

// -----

// A loop of one iteration is no loop (its index is 0), so the outermost loop
// is one that can be split; it writes its own row of the output in each
// iteration: `npu.parallel`.
// CHECK-LABEL: func.func @unit_batch
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK: "scf.for"
// CHECK: "memref.load"(%arg0, %[[Z]],
// CHECK: }) {npu.parallel} : (index, index, index) -> ()
// CHECK-NEXT: return
func.func @unit_batch(%a: memref<1x6x3xf32>, %o: memref<1x6x3xf32>) {
  "tensor.generic"(%a, %o) <{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    %e = "math.exp"(%x) : (f32) -> f32
    "tensor.yield"(%e) : (f32) -> ()
  }) : (memref<1x6x3xf32>, memref<1x6x3xf32>) -> ()
  return
}

// -----

// Not parallel: an iteration reads an element of the output buffer another
// writes (a shifted map on the same buffer, or a load in the body), two
// outputs on one buffer, and a loop the output does not index (a reduction
// into one value).
// CHECK-LABEL: func.func @not_parallel
// CHECK-NOT: npu.parallel
// CHECK: return
func.func @not_parallel(%o: memref<9xf32>, %r: memref<f32>, %p: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %o8 = "memref.subview"(%o) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 1>, static_sizes = array<i64: 8>, static_strides = array<i64: 1>}> : (memref<9xf32>) -> memref<8xf32, strided<[1], offset: 1>>
  "tensor.generic"(%p, %o8) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    %first = "memref.load"(%o, %c0) : (memref<9xf32>, index) -> f32
    %e = arith.addf %x, %first : f32
    "tensor.yield"(%e) : (f32) -> ()
  }) : (memref<8xf32>, memref<8xf32, strided<[1], offset: 1>>) -> ()
  %lo = "memref.subview"(%o) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 4>, static_strides = array<i64: 1>}> : (memref<9xf32>) -> memref<4xf32, strided<[1]>>
  %hi = "memref.subview"(%o) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 4>, static_sizes = array<i64: 4>, static_strides = array<i64: 2>}> : (memref<9xf32>) -> memref<4xf32, strided<[2], offset: 4>>
  "tensor.generic"(%p, %lo, %hi) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    "tensor.yield"(%x, %x) : (f32, f32) -> ()
  }) : (memref<8xf32>, memref<4xf32, strided<[1]>>, memref<4xf32, strided<[2], offset: 4>>) -> ()
  %v = "memref.subview"(%o) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 1>, static_sizes = array<i64: 8>, static_strides = array<i64: 1>}> : (memref<9xf32>) -> memref<8xf32, strided<[1], offset: 1>>
  %w = "memref.subview"(%o) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 8>, static_strides = array<i64: 1>}> : (memref<9xf32>) -> memref<8xf32, strided<[1]>>
  "tensor.generic"(%v, %w) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    %e = "math.exp"(%x) : (f32) -> f32
    "tensor.yield"(%e) : (f32) -> ()
  }) : (memref<8xf32, strided<[1], offset: 1>>, memref<8xf32, strided<[1]>>) -> ()
  "tensor.generic"(%o, %r) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<9xf32>, memref<f32>) -> ()
  return
}

// -----

// A copy into the interior of a zero-padded buffer (a Conv's padding) writes
// at j + 1: still 16 lanes at a time, one masked load and one masked store at
// the offset column.
// CHECK-LABEL: func.func @pad_interior
// CHECK: "scf.for"
// CHECK: %[[M:.*]] = "vector.create_mask"
// CHECK: %[[R:.*]] = arith.addi %arg2, %{{.*}} : index
// CHECK: %[[C:.*]] = arith.addi %arg3, %{{.*}} : index
// CHECK: %[[V:.*]] = "vector.maskedload"(%arg0, %arg2, %arg3, %[[M]]
// CHECK: "vector.maskedstore"(%arg1, %[[R]], %[[C]], %[[M]], %[[V]])
// CHECK-NOT: "memref.store"
func.func @pad_interior(%x: memref<4x20xf32>, %p: memref<6x22xf32>) {
  "tensor.generic"(%x, %p) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0 + 1, d1 + 1)>], iterator_types = ["parallel", "parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%a: f32, %b: f32):
    "tensor.yield"(%a) : (f32) -> ()
  }) : (memref<4x20xf32>, memref<6x22xf32>) -> ()
  return
}

// -----

// A direct convolution (stride 1): C[m, oh, ow] += W[m, c, kh, kw] ·
// X[c, oh + kh, ow + kw]. The contraction kernel takes it: j = ow (X's row
// read at ow + kw, one vector), i = m (the innermost index of C that X does
// not use), three reduction loops (c, kh, kw) carrying the accumulators, no
// panel (no single k to pack along).
// CHECK-LABEL: func.func @direct_conv
// CHECK-NOT: "memref.alloc"
// CHECK: "scf.for"
// CHECK: %[[K1:.*]]:{{[0-9]+}} = "scf.for"
// CHECK-NEXT: ^bb0(%[[C:.*]]: index,
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0(%[[KH:.*]]: index,
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0(%[[KW:.*]]: index,
// CHECK: %[[COL:.*]] = arith.addi %{{.*}}, %[[KW]] : index
// CHECK: "vector.maskedload"(%arg1, %[[C]], %{{.*}}, %[[COL]]
// CHECK: "memref.load"(%arg0, %{{.*}}, %[[C]], %[[KH]], %[[KW]])
// CHECK: "vector.fma"
func.func @direct_conv(%w: memref<8x3x3x3xf32>, %x: memref<3x6x22xf32>, %o: memref<8x4x20xf32>) {
  "tensor.generic"(%w, %x, %o) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1 + d4, d2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<8x3x3x3xf32>, memref<3x6x22xf32>, memref<8x4x20xf32>) -> ()
  return
}

// -----

// A product of 16 rows over K = 200 after a fill of its output with a bias
// row: k runs in blocks of 128 (a 128x32 panel, B's rows prefetched 8 ahead
// while it is copied, the last block up to K); one copy of the kernel, whose
// accumulators start from the bias (loaded along j, no loop of the fill's
// own) in the first block and from C in the others.
// CHECK-LABEL: func.func @fill_blocks
// CHECK-NOT: "tensor.yield"
// CHECK: "memref.alloc"() {{.*}} -> memref<128x32xf32>
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0(%[[KB:.*]]: index):
// CHECK: arith.minsi
// CHECK: "memref.prefetch"(%arg1
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[KB]],
// CHECK: "scf.if"(%[[FIRST]])
// CHECK: "vector.maskedload"(%arg2
// CHECK-NOT: "vector.maskedload"(%arg3
// CHECK: "scf.yield"
// CHECK: "vector.maskedload"(%arg3
// CHECK: "vector.fma"
// CHECK: "vector.maskedstore"(%arg3
// CHECK: "memref.dealloc"
func.func @fill_blocks(%a: memref<16x200xf32>, %b: memref<200x64xf32>, %bias: memref<64xf32>, %c: memref<16x64xf32>) {
  "tensor.generic"(%bias, %c) <{indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %o: f32):
    "tensor.yield"(%x) : (f32) -> ()
  }) : (memref<64xf32>, memref<16x64xf32>) -> ()
  "tensor.generic"(%a, %b, %c) <{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<16x200xf32>, memref<200x64xf32>, memref<16x64xf32>) -> ()
  return
}

// -----

// The same depthwise conv after a fill of its output with one bias per
// channel: the four accumulators start from the bias (a scalar load and a
// broadcast per channel), the fill has no loops of its own, and the output
// is only written.
// CHECK-LABEL: func.func @depthwise_bias
// CHECK-NOT: "tensor.yield"
// CHECK-NOT: "vector.maskedload"(%arg3
// CHECK: "memref.load"(%arg2
// CHECK: "vector.broadcast"
// CHECK: "vector.fma"
// CHECK-NOT: "vector.maskedload"(%arg3
// CHECK-COUNT-4: "vector.maskedstore"(%arg3
func.func @depthwise_bias(%x: memref<8x16x16xf32>, %w: memref<8x3x3xf32>, %bias: memref<8xf32>, %o: memref<8x14x14xf32>) {
  "tensor.generic"(%bias, %o) <{indexing_maps = [affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%b: f32, %old: f32):
    "tensor.yield"(%b) : (f32) -> ()
  }) : (memref<8xf32>, memref<8x14x14xf32>) -> ()
  "tensor.generic"(%x, %w, %o) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d2 + d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<8x16x16xf32>, memref<8x3x3xf32>, memref<8x14x14xf32>) -> ()
  return
}

// -----

// 49 columns (a 7x7 map's) fit in one tile of 4 vectors: no column loop, so
// A is read once; the panel is packed once at the top (a loop of its own)
// and the loop over full tiles of 6 rows is the one threads split
// (`npu.parallel`); the 4 rows left run after it.
// CHECK-LABEL: func.func @one_tile
// CHECK-NEXT: arith.constant
// CHECK: %[[P:.*]] = "memref.alloc"() {{.*}} -> memref<100x64xf32>
// CHECK: "scf.for"
// CHECK: "vector.store"({{.*}}, %[[P]]
// CHECK: }) : (index, index, index) -> ()
// CHECK-NEXT: %{{.*}} = arith.constant
// CHECK: "scf.for"
// CHECK: "vector.load"(%[[P]]
// CHECK: }) {npu.parallel} : (index, index, index) -> ()
// CHECK: "scf.for"
// CHECK: }) : (index, index, index) -> ()
// CHECK-NEXT: "memref.dealloc"(%[[P]])
// CHECK-NEXT: return
func.func @one_tile(%a: memref<40x100xf32>, %b: memref<100x49xf32>, %c: memref<40x49xf32>) {
  "tensor.generic"(%a, %b, %c) <{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<40x100xf32>, memref<100x49xf32>, memref<40x49xf32>) -> ()
  return
}

// -----

// A product that reads its own output (A is C) keeps the fill before it as
// a loop of its own: the fill's values must be in memory when A is read.
// CHECK-LABEL: func.func @fill_read
// CHECK: "scf.for"
// CHECK: "vector.maskedload"(%arg0
// CHECK: "vector.maskedstore"(%arg2
// CHECK: "scf.for"
// CHECK-NOT: "vector.maskedload"(%arg0
// CHECK: return
func.func @fill_read(%bias: memref<16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) {
  "tensor.generic"(%bias, %c) <{indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %o: f32):
    "tensor.yield"(%x) : (f32) -> ()
  }) : (memref<16xf32>, memref<16x16xf32>) -> ()
  "tensor.generic"(%c, %b, %c) <{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<16x16xf32>, memref<16x16xf32>, memref<16x16xf32>) -> ()
  return
}

// -----

// A tile two vectors wide is 12 rows high (24 accumulators, 2 loads of B and
// 12 broadcasts of A per k): 20 rows run as one tile of 12 and one of 8.
// CHECK-LABEL: func.func @two_wide
// CHECK: %{{.*}}:24 = "scf.for"
// CHECK-COUNT-24: "vector.fma"
// CHECK: %{{.*}}:16 = "scf.for"
func.func @two_wide(%a: memref<20x37xf32>, %b: memref<37x32xf32>, %c: memref<20x32xf32>) {
  "tensor.generic"(%a, %b, %c) <{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<20x37xf32>, memref<37x32xf32>, memref<20x32xf32>) -> ()
  return
}
