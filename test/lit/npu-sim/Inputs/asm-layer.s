.target "npu16"
.layer "conv1" flops 3
