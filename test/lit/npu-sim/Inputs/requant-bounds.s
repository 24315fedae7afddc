.target "npu16"
.arg %a in i8 [4, 4]
.arg %w in i8 [4, 4]
.arg %c out i32 [4, 4]
  v.requant.i8 spad[0], acc[0], rows=1, mult=1, shift=0, min=10, max=5
  halt
