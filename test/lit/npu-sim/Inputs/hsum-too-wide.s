.target "npu16"
.arg %a in f32 [4, 4]
  dma.loadacc.f32 acc[0], %a, rows=4, cols=4
  fence
  v.hsum.f32 acc[8], acc[0], rows=4, lanes=17
  halt
