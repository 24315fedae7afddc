.target "npu16"
.arg %a in i8 [4, 4]
.arg %w in i8 [4, 4]
.arg %c out i32 [4, 4]
  mx.mul.i8 acc[0], spad[0], rows=4, k=4, n=4
  halt
