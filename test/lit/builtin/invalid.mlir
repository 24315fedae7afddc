// Verifier errors of the core: structure, dominance, isolation, symbols, terminators.
// RUN: npu-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @f() {
  // expected-error @+1 {{'foo.use' op operand #0 does not dominate this use}}
  "foo.use"(%0) : (i32) -> ()
  // expected-note @+1 {{operand defined here}}
  %0 = "foo.def"() : () -> i32
  return
}

// -----

func.func @f(%c: i1) {
  "foo.br"()[^bb1, ^bb2] : () -> ()
^bb1:
  // expected-note @+1 {{operand defined here}}
  %0 = "foo.def"() : () -> i32
  "foo.br"()[^bb3] : () -> ()
^bb2:
  "foo.br"()[^bb3] : () -> ()
^bb3:
  // expected-error @+1 {{'foo.use' op operand #0 does not dominate this use}}
  "foo.use"(%0) : (i32) -> ()
  return
}

// -----

func.func @outer() {
  %0 = "foo.def"() : () -> i32
  "foo.region"() ({
    func.func @inner() {
      // Values above an isolated op are not even in scope for the parser.
      // expected-error @+1 {{use of undeclared SSA value name '%0'}}
      "foo.use"(%0) : (i32) -> ()
      return
    }
    "foo.end"() : () -> ()
  }) : () -> ()
  return
}

// -----

// expected-note @+1 {{operand defined here}}
%0 = "foo.self"() ({
  // expected-error @+1 {{'foo.use' op operand #0 does not dominate this use}}
  "foo.use"(%0) : (i32) -> ()
}) : () -> i32

// -----

// expected-note @+1 {{see existing symbol definition here}}
func.func private @dup()
// expected-error @+1 {{redefinition of symbol named 'dup'}}
func.func private @dup()

// -----

// expected-error @+1 {{'builtin.module' op requires 1 regions, but found 0}}
"builtin.module"() : () -> ()

// -----

// expected-error @+1 {{'builtin.module' op expects region #0 to have 0 or 1 blocks}}
"builtin.module"() ({
  "foo.br"()[^bb1] : () -> ()
^bb1:
  "foo.x"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'builtin.module' op attribute 'sym_name' failed to satisfy constraint: a string attribute}}
"builtin.module"() <{sym_name = 3 : i32}> ({
}) : () -> ()

// -----

"foo.op"() ({
  // Blocks are scoped to their region: the parser rejects the reference.
  // expected-error @+1 {{reference to an undefined block '^bb1'}}
  "foo.br"()[^bb1] : () -> ()
}, {
^bb1:
  "foo.x"() : () -> ()
}) : () -> ()

// -----

"foo.op"() ({
  // expected-error @+1 {{'foo.br' op with successors must be the last operation in its block}}
  "foo.br"()[^bb1] : () -> ()
  "foo.x"() : () -> ()
^bb1:
  "foo.y"() : () -> ()
}) : () -> ()

// -----

// A top-level op's successor: no block of that name is ever defined there, so
// the target belongs to no region.
// expected-error @+1 {{'foo.br' op successor #0 refers to a block defined in another region}}
"foo.br"()[^bb1] : () -> ()
