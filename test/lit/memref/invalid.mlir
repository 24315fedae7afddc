// Each verifier error of the memref dialect.
// RUN: npu-opt %s --split-input-file --verify-diagnostics

func.func @f(%m: memref<4x4xf32>, %i: index) {
  // expected-error @+1 {{'memref.load' op expects 2 indices for a rank-2 memref, got 1}}
  %v = "memref.load"(%m, %i) : (memref<4x4xf32>, index) -> f32
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: i64) {
  // expected-error @+1 {{'memref.load' op expects indices of index type}}
  %v = "memref.load"(%m, %i) : (memref<4xf32>, i64) -> f32
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.load' op expects the value to have the memref's element type}}
  %v = "memref.load"(%m, %i) : (memref<4xf32>, index) -> f64
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index, %x: i32) {
  // expected-error @+1 {{'memref.store' op expects the value to have the memref's element type}}
  "memref.store"(%x, %m, %i) : (i32, memref<4xf32>, index) -> ()
  return
}

// -----

func.func @f(%x: f32, %i: index) {
  // expected-error @+1 {{'memref.store' op expects a ranked memref operand}}
  "memref.store"(%x, %x, %i) : (f32, f32, index) -> ()
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'memref.alloc' op expects 1 dynamic size operands for the result's dynamic dimensions, got 0}}
  %m = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<?xf32>
  return
}

// -----

func.func @f(%a: memref<4xf32>, %b: memref<5xf32>) {
  // expected-error @+1 {{'memref.copy' op expects source and target of the same shape and element type}}
  "memref.copy"(%a, %b) : (memref<4xf32>, memref<5xf32>) -> ()
  return
}

// -----

func.func @f(%m: memref<4x4xf32>, %i: index) {
  // expected-error @+1 {{'memref.prefetch' op expects 2 indices for a rank-2 memref, got 1}}
  "memref.prefetch"(%m, %i) <{isDataCache = true, isWrite = false, localityHint = 3 : i32}> : (memref<4x4xf32>, index) -> ()
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.prefetch' op expects a localityHint from 0 to 3}}
  "memref.prefetch"(%m, %i) <{isDataCache = true, isWrite = false, localityHint = 4 : i32}> : (memref<4xf32>, index) -> ()
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'memref.alloc' op expects a ranked memref result}}
  %m = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> f32
  return
}

// -----

func.func @f(%a: f32, %b: memref<4xf32>) {
  // expected-error @+1 {{'memref.copy' op expects memref operands}}
  "memref.copy"(%a, %b) : (f32, memref<4xf32>) -> ()
  return
}

// -----

func.func @f(%a: memref<4xf32>, %b: f32) {
  // expected-error @+1 {{'memref.copy' op expects memref operands}}
  "memref.copy"(%a, %b) : (memref<4xf32>, f32) -> ()
  return
}

// -----

func.func @f(%m: memref<64xf32>, %i: index) {
  // expected-error @+1 {{'memref.view' op expects a 1-D memref of i8 without a layout as its source}}
  %v = "memref.view"(%m, %i) : (memref<64xf32>, index) -> memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<64xi8>, %i: i64) {
  // expected-error @+1 {{'memref.view' op expects the byte shift and sizes of index type}}
  %v = "memref.view"(%m, %i) : (memref<64xi8>, i64) -> memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<64xi8>, %i: index) {
  // expected-error @+1 {{'memref.view' op expects a memref result without a layout}}
  %v = "memref.view"(%m, %i) : (memref<64xi8>, index) -> memref<2x2xf32, strided<[4, 1]>>
  return
}

// -----

func.func @f(%m: memref<64xi8>, %i: index) {
  // expected-error @+1 {{'memref.view' op expects 1 size operands for the result's dynamic dimensions, got 0}}
  %v = "memref.view"(%m, %i) : (memref<64xi8>, index) -> memref<?x4xf32>
  return
}
