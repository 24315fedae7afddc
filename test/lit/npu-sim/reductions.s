; The vector unit's transcendentals (v.erf too) and lane reductions (f32), on x = iota
; (rows [0..3], [4..7]) less 2: v.exp, v.rsqrt, v.recip, v.hsum and v.hmax of
; each row's first three lanes (the fourth ignored), broadcast to all lanes.
; RUN: npu-sim run %s --arg x=iota --arg two=fill:2.0 --print e --print r --print q --print s --print m --print erf | FileCheck %s
; e^(-2), e^(-1), 1, e, e^2 ...
; CHECK: %e = {{\[\[}}0.135335{{[0-9]*}}, 0.367879{{[0-9]*}}, 1.0, 2.71828{{[0-9]*}}], [7.38905{{[0-9]*}}, 20.0855{{[0-9]*}}, 54.5981{{[0-9]*}}, 148.413{{[0-9]*}}]]
; 1/sqrt: NaN below zero, inf at zero.
; CHECK: %r = {{\[\[}}NaN, NaN, inf, 1.0], [0.707106{{[0-9]*}}, 0.577350{{[0-9]*}}, 0.5, 0.447213{{[0-9]*}}]]
; CHECK: %q = {{\[\[}}-0.5, -1.0, inf, 1.0], [0.5, 0.333333{{[0-9]*}}, 0.25, 0.2]]
; -2 - 1 + 0 = -3 (lane 3, the 1, ignored); 2 + 3 + 4 = 9.
; CHECK: %s = {{\[\[}}-3.0, -3.0, -3.0, -3.0], [9.0, 9.0, 9.0, 9.0]]
; CHECK: %m = {{\[\[}}0.0, 0.0, 0.0, 0.0], [4.0, 4.0, 4.0, 4.0]]
; CHECK: %erf = {{\[\[}}-0.995322{{[0-9]*}}, -0.842700{{[0-9]*}}, 0.0, 0.842700{{[0-9]*}}], [0.995322{{[0-9]*}}, 0.999977{{[0-9]*}}, 1.0, 1.0]]
.target "npu16"
.arg %x in f32 [2, 4]
.arg %two in f32 [1, 4]
.arg %e out f32 [2, 4]
.arg %r out f32 [2, 4]
.arg %q out f32 [2, 4]
.arg %s out f32 [2, 4]
.arg %m out f32 [2, 4]
.arg %erf out f32 [2, 4]
  dma.loadacc.f32 acc[0], %x, rows=2, cols=4
  dma.loadacc.f32 acc[2], %two, rows=1, cols=4
  fence
  v.sub.f32 acc[0], acc[0], acc[2], rows=2, bcast
  v.exp.f32 acc[10], acc[0], rows=2
  v.rsqrt.f32 acc[20], acc[0], rows=2
  v.recip.f32 acc[30], acc[0], rows=2
  v.hsum.f32 acc[40], acc[0], rows=2, lanes=3
  v.hmax.f32 acc[50], acc[0], rows=2, lanes=3
  v.erf.f32 acc[60], acc[0], rows=2
  fence
  dma.storeacc.f32 %e, acc[10], rows=2, cols=4
  dma.storeacc.f32 %r, acc[20], rows=2, cols=4
  dma.storeacc.f32 %q, acc[30], rows=2, cols=4
  dma.storeacc.f32 %s, acc[40], rows=2, cols=4
  dma.storeacc.f32 %m, acc[50], rows=2, cols=4
  dma.storeacc.f32 %erf, acc[60], rows=2, cols=4
  halt
