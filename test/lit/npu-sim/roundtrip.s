; asm -> bin -> asm is the identity (on the canonical text the disassembler
; prints), and the binary runs like the source; malformed binaries are refused.
; RUN: npu-sim asm %S/conv.s -o %t.bin
; RUN: npu-sim disasm %t.bin -o %t.s
; RUN: npu-sim asm %t.s -o %t2.bin
; RUN: npu-sim disasm %t2.bin | diff %t.s -
; RUN: npu-sim run %t.bin --arg x=iota --arg k=fill:1 --print y | FileCheck %S/conv.s
; RUN: FileCheck %s < %t.s
; RUN: head -c 100 %t.bin > %t.trunc
; RUN: not npu-sim run %t.trunc 2>&1 | FileCheck %s --check-prefix=TRUNC
; RUN: not npu-sim disasm %S/Inputs/asm-unknown.s 2>&1 | FileCheck %s --check-prefix=TEXT

; CHECK: .target "npu16"
; CHECK-NEXT: .arg %x in i8 [4, 4, 1]
; CHECK: .layer "conv"
; CHECK-NEXT: dma.load.i8 spad[0], %k, rows=4, cols=1
; CHECK-NEXT: dma.load.i8 spad[16], %x, rows=3, cols=1, stride=1
; CHECK: mx.mul.i8 acc[0], spad[32], rows=9, k=1, n=1, accumulate
; CHECK: fence
; CHECK: halt

; TRUNC: error: {{.*}}malformed binary: truncated in
; TEXT: asm-unknown.s:2:3: error: unknown instruction 'frobnicate'
