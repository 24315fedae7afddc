; The vector unit on accumulator rows (x = iota - 8, i.e. -8..7 in four rows).
; RUN: npu-sim run %s --arg x=iota --arg eight=fill:8 --print relu --print pmax --print pavg --print shr --print clamp | FileCheck %s
; CHECK: %relu = {{\[\[}}0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 2, 3], [4, 5, 6, 7]]
; CHECK: %pmax = {{\[\[}}-4, -3, -2, -1], [4, 5, 6, 7]]
; CHECK: %pavg = {{\[\[}}-6, -5, -4, -3], [2, 3, 4, 5]]
; (x + 2) >> 2 on iota:
; CHECK: %shr = {{\[\[}}0, 0, 1, 1], [1, 1, 2, 2], [2, 2, 3, 3], [3, 3, 4, 4]]
; CHECK: %clamp = {{\[\[}}-2, -2, -2, -2], [-2, -2, -2, -1], [0, 1, 2, 3], [3, 3, 3, 3]]
.target "npu16"
.arg %x in i32 [4, 4]
.arg %eight in i32 [1, 4]
.arg %relu out i32 [4, 4]
.arg %pmax out i32 [2, 4]
.arg %pavg out i32 [2, 4]
.arg %shr out i32 [4, 4]
.arg %clamp out i32 [4, 4]
  dma.loadacc.i32 acc[0], %x, rows=4, cols=4
  dma.loadacc.i32 acc[10], %eight, rows=1, cols=4
  fence
  v.sub.i32 acc[20], acc[0], acc[10], rows=4, bcast
  v.relu.i32 acc[30], acc[20], rows=4
  v.poolmax.i32 acc[40], acc[20], rows=2, window=2
  v.poolavg.i32 acc[50], acc[20], rows=2, window=2
  v.shr.i32 acc[60], acc[0], rows=4, amount=2, round
  v.clamp.i32 acc[70], acc[20], rows=4, min=-2, max=3
  fence
  dma.storeacc.i32 %relu, acc[30], rows=4, cols=4
  dma.storeacc.i32 %pmax, acc[40], rows=2, cols=4
  dma.storeacc.i32 %pavg, acc[50], rows=2, cols=4
  dma.storeacc.i32 %shr, acc[60], rows=4, cols=4
  dma.storeacc.i32 %clamp, acc[70], rows=4, cols=4
  halt
