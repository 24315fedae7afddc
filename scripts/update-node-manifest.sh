#!/usr/bin/env bash
# Re-derives, from one honest run of every ONNX node test on the CPU path, the
# manifest of tests that must pass (test/onnx/cpu-node.manifest), the known
# failures with their reasons (test/onnx/cpu-node.known-failures) and the
# per-op and per-test report (docs/cpu-node-tests.md). Extra flags go to
# `npu-run onnx-tests` (e.g. -j 2, --timeout 120). Also lists the node tests that
# put ops on the NPU (test/onnx/npu-node.on-npu).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/lib/llvm-22/bin:$PATH"
cargo build --release -q -p tools --bin npu-run
target/release/npu-run onnx-tests "${ONNX_NODE_TESTS:-${NPU_CACHE:-$HOME/.cache/npu}/onnx-1.22.0/node}" \
  --manifest test/onnx/cpu-node.manifest --update-manifest \
  --known-failures test/onnx/cpu-node.known-failures \
  --report docs/cpu-node-tests.md "$@"
# The node tests that put ops on the NPU (tools/tests/npu_node_tests.rs keeps them there).
node="${ONNX_NODE_TESTS:-${NPU_CACHE:-$HOME/.cache/npu}/onnx-1.22.0/node}"
{
  echo "# ONNX node tests that put at least one op on the NPU (--target npu --bind weights); tools/tests/npu_node_tests.rs keeps each of them there."
  grep -v '^#' test/onnx/cpu-node.manifest | grep -E 'conv|pool|gemm|matmul|test_add|test_sub|test_mul|test_div|test_sum|test_mean|test_max|test_min|test_relu|test_clip|flatten|qlinear|sigmoid|tanh|hardswish|leakyrelu|batchnorm|reduce_mean|transpose|concat|split|slice|resize|reshape|squeeze|unsqueeze|pad' |
    xargs -P2 -I{} sh -c "target/release/npu-run '$node/{}/model.onnx' --target npu --bind weights --test-data '$node/{}/test_data_set_0' 2>/dev/null | grep -q '^npu16: [1-9]' && echo {} || true" | sort
} > test/onnx/npu-node.on-npu
