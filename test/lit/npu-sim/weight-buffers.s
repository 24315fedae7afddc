; array.weight_buffers: npu16 r2 (2, the default) preloads the next weight tile
; through its own port while the array multiplies with the other buffer, and a
; mul issued behind another streams right after it (the fill latency is paid
; once, when the sums drain); r1 (1) preloads only into an idle array. The same
; program gives the same sums on both; only the time differs.
; RUN: npu-sim run %s --set array.weight_buffers=1 --arg a=random:1 --arg w=random:2 --out c=%t.r1.npy --report | FileCheck %s --check-prefix=R1
; RUN: npu-sim run %s --arg a=random:1 --arg w=random:2 --out c=%t.r2.npy --report | FileCheck %s --check-prefix=R2
; RUN: cmp %t.r1.npy %t.r2.npy
; RUN: not npu-sim run %s --set array.weight_buffers=3 --arg a=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=BAD
;
; By hand (exec starts at 650, when both loads are in): r1 runs
; P0 650-666, M0 666-746 (64 rows + 16 fill), P1 746-762, M1 762-786,
; P2 786-802, M2 802-882, the signal 882, the store 884-1528.
; r2: P0 650-666; M0 streams 666-730 (drained 746); P1 667-683 under it;
; M1 streams 730-738 (drained 754); P2 writes M0's buffer, so it waits for
; M0 to drain: 746-762; M2 762-826 (drained 842); the signal waits for the
; drain: 842; the store 844-1488.
; R1: target npu16: 1528 cycles
; R1: exec 8 234
; R2: target npu16: 1488 cycles
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
