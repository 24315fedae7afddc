.target "npu16"
  sem.wait exec, s16
