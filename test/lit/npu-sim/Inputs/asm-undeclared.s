.target "npu16"
  dma.load.i8 spad[0], %nope, rows=1, cols=4
