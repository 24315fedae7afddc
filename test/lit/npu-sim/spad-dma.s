; The scratchpad as a DMA address (`%spad+OFFSET`, npu16 revision 3,
; `scratchpad.dma`): the scratchpad seen as one flat array of lanes, row after
; row, the offset and stride in bytes of the element type as in DRAM. By hand:
; x = iota stored from the accumulator to %spad+64 (lane 16, f32) with a
; stride of 24 bytes (6 lanes) puts 0..3 at lanes 16..19, 4..7 at 22..25,
; 8..11 at 28..31 and 12..15 at 34..37; the int8 row of -5 at %spad+40 is
; lanes 40..43, sign-extended (as i32: -5; as f32 bits: NaN). Reading back 16
; lanes a row, and 4 a row with padding, and the int8 lanes as i32. No DRAM
; byte moves for any of it.
; RUN: npu-sim run %s --arg x=iota --arg q=fill:-5 --print y --print z --print qz --report | FileCheck %s
; CHECK: %y = {{\[\[}}0.0, 1.0, 2.0, 3.0, 0.0, 0.0, 4.0, 5.0, 6.0, 7.0, 0.0, 0.0, 8.0, 9.0, 10.0, 11.0], [0.0, 0.0, 12.0, 13.0, 14.0, 15.0, 0.0, 0.0, NaN, NaN, NaN, NaN, 0.0, 0.0, 0.0, 0.0]]
; CHECK: %z = {{\[\[}}0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 4.0, 5.0, 6.0, 7.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]
; CHECK: %qz = {{\[\[}}-5, -5, -5, -5]]
; Only the arguments' bytes: x 64 and q 4 read; y 128, z 192 and qz 16 written.
; CHECK: DRAM read 68 B, written 336 B
; The binary keeps the address (argument number 255):
; RUN: npu-sim asm %s -o %t.bin && npu-sim disasm %t.bin | FileCheck %s --check-prefix=DIS
; DIS: dma.storeacc.f32 %spad+64, acc[0], rows=4, cols=4, stride=24
; DIS: dma.load.f32 spad[4], %spad+64, rows=2, cols=4, stride=24, pad_top=1, pad_left=1
; Revision 2 has no such path; a %spad range must lie in the scratchpad and be whole elements.
; RUN: not npu-sim run %s --set scratchpad.dma=false --arg x=iota --arg q=fill:-5 2>&1 | FileCheck %s --check-prefix=R2
; R2: error: #3 dma.storeacc (line {{[0-9]+}}): target 'npu16' has no DMA path to the scratchpad itself (scratchpad.dma = false: npu16 revision 2)
; RUN: sed 's/%%spad+160/%%spad+1048576/' %s > %t.oob.s
; RUN: not npu-sim run %t.oob.s --arg x=iota --arg q=fill:-5 2>&1 | FileCheck %s --check-prefix=OOB
; OOB: error: #8 dma.loadacc (line {{[0-9]+}}): out-of-bounds %spad read: lanes 262144..262148 but the scratchpad has 262144
; RUN: sed 's/%%spad+160/%%spad+162/' %s > %t.odd.s
; RUN: not npu-sim run %t.odd.s --arg x=iota --arg q=fill:-5 2>&1 | FileCheck %s --check-prefix=ODD
; ODD: error: #8 dma.loadacc (line {{[0-9]+}}): a %spad offset (162) and stride (16) must be whole elements of 4 bytes
; RUN: printf '.target "npu16"\n.arg %%%%spad in f32 [4]\n  halt\n' > %t.name.s
; RUN: not npu-sim asm %t.name.s -o %t.bin 2>&1 | FileCheck %s --check-prefix=NAME
; NAME: '%spad' is the scratchpad's own DMA address; an argument cannot take the name
.target "npu16"
.arg %x in f32 [4, 4]
.arg %q in i8 [1, 4]
.arg %y out f32 [2, 16]
.arg %z out f32 [3, 16]
.arg %qz out i32 [1, 4]
  dma.loadacc.f32 acc[0], %x, rows=4, cols=4
  dma.load.i8 spad[0], %q, rows=1, cols=4
  fence
  dma.storeacc.f32 %spad+64, acc[0], rows=4, cols=4, stride=24
  dma.store.i8 %spad+40, spad[0], rows=1, cols=4
  fence
  dma.loadacc.f32 acc[8], %spad+64, rows=2, cols=16
  dma.load.f32 spad[4], %spad+64, rows=2, cols=4, stride=24, pad_top=1, pad_left=1
  dma.loadacc.i32 acc[20], %spad+160, rows=1, cols=4
  fence
  v.move.f32 spad[8], acc[8], rows=2
  fence
  dma.storeacc.f32 %y, acc[8], rows=2, cols=16
  dma.store.f32 %z, spad[4], rows=3, cols=16
  dma.storeacc.i32 %qz, acc[20], rows=1, cols=4
  halt
