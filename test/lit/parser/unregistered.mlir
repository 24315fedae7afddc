// Unregistered dialects are rejected unless --allow-unregistered-dialect is given.
// RUN: npu-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{operation being parsed with an unregistered dialect ('foo.bar'); use --allow-unregistered-dialect to allow it}}
"foo.bar"() : () -> ()

// -----

// expected-error @+1 {{unregistered operation 'arith.frobnicate' found in dialect ('arith') that does not allow unknown operations}}
"arith.frobnicate"() : () -> ()

// -----

// expected-error @+1 {{dialect 'npu' provides no type parser for '!npu.buf'}}
func.func private @f(!npu.buf<4xi8>)

// -----

// expected-error @+1 {{dialect 'npu' provides no attribute parser for '#npu.tile'}}
func.func private @f() attributes {t = #npu.tile<4>}
