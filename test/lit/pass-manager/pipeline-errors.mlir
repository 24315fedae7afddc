// Errors in a pipeline point at the column; nothing runs and the exit code is 1.
// RUN: not npu-opt %s --pass-pipeline='builtin.module(func.func(cse,bogus))' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not npu-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=ten})' 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not npu-opt %s --pass-pipeline='builtin.module(cse{nope=1})' 2>&1 | FileCheck %s --check-prefix=NOOPT
// RUN: not npu-opt %s --pass-pipeline='builtin.module(func.func(cse)' 2>&1 | FileCheck %s --check-prefix=PAREN
// RUN: not npu-opt %s --pass-pipeline='builtin.module(cse) extra' 2>&1 | FileCheck %s --check-prefix=TRAILING
// RUN: not npu-opt %s --pass-pipeline='builtin.module(,cse)' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not npu-opt %s --pass-pipeline='builtin.module(cse{max=1)' 2>&1 | FileCheck %s --check-prefix=BRACE
// RUN: not npu-opt %s --pass-pipeline='func.func(cse)' 2>&1 | FileCheck %s --check-prefix=ROOT
// RUN: not npu-opt %s --pass-pipeline='builtin.module(cse)' --cse 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not npu-opt %s --canonicalize=max-iterations=x 2>&1 | FileCheck %s --check-prefix=FLAGOPT

// UNKNOWN: <pass-pipeline>:1:30: error: 'bogus' does not refer to a registered pass
// UNKNOWN-NEXT: builtin.module(func.func(cse,bogus))
// UNKNOWN-NEXT: {{^}}                             ^
// BADVALUE: <pass-pipeline>:1:16: error: option 'max-iterations': expected an integer, got 'ten'
// NOOPT: <pass-pipeline>:1:16: error: no such option 'nope'
// PAREN: <pass-pipeline>:1:30: error: expected ')' to close the pipeline
// TRAILING: <pass-pipeline>:1:21: error: unexpected 'e' after the pipeline
// EMPTY: <pass-pipeline>:1:16: error: expected a pass or operation name
// BRACE: <pass-pipeline>:1:19: error: unbalanced '{' in pass options
// ROOT: error: can't run 'func.func' pass manager on 'builtin.module' op
// BOTH: error: '--pass-pipeline' cannot be combined with individual pass flags
// FLAGOPT: error: --canonicalize: option 'max-iterations': expected an integer, got 'x'

func.func private @f()
