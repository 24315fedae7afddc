; v.mac (npu16 revision 3, `vector.mac`): dst[i][l] (+)= src[i][l]·w[l], one
; row a cycle in int8 or f32; a depthwise convolution's tap. By hand, with x =
; iota (rows [0 1 2 3] [4 5 6 7] [8 9 10 11] [12 13 14 15]) and w = [0 1 2 3]:
; the first v.mac writes x0·w = [0 1 4 9] and x2·w = [0 9 20 33] (two passes,
; src_stride 2), the second adds x1·w and x2·w to them; int8 sign-extends
; (-3·w); f32 adds 1.5·w twice.
; RUN: npu-sim run %s --arg x=iota --arg neg=fill:-3 --arg w=iota --arg xf=fill:1.5 --arg wf=iota --print y --print yf --print yw --report | FileCheck %s
; CHECK: %y = {{\[\[}}0, 6, 16, 30], [0, 18, 40, 66], [0, -3, -6, -9]]
; CHECK: %yf = {{\[\[}}0.0, 3.0, 6.0, 9.0], [0.0, 3.0, 6.0, 9.0]]
; A v.mac whose rows overwrite its weight row uses the weights as they were when it started: x0·w, x1·w.
; CHECK: %yw = {{\[\[}}0, 1, 4, 9], [0, 5, 12, 21]]
; Every lane of a row counts (16 a row): 2 + 2 + 1 + 2 + 2 + 2 rows.
; CHECK: MACs 176
; Rows plus the vector latency (4) each: 6 + 6 + 5 + 6 + 6 + 6.
; CHECK: exec 6 35
; Revision 2 has no v.mac:
; RUN: not npu-sim run %s --set vector.mac=false --arg x=iota --arg neg=fill:-3 --arg w=iota --arg xf=fill:1.5 --arg wf=iota 2>&1 | FileCheck %s --check-prefix=R2
; R2: error: #6 v.mac (line {{[0-9]+}}): target 'npu16' has no v.mac (vector.mac = false: npu16 revision 2)
.target "npu16"
.arg %x in i8 [4, 4]
.arg %neg in i8 [1, 4]
.arg %w in i32 [1, 4]
.arg %xf in f32 [2, 4]
.arg %wf in f32 [1, 4]
.arg %y out i32 [3, 4]
.arg %yf out f32 [2, 4]
.arg %yw out i32 [2, 4]
.layer "taps"
  dma.load.i8 spad[0], %x, rows=4, cols=4
  dma.load.i8 spad[4], %neg, rows=1, cols=4
  dma.loadacc.i32 acc[10], %w, rows=1, cols=4
  dma.load.f32 spad[8], %xf, rows=2, cols=4
  dma.loadacc.f32 acc[11], %wf, rows=1, cols=4
  fence
  v.mac.i8 acc[20], spad[0], acc[10], rows=1, loop=2, src_stride=2, dst_stride=1
  v.mac.i8 acc[20], spad[1], acc[10], rows=2, accumulate
  v.mac.i8 acc[22], spad[4], acc[10], rows=1
  v.mac.f32 acc[30], spad[8], acc[11], rows=2
  v.mac.f32 acc[30], spad[8], acc[11], rows=2, accumulate
  fence
  dma.loadacc.i32 acc[40], %w, rows=1, cols=4
  fence
  v.mac.i8 acc[40], spad[0], acc[40], rows=2
  fence
  dma.storeacc.i32 %y, acc[20], rows=3, cols=4
  dma.storeacc.f32 %yf, acc[30], rows=2, cols=4
  dma.storeacc.i32 %yw, acc[40], rows=2, cols=4
  halt
