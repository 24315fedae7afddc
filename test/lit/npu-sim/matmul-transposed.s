; A transposed weight tile (`mx.preload ... transpose`): W is stored as n rows
; of k lanes, as a computed Bᵀ (attention's K) lies in the scratchpad, and the
; product is A·Wᵀ. A = W = iota (4x4): row 0 of A·Wᵀ is Σk k·(4j + k) = 14 + 24j.
; A 3x4 tile (k=3 lanes of 4 rows) reads only the first 3 lanes of each row.
; RUN: npu-sim run %s --arg a=iota --arg w=iota --print c | FileCheck %s
; CHECK: %c = {{\[\[}}14, 38, 62, 86], [38, 126, 214, 302], [62, 214, 366, 518], [86, 302, 518, 734]]
; RUN: sed -e 's/k=4, n=4, transpose/k=3, n=4, transpose/' -e 's/mx.mul.i8 acc\[0\], spad\[0\], rows=4, k=4/mx.mul.i8 acc[0], spad[0], rows=4, k=3/' %s > %t.s
; RUN: npu-sim run %t.s --arg a=iota --arg w=iota --print c | FileCheck %s --check-prefix=K3
; Row 0: Σ_{k<3} k·(4j + k) = 5 + 12j.
; K3: %c = {{\[\[}}5, 17, 29, 41],
; The round trip keeps the flag.
; RUN: npu-sim asm %s -o %t.bin && npu-sim disasm %t.bin | FileCheck %s --check-prefix=DIS
; DIS: mx.preload.i8 spad[4], k=4, n=4, transpose
.target "npu16"
.arg %a in i8 [4, 4]
.arg %w in i8 [4, 4]
.arg %c out i32 [4, 4]
.layer "matmul"
  dma.load.i8 spad[0], %a, rows=4, cols=4
  dma.load.i8 spad[4], %w, rows=4, cols=4
  sem.signal load, s0
  sem.wait exec, s0
  mx.preload.i8 spad[4], k=4, n=4, transpose
  mx.mul.i8 acc[0], spad[0], rows=4, k=4, n=4
  sem.signal exec, s1
  sem.wait store, s1
  dma.storeacc.i32 %c, acc[0], rows=4, cols=4
  halt
