#!/usr/bin/env bash
# Installs everything the project needs on a fresh Debian 12 machine:
# the LLVM/MLIR 22 toolchain (mlir-opt, FileCheck, lit), the C libraries
# melior links against and Chromium (the HTML report's browser test). Idempotent: a second run installs nothing.
set -euo pipefail

# chromium: the browser test of `npu-run --report-html` (test/lit/npu-run/report-html.mlir).
PKGS=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libclang-22-dev
      libpolly-22-dev libzstd-dev libxml2-dev libz3-dev zlib1g-dev python3 chromium)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Debian's own Python refuses plain `pip install` (PEP 668); our packages are pinned, so allow it there.
pip_install() {
  python3 -m pip install --quiet "$@" 2>/dev/null || python3 -m pip install --quiet --break-system-packages "$@"
}

# lit: Debian ships it inside llvm-22-tools; fall back to PyPI's if absent.
LLVM_BIN=/usr/lib/llvm-22/bin
if [ ! -x "$LLVM_BIN/FileCheck" ]; then
  echo "setup: FileCheck missing from $LLVM_BIN" >&2; exit 1
fi
if ! [ -x "$LLVM_BIN/lit" ] && ! command -v lit >/dev/null 2>&1; then
  pip_install lit
fi
bash "$(dirname "$0")/fetch-onnx-data.sh"
# ONNX Runtime is the reference of the exporter's round trip (scripts/onnx_roundtrip.py);
# 1.31.1 passes 1,457 of ONNX 1.22.0's 1,765 node tests here.
if ! python3 -c 'import onnxruntime, onnx, numpy, sys; sys.exit(onnxruntime.__version__ != "1.31.1" or onnx.__version__ != "1.22.0")' 2>/dev/null; then
  pip_install onnxruntime==1.31.1 onnx==1.22.0 numpy
fi
# The real-model corpus's CI subset (bench/real_models.py fetches the rest itself with scripts/fetch-models.sh).
bash "$(dirname "$0")/fetch-models.sh" --ci
echo "setup: ok (LLVM $($LLVM_BIN/llvm-config --version))"
