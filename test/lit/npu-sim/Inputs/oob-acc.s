.target "npu16"
.arg %a in i8 [4, 4]
.arg %w in i8 [4, 4]
.arg %c out i32 [4, 4]
  dma.load.i8 spad[0], %a, rows=4, cols=4
  fence
  mx.preload.i8 spad[0], k=4, n=4
  mx.mul.i8 acc[4094], spad[0], rows=4, k=4, n=4
  halt
