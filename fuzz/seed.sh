#!/usr/bin/env bash
# Seeds the fuzz corpora: node-test models under 4 KiB (scripts/setup.sh fetches
# them) and the .onnxtext parts of the lit tests (text.mlir, functions.mlir). Then, for example:
#   cargo +nightly fuzz run -O import_onnx fuzz/corpus/import_onnx -- -max_total_time=600
set -euo pipefail
cd "$(dirname "$0")"
node="${NPU_CACHE:-$HOME/.cache/npu}/onnx-1.22.0/node"
mkdir -p corpus/import_onnx corpus/import_onnxtext
for d in "$node"/*/; do
  f="$d/model.onnx"
  if [ -f "$f" ] && [ "$(stat -c %s "$f")" -lt 4096 ]; then cp "$f" "corpus/import_onnx/$(basename "$d").onnx"; fi
done
for t in text functions; do
  awk -v p="$t-" '/^\/\/--- /{f="corpus/import_onnxtext/" p $2; next} f{print > f}' ../test/lit/onnx-import/$t.mlir
done
echo "seeded: $(ls corpus/import_onnx | wc -l) models, $(ls corpus/import_onnxtext | wc -l) texts"
