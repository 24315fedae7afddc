// npu-run --plot: the NPU layers of a run on one roofline chart (SVG). Every
// layer with MACs and DRAM bytes is a dot where the --report-json of the same
// run puts it (MAC slots per DRAM byte, slots a cycle), under the roof of the
// array's peak and the DRAM's bandwidth, coloured by its ratio to its
// roofline; the whole model is a diamond as far below the roof as its ratio.
// The model has two NPU programs with the Softmax on the CPU between them.
// RUN: rm -rf %t && mkdir -p %t
// RUN: npu-translate --export-onnx %S/Inputs/report-cnn.mlir -o %t/m.onnx
// RUN: npu-run %t/m.onnx --target npu -q --plot %t/p.svg --report-json %t/r.json
// RUN: python3 %S/Inputs/check_roofline_plot.py %t/p.svg %t/r.json | FileCheck %s
// CHECK: plot: ok (3 dots of 5 layers, 0 above the roof, the model {{[0-9.]+}}x below it)
// The chart names the model and the hardware, and the roof's two limits.
// RUN: FileCheck %s --check-prefix=SVG < %t/p.svg
// SVG: <svg xmlns="http://www.w3.org/2000/svg"{{.*}} data-peak="256" data-bandwidth="16"
// SVG: m.onnx on npu16: each NPU layer against its roofline
// SVG: array peak 256 slots a cycle; DRAM 16 bytes a cycle
// SVG: <title>report_cnn_npu16_0_program / conv1
// SVG: 3 layers plotted; 2 without MACs or DRAM bytes
// A 32x32 array: the peak is 1024 slots a cycle.
// RUN: npu-run %t/m.onnx --target npu -q --set array.rows=32 --set array.cols=32 --plot %t/p32.svg --report-json %t/r32.json
// RUN: python3 %S/Inputs/check_roofline_plot.py %t/p32.svg %t/r32.json | FileCheck %s --check-prefix=BIG
// BIG: plot: ok
// RUN: grep -q 'data-peak="1024"' %t/p32.svg
// The HTML report shows the same chart.
// RUN: npu-run %t/m.onnx --target npu -q --report-html %t/r.html
// RUN: FileCheck %s --check-prefix=HTML < %t/r.html
// HTML: <section id="roofline"><h2>The layers on the roofline</h2>
// HTML: each NPU layer against its roofline
// HTML: <circle class="layer"
// It describes a run on the NPU path: not asked of the CPU path.
// RUN: not npu-run %t/m.onnx --plot %t/cpu.svg 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: npu-run: error: --plot describes a run on the NPU path: add --target npu
// RUN: test ! -e %t/cpu.svg
