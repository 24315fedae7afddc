// --mlir-timing: list (by pass, slowest first) and tree (pipeline structure).
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(cse,canonicalize),symbol-dce)' --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIST
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(cse,canonicalize),symbol-dce)' --mlir-timing --mlir-timing-display=tree -o /dev/null 2>&1 | FileCheck %s --check-prefix=TREE

// LIST: ... Execution time report ...
// LIST: Total Execution Time: {{[0-9.]+}} seconds
// LIST: ----Wall Time----  ----Name----
// LIST-DAG: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Parser
// LIST-DAG: {{[0-9.]+}} ({{ *[0-9.]+}}%)  CSE
// LIST-DAG: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Canonicalizer
// LIST-DAG: {{[0-9.]+}} ({{ *[0-9.]+}}%)  SymbolDCE
// LIST-DAG: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Output
// LIST: Rest
// LIST-NEXT: Total

// TREE: Parser
// TREE-NEXT: Verifier
// TREE-NEXT: 'func.func' Pipeline
// TREE-NEXT: {{^ +[0-9.]+ \( *[0-9.]+%\)    CSE$}}
// TREE-NEXT: {{^ +[0-9.]+ \( *[0-9.]+%\)    Canonicalizer$}}
// TREE-NEXT: SymbolDCE
// TREE-NEXT: Output
// TREE-NEXT: Rest
// TREE-NEXT: Total

func.func @f(%x: i32) -> i32 {
  return %x : i32
}
func.func @g(%x: i32) -> i32 {
  return %x : i32
}
