; f32: matmul with halves, bias broadcast, relu6, and a move back to the scratchpad.
; RUN: npu-sim run %s --arg a=iota --arg w=fill:0.5 --arg bias=fill:-4.0 --print y | FileCheck %s
; Row sums of iota rows halved: 3, 11, 19, 27; minus 4: -1, 7, 15, 23; relu6: 0, 6, 6, 6.
; CHECK: %y = {{\[\[}}0.0, 0.0], [6.0, 6.0], [6.0, 6.0], [6.0, 6.0]]
.target "npu16"
.arg %a in f32 [4, 4]
.arg %w in f32 [4, 2]
.arg %bias in f32 [1, 2]
.arg %y out f32 [4, 2]
  dma.load.f32 spad[0], %a, rows=4, cols=4
  dma.load.f32 spad[8], %w, rows=4, cols=2
  dma.loadacc.f32 acc[16], %bias, rows=1, cols=2
  fence
  mx.preload.f32 spad[8], k=4, n=2
  mx.mul.f32 acc[0], spad[0], rows=4, k=4, n=2
  v.add.f32 acc[0], acc[0], acc[16], rows=4, bcast
  v.relu6.f32 acc[0], acc[0], rows=4
  v.move.f32 spad[32], acc[0], rows=4
  fence
  dma.store.f32 %y, spad[32], rows=4, cols=2
  halt
