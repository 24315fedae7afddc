// The designator forms of expected-*: @+N, @-N, @above, @below, -re, notes.
// RUN: npu-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @f(%a: i32) -> i64 {
  return %a : i32
  // expected-error @-1 {{doesn't match function result type}}
}

// -----

func.func @f(%a: i32) -> i64 {
  // expected-error @below {{doesn't match function result type}}
  return %a : i32
}

// -----

func.func @f(%a: i32) -> i64 {
  return %a : i32
  // expected-error @above {{doesn't match function result type}}
}

// -----

func.func @f(%a: i32) -> i64 {
  return %a : i32 // expected-error-re {{type of return operand {{[0-9]}} ('i{{[0-9]+}}')}}
}

// -----

func.func @f() {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  "foo.use"(%0) : (i32) -> ()
  // expected-note @+1 {{operand defined here}}
  %0 = "foo.def"() : () -> i32
  return
}
