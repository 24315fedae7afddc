.target "npu16"
loop:
loop:
  halt
