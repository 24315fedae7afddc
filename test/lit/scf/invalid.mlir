// Each verifier error of the scf dialect.
// RUN: npu-opt %s --split-input-file --verify-diagnostics

func.func @f(%lb: index, %x: f32) {
  // expected-error @+1 {{'scf.for' op expects as many results (0) as loop-carried values (1)}}
  "scf.for"(%lb, %lb, %lb, %x) ({
  ^bb0(%i: index, %a: f32):
    "scf.yield"(%a) : (f32) -> ()
  }) : (index, index, index, f32) -> ()
  return
}

// -----

func.func @f(%lb: f32) {
  // expected-error @+1 {{'scf.for' op expects lower bound, upper bound and step of index or integer type}}
  "scf.for"(%lb, %lb, %lb) ({
  ^bb0(%i: f32):
    "scf.yield"() : () -> ()
  }) : (f32, f32, f32) -> ()
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error @+1 {{'scf.for' op expects the body to take the induction variable and 0 loop-carried values}}
  "scf.for"(%lb, %lb, %lb) ({
  ^bb0(%i: index, %j: index):
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  // expected-error @+1 {{'scf.for' op expects loop-carried value #0 to have the type of its initial value}}
  %r = "scf.for"(%lb, %lb, %lb, %x) ({
  ^bb0(%i: index, %a: f64):
    "scf.yield"(%a) : (f64) -> ()
  }) : (index, index, index, f32) -> f32
  return
}

// -----

func.func @f(%c: i1, %x: f32) {
  // expected-error @+1 {{'scf.if' op must have an else region when it has results}}
  %r = "scf.if"(%c) ({
    "scf.yield"(%x) : (f32) -> ()
  }, {
  }) : (i1) -> f32
  return
}

// -----

func.func @f(%c: i1) {
  // expected-error @+1 {{'scf.if' op expects a non-empty then region}}
  "scf.if"(%c) ({
  }, {
  }) : (i1) -> ()
  return
}

// -----

func.func @f(%c: i1, %x: f32, %y: i32) -> f32 {
  // expected-error @+1 {{'scf.if' op expects the else region to yield the result types}}
  %r = "scf.if"(%c) ({
    "scf.yield"(%x) : (f32) -> ()
  }, {
    "scf.yield"(%y) : (i32) -> ()
  }) : (i1) -> f32
  return %r : f32
}

// -----

func.func @f(%x: f32, %n: i32) {
  // expected-error @+1 {{'scf.while' op expects the before region to take the operands' types}}
  "scf.while"(%x) ({
  ^bb0(%a: i32):
    %c = "arith.constant"() <{value = true}> : () -> i1
    "scf.condition"(%c, %a) : (i1, i32) -> ()
  }, {
  ^bb0(%a: i32):
    "scf.yield"(%a) : (i32) -> ()
  }) : (f32) -> i32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+1 {{'scf.while' op expects scf.condition to take an i1 and forward the results' types}}
  "scf.while"(%x) ({
  ^bb0(%a: f32):
    "scf.condition"(%a, %a) : (f32, f32) -> ()
  }, {
  ^bb0(%a: f32):
    "scf.yield"(%a) : (f32) -> ()
  }) : (f32) -> f32
  return
}

// -----

func.func @f(%x: f32, %n: i32) {
  // expected-error @+1 {{'scf.while' op expects the after region to take the results' types}}
  "scf.while"(%x) ({
  ^bb0(%a: f32):
    %c = "arith.constant"() <{value = true}> : () -> i1
    "scf.condition"(%c, %a) : (i1, f32) -> ()
  }, {
  ^bb0(%a: i32):
    "scf.yield"(%x) : (f32) -> ()
  }) : (f32) -> f32
  return
}

// -----

func.func @f(%x: f32, %n: i32) {
  // expected-error @+1 {{'scf.while' op expects the after region to yield the operands' types}}
  "scf.while"(%x) ({
  ^bb0(%a: f32):
    %c = "arith.constant"() <{value = true}> : () -> i1
    "scf.condition"(%c, %a) : (i1, f32) -> ()
  }, {
  ^bb0(%a: f32):
    "scf.yield"(%n) : (i32) -> ()
  }) : (f32) -> f32
  return
}
