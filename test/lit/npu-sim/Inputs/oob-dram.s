.target "npu16"
.arg %a in i8 [4, 4]
.arg %w in i8 [4, 4]
.arg %c out i32 [4, 4]
  dma.load.i8 spad[0], %a+12, rows=4, cols=4
  halt
