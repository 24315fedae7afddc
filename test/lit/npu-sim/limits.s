; Nothing runs without end or allocates what the hardware cannot hold, and a
; binary holds nothing the assembler would refuse:
; - a replay loop of 4278190081 passes is refused before it starts (it used to
;   run for hours), and --max-cycles bounds any run;
; - an argument the target's DRAM cannot hold is refused before its generated
;   input is allocated (it used to abort on a terabyte allocation);
; - a binary declaring an argument twice or naming one with a NUL byte is
;   malformed (it used to run with exit 0, its disassembly not assembling);
; - layer names with quotes and backslashes survive asm → bin → disasm → asm.
; RUN: rm -rf %t && mkdir -p %t
; RUN: sed 's/loop=2/loop=4278190081/' %s > %t/loop.s
; RUN: not npu-sim run %t/loop.s --arg x=fill:1 --arg w=fill:1 2>&1 | FileCheck %s --check-prefix=LOOP
; RUN: npu-sim run %s --arg x=fill:1 --arg w=fill:1 --print y | FileCheck %s --check-prefix=OUT
; A replay loop of 200,000 passes runs in well under a second (the hazard
; checker compared each pass with every earlier one: minutes; found by fuzzing):
; RUN: sed 's/loop=2/loop=200000/' %s > %t/replay.s
; RUN: timeout 20 npu-sim run %t/replay.s --arg x=fill:1 --arg w=fill:1 --print y | FileCheck %s --check-prefix=OUT
; Four billion passes of no rows do nothing, at once (they took hours; fuzzing):
; RUN: sed 's/rows=4, k=16, n=16, loop=2/rows=0, k=16, n=16, loop=4000000000/' %s > %t/none.s
; RUN: timeout 20 npu-sim run %t/none.s --arg x=fill:1 --arg w=fill:1 --print y | FileCheck %s --check-prefix=NONE
; RUN: not npu-sim run %s --arg x=fill:1 --arg w=fill:1 --max-cycles 5 2>&1 | FileCheck %s --check-prefix=BUDGET
; RUN: sed 's/^.arg %%x in i8 \[4, 16\]/.arg %%x in i8 [1048576, 1048576]/' %s > %t/big.s
; RUN: not npu-sim run %t/big.s --arg x=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=BIG
; RUN: npu-sim asm %s -o %t/ok.bin
; RUN: python3 -c "b = open('%t/ok.bin', 'rb').read(); k = b.find(b'\x01\x00w\x00'); assert k > 0; open('%t/dup.bin', 'wb').write(b[:k + 2] + b'x' + b[k + 3:]); open('%t/nul.bin', 'wb').write(b[:k + 2] + b'\x00' + b[k + 3:])"
; RUN: not npu-sim run %t/dup.bin --arg x=fill:1 --arg w=fill:1 2>&1 | FileCheck %s --check-prefix=DUP
; RUN: not npu-sim disasm %t/nul.bin -o %t/nul.s 2>&1 | FileCheck %s --check-prefix=NUL
; RUN: npu-sim disasm %t/ok.bin -o %t/back.s
; RUN: npu-sim asm %t/back.s -o %t/back.bin
; RUN: npu-sim disasm %t/back.bin -o %t/again.s
; RUN: diff %t/back.s %t/again.s
; RUN: FileCheck %s --check-prefix=QUOTED < %t/back.s
; LOOP: error: #4 mx.mul (line {{[0-9]+}}): needs 17112760340 cycles, past the run's budget ({{[0-9]+}} cycles left; see --max-cycles)
; OUT: %y = {{\[\[}}16, 16
; NONE: %y = {{\[\[}}0, 0, 0
; BUDGET: error: the run needs more than its budget of 5 cycles at #0 dma.load (line {{[0-9]+}}) (see --max-cycles)
; BIG: error: arguments need 1099511628288 bytes of DRAM; the target has 1024 MiB (--set dram.size_mib=N)
; DUP: malformed binary: argument '%x' is declared twice
; NUL: malformed binary: argument name '\u{0}' is not an identifier
; QUOTED: .layer "say \"hi\" \\ there"
.target "npu16"
.arg %x in i8 [4, 16]
.arg %w in i8 [16, 16]
.arg %y out i32 [4, 16]
.layer "say \"hi\" \\ there"
  dma.load.i8 spad[0], %x, rows=4, cols=16
  dma.load.i8 spad[100], %w, rows=16, cols=16
  fence
  mx.preload.i8 spad[100], k=16, n=16
  mx.mul.i8 acc[0], spad[0], rows=4, k=16, n=16, loop=2
  fence
  dma.storeacc.i32 %y, acc[0], rows=4, cols=16
