// Unregistered dialects are rejected unless --allow-unregistered-dialect is given.
// RUN: npu-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{operation being parsed with an unregistered dialect ('foo.bar'); use --allow-unregistered-dialect to allow it}}
"foo.bar"() : () -> ()

// -----

// expected-error @+1 {{unregistered operation 'arith.frobnicate' found in dialect ('arith') that does not allow unknown operations}}
"arith.frobnicate"() : () -> ()

// -----

// expected-error @+1 {{dialect 'acme' provides no type parser for '!acme.buf'}}
func.func private @f(!acme.buf<4xi8>)

// -----

// expected-error @+1 {{dialect 'acme' provides no attribute parser for '#acme.tile'}}
func.func private @f() attributes {t = #acme.tile<4>}
