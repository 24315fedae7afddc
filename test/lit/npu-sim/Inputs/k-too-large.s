.target "npu16"
.arg %a in i8 [4, 4]
.arg %w in i8 [4, 4]
.arg %c out i32 [4, 4]
  mx.preload.i8 spad[0], k=32, n=4
  halt
