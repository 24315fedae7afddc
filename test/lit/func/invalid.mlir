// Each verifier error of the func dialect.
// RUN: npu-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @f(%a: i32) -> i64 {
  // expected-error @+1 {{'func.return' op type of return operand 0 ('i32') doesn't match function result type ('i64') in function @f}}
  return %a : i32
}

// -----

func.func @f(%a: i32) -> (i32, i32) {
  // expected-error @+1 {{'func.return' op has 1 operands, but enclosing function (@f) returns 2}}
  return %a : i32
}

// -----

// expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
"func.return"() : () -> ()

// -----

func.func @f() {
  // expected-error @+1 {{'func.return' op must be the last operation in the parent block}}
  return
  "foo.after"() : () -> ()
}

// -----

// expected-error @+1 {{'func.func' op block must end with a terminator operation}}
func.func @f() {
  // expected-note @+1 {{last operation is 'arith.constant'}}
  %0 = arith.constant 1 : i32
}

// -----

// expected-error @+1 {{'func.func' op empty block: expect at least a terminator}}
"func.func"() <{function_type = () -> (), sym_name = "f"}> ({
^bb0:
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
"func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
^bb0(%a: i64):
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op entry block must have 1 arguments to match function signature}}
"func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op requires attribute 'function_type'}}
"func.func"() <{sym_name = "f"}> ({
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op attribute 'function_type' failed to satisfy constraint: a function type attribute}}
"func.func"() <{function_type = i32, sym_name = "f"}> ({
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func @decl(i32)

// -----

// expected-error @+1 {{'func.func' op expects 'arg_attrs' to be an array of 1 dictionaries}}
"func.func"() <{arg_attrs = [1], function_type = (i32) -> (), sym_name = "f", sym_visibility = "private"}> ({
}) : () -> ()

// -----

func.func @f() {
  // expected-error @+1 {{'func.call' op 'missing' does not reference a valid function}}
  call @missing() : () -> ()
  return
}

// -----

func.func private @g(i32) -> i32
func.func @f(%a: i64) {
  // expected-error @+1 {{'func.call' op operand type mismatch: expected operand type 'i32', but provided 'i64' for operand number 0}}
  %0 = call @g(%a) : (i64) -> i32
  return
}

// -----

func.func private @g(i32) -> i32
func.func @f(%a: i32) {
  // expected-error @+1 {{'func.call' op incorrect number of operands for callee}}
  %0 = "func.call"(%a, %a) <{callee = @g}> : (i32, i32) -> i32
  return
}

// -----

func.func private @g(i32) -> i32
func.func @f(%a: i32) {
  // expected-error @+1 {{'func.call' op result type mismatch at index 0}}
  %0 = call @g(%a) : (i32) -> i64
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'func.call' op requires attribute 'callee'}}
  "func.call"() : () -> ()
  return
}

// -----

// expected-error @+1 {{invalid symbol visibility 'secret'}}
func.func secret @f()

// -----

// expected-error @+1 {{expected named arguments (%name: type) for a function with a body}}
func.func @f(i32) {
  return
}

// -----

func.func private @g(i32) -> i32
func.func @f(%a: i32) {
  // expected-error @+1 {{'func.call' op incorrect number of results for callee}}
  %0:2 = "func.call"(%a) <{callee = @g}> : (i32) -> (i32, i32)
  return
}

// -----

// Found by fuzzing: any string passed, and the custom form printed it as a
// keyword that does not parse back.
// expected-error @+1 {{'func.func' op visibility expected to be one of ["public", "private", "nested"], but got "falseprivate"}}
"func.func"() <{function_type = (i32) -> (), sym_name = "f", sym_visibility = "falseprivate"}> ({
}) : () -> ()
