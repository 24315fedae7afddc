// Parse errors, each at its exact line and column.
// RUN: npu-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// expected-error @+1 {{expected operation name in quotes}}
= "foo.a"() : () -> ()

// -----

// expected-error @+1 {{custom op 'frobnicate' is unknown}}
frobnicate %x

// -----

func.func @f() {
  // expected-error @+1 {{use of undeclared SSA value name '%missing'}}
  "foo.use"(%missing) : (i32) -> ()
  return
}

// -----

func.func @f() {
  %0 = "foo.def"() : () -> i32
  // expected-error @+1 {{redefinition of SSA value '%0'}}
  %0 = "foo.def"() : () -> i32
  return
}

// -----

func.func @f() {
  %0 = "foo.def"() : () -> i32
  // expected-error @+1 {{use of value '%0' expects different type than prior uses: 'i64' vs 'i32'}}
  "foo.use"(%0) : (i64) -> ()
  return
}

// -----

// expected-error @+1 {{operation defines 1 results but was provided 2 to bind}}
%a, %b = "foo.one"() : () -> i32

// -----

// expected-error @+1 {{expected 1 operand type but had 0}}
"foo.use"(%x) : () -> ()

// -----

// expected-error @+1 {{reference to invalid result number 2 of '%m' (2 results)}}
"foo.use"(%m#2) : (i32) -> ()
%m:2 = "foo.two"() : () -> (i32, i32)

// -----

"foo.op"() ({
  // expected-error @+1 {{reference to an undefined block '^bb9'}}
  "foo.br"()[^bb9] : () -> ()
}) : () -> ()

// -----

"foo.op"() ({
^bb0:
  "foo.x"() : () -> ()
// expected-error @+1 {{redefinition of block '^bb0'}}
^bb0:
  "foo.x"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{expected non-function type}}
"foo.t"() : () -> (i32, )

// -----

// expected-error @+1 {{expected 'x' in dimension list}}
"foo.t"() : () -> tensor<4f32>

// -----

// expected-error @+1 {{vector types must have positive constant sizes}}
"foo.t"() : () -> vector<?xf32>

// -----

// expected-error @+1 {{invalid tensor element type 'tuple<>'}}
"foo.t"() : () -> tensor<4xtuple<>>

// -----

// expected-error @+1 {{integer constant out of range for attribute of type 'i8'}}
"foo.a"() {x = 256 : i8} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range for attribute of type 'ui8'}}
"foo.a"() {x = -1 : ui8} : () -> ()

// -----

// expected-error @+1 {{floating point value not valid for specified type 'i32'}}
"foo.a"() {x = 1.5 : i32} : () -> ()

// -----

// expected-error @+1 {{unexpected decimal integer literal for a floating point value}}
"foo.a"() {x = 1 : f32} : () -> ()

// -----

// expected-error @+1 {{hexadecimal float constant out of range for type 'f16'}}
"foo.a"() {x = 0x7FC00000 : f16} : () -> ()

// -----

// expected-error @+1 {{duplicate key 'x' in dictionary attribute}}
"foo.a"() {x = 1, x = 2} : () -> ()

// -----

// expected-error @+1 {{inferred shape of elements literal ([3]) does not match type ([2])}}
"foo.a"() {x = dense<[1, 2, 3]> : tensor<2xi32>} : () -> ()

// -----

// expected-error @+1 {{tensor literal is invalid; ranks are not consistent between elements}}
"foo.a"() {x = dense<[[1], 2]> : tensor<2x1xi32>} : () -> ()

// -----

// expected-error @+1 {{elements hex data size is invalid for provided type}}
"foo.a"() {x = dense<"0x010203"> : tensor<2xi16>} : () -> ()

// -----

// expected-error @+1 {{elements literal type must have a static shape}}
"foo.a"() {x = dense<1> : tensor<?xi32>} : () -> ()

// -----

// expected-error @+1 {{expected integer elements, but parsed floating-point}}
"foo.a"() {x = dense<[1.5]> : tensor<1xi32>} : () -> ()

// -----

// expected-error @+1 {{use of undeclared identifier 'd9' in affine expression}}
"foo.a"() {m = affine_map<(d0) -> (d9)>} : () -> ()

// -----

// expected-error @+1 {{non-affine expression: at least one of the multiply operands has to be either a constant or symbolic}}
"foo.a"() {m = affine_map<(d0, d1) -> (d0 * d1)>} : () -> ()

// -----

// expected-error @+1 {{undefined symbol alias id 'nope'}}
"foo.a"() {m = #nope} : () -> ()

// -----

// expected-error @+1 {{undefined symbol alias id 'nope'}}
"foo.a"() : () -> !nope

// -----

// expected-error @+1 {{expected '"' in string literal}}
"foo.a"() {s = "unterminated} : () -> ()

// -----

// expected-error @+1 {{unexpected character}}
"foo.a"() : () -> () ¤

// -----

// expected-error @+1 {{undefined location alias '#loc9'}}
"foo.a"() : () -> () loc(#loc9)

// -----

// expected-error @+1 {{expected location instance}}
"foo.a"() : () -> () loc(42)

// -----

// expected-error @+2 {{expected '}' to end a region}}
"foo.a"() ({
