// A model's intermediates live in one arena planned at compile time by their
// lifetimes: t1 waits for the residual Add while t2 and t3 are made, so three
// 1 KB buffers are alive at once and the arena is 3072 bytes (t4 is made from
// t3 after t2 has died, in t2's bytes). The outputs match ONNX Runtime, and
// --perf reports the arena the runtime handed out.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(5); f = lambda *s: r.standard_normal(s).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(4, 64), a=f(64, 64) / 8, b=f(64, 64) / 8).items()]"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input a=%t/a.npy --input b=%t/b.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy a=%t/a.npy b=%t/b.npy | FileCheck %s
// CHECK: y: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/y.npy'); a[3, 9] += 0.01; n.save('%t/cpu/y.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy a=%t/a.npy b=%t/b.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: y: differs
// RUN: npu-translate --import-onnx %t/m.onnx | npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=LOOPS
// LOOPS: func.func private @npu_arena_push(i64) -> memref<?xi8> attributes {llvm.emit_c_interface}
// LOOPS: arith.constant 3072 : i64
// LOOPS-NEXT: call @npu_arena_push
// LOOPS-NOT: memref.alloc
// LOOPS: call @npu_arena_pop() : () -> ()
// LOOPS-NEXT: return
// Code built to run without our runtime takes the arena from malloc, once a
// call (3072 bytes and 64 to align them).
// RUN: npu-translate --import-onnx %t/m.onnx | npu-translate --mlir-to-llvmir --emit=llvm-ir | FileCheck %s --check-prefix=STANDALONE
// STANDALONE-NOT: npu_arena
// STANDALONE: call ptr @malloc(i64 3136)
// STANDALONE-NOT: @malloc(
// STANDALONE: call void @free(
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input a=%t/a.npy --input b=%t/b.npy --perf 3 | FileCheck %s --check-prefix=PERF
// PERF: memory: intermediates 3.0 KiB at peak (one arena, planned at compile time), weights 0 B, process peak resident {{[0-9.]+}} MiB
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input a=%t/a.npy --input b=%t/b.npy --perf 3 --json | FileCheck %s --check-prefix=JSON
// JSON: {"arena_bytes":3072,

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[4,64] x, float[64,64] a, float[64,64] b) => (float[4,64] y) {
  t1 = MatMul (x, a)
  t2 = MatMul (t1, b)
  t3 = MatMul (t2, a)
  t4 = MatMul (t3, b)
  y = Add (t4, t1)
}
