# lit configuration: FileCheck regression tests for every dialect, pass and tool.
# Run through `cargo test` (tools/tests/lit.rs), which passes the directory of
# the freshly built tools as --param tools_dir=...
import os
import lit.formats

config.name = "npu"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".s"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
# Scratch files (%t) go under target/, never into the source tree.
# `run_dir` (tools/tests/lit.rs passes one per file) gives each lit process its
# own exec root: lit rewrites .lit_test_times.txt there after every run, and
# processes running side by side would read each other's half-written file.
config.test_exec_root = os.path.join(os.path.dirname(__file__), "..", "..", "target", "lit", lit_config.params.get("run_dir", ""))

tools_dir = lit_config.params.get("tools_dir") or os.environ.get("NPU_TOOLS_DIR")
if not tools_dir:
    lit_config.fatal("pass --param tools_dir=<dir holding npu-opt> (cargo test does)")
llvm_dir = lit_config.params.get("llvm_tools_dir", "/usr/lib/llvm-22/bin")

config.environment["PATH"] = os.pathsep.join([tools_dir, llvm_dir, os.environ.get("PATH", "")])
config.substitutions.append(("%llvm_tools_dir", llvm_dir))

# ONNX's node conformance tests, fetched by scripts/fetch-onnx-data.sh.
onnx_node = os.environ.get("ONNX_NODE_TESTS") or os.path.join(
    os.environ.get("NPU_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "npu"), "onnx-1.22.0", "node")
config.substitutions.append(("%onnx_node", onnx_node))

# `REQUIRES: vnni`: tests of the CPU path's AVX-512 VNNI kernels (vpdpbusd).
try:
    with open("/proc/cpuinfo") as f:
        flags = f.read()
    if "avx512_vnni" in flags and "avx512bw" in flags:
        config.available_features.add("vnni")
except OSError:
    pass

# `REQUIRES: multicore`: tests that need a second core (the cross-core
# probe). Counted as Rust's `available_parallelism` counts (the tests' own
# harness, `tools/tests/lit.rs`, and npu-run do): the CPUs this process may
# run on, no more than a cgroup's CPU quota allows.
def cores():
    n = len(os.sched_getaffinity(0))
    try:
        with open("/sys/fs/cgroup/cpu.max") as f:
            quota, period = f.read().split()
        if quota != "max":
            n = min(n, max(1, int(quota) // int(period)))
    except (OSError, ValueError):
        pass
    return n


if cores() >= 2:
    config.available_features.add("multicore")
