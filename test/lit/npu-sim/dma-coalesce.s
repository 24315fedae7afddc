; dram.coalesce (npu16 revision 3, the default): rows that follow one another
; in DRAM move as one run of bursts; strided rows, and every row on revision 2
; (`--set dram.coalesce=false`), round up to a 64-byte burst each. Timed with
; revision 3's DMA latency waited out per DMA (`dram.pipelined=false`).
; By hand: 64 int8 rows of 16 bytes, contiguous: 100 + 1024/16 = 164 cycles;
; the same rows 32 bytes apart: 100 + 64·64/16 = 356; revision 2: 356 both.
; RUN: npu-sim run %s --set dram.pipelined=false --arg a=iota --out y=%t.r3.npy --report | FileCheck %s --check-prefix=R3
; RUN: npu-sim run %s --set dram.pipelined=false --set dram.coalesce=false --arg a=iota --out y=%t.r2.npy --report | FileCheck %s --check-prefix=R2
; RUN: cmp %t.r2.npy %t.r3.npy
; The store: 64 rows of 64 bytes (f32, whole bursts) = 100 + 256 = 356 both ways.
; R3: load 2 520
; R3: store 1 356
; R2: load 2 712
; R2: store 1 356
.target "npu16"
.arg %a in i8 [64, 32]
.arg %y out f32 [64, 16]
  dma.load.i8 spad[0], %a, rows=64, cols=16
  dma.load.i8 spad[64], %a, rows=64, cols=16, stride=32
  fence
  dma.storeacc.f32 %y, acc[0], rows=64, cols=16
  halt
