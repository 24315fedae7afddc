// npu-run compiles and runs a model on the CPU: random inputs with a seed,
// outputs as .npy, comparison with expected outputs, --perf in text and JSON,
// and clear errors for wrong inputs and ops the CPU path cannot lower.
// RUN: rm -rf %t && mkdir -p %t
// RUN: npu-translate --export-onnx %S/Inputs/mlp.mlir -o %t/mlp.onnx
// RUN: npu-run %t/mlp.onnx --target cpu --seed 3 --output-dir %t/out
// RUN: ls %t/out | FileCheck %s --check-prefix=FILES
// FILES: y.npy
// RUN: npu-run %t/mlp.onnx --seed 3 --compare %t/out 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: y: ok (max abs 0.000e0, max rel 0.000e0)
// RUN: not npu-run %t/mlp.onnx --seed 4 --compare %t/out 2>&1 | FileCheck %s --check-prefix=DIFF
// DIFF: y: MISMATCH: {{[0-9]+}} of 8 elements differ
// By default a run ends with a summary: where it ran, the times, each output's
// type and values; -q (and --json) print none. The values are the file's.
// RUN: npu-run %t/mlp.onnx --seed 3 | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: ran on cpu: {{[0-9]+}} ONNX nodes, compiled in {{.*}} ms, run in {{.*}} ms
// SUMMARY-NEXT: outputs:
// SUMMARY-NEXT: y  FLOAT[2, 4]  min [[MIN:[-0-9.e]+]]  max {{.*}}  mean {{.*}}  [[[FIRST:[-0-9.e]+]], {{.*}}, …]
// RUN: python3 -c "import numpy as n; y = n.load('%t/out/y.npy'); print('min %%g first %%g' %% (y.min(), y.flat[0]))" > %t/vals
// RUN: npu-run %t/mlp.onnx --seed 3 > %t/summary
// RUN: python3 -c "import re, sys; s = open('%t/summary').read(); v = open('%t/vals').read().split(); m = re.search(r'y  FLOAT\[2, 4\]  min (\S+) .*\[([^,]+),', s); sys.exit(0 if m and abs(float(m.group(1)) - float(v[1])) < 1e-4 * max(1, abs(float(v[1]))) and abs(float(m.group(2)) - float(v[3])) < 1e-4 * max(1, abs(float(v[3]))) else 1)"
// RUN: npu-run %t/mlp.onnx --seed 3 -q | count 0
// --bind takes input names; a value given to it (NAME=FILE, as --input takes)
// is refused with what to write instead; an unknown name lists the inputs.
// RUN: not npu-run %t/mlp.onnx --bind x=%t/out/y.npy 2>&1 | FileCheck %s --check-prefix=BINDVAL
// BINDVAL: --bind x={{.*}}y.npy: --bind takes input names only (`--bind x`); give the value with --input x={{.*}}y.npy
// RUN: not npu-run %t/mlp.onnx --bind z 2>&1 | FileCheck %s --check-prefix=BINDNAME
// BINDNAME: --bind z: the model has no such input; its inputs are: x
// Subcommands: run (the default, `npu-run MODEL`), onnx-tests, list-ops.
// RUN: npu-run --help | FileCheck %s --check-prefix=COMMANDS
// COMMANDS: Usage: npu-run <COMMAND>
// COMMANDS: run Compile and run a model
// COMMANDS-NEXT: onnx-tests
// COMMANDS-NEXT: list-ops
// run's --help groups its flags: where to run, the NPU path's own, inputs, outputs.
// RUN: npu-run run --help | FileCheck %s --check-prefix=HELP
// HELP: Where to run:
// HELP-NEXT: --target
// HELP: NPU path (--target with a backend):
// HELP: -v, --verbose
// HELP: Inputs:
// HELP-NEXT: --input
// HELP: Outputs and checks:
// HELP-NEXT: --output-dir <OUTPUT_DIR> Write each output to DIR/<output name>.npy, named as --output-names says
// HELP: --output-names <OUTPUT_NAMES> How --output-dir names files: `sanitized` writes `/`, `\` and NUL in an output's name as `_`
// Output names with a `/`: written as `_` by default, as subdirectories with
// --output-names original (a name that climbs out of DIR is refused there);
// --compare finds either.
// RUN: sed 's|"y"|"gpu_0/y"|' %S/Inputs/mlp.mlir | npu-translate --export-onnx -o %t/slash.onnx
// RUN: npu-run %t/slash.onnx --seed 3 -q --output-dir %t/san
// RUN: npu-run %t/slash.onnx --seed 3 -q --output-dir %t/orig --output-names original
// RUN: cd %t && find san orig -name "*.npy" | sort | FileCheck %s --check-prefix=NAMES
// NAMES: orig/gpu_0/y.npy
// NAMES-NEXT: san/gpu_0_y.npy
// RUN: npu-run %t/slash.onnx --seed 3 -q --compare %t/orig 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: sed 's|"y"|"../y"|' %S/Inputs/mlp.mlir | npu-translate --export-onnx -o %t/climb.onnx
// RUN: not npu-run %t/climb.onnx -q --output-dir %t/climb --output-names original 2>&1 | FileCheck %s --check-prefix=CLIMB
// CLIMB: npu-run: error: output '../y' is not a relative path of plain names: write it with --output-names sanitized
// RUN: not ls %t/y.npy
// --timing: each compile phase on stderr, the whole first.
// RUN: npu-run %t/mlp.onnx --timing -q 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING: compile phases ({{[0-9.]+}} ms in all):
// TIMING-NEXT: {{[0-9.]+}} ms {{[0-9.]+}}% import (ONNX to the onnx dialect, inputs specialized)
// TIMING: lowering to loops (our passes)
// TIMING: MLIR and LLVM to machine code
// The NPU path times its own phases: partitioning, npu16's scheduling, the CPU partitions.
// RUN: npu-run %t/mlp.onnx --target npu --timing -q 2>&1 | FileCheck %s --check-prefix=NPUTIMING
// NPUTIMING: compile phases ({{[0-9.]+}} ms in all):
// NPUTIMING: partitioning over the backends
// NPUTIMING: npu16: scheduling (tiling, memory plan, instructions)
// On a terminal (here `script`'s), a line on stderr says what runs now: each
// phase, then each NPU program and CPU partition; a pipe gets none of it.
// RUN: script -qec "npu-run %t/mlp.onnx --target npu" /dev/null < /dev/null | FileCheck %s --check-prefix=PROGRESS
// PROGRESS: import (ONNX to the onnx dialect
// RUN: npu-run %t/mlp.onnx --target npu 2>&1 >/dev/null | count 0
// A free dimension without a name: the error says how to give the shape, and --shape does.
// RUN: npu-translate --export-onnx %S/Inputs/mlp-free-batch.mlir -o %t/free.onnx
// RUN: not npu-run %t/free.onnx 2>&1 | FileCheck %s --check-prefix=FREE
// FREE: npu-run: error: input x: FLOAT[?, 8] has a free dimension: give the input (--input x=FILE.npy), its shape (--shape x=N,8) or a named dimension's size (--dim NAME=N)
// RUN: npu-run %t/free.onnx --shape x=3,8 | FileCheck %s --check-prefix=FREESHAPE
// FREESHAPE: y  FLOAT[3, 4]
// RUN: not npu-run %t/free.onnx --shape x=3,7 2>&1 | FileCheck %s --check-prefix=BADSHAPE
// BADSHAPE: npu-run: error: --shape x=3,7: the model declares input x: FLOAT[?, 8]
// RUN: npu-run %t/mlp.onnx --perf 3 --json | FileCheck %s --check-prefix=JSON
// JSON: {"arena_bytes":0,"compile_cache":"off","compile_ms":{{.*}},"cross_core_read":{{.*}},"first_run_ms":{{.*}},"p50_ms":{{.*}},"p90_ms":{{.*}},"p99_ms":{{.*}},"peak_rss_bytes":{{[0-9]+}},"runs":3,"weights_bytes":0}
// On one thread nothing is handed between cores: no cross-core probe
// (`cross-core-probe.mlir` has the two-thread case).
// RUN: npu-run %t/mlp.onnx --perf 3 --json --threads 1 | FileCheck %s --check-prefix=ONE
// ONE: "cross_core_read":null,
// RUN: npu-run %t/mlp.onnx --perf 3 | FileCheck %s --check-prefix=PERF
// PERF: compile time:
// PERF: first run:
// PERF: latency over 3 runs: P50 {{.*}} ms, P90 {{.*}} ms, P99 {{.*}} ms
// PERF-NEXT: memory: intermediates 0 B at peak (one arena, planned at compile time), weights 0 B, process peak resident {{[0-9.]+}} MiB (compile included)
// RUN: not npu-run %t/mlp.onnx --input nope=%t/out/y.npy 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: npu-run: error: the model has no input 'nope'; its inputs are: x
// RUN: not npu-run %t/mlp.onnx --input x=%t/out/y.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: input x: FLOAT[2, 4] does not match the compiled model; the model expects:
// SHAPE-NEXT: x: FLOAT[2, 8]
// RUN: not npu-run %t/mlp.onnx --target tpu 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: npu-run: error: --target tpu: unknown backend 'tpu'; registered: cpu, npu16
// RUN: npu-translate --export-onnx %S/Inputs/unsupported-op.mlir -o %t/b.onnx
// RUN: not npu-run %t/b.onnx 2>&1 | FileCheck %s --check-prefix=OP
// OP: loc("b_node"): error: 'onnx.Bernoulli' has no CPU lowering yet (docs/cpu-node-tests.md lists the ops the CPU path runs)
// An error at a node names it as Netron shows it: op type, inputs and outputs with their inferred types.
// OP-NEXT: the node: 'b_node', Bernoulli; inputs x: FLOAT[4]; outputs y: FLOAT[4]
// RUN: not npu-run %t/missing.onnx 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: npu-run: error: {{.*}}missing.onnx: No such file or directory
// Backend lists: unknown names and the CPU not last are refused; npu16 alone means npu16,cpu.
// RUN: not npu-run %t/mlp.onnx --target npu16,acme -v 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: npu-run: error: --target npu16,acme: unknown backend 'acme'; registered: cpu, npu16
// RUN: not npu-run %t/mlp.onnx --target cpu,npu16 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: npu-run: error: --target cpu,npu16: 'cpu' must come last: it is the fallback of every backend before it
// RUN: npu-run %t/mlp.onnx --target npu16,cpu -v --seed 3 --compare %t/out 2>&1 | FileCheck %s --check-prefix=LIST
// RUN: npu-run %t/mlp.onnx --target npu16 -v --seed 3 --compare %t/out 2>&1 | FileCheck %s --check-prefix=LIST
// LIST: npu16: {{[0-9]+}} ops
// LIST: y: ok
// A partition npu16 cannot compile runs on the CPU with the reason, never failing the model:
// a GlobalAveragePool too large for the accumulator (the error names it: it alone
// leaves the partition, and the conv compiled with it before stays on the NPU),
// and a scratchpad too small for any tile (everything falls back).
// RUN: npu-translate --export-onnx %S/Inputs/big-pool.mlir -o %t/bp.onnx
// RUN: npu-run %t/bp.onnx --seed 1 --output-dir %t/bp
// RUN: npu-run %t/bp.onnx --target npu16,cpu -v --seed 1 --compare %t/bp --report-json %t/bp.json 2>&1 | FileCheck %s --check-prefix=POOL
// POOL: CPU operations (2 of 4):
// POOL-NEXT: onnx.GlobalAveragePool "gap" [compile-failed] npu16 could not compile its partition: npu.pool: one output row needs 115682 accumulator rows; the accumulator has 4096
// POOL-NEXT: onnx.Softmax "softmax" [attribute] axis 1 of a rank-4 input (over the innermost dim only)
// POOL-NEXT: npu16: 2 ops (50.0%) in 1 partitions; cpu: 2 ops (50.0%) in 1 partitions
// POOL: y: ok
// npu-translate writes the NPU programs of the same model: the partition npu16
// cannot compile is left to the CPU, as in npu-run, instead of failing.
// RUN: npu-translate --import-onnx %t/bp.onnx --emit=npu-asm -o %t/bp.s
// RUN: FileCheck %s --check-prefix=BPASM < %t/bp.s
// BPASM: ; big_pool_npu16_0_program
// BPASM-NOT: ; big_pool_npu16_1_program
// POOL: z: ok
// RUN: FileCheck %s --check-prefix=POOLJSON < %t/bp.json
// POOLJSON: "reason_code": "compile-failed"
// RUN: npu-run %t/mlp.onnx --target npu16,cpu -v --set scratchpad.rows=2 --seed 3 --compare %t/out 2>&1 | FileCheck %s --check-prefix=TINY
// TINY: onnx.MatMul "MatMul#1" [compile-failed] npu16 could not compile its partition: npu.matmul: the smallest tile needs 18 scratchpad rows; the scratchpad has 2
// TINY: npu16: 0 ops (0.0%) in 0 partitions; cpu: 2 ops (100.0%) in 1 partitions
// TINY: y: ok
// Placement overrides: the JSON report reads back as a placement file (the same split, the
// pool now placed by the file); a text file forces the conv onto the CPU; --target cpu has no choice to make.
// RUN: npu-run %t/bp.onnx --target npu16,cpu -v --seed 1 --placement %t/bp.json --compare %t/bp 2>&1 | FileCheck %s --check-prefix=REPLAY
// REPLAY: onnx.GlobalAveragePool "gap" [placement] placed on cpu by {{.*}}bp.json: placements[2]
// REPLAY: npu16: 2 ops (50.0%) in 1 partitions; cpu: 2 ops (50.0%) in 1 partitions
// REPLAY: z: ok
// RUN: echo 'conv cpu' > %t/conv.place
// RUN: npu-run %t/bp.onnx --target npu16,cpu -v --seed 1 --placement %t/conv.place --compare %t/bp 2>&1 | FileCheck %s --check-prefix=FORCE
// FORCE: onnx.Conv "conv" [placement] placed on cpu by {{.*}}conv.place:1
// FORCE: npu16: 0 ops (0.0%) in 0 partitions
// FORCE: y: ok
// RUN: not npu-run %t/bp.onnx --placement %t/conv.place 2>&1 | FileCheck %s --check-prefix=CPUPLACE
// CPUPLACE: npu-run: error: --placement places nodes among the backends of a list
