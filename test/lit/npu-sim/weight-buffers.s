; array.weight_buffers: npu16 r2 (2, the default) preloads the next weight tile
; through its own port while the array multiplies with the other buffer, and a
; mul issued behind another streams right after it (the fill latency is paid
; once, when the sums drain); r1 (1) preloads only into an idle array. The same
; program gives the same sums on both; only the time differs. Both are timed
; with revision 3's DMAs (`dram.pipelined=false`: each waits out its latency).
; RUN: npu-sim run %s --set dram.pipelined=false --set array.weight_buffers=1 --arg a=random:1 --arg w=random:2 --out c=%t.r1.npy --report | FileCheck %s --check-prefix=R1
; RUN: npu-sim run %s --set dram.pipelined=false --arg a=random:1 --arg w=random:2 --out c=%t.r2.npy --report | FileCheck %s --check-prefix=R2
; RUN: cmp %t.r1.npy %t.r2.npy
; RUN: not npu-sim run %s --set array.weight_buffers=3 --arg a=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=BAD
;
; By hand (exec starts at 314, when both loads are in: 100 + 1024/16 and
; 100 + 768/16 cycles, their rows one run each): r1 runs
; P0 314-330, M0 330-410 (64 rows + 16 fill), P1 410-426, M1 426-450,
; P2 450-466, M2 466-546, the signal 546, the store 548-1192.
; r2: P0 314-330; M0 streams 330-394 (drained 410); P1 331-347 under it;
; M1 streams 394-402 (drained 418); P2 writes M0's buffer, so it waits for
; M0 to drain: 410-426; M2 426-490 (drained 506); the signal waits for the
; drain: 506; the store 508-1152.
; R1: target npu16: 1192 cycles
; R1: exec 8 234
; R2: target npu16: 1152 cycles
; Busy: the waits, the signal and the muls' rows (64 + 8 + 64); the preloads run on their own port.
; R2: exec 8 138
; BAD: error: hardware description: array.weight_buffers must be 1 or 2, got 3
.target "npu16"
.arg %a in i8 [64, 16]
.arg %w in i8 [48, 16]
.arg %c out i32 [136, 16]
.layer "three-tiles"
  dma.load.i8 spad[0], %a, rows=64, cols=16
  dma.load.i8 spad[64], %w, rows=48, cols=16
  sem.signal load, s0
  sem.wait exec, s0
  mx.preload.i8 spad[64], k=16, n=16
  mx.mul.i8 acc[0], spad[0], rows=64, k=16, n=16
  mx.preload.i8 spad[80], k=16, n=16
  mx.mul.i8 acc[64], spad[0], rows=8, k=16, n=16
  mx.preload.i8 spad[96], k=16, n=16
  mx.mul.i8 acc[72], spad[0], rows=64, k=16, n=16
  sem.signal exec, s1
  sem.wait store, s1
  dma.storeacc.i32 %c, acc[0], rows=136, cols=16
  halt
