.target "npu16"
.arg %a in f32 [1, 4]
.arg %c out f32 [1, 4]
  dma.loadacc.f32 acc[0], %a, rows=1, cols=4
  fence
  v.clamp.f32 acc[1], acc[0], rows=1, min=0.0, max=1.0, bias=-2
  fence
  dma.storeacc.f32 %c, acc[1], rows=1, cols=4
  halt
