.target "npu16"
.arg %a in i8 [4]
  dma.load.i32 spad[0], %a, rows=1, cols=4
