.target "npu16"
.arg %buf inout i8 [4, 4]
  dma.store.i8 %buf, spad[0], rows=4, cols=4
  dma.load.i8 spad[8], %buf, rows=4, cols=4
  halt
