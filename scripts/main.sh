#!/usr/bin/env bash
# The main job, as far as the project goes today: set up, build release tools,
# then parse, verify, optimize and print a real program through npu-opt, check
# that upstream mlir-opt accepts our generic output, and time both on a
# generated 1,000,000-op module; run a real model on each target (the
# summary a user sees, and the NPU run's HTML report); import ONNX models and round-trip them through
# ONNX Runtime; compile real models (ResNet-18-, MobileNetV2-like CNNs, a
# transformer block, an MLP, an LSTM) to native code with npu-run and time them
# against ONNX Runtime; compile the same models for the NPU (CPU fallback for
# what it cannot run) and run them on the simulator, checked against the CPU
# path, with cycles against the roofline; run the real-model corpus (models that
# PyPI wheels ship) on every path against ONNX Runtime; run ONNX's node tests on
# the CPU path.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="/usr/lib/llvm-22/bin:$PATH"
cargo build --release -p tools
NPU_OPT=target/release/npu-opt
echo "== npu-opt examples/mlp.mlir (custom form)"
"$NPU_OPT" examples/mlp.mlir
echo "== generic form, round trip through upstream mlir-opt"
"$NPU_OPT" examples/mlp.mlir --mlir-print-op-generic | mlir-opt --mlir-print-op-generic | "$NPU_OPT" > /dev/null && echo "mlir-opt accepts our output and we accept its: ok"
echo "== canonicalize + cse"
"$NPU_OPT" examples/mlp.mlir --inline --symbol-dce --canonicalize --cse --mlir-pass-statistics
echo "== NPU simulator: a hand-written int8 matmul, then the simulator benchmark"
cargo build --release -p tools -q
target/release/npu-sim run test/lit/npu-sim/matmul.s --arg a=iota --arg w=iota --print c --report
cargo run --release -q -p npu-sim --example bench 3
echo "== ONNX: import a node-test model, infer shapes, export, and run both in ONNX Runtime"
M="${NPU_CACHE:-$HOME/.cache/npu}/onnx-1.22.0/node/test_conv_with_strides_and_asymmetric_padding/model.onnx"
target/release/npu-translate --import-onnx --ignore-value-info "$M" | target/release/npu-opt --onnx-shape-inference
python3 scripts/onnx_roundtrip.py conv
python3 bench/onnx_import.py
echo "== CPU path: compile and run a node-test model, check its outputs"
D="${NPU_CACHE:-$HOME/.cache/npu}/onnx-1.22.0/node/test_conv_with_strides_and_asymmetric_padding"
target/release/npu-run "$D/model.onnx" --target cpu --test-data "$D/test_data_set_0" --perf 20
echo "== CPU path: real models against ONNX Runtime (one thread each)"
python3 bench/cpu_models.py --runs "${RUNS:-10}"
echo "== A real model (PaddleOCR's text-direction classifier, paddle2onnx) on each target, as a user runs it"
M="${NPU_CACHE:-$HOME/.cache/npu}/models/ppocr_mobile_cls.onnx"
target/release/npu-run "$M" --shape x=1,3,48,192
mkdir -p target/artifacts
target/release/npu-run "$M" --shape x=1,3,48,192 --target npu --report-html target/artifacts/ppocr_mobile_cls.html
echo "the NPU run's HTML report: target/artifacts/ppocr_mobile_cls.html"
echo "== NPU path: a model with a CPU fallback, then the benchmark models on the npu16 simulator"
target/release/npu-translate --export-onnx test/lit/npu/Inputs/hetero.mlir -o /tmp/npu-hetero.onnx
target/release/npu-run /tmp/npu-hetero.onnx --target npu
python3 bench/npu_models.py
echo "== Real models from PyPI wheels: export, CPU path and npu16,cpu against ONNX Runtime"
python3 bench/real_models.py --check
echo "== CPU path: ONNX node tests"
target/release/npu-run onnx-tests "${NPU_CACHE:-$HOME/.cache/npu}/onnx-1.22.0/node" --manifest test/onnx/cpu-node.manifest
echo "== benchmarks"
python3 bench/core_roundtrip.py --mode roundtrip --runs "${RUNS:-3}"
python3 bench/core_roundtrip.py --mode passes --runs "${RUNS:-3}"
