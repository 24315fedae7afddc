// A program function the instruction set cannot encode (hand-written or
// edited schedule-level IR) is an error at the op, and no file is written;
// a good one prints and encodes, and its text assembles to its binary.
// RUN: split-file %s %t
// RUN: npu-translate --mlir-to-npu %t/good.mlir -o %t/good.s
// RUN: FileCheck %s --check-prefix=GOOD < %t/good.s
// RUN: npu-translate --mlir-to-npu --emit=npu-bin %t/good.mlir -o %t/good.bin
// RUN: npu-sim asm %t/good.s -o %t/good2.bin
// RUN: npu-sim disasm %t/good.bin | FileCheck %s --check-prefix=GOOD
// RUN: npu-sim disasm %t/good2.bin | FileCheck %s --check-prefix=GOOD
// RUN: not npu-translate --mlir-to-npu %t/undeclared.mlir -o %t/u.s 2>&1 | FileCheck %s --check-prefix=UNDECLARED
// RUN: not ls %t/u.s
// RUN: not npu-translate --mlir-to-npu --emit=npu-bin %t/range.mlir -o %t/r.bin 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not ls %t/r.bin
// RUN: not npu-translate --mlir-to-npu %t/queue.mlir -o %t/q.s 2>&1 | FileCheck %s --check-prefix=QUEUE
// RUN: not ls %t/q.s

// GOOD: .arg %out0 out f32 [16, 4]
// GOOD-NEXT: .layer "store"
// GOOD-NEXT: dma.storeacc.f32 %out0+64, acc[2], rows=16, cols=4, stride=16
// GOOD-NEXT: sem.signal exec, s1
// GOOD-NEXT: halt
// UNDECLARED: undeclared.mlir:4:5: npu.dma.storeacc: undeclared argument '%nope'
// RANGE: range.mlir:4:5: npu.dma.storeacc: dma.storeacc: operand 'src' = 99999999999 does not fit in unsigned 32 bits
// QUEUE: queue.mlir:5:5: error: 'npu.sem.signal' op 'sem.signal' operand 'queue' is missing or malformed

//--- good.mlir
module {
  func.func private @p() attributes {npu.args = [{dir = "out", dtype = "f32", name = "out0", shape = [16 : i64, 4 : i64]}], npu.program} {
    "npu.layer"() <{name = "store"}> : () -> ()
    "npu.dma.storeacc"() <{cols = 4 : i64, dst = "out0", dst_offset = 64 : i64, dtype = "f32", rows = 16 : i64, src = 2 : i64, stride = 16 : i64}> : () -> ()
    "npu.sem.signal"() <{queue = "exec", sem = 1 : i64}> : () -> ()
    "npu.halt"() : () -> ()
    func.return
  }
}
//--- undeclared.mlir
module {
  func.func private @p() attributes {npu.args = [{dir = "out", dtype = "f32", name = "out0", shape = [16 : i64, 4 : i64]}], npu.program} {
    "npu.layer"() <{name = "store"}> : () -> ()
    "npu.dma.storeacc"() <{cols = 4 : i64, dst = "nope", dst_offset = 0 : i64, dtype = "f32", rows = 16 : i64, src = 0 : i64, stride = 16 : i64}> : () -> ()
    "npu.halt"() : () -> ()
    func.return
  }
}
//--- range.mlir
module {
  func.func private @p() attributes {npu.args = [{dir = "out", dtype = "f32", name = "out0", shape = [16 : i64, 4 : i64]}], npu.program} {
    "npu.layer"() <{name = "store"}> : () -> ()
    "npu.dma.storeacc"() <{cols = 4 : i64, dst = "out0", dst_offset = 0 : i64, dtype = "f32", rows = 16 : i64, src = 99999999999 : i64, stride = 16 : i64}> : () -> ()
    "npu.halt"() : () -> ()
    func.return
  }
}
//--- queue.mlir
module {
  func.func private @p() attributes {npu.args = [{dir = "out", dtype = "f32", name = "out0", shape = [16 : i64, 4 : i64]}], npu.program} {
    "npu.layer"() <{name = "store"}> : () -> ()
    "npu.dma.storeacc"() <{cols = 4 : i64, dst = "out0", dst_offset = 0 : i64, dtype = "f32", rows = 16 : i64, src = 0 : i64, stride = 16 : i64}> : () -> ()
    "npu.sem.signal"() <{queue = "dram", sem = 1 : i64}> : () -> ()
    "npu.halt"() : () -> ()
    func.return
  }
}
