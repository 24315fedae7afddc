; v.lut (npu16 revision 3, `vector.lut`): dst[i][l] = table[src[i][l] + 128],
; one row a cycle; the table's 256 entries fill 16 accumulator rows. By hand,
; with the table t[e] = e div 2 - 64 (x -> floor(x / 2)): x = iota (0..31)
; gives 0 0 1 1 ... 15 15; -3 gives -2; -128 gives -64 (entry 0); 127 gives 63
; (entry 255), 0 gives 0; in place (dst = src) works.
; RUN: rm -rf %t && mkdir -p %t
; RUN: python3 -c "import numpy as n; n.save('%t/t.npy', (n.arange(256) // 2 - 64).astype(n.int32).reshape(16, 16)); n.save('%t/e.npy', n.array([[-128, 127] + [0] * 14], n.int8)); bad = n.arange(256).astype(n.int32).reshape(16, 16); n.save('%t/bad.npy', bad)"
; RUN: npu-sim run %s --arg x=iota --arg neg=fill:-3 --arg ends=%t/e.npy --arg t=%t/t.npy --print y --report | FileCheck %s
; CHECK: %y = {{\[\[}}0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7], [8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15], [-2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2], [-64, 63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]
; Rows plus the vector latency (4) each: 2 + 4, then 2 + 4.
; CHECK: exec 2 12
; An entry outside int8 traps:
; RUN: not npu-sim run %s --arg x=iota --arg neg=fill:-3 --arg ends=%t/e.npy --arg t=%t/bad.npy 2>&1 | FileCheck %s --check-prefix=BAD
; BAD: error: #{{[0-9]+}} v.lut (line {{[0-9]+}}): table entry 128 is 128, outside -128..127
; Revision 2 has no v.lut:
; RUN: not npu-sim run %s --set vector.lut=false --arg x=iota --arg neg=fill:-3 --arg ends=%t/e.npy --arg t=%t/t.npy 2>&1 | FileCheck %s --check-prefix=R2
; R2: error: #{{[0-9]+}} v.lut (line {{[0-9]+}}): target 'npu16' has no v.lut (vector.lut = false: npu16 revision 2)
.target "npu16"
.arg %x in i8 [2, 16]
.arg %neg in i8 [1, 16]
.arg %ends in i8 [1, 16]
.arg %t in i32 [16, 16]
.arg %y out i8 [4, 16]
.layer "lookup"
  dma.load.i8 spad[0], %x, rows=2, cols=16
  dma.load.i8 spad[2], %neg, rows=1, cols=16
  dma.load.i8 spad[3], %ends, rows=1, cols=16
  dma.loadacc.i32 acc[0], %t, rows=16, cols=16
  fence
  v.lut.i8 spad[10], spad[0], acc[0], rows=2
  v.lut.i8 spad[2], spad[2], acc[0], rows=2
  fence
  dma.store.i8 %y, spad[10], rows=2, cols=16
  dma.store.i8 %y+32, spad[2], rows=2, cols=16
  halt
