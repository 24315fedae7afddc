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
