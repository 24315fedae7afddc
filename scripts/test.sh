#!/usr/bin/env bash
# Sets up the machine (scripts/setup.sh) and runs every test: the Rust unit and
# property tests and the lit suite (run by `cargo test` through tools/tests/lit.rs).
# Ends with one summary line, "N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="/usr/lib/llvm-22/bin:$PATH"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cargo test --workspace --release --lib --bins --tests "$@" 2>&1 | tee "$log" || status=$?
# lit's own count (its tests run inside one cargo test) plus cargo's.
read -r passed failed < <(awk '
  /^test result:/ { for (i = 1; i <= NF; i++) { if ($i ~ /^passed/) p += $(i-1); if ($i ~ /^failed/) f += $(i-1) } }
  /^  Passed: / { p += $2 - 1 }
  /^  Failed: / { f += $2 }
  END { print p + 0, f + 0 }' "$log")
echo
echo "tests: ${passed} passed, ${failed} failed"
exit "$status"
