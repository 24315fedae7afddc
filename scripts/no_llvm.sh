#!/usr/bin/env bash
# npu-opt, npu-sim and npu-translate built without the CPU code generator
# (the tools crate's default feature `cpu` off): they build without MLIR or
# LLVM, link none of it, and do their non-CPU work as the full build does.
# Builds into target/no-llvm (its own target directory, so the default
# binaries stay as they are); compares with target/release's binaries, which
# must be built first (scripts/test.sh runs this after cargo test).
# Prints a "test result:" line; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/lib/llvm-22/bin:$PATH"
full=target/release
lite=target/no-llvm/release
fails=()
fail() { fails+=("$1"); echo "no-llvm: FAILED: $1"; }

if ! cargo build --release -p tools --no-default-features --bins --target-dir target/no-llvm; then
  echo "test result: FAILED. 0 passed; 1 failed (tools without the CPU code generator)"
  exit 1
fi
if cargo tree -p tools --no-default-features -e normal --prefix none | grep -qE '^(melior|mlir-sys|llvm-cpu|runtime) '; then
  fail "the tools crate without its cpu feature still depends on the CPU code generator"
fi
[ -e "$lite/npu-run" ] && [ "$lite/npu-run" -nt "$lite/npu-translate" ] && fail "npu-run was built without the cpu feature"
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
