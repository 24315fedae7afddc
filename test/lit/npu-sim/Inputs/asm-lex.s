.target "npu16"
  dma.load.i8 spad[0] @ 3
