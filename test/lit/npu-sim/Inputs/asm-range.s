.target "npu16"
.arg %a in i8 [4]
  dma.load.i8 spad[0], %a, rows=70000, cols=4
