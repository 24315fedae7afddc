.target "npu16"
.arg %a in i8 [4]
  dma.load spad[0], %a, rows=1, cols=4
