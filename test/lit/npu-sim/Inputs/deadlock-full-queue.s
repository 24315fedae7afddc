.target "npu16"
.arg %a in i8 [4, 4]
.arg %w in i8 [4, 4]
.arg %c out i32 [4, 4]
  sem.wait exec, s3
  mx.preload.i8 spad[4], k=4, n=4
  mx.preload.i8 spad[4], k=4, n=4
  sem.signal load, s3
  halt
