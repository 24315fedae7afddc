; A 2x2 convolution of a 4x4 single-channel image (iota) with a ones kernel,
; by accumulating one matmul per kernel tap over shifted DMA loads:
; y[i][j] = x[i][j] + x[i][j+1] + x[i+1][j] + x[i+1][j+1] = 16i + 4j + 10.
; RUN: npu-sim run %s --arg x=iota --arg k=fill:1 --print y | FileCheck %s
; CHECK: %y = {{\[\[}}[10], [14], [18]], {{\[\[}}26], [30], [34]], {{\[\[}}42], [46], [50]]]
.target "npu16"
.arg %x in i8 [4, 4, 1]
.arg %k in i8 [2, 2, 1, 1]
.arg %y out i32 [3, 3, 1]
.layer "conv"
  dma.load.i8 spad[0], %k, rows=4, cols=1
  ; tap (dy, dx): output row r reads input row r+dy, columns dx..dx+2
  dma.load.i8 spad[16], %x+0, rows=3, cols=1, stride=1
  dma.load.i8 spad[19], %x+4, rows=3, cols=1, stride=1
  dma.load.i8 spad[22], %x+8, rows=3, cols=1, stride=1
  dma.load.i8 spad[32], %x+1, rows=3, cols=1, stride=1
  dma.load.i8 spad[35], %x+5, rows=3, cols=1, stride=1
  dma.load.i8 spad[38], %x+9, rows=3, cols=1, stride=1
  dma.load.i8 spad[48], %x+4, rows=3, cols=1, stride=1
  dma.load.i8 spad[51], %x+8, rows=3, cols=1, stride=1
  dma.load.i8 spad[54], %x+12, rows=3, cols=1, stride=1
  dma.load.i8 spad[64], %x+5, rows=3, cols=1, stride=1
  dma.load.i8 spad[67], %x+9, rows=3, cols=1, stride=1
  dma.load.i8 spad[70], %x+13, rows=3, cols=1, stride=1
  fence
  mx.preload.i8 spad[0], k=1, n=1
  mx.mul.i8 acc[0], spad[16], rows=9, k=1, n=1
  mx.preload.i8 spad[1], k=1, n=1
  mx.mul.i8 acc[0], spad[32], rows=9, k=1, n=1, accumulate
  mx.preload.i8 spad[2], k=1, n=1
  mx.mul.i8 acc[0], spad[48], rows=9, k=1, n=1, accumulate
  mx.preload.i8 spad[3], k=1, n=1
  mx.mul.i8 acc[0], spad[64], rows=9, k=1, n=1, accumulate
  fence
  dma.storeacc.i32 %y, acc[0], rows=9, cols=1
  halt
