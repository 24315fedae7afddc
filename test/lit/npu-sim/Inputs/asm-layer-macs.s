.target "npu16"
.layer "conv1" macs -3
