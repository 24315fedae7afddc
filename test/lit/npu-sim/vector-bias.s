; vector.bias (npu16 revision 4): `bias=ROW` on v.requant, v.clamp and the
; functions of one value adds that accumulator row, lane by lane, to every
; row first: a layer's bias and its activation or requantization in one pass,
; bit for bit what `v.add … bcast` and then the instruction give.
; By hand: x = iota (0..31) in two rows, b[l] = l - 8 (f32 and i32).
;   v.relu6.f32 of x + b: lane l of row 0 is min(max(2l - 8, 0), 6):
;     0 0 0 0 0 2 4 6 6 …; row 1 (x = 16 + l): 6 everywhere.
;   v.clamp.f32 to [-1, 3] of x + b: -1 -1 -1 -1 0 2 3 3 …; row 1: 3.
;   v.requant.i8 of x + b (i32) with mult 2^30 (0.5), shift 0, zp -5, clamp
;     [-128, 127]: round((2l - 8) / 2) - 5 = l - 9 (ties up; 2l - 8 is even),
;     row 1: round((2l + 8) / 2) - 5 = l - 1.
; Each is one pass: rows + the vector latency (2 + 4), three of them.
; RUN: rm -rf %t && mkdir -p %t
; RUN: python3 -c "import numpy as n; n.save('%t/bf.npy', (n.arange(16) - 8).astype(n.float32).reshape(1, 16)); n.save('%t/bi.npy', (n.arange(16) - 8).astype(n.int32).reshape(1, 16))"
; RUN: npu-sim run %s --arg xf=iota --arg xi=iota --arg bf=%t/bf.npy --arg bi=%t/bi.npy --print r6 --print cl --print q --report | FileCheck %s
; CHECK: %r6 = {{\[\[}}0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 4.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0], [6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0]]
; CHECK: %cl = {{\[\[}}-1.0, -1.0, -1.0, -1.0, 0.0, 2.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0]]
; CHECK: %q = {{\[\[}}-9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6], [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]]
; CHECK: exec 3 18
; The binary keeps the operand (version 3), and the disassembly writes it back:
; RUN: npu-sim asm %s -o %t/p.bin && npu-sim disasm %t/p.bin | FileCheck %s --check-prefix=DIS
; DIS: v.relu6.f32 acc[2], acc[2], rows=2, bias=0
; DIS: v.requant.i8 spad[8], acc[6], rows=2, mult=1073741824, shift=0, zp=-5, bias=1
; Revision 3 has no bias row:
; RUN: not npu-sim run %s --set vector.bias=false --arg xf=iota --arg xi=iota --arg bf=%t/bf.npy --arg bi=%t/bi.npy 2>&1 | FileCheck %s --check-prefix=R3
; R3: error: #{{[0-9]+}} v.relu6 (line {{[0-9]+}}): target 'npu16' adds no bias row in a vector instruction (vector.bias = false: npu16 revision 3)
.target "npu16"
.arg %xf in f32 [2, 16]
.arg %xi in i32 [2, 16]
.arg %bf in f32 [1, 16]
.arg %bi in i32 [1, 16]
.arg %r6 out f32 [2, 16]
.arg %cl out f32 [2, 16]
.arg %q out i8 [2, 16]
.layer "bias"
  dma.loadacc.f32 acc[0], %bf, rows=1, cols=16
  dma.loadacc.i32 acc[1], %bi, rows=1, cols=16
  dma.loadacc.f32 acc[2], %xf, rows=2, cols=16
  dma.loadacc.f32 acc[4], %xf, rows=2, cols=16
  dma.loadacc.i32 acc[6], %xi, rows=2, cols=16
  fence
  v.relu6.f32 acc[2], acc[2], rows=2, bias=0
  v.clamp.f32 acc[4], acc[4], rows=2, min=-1.0, max=3.0, bias=0
  v.requant.i8 spad[8], acc[6], rows=2, mult=1073741824, shift=0, zp=-5, bias=1
  fence
  dma.storeacc.f32 %r6, acc[2], rows=2, cols=16
  dma.storeacc.f32 %cl, acc[4], rows=2, cols=16
  dma.store.i8 %q, spad[8], rows=2, cols=16
  halt
