.target "npu16"
.frob 3
