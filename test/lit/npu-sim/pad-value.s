; dma.load pads with `pad_value`: an int8 input's zero point, so that padding
; means 0.0. Rows above and below and lanes left and right of the data hold it;
; an f32 load has only zero padding.
; RUN: npu-sim run %s --arg x=iota --arg f=iota --print y | FileCheck %s
; RUN: sed -e 's/dma.load.i8 spad\[0\], %%x, rows=2/dma.load.f32 spad[0], %%f, rows=2/' %s > %t.s
; RUN: not npu-sim run %t.s --arg x=iota --arg f=iota 2>&1 | FileCheck %s --check-prefix=F32
; One row of -5 above, then the two data rows with one -5 lane left and two right.
; CHECK: %y = {{\[\[}}-5, -5, -5, -5, -5, -5], [-5, 0, 1, 2, -5, -5], [-5, 3, 4, 5, -5, -5]]
; F32: error: {{.*}}pad_value -5 on an f32 load (only int8 padding has a value)
.target "npu16"
.arg %x in i8 [2, 3]
.arg %f in f32 [2, 3]
.arg %y out i8 [3, 6]
  dma.load.i8 spad[0], %x, rows=2, cols=3, pad_top=1, pad_left=1, pad_right=2, pad_value=-5
  fence
  dma.store.i8 %y, spad[0], rows=3, cols=6
  halt
