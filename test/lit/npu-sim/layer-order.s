; Layers start in program order: the report finds each instruction's layer by
; a binary search over their starts, so a binary whose layers go backwards is
; malformed (the assembler writes them in order).
; RUN: rm -rf %t && mkdir -p %t
; RUN: npu-sim asm %s -o %t/ok.bin
; RUN: npu-sim run %t/ok.bin --arg x=fill:1 --report | FileCheck %s --check-prefix=OK
; RUN: python3 -c "import struct; b = bytearray(open('%t/ok.bin', 'rb').read()); a = b.find(b'\x02\x00aa') + 4; c = b.find(b'\x02\x00bb') + 4; assert a > 4 and c > 4; b[a:a + 4] = struct.pack('<I', 2); b[c:c + 4] = struct.pack('<I', 0); open('%t/bad.bin', 'wb').write(b)"
; RUN: not npu-sim run %t/bad.bin --arg x=fill:1 2>&1 | FileCheck %s --check-prefix=BAD
; RUN: not npu-sim disasm %t/bad.bin -o %t/bad.s 2>&1 | FileCheck %s --check-prefix=BAD
; OK: aa
; OK: bb
; BAD: malformed binary: layer 'bb' starts at instruction 0, before the layer 'aa' ahead of it (at 2)
.target "npu16"
.arg %x in f32 [4, 16]
.arg %y out f32 [4, 16]
.layer "aa"
  dma.loadacc.f32 acc[0], %x, rows=4, cols=16
  fence
.layer "bb"
  dma.storeacc.f32 %y, acc[0], rows=4, cols=16
  halt
