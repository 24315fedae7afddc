// The compile cache (--cache-dir): a second compile of the same model loads it,
// with the same placements, reasons and outputs; a damaged, truncated or stale
// entry is recompiled with a warning and rewritten; anything the compile reads
// (the hardware, the backend list) keys the entry; the CPU path caches too.
// RUN: rm -rf %t && mkdir -p %t
// RUN: npu-translate --export-onnx %S/Inputs/big-pool.mlir -o %t/bp.onnx
// RUN: npu-run %t/bp.onnx --seed 1 --output-dir %t/cpu
// RUN: npu-run %t/bp.onnx --target npu16,cpu -v --seed 1 --compare %t/cpu --cache-dir %t/c --report-json %t/1.json 2>&1 | FileCheck %s --check-prefix=FIRST
// FIRST-NOT: warning
// FIRST: onnx.GlobalAveragePool "gap" [compile-failed] npu16 could not compile its partition
// FIRST: y: ok
// RUN: FileCheck %s --check-prefix=MISS < %t/1.json
// MISS: "compile_cache": "miss"
// RUN: ls %t/c | FileCheck %s --check-prefix=ENTRY
// ENTRY: model-{{[0-9a-f]+}}.bin
// The hit: the same report (a fallback's reason included) and outputs.
// RUN: npu-run %t/bp.onnx --target npu16,cpu -v --seed 1 --compare %t/cpu --cache-dir %t/c --report-json %t/2.json 2>&1 | FileCheck %s --check-prefix=HIT
// HIT-NOT: warning
// HIT: onnx.GlobalAveragePool "gap" [compile-failed] npu16 could not compile its partition
// HIT: (from the compile cache)
// HIT: y: ok
// RUN: FileCheck %s --check-prefix=HITJSON < %t/2.json
// HITJSON: "compile_cache": "hit"
// A byte flipped in the payload: a checksum mismatch, recompiled, rewritten, then a hit again.
// RUN: python3 -c "import glob; f = glob.glob('%t/c/*.bin')[0]; b = bytearray(open(f, 'rb').read()); b[-7] ^= 1; open(f, 'wb').write(b)"
// RUN: npu-run %t/bp.onnx --target npu16,cpu -v --seed 1 --compare %t/cpu --cache-dir %t/c --report-json %t/3.json 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: warning: compile cache: {{.*}}model-{{[0-9a-f]+}}.bin: checksum mismatch; recompiling
// CORRUPT: y: ok
// RUN: npu-run %t/bp.onnx --target npu16,cpu -v --seed 1 --cache-dir %t/c --report-json %t/4.json
// RUN: FileCheck %s --check-prefix=HITJSON < %t/4.json
// Truncated, and from another version.
// RUN: python3 -c "import glob; f = glob.glob('%t/c/*.bin')[0]; b = open(f, 'rb').read(); open(f, 'wb').write(b[:len(b) // 2])"
// RUN: npu-run %t/bp.onnx --target npu16,cpu -v --seed 1 --compare %t/cpu --cache-dir %t/c 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: warning: compile cache: {{.*}}: truncated: {{[0-9]+}} of {{[0-9]+}} payload bytes; recompiling
// SHORT: y: ok
// RUN: python3 -c "import glob; f = glob.glob('%t/c/*.bin')[0]; b = bytearray(open(f, 'rb').read()); b[16] ^= 1; open(f, 'wb').write(b)"
// RUN: npu-run %t/bp.onnx --target npu16,cpu -v --seed 1 --compare %t/cpu --cache-dir %t/c 2>&1 | FileCheck %s --check-prefix=VERSION
// VERSION: warning: compile cache: {{.*}}: written by another version ({{.*}}); recompiling
// VERSION: y: ok
// Not a cache entry at all.
// RUN: python3 -c "import glob; f = glob.glob('%t/c/*.bin')[0]; open(f, 'wb').write(b'hello')"
// RUN: npu-run %t/bp.onnx --target npu16,cpu -v --seed 1 --compare %t/cpu --cache-dir %t/c 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: warning: compile cache: {{.*}}: not a cache entry; recompiling
// GARBAGE: y: ok
// Another hardware description, another backend list: other entries (misses).
// RUN: npu-run %t/bp.onnx --target npu16,cpu -v --seed 1 --cache-dir %t/c --set accumulator.rows=8192 --report-json %t/5.json
// RUN: FileCheck %s --check-prefix=MISS < %t/5.json
// RUN: npu-run %t/bp.onnx --target npu16,cpu -v --seed 1 --cache-dir %t/c --set accumulator.rows=8192 --report-json %t/6.json
// RUN: FileCheck %s --check-prefix=HITJSON < %t/6.json
// The CPU path: its object code and weights, loaded again without MLIR or LLVM.
// RUN: npu-run %t/bp.onnx --target cpu --seed 1 --cache-dir %t/c --compare %t/cpu --perf 1 2>&1 | FileCheck %s --check-prefix=CPUMISS
// CPUMISS-NOT: warning
// CPUMISS: y: ok
// CPUMISS: compile time:
// CPUMISS-NOT: from the compile cache
// RUN: npu-run %t/bp.onnx --target cpu --seed 1 --cache-dir %t/c --compare %t/cpu --perf 1 2>&1 | FileCheck %s --check-prefix=CPUHIT
// CPUHIT-NOT: warning
// CPUHIT: y: ok
// CPUHIT: compile time: {{.*}} ms (from the compile cache)
// RUN: ls %t/c | wc -l | FileCheck %s --check-prefix=THREE
// THREE: 3
// --check-reference needs the compile's host reference: it compiles (and refreshes the entry).
// RUN: npu-run %t/bp.onnx --target npu16,cpu -v --seed 1 --cache-dir %t/c --check-reference --report-json %t/7.json 2>&1 | FileCheck %s --check-prefix=REF
// REF: reference: {{[0-9]+}} NPU partition outputs match the host reference
// RUN: FileCheck %s --check-prefix=MISS < %t/7.json
// A cache directory that cannot be made is an error.
// RUN: touch %t/file
// RUN: not npu-run %t/bp.onnx --target npu16,cpu -v --seed 1 --cache-dir %t/file/c 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: npu-run: error: cache directory {{.*}}file/c: {{.*}}
// An input that decides a shape is compiled in with its value, and each value
// keeps its own entry (the model's key leads to an index naming that input):
// a second value compiles once, with no warning, and then both values hit.
// RUN: npu-translate --export-onnx %S/Inputs/reshape-input.mlir -o %t/r.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/s34.npy', n.array([3, 4], dtype=n.int64)); n.save('%t/s43.npy', n.array([4, 3], dtype=n.int64))"
// RUN: npu-run %t/r.onnx --input shape=%t/s34.npy --cache-dir %t/r --output-dir %t/r34 2>&1 | FileCheck %s --allow-empty --check-prefix=NOWARN
// NOWARN-NOT: warning
// RUN: npu-run %t/r.onnx --input shape=%t/s43.npy --cache-dir %t/r --output-dir %t/r43 --perf 1 2>&1 | FileCheck %s --check-prefix=VMISS
// VMISS-NOT: warning
// VMISS: compile time:
// VMISS-NOT: from the compile cache
// RUN: python3 -c "import numpy as n; print(n.load('%t/r34/y.npy').shape, n.load('%t/r43/y.npy').shape)" | FileCheck %s --check-prefix=SHAPES
// SHAPES: (3, 4) (4, 3)
// RUN: npu-run %t/r.onnx --input shape=%t/s43.npy --cache-dir %t/r --perf 1 2>&1 | FileCheck %s --check-prefix=VHIT
// RUN: npu-run %t/r.onnx --input shape=%t/s34.npy --cache-dir %t/r --perf 1 2>&1 | FileCheck %s --check-prefix=VHIT
// VHIT-NOT: warning
// VHIT: compile time: {{.*}} (from the compile cache)
// RUN: ls %t/r | wc -l | FileCheck %s --check-prefix=VARIANTS
// VARIANTS: 3
