// npu-run --report-html: one self-contained page of a run on the NPU path (the
// partition graph coloured by target, cycles and DRAM bytes per layer against
// the roofline, utilization over time, the ops left to the CPU and why, the
// hardware). Chromium renders it headless: no console message, the counts of
// the --report-json of the same run, the targets' colours in the screenshot
// (kept in target/artifacts/report-html.png).
// RUN: rm -rf %t && mkdir -p %t
// RUN: npu-translate --export-onnx %S/Inputs/report-cnn.mlir -o %t/m.onnx
// RUN: npu-run %t/m.onnx --target npu -q --report-html %t/r.html --report-json %t/r.json
// RUN: python3 %S/Inputs/check_report_html.py %t/r.html %t/r.json %t/r.png | FileCheck %s
// CHECK: report: ok (NPU program boxes 2, CPU partition boxes 1, layer bars 5, DRAM bars 5, rows of ops past the first backend 1)
// The page needs nothing from the network: no external URL but the SVG namespace.
// RUN: not grep -E "(src|href)=\"(https?:)?//" %t/r.html
// It names the op the CPU ran and why, and the hardware's keys.
// RUN: FileCheck %s --check-prefix=PAGE < %t/r.html
// PAGE: <td>softmax</td><td>Softmax</td><td>cpu</td><td>attribute</td><td>axis 1 of a rank-4 input (over the innermost dim only)</td>
// PAGE: <tr><th>array.rows</th><td>16</td></tr>
// The whole-model figures of a heterogeneous run: NPU → CPU (the Softmax) → NPU
// is two transitions; two values of 1x8x16x16 f32 (8192 bytes each) cross between
// targets (the residual conv1 → Add stays on the NPU); -v names each cut and its
// cause; the end-to-end estimate is the NPU time at the clock plus the host's.
// RUN: npu-run %t/m.onnx --target npu -v | FileCheck %s --check-prefix=HETERO
// HETERO: cuts between targets (2):
// HETERO-NEXT: report_cnn_npu16_0 → report_cnn_cpu0 (cpu): Softmax 'softmax' [attribute]
// HETERO-NEXT: report_cnn_cpu0 → report_cnn_npu16_1 (npu16)
// HETERO: transitions      2 between targets in run order; 2 values cross between targets (16384 bytes)
// HETERO-NEXT: end to end       {{[0-9.]+}} ms estimated: {{[0-9.]+}} ms on the NPU at 1000 MHz + {{[0-9.]+}} ms measured on the host
// RUN: python3 -c "import json, sys; r = json.load(open('%t/r.json')); e = r['cycles'] / 1000 / 1e3 + r['cpu_ms'] + r['glue_ms']; sys.exit(0 if r['transitions'] == 2 and r['crossing_bytes'] == 16384 and abs(r['end_to_end_ms'] - e) < 1e-9 and len(r['cuts']) == 2 else 1)"
// RUN: FileCheck %s --check-prefix=PAGEFIG < %t/r.html
// PAGEFIG: <tr><th>transitions</th><td>2 between targets in run order; 2 values cross between targets (16.0 KiB)</td></tr>
// The check can fail: a script error, a missing bar.
// RUN: sed 's|</body>|<script>console.error("broken")</script></body>|' %t/r.html > %t/console.html
// RUN: not python3 %S/Inputs/check_report_html.py %t/console.html %t/r.json %t/c.png | FileCheck %s --check-prefix=CONSOLE
// CONSOLE: report: console: "broken"
// RUN: python3 -c "import re; s = open('%t/r.html').read(); open('%t/bars.html', 'w').write(re.sub(r'<g class=\"layer\">.*?</g>', '', s, count=1))"
// RUN: not python3 %S/Inputs/check_report_html.py %t/bars.html %t/r.json %t/b.png | FileCheck %s --check-prefix=BARS
// BARS: report: layer bars: 4 on the page, 5 in the JSON report
// The report describes the NPU path; on the CPU alone it is refused, and a
// page that cannot be written is an error (nothing half-written).
// RUN: not npu-run %t/m.onnx --report-html %t/cpu.html 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: npu-run: error: --report-html describes a run on the NPU path: add --target npu (or a backend list such as npu16,cpu)
// RUN: not ls %t/cpu.html
// RUN: not npu-run %t/m.onnx --target npu -q --report-html %t/no/such/dir/r.html 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: npu-run: error: {{.*}}r.html: {{.*}}
