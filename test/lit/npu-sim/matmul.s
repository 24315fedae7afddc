; A 4x4 int8 matmul on the 16x16 array, checked by hand: A = iota, W = ones,
; so each output row is the sum of A's row (6, 22, 38, 54); W = iota gives A·W.
; RUN: npu-sim run %s --arg a=iota --arg w=fill:1 --print c | FileCheck %s --check-prefix=ONES
; RUN: npu-sim run %s --arg a=iota --arg w=iota --print c | FileCheck %s --check-prefix=IOTA
; RUN: npu-sim run %s --arg a=iota --arg w=iota --report | FileCheck %s --check-prefix=REPORT
; ONES: %c = {{\[\[}}6, 6, 6, 6], [22, 22, 22, 22], [38, 38, 38, 38], [54, 54, 54, 54]]
; Row 0 of A (0 1 2 3) times iota W: column j = sum_k k*(4k+j) = 56 + 6j.
; IOTA: %c = {{\[\[}}56, 62, 68, 74], [152, 174, 196, 218], [248, 286, 324, 362], [344, 398, 452, 506]]
; REPORT: target npu16: {{[0-9]+}} cycles
; REPORT: MACs 64
; REPORT: DRAM read 32 B, written 64 B
; REPORT: scratchpad peak 512 B (8 rows), accumulator peak 256 B (4 rows)
; REPORT: load 3
; REPORT: exec 4
; REPORT: store 2
; REPORT: matmul 10 64 96
.target "npu16"
.arg %a in i8 [4, 4]
.arg %w in i8 [4, 4]
.arg %c out i32 [4, 4]
.layer "matmul"
  dma.load.i8 spad[0], %a, rows=4, cols=4
  dma.load.i8 spad[4], %w, rows=4, cols=4
  sem.signal load, s0
  sem.wait exec, s0
  mx.preload.i8 spad[4], k=4, n=4
  mx.mul.i8 acc[0], spad[0], rows=4, k=4, n=4
  sem.signal exec, s1
  sem.wait store, s1
  dma.storeacc.i32 %c, acc[0], rows=4, cols=4
  halt
