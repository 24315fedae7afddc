  halt
