; Every trap of the simulator is an error naming the instructions involved,
; with a non-zero exit, never a panic.
; RUN: not npu-sim run %S/Inputs/hazard-load-exec.s --arg a=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=HAZARD1
; RUN: not npu-sim run %S/Inputs/hazard-exec-store.s --arg a=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=HAZARD2
; RUN: not npu-sim run %S/Inputs/hazard-dram.s --arg buf=iota 2>&1 | FileCheck %s --check-prefix=HAZARD3
; RUN: not npu-sim run %S/Inputs/deadlock.s --arg a=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=DEADLOCK
; RUN: not npu-sim run %S/Inputs/deadlock-full-queue.s --set queues.exec=1 --arg a=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=FULL
; RUN: not npu-sim run %S/Inputs/oob-spad.s --arg a=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=OOBSPAD
; RUN: not npu-sim run %S/Inputs/oob-acc.s --arg a=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=OOBACC
; RUN: not npu-sim run %S/Inputs/oob-dram.s --arg a=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=OOBDRAM
; RUN: not npu-sim run %S/Inputs/no-preload.s --arg a=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=NOPRELOAD
; RUN: not npu-sim run %S/Inputs/tile-mismatch.s --arg a=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=TILE
; RUN: not npu-sim run %S/Inputs/k-too-large.s --arg a=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=KLARGE
; RUN: not npu-sim run %S/Inputs/requant-bounds.s --arg a=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=REQUANT
; RUN: not npu-sim run %S/Inputs/clamp-nan.s --arg a=iota 2>&1 | FileCheck %s --check-prefix=CLAMPNAN
; RUN: not npu-sim run %S/Inputs/bias-negative.s --arg a=iota 2>&1 | FileCheck %s --check-prefix=BIAS
; RUN: not npu-sim run %S/Inputs/too-wide.s --arg a=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=WIDE
; RUN: not npu-sim run %S/Inputs/hsum-too-wide.s --arg a=iota 2>&1 | FileCheck %s --check-prefix=HSUM
; RUN: not npu-sim run %S/matmul.s --set name='"npu8"' --arg a=iota --arg w=iota 2>&1 | FileCheck %s --check-prefix=TARGET
; RUN: not npu-sim run %S/matmul.s --arg a=iota 2>&1 | FileCheck %s --check-prefix=MISSING
; RUN: not npu-sim run %S/matmul.s --arg a=iota --arg w=iota --arg q=iota 2>&1 | FileCheck %s --check-prefix=NOARG

; The weights' load is issued under the first one's latency, before the preload reads them.
; HAZARD1: error: hazard: #1 dma.load (line 6) (load queue) writes scratchpad rows 4..8 while #2 mx.preload (line 7) (exec queue) reads them, and no semaphore orders the two
; The store runs ahead of the multiply: caught from the multiply's side.
; HAZARD2: error: hazard: #4 mx.mul (line 9) (exec queue) writes accumulator rows 0..4 while #5 dma.storeacc (line 10) (store queue) reads them, and no semaphore orders the two
; HAZARD3: error: hazard: #1 dma.load (line 4) (load queue) reads DRAM bytes 0..16 while #0 dma.store (line 3) (store queue) writes them
; DEADLOCK: error: deadlock: exec queue waits on s1 at #3 sem.wait (line 8); no instruction left can signal them
; FULL: error: deadlock: exec queue waits on s3 at #0 sem.wait (line 5); fetch is stalled on the full exec queue at #1 mx.preload (line 6)
; OOBSPAD: error: #0 dma.load (line 5): out-of-bounds write of scratchpad rows 16382..16386 (the scratchpad has 16384 rows)
; OOBACC: error: #3 mx.mul (line 8): out-of-bounds write of accumulator rows 4094..4098 (the accumulator has 4096 rows)
; OOBDRAM: error: #0 dma.load (line 5): out-of-bounds DRAM read of '%a': bytes 12..28 but it has 16
; NOPRELOAD: error: #0 mx.mul (line 5): no weight tile is loaded (mx.preload first)
; TILE: error: #1 mx.mul (line 6): k=8 n=4 i8 does not match the preloaded 4×4 i8 tile
; KLARGE: error: #0 mx.preload (line 5): k = 32 must be 1..16 (the array's rows)
; A NaN bound panicked in f32::clamp (found by the npu_binary fuzz target):
; CLAMPNAN: error: #2 v.clamp (line 6): clamp bounds must not be NaN
; A bias row below -1 is an error, not no bias.
; BIAS: error: #2 v.clamp (line 6): bias=-2 must be an accumulator row or -1 (none)
; REQUANT: error: #0 v.requant (line 5): clamp bounds 10..5 must lie in -128..127
; HSUM: error: #2 v.hsum (line 5): lanes = 17 exceeds the 16 lanes of a row
; WIDE: error: #0 dma.load (line 5): pad_left + cols + pad_right = 18 exceeds the 16 lanes of a row
; TARGET: error: the program was built for target 'npu16' but the hardware is 'npu8'
; MISSING: error: input argument '%w' was not given
; NOARG: error: the program has no argument '%q'
