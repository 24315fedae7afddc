; Assembly errors: each at its line and column, exit code 1, no output file.
; RUN: not npu-sim asm %S/Inputs/asm-unknown.s -o %t 2>&1 | FileCheck %s --check-prefix=UNKNOWN
; RUN: not npu-sim asm %S/Inputs/asm-no-dtype.s -o %t 2>&1 | FileCheck %s --check-prefix=NODTYPE
; RUN: not npu-sim asm %S/Inputs/asm-bad-dtype.s -o %t 2>&1 | FileCheck %s --check-prefix=BADDTYPE
; RUN: not npu-sim asm %S/Inputs/asm-missing.s -o %t 2>&1 | FileCheck %s --check-prefix=MISSING
; RUN: not npu-sim asm %S/Inputs/asm-unknown-operand.s -o %t 2>&1 | FileCheck %s --check-prefix=OPERAND
; RUN: not npu-sim asm %S/Inputs/asm-undeclared.s -o %t 2>&1 | FileCheck %s --check-prefix=UNDECLARED
; RUN: not npu-sim asm %S/Inputs/asm-wrong-memory.s -o %t 2>&1 | FileCheck %s --check-prefix=MEMORY
; RUN: not npu-sim asm %S/Inputs/asm-range.s -o %t 2>&1 | FileCheck %s --check-prefix=RANGE
; RUN: not npu-sim asm %S/Inputs/asm-sem.s -o %t 2>&1 | FileCheck %s --check-prefix=SEM
; RUN: not npu-sim asm %S/Inputs/asm-lex.s -o %t 2>&1 | FileCheck %s --check-prefix=LEX
; RUN: not npu-sim asm %S/Inputs/asm-syntax.s -o %t 2>&1 | FileCheck %s --check-prefix=SYNTAX
; RUN: not npu-sim asm %S/Inputs/asm-no-target.s -o %t 2>&1 | FileCheck %s --check-prefix=TARGET
; RUN: not npu-sim asm %S/Inputs/asm-label.s -o %t 2>&1 | FileCheck %s --check-prefix=LABEL
; RUN: not npu-sim asm %S/Inputs/asm-directive.s -o %t 2>&1 | FileCheck %s --check-prefix=DIRECTIVE
; RUN: not npu-sim asm %S/Inputs/asm-layer.s -o %t 2>&1 | FileCheck %s --check-prefix=LAYER
; RUN: not npu-sim asm %S/Inputs/asm-layer-macs.s -o %t 2>&1 | FileCheck %s --check-prefix=LAYERMACS
; RUN: rm -f %t && not npu-sim asm %S/Inputs/asm-unknown.s -o %t && not test -e %t

; UNKNOWN: asm-unknown.s:2:3: error: unknown instruction 'frobnicate'
; NODTYPE: asm-no-dtype.s:3:3: error: 'dma.load' needs an element type: dma.load.i8, dma.load.f32
; BADDTYPE: asm-bad-dtype.s:3:3: error: 'dma.load' does not take i32 (it takes i8, f32)
; MISSING: asm-missing.s:3:3: error: 'dma.load' needs operand 'cols'
; OPERAND: asm-unknown-operand.s:3:44: error: 'dma.load' has no operand 'speed'
; UNDECLARED: asm-undeclared.s:2:24: error: undeclared argument '%nope' (declare it with .arg)
; MEMORY: asm-wrong-memory.s:3:15: error: operand 'dst' of 'dma.load' must be a spad row
; RANGE: asm-range.s:3:3: error: dma.load: operand 'rows' = 70000 does not fit in unsigned 16 bits
; SEM: asm-sem.s:2:18: error: 's16' is not a semaphore (s0..s15)
; LEX: asm-lex.s:2:23: error: unexpected character '@'
; SYNTAX: asm-syntax.s:2:24: error: unexpected ','
; TARGET: asm-no-target.s:1:1: error: missing .target "name"
; LABEL: asm-label.s:3:1: error: label 'loop' is defined twice
; DIRECTIVE: asm-directive.s:2:1: error: unknown directive '.frob'
; LAYER: asm-layer.s:2:1: error: .layer expects a name and optionally its MACs: .layer "conv1" or .layer "conv1" macs 1024
; LAYERMACS: asm-layer-macs.s:2:1: error: a layer's MACs cannot be negative
