// Intermediate tensors kept on chip between layers (npu16 revision 3, the
// scratchpad as a DMA address): after every layer is scheduled, each
// intermediate that fits above the working rows of the layers that touch it,
// for its whole lifetime, moves from the DRAM `scratch` argument into the
// scratchpad and the DMAs that write and read it address `%spad`. The chain's
// intermediates all fit: no scratch argument is left, the outputs are the
// same, and the program moves fewer DRAM bytes than on revision 2
// (`--set npu16.scratchpad.dma=false`), where every one goes through DRAM.
// RUN: rm -rf %t && mkdir -p %t
// RUN: npu-translate --export-onnx %S/Inputs/chain.mlir -o %t/chain.onnx
// RUN: npu-run %t/chain.onnx --target cpu --seed 5 --output-dir %t/cpu
// RUN: npu-run %t/chain.onnx --target npu --seed 5 --compare %t/cpu --rtol 1e-4 --atol 1e-6 --check-reference --report-json %t/r3.json --asm-dir %t/r3 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: npu-run %t/chain.onnx --target npu --set npu16.scratchpad.dma=false --seed 5 --compare %t/cpu --rtol 1e-4 --atol 1e-6 --check-reference --report-json %t/r2.json --asm-dir %t/r2 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: y: ok
// SAME: reference: 1 NPU partition outputs match the host reference
// RUN: FileCheck %s --check-prefix=R3 < %t/r3/chain_npu16_0_program.s
// RUN: FileCheck %s --check-prefix=R2 < %t/r2/chain_npu16_0_program.s
// R3-NOT: .arg %scratch
// R3: .layer "conv1+relu1"
// R3: dma.storeacc.f32 %spad+{{[0-9]+}}
// R3: .layer "dw2+relu6_2"
// R3: dma.load.f32 spad[{{[0-9]+}}], %spad+{{[0-9]+}}
// R3-NOT: %scratch
// R2: .arg %scratch out i8
// R2-NOT: %spad
// RUN: python3 -c "import json; a, b = (json.load(open('%t/' + n))['dram_bytes'] for n in ('r3.json', 'r2.json')); print('on chip', a, 'through DRAM', b, 'fewer' if a < b else 'NOT FEWER')" | FileCheck %s --check-prefix=BYTES
// BYTES: on chip {{[0-9]+}} through DRAM {{[0-9]+}} fewer
