.target "npu16"
  frobnicate spad[0]
