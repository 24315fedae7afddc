; A transposed weight tile (`mx.preload ... transpose`): matmul.s's program
; with W read as n rows of k lanes, as a computed Bᵀ (attention's K) lies in
; the scratchpad, so the product is A·Wᵀ. A = W = iota (4x4): row 0 of A·Wᵀ
; is Σk k·(4j + k) = 14 + 24j.
; RUN: sed -e 's/mx.preload.i8 spad\[4\], k=4, n=4/&, transpose/' %S/matmul.s > %t.s
; RUN: npu-sim run %t.s --arg a=iota --arg w=iota --print c | FileCheck %s
; CHECK: %c = {{\[\[}}14, 38, 62, 86], [38, 126, 214, 302], [62, 214, 366, 518], [86, 302, 518, 734]]
; A 3x4 tile (k=3 lanes of 4 rows) reads only the first 3 lanes of each row.
; RUN: sed -e 's/k=4, n=4, transpose/k=3, n=4, transpose/' -e 's/mx.mul.i8 acc\[0\], spad\[0\], rows=4, k=4/mx.mul.i8 acc[0], spad[0], rows=4, k=3/' %t.s > %t3.s
; RUN: npu-sim run %t3.s --arg a=iota --arg w=iota --print c | FileCheck %s --check-prefix=K3
; Row 0: Σ_{k<3} k·(4j + k) = 5 + 12j.
; K3: %c = {{\[\[}}5, 17, 29, 41],
; The round trip keeps the flag.
; RUN: npu-sim asm %t.s -o %t.bin && npu-sim disasm %t.bin | FileCheck %s --check-prefix=DIS
; DIS: mx.preload.i8 spad[4], k=4, n=4, transpose
