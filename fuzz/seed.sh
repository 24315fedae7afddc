#!/usr/bin/env bash
# Seeds the fuzz corpora:
# - import_onnx: node-test models under 4 KiB (scripts/setup.sh fetches them);
# - import_onnxtext: the .onnxtext parts of the lit tests (text.mlir, functions.mlir);
# - parse_mlir, opt_pipelines: every `// -----` chunk of every lit .mlir file;
# - npu_asm: the lit NPU programs (.s); npu_binary: those that assemble, as binaries
#   (needs target/release/npu-sim: cargo build --release -p tools).
# Then, for example:
#   cargo +nightly fuzz run -O opt_pipelines fuzz/corpus/opt_pipelines -- -max_total_time=3600 -rss_limit_mb=4096 -timeout=10
set -euo pipefail
cd "$(dirname "$0")"
node="${NPU_CACHE:-$HOME/.cache/npu}/onnx-1.22.0/node"
mkdir -p corpus/import_onnx corpus/import_onnxtext corpus/parse_mlir corpus/opt_pipelines corpus/npu_asm corpus/npu_binary
for d in "$node"/*/; do
  f="$d/model.onnx"
  if [ -f "$f" ] && [ "$(stat -c %s "$f")" -lt 4096 ]; then cp "$f" "corpus/import_onnx/$(basename "$d").onnx"; fi
done
for t in text functions; do
  awk -v p="$t-" '/^\/\/--- /{f="corpus/import_onnxtext/" p $2; next} f{print > f}' ../test/lit/onnx-import/$t.mlir
done
find ../test/lit -name '*.mlir' | sort | while read -r f; do
  base=$(echo "${f#../test/lit/}" | tr '/' '_')
  awk -v p="corpus/parse_mlir/$base" 'BEGIN{n=0; f=p "." n} /^\/\/ -----/{n++; f=p "." n; next} {print > f}' "$f"
done
cp corpus/parse_mlir/* corpus/opt_pipelines/
for f in $(find ../test/lit -path '*npu-sim*' -name '*.s' | sort); do
  base=$(echo "${f#../test/lit/}" | tr '/' '_')
  cp "$f" "corpus/npu_asm/$base"
  ../target/release/npu-sim asm "$f" -o "corpus/npu_binary/$base.bin" 2>/dev/null || true
done
echo "seeded: $(ls corpus/import_onnx | wc -l) models, $(ls corpus/import_onnxtext | wc -l) texts, $(ls corpus/parse_mlir | wc -l) IR inputs, $(ls corpus/npu_asm | wc -l) programs, $(ls corpus/npu_binary | wc -l) binaries"
