// npu-run --target npu: NPU partitions on the simulator, the rest on the
// CPU; outputs equal the CPU path's; the report names each CPU op and why,
// gives every layer's cycles against its roofline and the whole model's
// figures, as text, JSON and one Perfetto trace.
// RUN: rm -rf %t && mkdir -p %t
// RUN: npu-translate --export-onnx %S/Inputs/chain.mlir -o %t/chain.onnx
// RUN: npu-run %t/chain.onnx --target cpu --seed 5 --output-dir %t/chain.cpu
// RUN: npu-run %t/chain.onnx --target npu -v --seed 5 --compare %t/chain.cpu --rtol 1e-4 --atol 1e-6 --report-json %t/chain.json --trace %t/chain.trace --asm-dir %t/asm > %t/chain.txt 2> %t/chain.err
// RUN: FileCheck %s --check-prefix=CHAIN < %t/chain.txt
// RUN: FileCheck %s --check-prefix=SAME < %t/chain.err
// RUN: FileCheck %s --check-prefix=JSON < %t/chain.json
// RUN: FileCheck %s --check-prefix=TRACE < %t/chain.trace
// RUN: npu-sim asm %t/asm/chain_npu16_0_program.s -o %t/chain.bin
// RUN: FileCheck %s --check-prefix=ASM < %t/asm/chain_npu16_0_program.s
// RUN: npu-sim disasm %t/chain.bin | FileCheck %s --check-prefix=ASM
// RUN: npu-sim run %t/chain.bin --arg in0=random:1 --arg weights=random:2 --report | FileCheck %s --check-prefix=SIM

// MACs are the model's (a 3x3 depthwise conv of 18 channels to 4x4: 18·16·9),
// written on each product's layer (0 on the others); the MAC units' own count
// (v.mac's lanes past the 18 channels included) stays beside them.
// ASM: .layer "conv1+relu1" macs 158760
// ASM: .layer "dw2+relu6_2" macs 2592
// ASM: .layer "add5+relu5" macs 0{{$}}
// ASM: .layer "fc9" macs 240
// SIM: MACs 175416 (the array and v.mac did 161544)
// SIM: dw2+relu6_2 {{[0-9]+}} 2592

// Every op of the chain runs on the NPU, each layer named after its ONNX nodes.
// CHAIN: CPU operations (0 of 12):
// CHAIN: npu16: 12 ops (100.0%) in 1 partitions; cpu: 0 ops (0.0%) in 0 partitions
// CHAIN: NPU program chain_npu16_0_program ({{[0-9]+}} cycles, roofline {{[0-9]+}}
// CHAIN: layer cycles roofline ratio util MACs DRAM bytes
// CHAIN: conv1+relu1 {{[0-9]+}} {{[0-9]+}}
// CHAIN: dw2+relu6_2 {{[0-9]+}} {{[0-9]+}} {{[0-9.]+}} {{[0-9.]+}}% 2592
// CHAIN: pw3
// CHAIN: pw4
// CHAIN: add5+relu5
// CHAIN: maxpool6
// CHAIN: gap7
// CHAIN: fc9
// CHAIN: whole model on npu16:
// CHAIN: NPU cycles
// CHAIN: roofline {{[0-9]+}} cycles (ratio {{[0-9.]+}})
// CHAIN: utilization
// CHAIN: DRAM traffic {{[0-9]+}} bytes ({{[0-9.]+}}x the minimum {{[0-9]+}})
// CHAIN: ops 12 on the NPU, 0 on the CPU (0.0%)
// SAME: y: ok
// JSON: "cpu_ops": 0,
// JSON: "cycles": {{[1-9][0-9]*}},
// JSON: "dram_bytes": {{[1-9][0-9]*}},
// JSON: "array_macs": 3840,
// JSON-NEXT: "cycles":
// JSON-NEXT: "dram_bytes":
// JSON-NEXT: "layer": "dw2+relu6_2",
// JSON-NEXT: "macs": 2592,
// JSON: "npu_ops": 12,
// JSON: "roofline_cycles": {{[1-9][0-9]*}},
// JSON: "utilization": 0.{{[0-9]+}}
// TRACE: "traceEvents":[{"args":{"name":"load"}
// TRACE-SAME: "name":"mx.mul"

// An op the NPU does not run falls back to the CPU with its reason; the run still matches.
// RUN: npu-translate --export-onnx %S/Inputs/hetero.mlir -o %t/hetero.onnx
// RUN: npu-run %t/hetero.onnx --target cpu --seed 2 --output-dir %t/hetero.cpu
// RUN: npu-run %t/hetero.onnx --target npu -v --seed 2 --compare %t/hetero.cpu --rtol 1e-4 --atol 1e-6 --trace %t/hetero.trace 2>&1 | FileCheck %s --check-prefix=HETERO
// The trace has the whole run: NPU programs (simulated time) and CPU partitions (host time) in order.
// RUN: FileCheck %s --check-prefix=HTRACE < %t/hetero.trace
// HTRACE: "args":{"target":"npu","time":"simulated"},"cat":"npu",{{.*}}"name":"hetero_npu16_0_program"
// HTRACE-SAME: "args":{"target":"cpu","time":"host"},"cat":"cpu",{{.*}}"name":"hetero_cpu0"
// HTRACE-SAME: "name":"hetero_npu16_1_program"
// Without -v, one screen: the split, the fallbacks grouped by reason, the five
// costliest layers, the whole-model figures and the outputs; no per-op list
// and no per-program tables.
// RUN: npu-run %t/hetero.onnx --target npu --seed 2 | FileCheck %s --check-prefix=BRIEF
// BRIEF: npu16: 7 ops (87.5%) in 2 partitions; cpu: 1 ops (12.5%) in 1 partitions
// BRIEF-NEXT: fallbacks by where they ran and why (npu-run -v lists each op):
// BRIEF-NEXT: cpu [attribute] 1 Softmax (e.g. axis 1 of a rank-4 input (over the innermost dim only))
// BRIEF-NEXT: top layers by cycles (5 of 5; npu-run -v lists every program):
// BRIEF-NEXT: layer cycles roofline ratio util DRAM bytes
// BRIEF-NOT: NPU program
// BRIEF-NOT: CPU operations
// BRIEF: whole model on npu16:
// BRIEF: outputs:
// The Reshape and Transpose after it turn the NHWC map into tokens: one free
// reshape, no layer; the Concat moves data on the DMA engines.
// HETERO: CPU operations (1 of 8):
// HETERO-NEXT: onnx.Softmax "softmax2" [attribute] axis 1 of a rank-4 input (over the innermost dim only)
// HETERO-NEXT: npu16: 7 ops (87.5%) in 2 partitions; cpu: 1 ops (12.5%) in 1 partitions
// HETERO: avgpool3
// HETERO-NOT: transpose6
// HETERO: matmul7
// HETERO: concat8
// HETERO: y: ok

// A hardware description that cannot hold the smallest tile of the convolutions: each
// falls back to the CPU with a reason naming it and the memory (one per round of
// partitioning);
// the ops after them, whose tiles fit, stay on the NPU.
// RUN: npu-run %t/chain.onnx --target npu -v --set scratchpad.rows=32 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: onnx.Conv "conv1" [compile-failed] npu16 could not compile its partition: npu.conv: the smallest tile needs {{[0-9]+}} scratchpad rows; the scratchpad has 32
// SMALL: onnx.Conv "pw4" [compile-failed]
// SMALL: npu16: 6 ops (50.0%) in 1 partitions; cpu: 6 ops (50.0%) in 1 partitions
// RUN: not npu-run %t/chain.onnx --target npu -v --hw %t/nope.toml 2>&1 | FileCheck %s --check-prefix=HW
// HW: npu-run: error: --hw {{.*}}nope.toml: not a built-in target and not readable
// RUN: not npu-run %t/chain.onnx --target npu -v --set array.bogus=1 2>&1 | FileCheck %s --check-prefix=SET
// SET: npu-run: error: --set array.bogus=1:
