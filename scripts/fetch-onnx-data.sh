#!/usr/bin/env bash
# Fetches ONNX's node conformance tests: the pinned onnx wheel from PyPI,
# unpacked (a wheel is a zip) into a cache folder the tests read:
#   ${NPU_CACHE:-$HOME/.cache/npu}/onnx-1.22.0/node/<test>/{model.onnx,test_data_set_*}
# Idempotent: does nothing when the data is already there.
set -euo pipefail
VERSION=1.22.0
CACHE="${NPU_CACHE:-$HOME/.cache/npu}/onnx-$VERSION"
if [ -f "$CACHE/node/.complete" ]; then
  echo "onnx data: $CACHE/node"
  exit 0
fi
mkdir -p "$CACHE"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! python3 -m pip --version >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-pip >/dev/null
fi
# Any platform's wheel carries the same test data; take this machine's.
python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$tmp" "onnx==$VERSION"
wheel=$(ls "$tmp"/onnx-"$VERSION"-*.whl | head -1)
python3 - "$wheel" "$tmp/unpacked" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for n in z.namelist():
    if n.startswith("onnx/backend/test/data/node/"):
        z.extract(n, sys.argv[2])
PY
rm -rf "$CACHE/node"
mv "$tmp/unpacked/onnx/backend/test/data/node" "$CACHE/node"
touch "$CACHE/node/.complete"
echo "onnx data: $CACHE/node ($(ls "$CACHE/node" | wc -l) tests)"
