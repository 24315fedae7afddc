; Requantization i32 -> i8: per tensor, x·2^30 >> 31 = x/2 rounded half up,
; zero point -3: (x+1)//2 - 3 for x = 0..15; per channel, lane l shifts by l more.
; RUN: npu-sim run %s --arg x=iota --arg hundred=fill:100 --arg mult=fill:1073741824 --arg shifts=iota --print y --print z | FileCheck %s
; CHECK: %y = {{\[\[}}-3, -2, -2, -1], [-1, 0, 0, 1], [1, 2, 2, 3], [3, 4, 4, 5]]
; 100/2, 100/4, 100/8 = 12.5 -> 13, 100/16 = 6.25 -> 6
; CHECK: %z = {{\[\[}}50, 25, 13, 6]]
.target "npu16"
.arg %x in i32 [4, 4]
.arg %hundred in i32 [1, 4]
.arg %mult in i32 [1, 4]
.arg %shifts in i32 [1, 4]
.arg %y out i8 [4, 4]
.arg %z out i8 [1, 4]
  dma.loadacc.i32 acc[0], %x, rows=4, cols=4
  dma.loadacc.i32 acc[8], %hundred, rows=1, cols=4
  dma.loadacc.i32 acc[9], %mult, rows=1, cols=4
  dma.loadacc.i32 acc[10], %shifts, rows=1, cols=4
  fence
  v.requant.i8 spad[0], acc[0], rows=4, mult=1073741824, shift=0, zp=-3
  v.requant.i8 spad[8], acc[8], rows=1, mult=9, shift=10, per_channel
  fence
  dma.store.i8 %y, spad[0], rows=4, cols=4
  dma.store.i8 %z, spad[8], rows=1, cols=4
  halt
