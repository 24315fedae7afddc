; dram.pipelined (npu16 revision 4, the default): a DMA engine keeps requests
; in flight, so a DMA's 100-cycle latency overlaps the transfers before it on
; its queue; what waits for the data (a semaphore signal, a fence, the end)
; still waits for the last byte. Revision 3 (`--set dram.pipelined=false`)
; waits out each DMA's latency before the next one starts.
; By hand: four loads of 1,024 contiguous bytes, 64 cycles of transfer each.
; r4: the queue issues them at 0, 64, 128, 192 (busy 256 + the signal's 1);
; the last one's data is in at 192 + 164 = 356, so the signal waits 100 cycles
; and the store starts at 358: 358 + 164 = 522 cycles in all.
; r3: 4 x 164 = 656 busy, the store at 658: 822 cycles.
; RUN: npu-sim run %s --arg a=iota --out y=%t.r4.npy --report | FileCheck %s --check-prefix=R4
; RUN: npu-sim run %s --set dram.pipelined=false --arg a=iota --out y=%t.r3.npy --report | FileCheck %s --check-prefix=R3
; RUN: cmp %t.r3.npy %t.r4.npy
; R4: target npu16: 522 cycles
; R4: load 5 257 100 0
; R3: target npu16: 822 cycles
; R3: load 5 657 0 0
.target "npu16"
.arg %a in i8 [256, 16]
.arg %y out i8 [64, 16]
  dma.load.i8 spad[0], %a, rows=64, cols=16
  dma.load.i8 spad[64], %a+1024, rows=64, cols=16
  dma.load.i8 spad[128], %a+2048, rows=64, cols=16
  dma.load.i8 spad[192], %a+3072, rows=64, cols=16
  sem.signal load, s0
  sem.wait store, s0
  dma.store.i8 %y, spad[192], rows=64, cols=16
  halt
