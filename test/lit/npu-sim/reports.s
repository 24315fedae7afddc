; --json and --trace: the report as JSON for tools, and a Chrome/Perfetto trace
; with one named track per unit; config prints the hardware description.
; RUN: npu-sim run %S/matmul.s --arg a=iota --arg w=iota --json --trace %t.json | FileCheck %s --check-prefix=JSON
; RUN: FileCheck %s --check-prefix=TRACE < %t.json
; RUN: npu-sim config --set dram.bytes_per_cycle=32 | FileCheck %s --check-prefix=CONFIG
; RUN: not npu-sim config --set dram.speed=3 2>&1 | FileCheck %s --check-prefix=BADSET
; RUN: not npu-sim run %S/matmul.s --target npu99 2>&1 | FileCheck %s --check-prefix=BADTARGET
; RUN: npu-sim run %S/matmul.s --set dram.latency=1000 --arg a=iota --arg w=iota --report | FileCheck %s --check-prefix=SLOWDRAM

; JSON: "target": "npu16"
; JSON: "cycles": {{[0-9]+}}
; JSON: "macs": 64
; JSON: "dram_bytes_read": 32
; JSON: "dram_bytes_written": 64
; JSON: "utilization":
; JSON: "busy_cycles":
; JSON: "stall_semaphore":
; JSON: "roofline_cycles":
; JSON: "name": "matmul"

; TRACE: "traceEvents"
; TRACE-DAG: {"args":{"name":"load"},"name":"thread_name"
; TRACE-DAG: {"args":{"name":"exec"},"name":"thread_name"
; TRACE-DAG: {"args":{"name":"store"},"name":"thread_name"
; TRACE-DAG: "name":"mx.mul","ph":"X"
; TRACE-DAG: "cat":"matmul"

; CONFIG: name = "npu16"
; CONFIG: [array]
; CONFIG: rows = 16
; CONFIG: [dram]
; CONFIG: bytes_per_cycle = 32

; BADSET: error: --set dram.speed: unknown key 'speed'
; BADTARGET: error: unknown built-in target 'npu99' (known: npu16)
; Each DMA waits 1,000 cycles before its first byte; the two loads wait
; together (`dram.pipelined`, revision 4), the store after them.
; SLOWDRAM: target npu16: 2{{[0-9][0-9][0-9]}} cycles
