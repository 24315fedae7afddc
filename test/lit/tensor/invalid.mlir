// Each verifier error of the tensor dialect.
// RUN: npu-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: tensor<4xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op operandSegmentSizes says 1 inputs and 2 outputs but the op has 2 operands}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%x: f32, %y: f32):
    "tensor.yield"(%x) : (f32) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op expects one result per output on tensors (1), got 0}}
  "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    "tensor.yield"(%x) : (f32) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> ()
  return
}

// -----

func.func @f(%a: memref<4xf32>, %e: memref<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op expects no results when the outputs are memrefs}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    "tensor.yield"(%x) : (f32) -> ()
  }) : (memref<4xf32>, memref<4xf32>) -> f32
  return
}

// -----

func.func @f(%a: tensor<4xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op expects one indexing map per operand (2), got 1}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    "tensor.yield"(%x) : (f32) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op expects indexing_maps to hold affine maps}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [1, 2], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    "tensor.yield"(%x) : (f32) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op indexing map #0 has 2 dims but the op has 1 loops}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    "tensor.yield"(%x) : (f32) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op indexing map #0 has 2 results but operand #0 has rank 1}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0) -> (d0, d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    "tensor.yield"(%x) : (f32) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op output #0 must be indexed by plain loop dimensions}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0 floordiv 2)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    "tensor.yield"(%x) : (f32) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op loop_ranges has 2 entries but the op has 1 loops}}
  %r = "tensor.generic"(%e) <{indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], loop_ranges = array<i64: 4, 4>, operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%y: f32):
    "tensor.yield"(%y) : (f32) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op the size of loop #1 is not given by any operand; set loop_ranges}}
  %r = "tensor.generic"(%e) <{indexing_maps = [affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%y: f32):
    "tensor.yield"(%y) : (f32) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op indexing map #0 reads dim 0 of operand #0 at 1..=4, outside 0..4}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0) -> (d0 + 1)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    "tensor.yield"(%x) : (f32) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op expects the body to take 2 element arguments, got 1}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32):
    "tensor.yield"(%x) : (f32) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op body argument #0 must have the element type of operand #0}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f64, %y: f32):
    "tensor.yield"(%y) : (f32) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op expects the body to yield 1 values, got 2}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    "tensor.yield"(%x, %y) : (f32, f32) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4xf32>, %e: tensor<4xf32>, %i: i32) {
  // expected-error @+1 {{'tensor.generic' op yielded value #0 must have output #0's element type}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    "tensor.yield"(%i) : (i32) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%e: tensor<4xf32>) {
  %r = "tensor.generic"(%e) <{indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%y: f32):
    // expected-error @+1 {{'tensor.index' op dim 3 is out of range for a generic with 1 loops}}
    %i = "tensor.index"() <{dim = 3 : i64}> : () -> index
    "tensor.yield"(%y) : (f32) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'tensor.index' op expects to be inside a tensor.generic}}
  %i = "tensor.index"() <{dim = 0 : i64}> : () -> index
  return
}

// -----

func.func @f(%n: index) {
  // expected-error @+1 {{'tensor.empty' op expects 1 size operands for the dynamic dimensions, got 0}}
  %e = "tensor.empty"() : () -> tensor<?x4xf32>
  return
}

// -----

func.func @f(%t: tensor<4x4xf32>, %i: index) {
  // expected-error @+1 {{'tensor.extract' op expects 2 indices, got 1}}
  %v = "tensor.extract"(%t, %i) : (tensor<4x4xf32>, index) -> f32
  return
}

// -----

func.func @f(%t: tensor<4xf32>, %i: i32) {
  // expected-error @+1 {{'tensor.extract' op expects indices of index type}}
  %v = "tensor.extract"(%t, %i) : (tensor<4xf32>, i32) -> f32
  return
}

// -----

func.func @f(%t: tensor<4xf32>, %i: index) {
  // expected-error @+1 {{'tensor.extract' op expects the result to have the element type}}
  %v = "tensor.extract"(%t, %i) : (tensor<4xf32>, index) -> f64
  return
}

// -----

func.func @f(%t: tensor<2x3xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op expects 1 reassociation groups, got 2}}
  %c = "tensor.collapse_shape"(%t) <{reassociation = [[0], [1]]}> : (tensor<2x3xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @f(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op expects reassociation groups to list consecutive dims in order}}
  %c = "tensor.collapse_shape"(%t) <{reassociation = [[0, 2], [1]]}> : (tensor<2x3x4xf32>) -> tensor<8x3xf32>
  return
}

// -----

func.func @f(%t: tensor<2x3xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op expects dims [0, 1] (product 6) to form a dim of size 5}}
  %c = "tensor.collapse_shape"(%t) <{reassociation = [[0, 1]]}> : (tensor<2x3xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @f(%t: tensor<6xf32>) {
  // expected-error @+1 {{'tensor.expand_shape' op expects source and result of one element type}}
  %c = "tensor.expand_shape"(%t) <{reassociation = [[0, 1]], static_output_shape = array<i64: 2, 3>}> : (tensor<6xf32>) -> tensor<2x3xf64>
  return
}

// -----

func.func @f(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op expects reassociation groups to cover every dim}}
  %c = "tensor.collapse_shape"(%t) <{reassociation = [[0, 1]]}> : (tensor<2x3x4xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @f(%a: tensor<4x5xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op expects the epilogue to take 1 output values then 1 input elements, got 1 arguments}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    "tensor.yield"(%s) : (f32) -> ()
  }, {
  ^bb0(%v: f32):
    "tensor.yield"(%v) : (f32) -> ()
  }) : (tensor<4x5xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4x5xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op epilogue argument #1 must have its operand's element type}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    "tensor.yield"(%s) : (f32) -> ()
  }, {
  ^bb0(%v: f32, %y: f64):
    "tensor.yield"(%v) : (f32) -> ()
  }) : (tensor<4x5xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4x5xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op the epilogue reads input #0, whose map uses a reduction loop}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    "tensor.yield"(%s) : (f32) -> ()
  }, {
  ^bb0(%v: f32, %y: f32):
    %t = arith.addf %v, %y : f32
    "tensor.yield"(%t) : (f32) -> ()
  }) : (tensor<4x5xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op expects a body and at most an epilogue region}}
  %r = "tensor.generic"(%e) <{indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%y: f32):
    "tensor.yield"(%y) : (f32) -> ()
  }, {
  ^bb0(%v: f32):
    "tensor.yield"(%v) : (f32) -> ()
  }, {
  ^bb0(%w: f32):
    "tensor.yield"(%w) : (f32) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4x5xf32>, %e: tensor<4xf32>, %i: i32) {
  // expected-error @+1 {{'tensor.generic' op yielded value #0 must have output #0's element type}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    "tensor.yield"(%s) : (f32) -> ()
  }, {
  ^bb0(%v: f32, %y: f32):
    "tensor.yield"(%i) : (i32) -> ()
  }) : (tensor<4x5xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%r: tensor<3xf32>, %d: tensor<5x3xf32>, %i: index) {
  // expected-error @+1 {{'tensor.insert_row' op dim 2 is out of range for a rank-2 destination}}
  %0 = "tensor.insert_row"(%r, %d, %i) <{dim = 2 : i64}> : (tensor<3xf32>, tensor<5x3xf32>, index) -> tensor<5x3xf32>
  return
}

// -----

func.func @f(%r: tensor<3xf32>, %d: tensor<5x3xf32>, %i: index) {
  // expected-error @+1 {{'tensor.insert_row' op expects a source of the destination's shape without dim 1 and its element type, got tensor<3xf32>}}
  %0 = "tensor.insert_row"(%r, %d, %i) <{dim = 1 : i64}> : (tensor<3xf32>, tensor<5x3xf32>, index) -> tensor<5x3xf32>
  return
}

// -----

func.func @f(%r: tensor<3xf32>, %d: tensor<5x3xf32>, %i: i64) {
  // expected-error @+1 {{'tensor.insert_row' op expects an offset of index type}}
  %0 = "tensor.insert_row"(%r, %d, %i) <{dim = 0 : i64}> : (tensor<3xf32>, tensor<5x3xf32>, i64) -> tensor<5x3xf32>
  return
}

// -----

func.func @f(%r: tensor<3xf32>, %d: tensor<5x3xf32>, %i: index) {
  // expected-error @+1 {{'tensor.insert_row' op expects the result to have the destination's type}}
  %0 = "tensor.insert_row"(%r, %d, %i) <{dim = 0 : i64}> : (tensor<3xf32>, tensor<5x3xf32>, index) -> tensor<6x3xf32>
  return
}

// -----

func.func @f(%s: tensor<f32>) {
  // expected-error @+1 {{'tensor.expand_shape' op expects reassociation groups to cover every dim}}
  %e = "tensor.expand_shape"(%s) <{reassociation = [], static_output_shape = array<i64: 2>}> : (tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @f(%a: tensor<4xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op indexing map #0 result 0 cannot be bounded}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0)[s0] -> (s0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    "tensor.yield"(%x) : (f32) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4xf32>, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.generic' op expects a body block}}
  %r = "tensor.generic"(%a, %e) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%t: f32, %i: index) {
  // expected-error @+1 {{'tensor.extract' op expects a ranked tensor or memref operand}}
  %v = "tensor.extract"(%t, %i) : (f32, index) -> f32
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'tensor.empty' op expects a ranked tensor result}}
  %e = "tensor.empty"() : () -> f32
  return
}

// -----

func.func @f(%r: f32, %d: f32, %i: index) {
  // expected-error @+1 {{'tensor.insert_row' op expects a ranked destination}}
  %0 = "tensor.insert_row"(%r, %d, %i) <{dim = 0 : i64}> : (f32, f32, index) -> f32
  return
}

// -----

func.func @f(%t: tensor<2x3xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op expects reassociation to be a list of lists of dims}}
  %c = "tensor.collapse_shape"(%t) <{reassociation = [0, 1]}> : (tensor<2x3xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @f(%t: f32) {
  // expected-error @+1 {{'tensor.collapse_shape' op expects ranked types}}
  %c = "tensor.collapse_shape"(%t) <{reassociation = [[0]]}> : (f32) -> tensor<1xf32>
  return
}

// -----

func.func @f(%t: tensor<2x3xf32>) {
  // expected-error @+1 {{'tensor.collapse_shape' op expects non-empty reassociation groups}}
  %c = "tensor.collapse_shape"(%t) <{reassociation = [[], [0, 1]]}> : (tensor<2x3xf32>) -> tensor<1x6xf32>
  return
}
