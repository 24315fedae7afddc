#!/usr/bin/env bash
# Sets up the machine (scripts/setup.sh) and runs every test: the Rust unit and
# property tests, the lit suite and ONNX's node tests (one named test per lit
# file and per node test, through tools/tests/lit.rs and cpu_conformance.rs),
# the exporter's round trip through ONNX Runtime (scripts/onnx_roundtrip.py),
# differential edge cases against ONNX Runtime (bench/edge_cases.py), the
# real-model corpus's CI subset (bench/real_models.py --ci) and int8 models
# quantized by ONNX Runtime (bench/int8_models.py --ci), and the tools that
# link no LLVM built without it (scripts/no_llvm.sh).
# Ends with one summary line, "N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="/usr/lib/llvm-22/bin:$PATH"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# The tools that link no LLVM, built without the CPU code generator first (the
# build below reuses every crate but tools'); checked after it.
bash scripts/no_llvm.sh build 2>&1 | tee -a "$log" || true
cargo test --workspace --release --no-fail-fast --lib --bins --tests "$@" 2>&1 | tee -a "$log" || status=$?
# The out-of-tree vendor backend (its own workspace), built in our target
# directory so that it reuses the build above.
CARGO_TARGET_DIR="$PWD/target" cargo test --release --manifest-path examples/vendor-acme/Cargo.toml "$@" 2>&1 | tee -a "$log" || status=$?
# npu-opt, npu-sim and npu-translate without the CPU code generator (the
# tools crate's `cpu` feature off): linking no LLVM, and writing what the
# full build writes; one test.
bash scripts/no_llvm.sh check 2>&1 | tee -a "$log" || status=1
# The round trip uses the release binaries the tests just built; it counts as one test.
if python3 scripts/onnx_roundtrip.py --check 2>&1 | tee -a "$log"; then
  echo "test result: ok. 1 passed; 0 failed (onnx round trip)" >> "$log"
else
  echo "test result: FAILED. 0 passed; 1 failed (onnx round trip)" >> "$log"
  status=1
fi
# Differential edge cases against ONNX Runtime on both targets (a sample of
# bench/edge_cases.py's cases; the bench runs them all); one test.
if python3 bench/edge_cases.py --check --sample 300 2>&1 | tee -a "$log"; then
  echo "test result: ok. 1 passed; 0 failed (edge cases against ONNX Runtime)" >> "$log"
else
  echo "test result: FAILED. 0 passed; 1 failed (edge cases against ONNX Runtime)" >> "$log"
  status=1
fi
# The real-model corpus's CI subset on every path against ONNX Runtime
# (bench/real_models.py runs them all); one test.
if python3 bench/real_models.py --check --ci 2>&1 | tee -a "$log"; then
  echo "test result: ok. 1 passed; 0 failed (real models against ONNX Runtime)" >> "$log"
else
  echo "test result: FAILED. 0 passed; 1 failed (real models against ONNX Runtime)" >> "$log"
  status=1
fi
# Int8 models as ONNX Runtime's quantizer writes them, on the NPU path
# against ONNX Runtime and the host reference (bench/int8_models.py --ci); one test.
if python3 bench/int8_models.py --check --ci 2>&1 | tee -a "$log"; then
  echo "test result: ok. 1 passed; 0 failed (int8 models against ONNX Runtime)" >> "$log"
else
  echo "test result: FAILED. 0 passed; 1 failed (int8 models against ONNX Runtime)" >> "$log"
  status=1
fi
# cargo's counts, each lit file and node test being one test.
read -r passed failed < <(awk '
  /^test result:/ { for (i = 1; i <= NF; i++) { if ($i ~ /^passed/) p += $(i-1); if ($i ~ /^failed/) f += $(i-1) } }
  END { print p + 0, f + 0 }' "$log")
echo
echo "tests: ${passed} passed, ${failed} failed"
exit "$status"
