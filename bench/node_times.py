#!/usr/bin/env python3
"""Where a model's CPU time goes, node by node, ours beside ONNX Runtime's.

    python3 bench/node_times.py MODEL.onnx [--model NAME] [--threads N] [--runs R]
    python3 bench/node_times.py resnet18          # a bench/cpu_models.py model

Ours: `npu-run --profile --perf R` (a fused group is one row named after all
its nodes, `conv2+batchnormalization7+relu8`). ONNX Runtime's: its profiler
(`SessionOptions.enable_profiling`), the median kernel time of each node over
the same R runs; ONNX Runtime fuses too, and names a fused node after one of
the nodes it took in (`relu8`, or `clip37_nchwc` in its channel-blocked
layout), so each of our rows is matched to the ONNX Runtime node that carries
the name of one of its nodes. ONNX Runtime's layout conversions
(`ReorderInput`, `ReorderOutput`) have no row of ours and are listed apart.
Both run on the same seeded input (the `.x.npy` beside a bench model, else
uniform [0, 1) for every float input whose shape is static).

Prints the rows by how much longer ours take (the gap first), then the sums:
the table to read before working on a slow model. Times on a shared machine
drift; within one run the rows compare with each other.
"""
import argparse
import collections
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NPU_RUN = os.path.join(ROOT, "target", "release", "npu-run")
ROW = re.compile(r"\s+([\d.]+)\s+[\d.]+%\s+(?:[\d.]+\s+)?(?:\d+%\s+)?(?:[\d.]+\s+)?\S+\s+(\S+)$")


def inputs_for(path):
    """name -> array: the bench model's .x.npy, else seeded uniform inputs."""
    import onnx

    m = onnx.load(path, load_external_data=False)
    init = {i.name for i in m.graph.initializer}
    graph_inputs = [i for i in m.graph.input if i.name not in init]
    beside = path[: -len(".onnx")] + ".x.npy"
    if len(graph_inputs) == 1 and os.path.exists(beside):
        return {graph_inputs[0].name: np.load(beside)}
    rng = np.random.default_rng(7)
    feeds = {}
    for i in graph_inputs:
        dims = [d.dim_value if d.HasField("dim_value") else -1 for d in i.type.tensor_type.shape.dim]
        if any(d < 0 for d in dims):
            sys.exit(f"input {i.name} has a free dimension: give a bench model or a model with static inputs")
        if i.type.tensor_type.elem_type != onnx.TensorProto.FLOAT:
            sys.exit(f"input {i.name} is not float: this script feeds floats only")
        feeds[i.name] = rng.random(dims, dtype=np.float32)
    return feeds


def chains(path):
    """node name -> the names of the nodes after it that ONNX Runtime may have
    fused it with: the one consumer of its first output, and that one's, up to
    three steps (a Conv's BatchNormalization and Clip)."""
    import onnx

    g = onnx.load(path, load_external_data=False).graph
    users = collections.defaultdict(list)
    for n in g.node:
        for i in n.input:
            users[i].append(n)
    after = {}
    for n in g.node:
        names, cur = [], n
        for _ in range(3):
            nxt = users.get(cur.output[0], []) if cur.output else []
            if len(nxt) != 1:
                break
            cur = nxt[0]
            names.append(cur.name)
        after[n.name] = names
    return after


def ort_node_times(path, feeds, threads, runs):
    """ONNX Runtime's median kernel time per node, in ms."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.log_severity_level = 3
    so.enable_profiling = True
    so.profile_file_prefix = os.path.join(tempfile.mkdtemp(), "ort")
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    sess.run(None, feeds)
    for _ in range(runs):
        sess.run(None, feeds)
    with open(sess.end_profiling()) as f:
        events = json.load(f)
    times = collections.defaultdict(list)
    for e in events:
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
            times[e["name"][: -len("_kernel_time")]].append(e["dur"] / 1e3)
    return {n: statistics.median(t) for n, t in times.items()}


def our_node_times(path, feeds, threads, runs):
    """Our mean time per profiled row (a node or a fused group), in ms."""
    d = tempfile.mkdtemp()
    args = [NPU_RUN, path, "--threads", str(threads), "--perf", str(runs), "--profile", "-v"]
    for name, a in feeds.items():
        f = os.path.join(d, f"in{len(args)}.npy")
        np.save(f, a)
        args += ["--input", f"{name}={f}"]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"npu-run failed:\n{out.stderr}")
    rows = collections.defaultdict(float)
    for line in out.stdout.splitlines():
        if line.startswith("time per run by op type"):
            break
        m = ROW.match(line)
        if m:
            rows[m.group(2)] += float(m.group(1))
    return dict(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model", help="an .onnx file, or the name of a bench/cpu_models.py model")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--top", type=int, default=20, help="rows to print")
    a = ap.parse_args()
    path = a.model
    if not path.endswith(".onnx"):
        sys.path.insert(0, os.path.join(ROOT, "bench"))
        import cpu_models

        d = tempfile.mkdtemp()
        cpu_models.write_model(path, getattr(cpu_models, path), d)
        path = os.path.join(d, f"{a.model}.onnx")
    feeds = inputs_for(path)
    theirs = ort_node_times(path, feeds, a.threads, a.runs)
    ours = our_node_times(path, feeds, a.threads, a.runs)
    by_name = {}
    for n in theirs:
        by_name.setdefault(n, n)
        if n.endswith("_nchwc"):
            by_name.setdefault(n[: -len("_nchwc")], n)
    after = chains(path)
    # Each of our rows goes to the ONNX Runtime node named after one of its
    # nodes or of the chain after it; rows that share one (a conv's padding
    # and its product) add up there.
    per_node = collections.defaultdict(lambda: [0.0, []])
    lone = []
    for group, ms in ours.items():
        members = group.split("+")
        candidates = list(reversed(members)) + after.get(members[-1], [])
        node = next((by_name[n] for n in candidates if n in by_name), None)
        if node is None:
            lone.append((ms, group))
            continue
        per_node[node][0] += ms
        per_node[node][1].append(group)
    rows = [(ms - theirs[n], n, ms, theirs[n], groups) for n, (ms, groups) in per_node.items()]
    rows += [(ms, None, ms, None, [g]) for ms, g in lone]
    rows.sort(key=lambda r: -r[0])
    print(f"{'ours ms':>9} {'ORT ms':>9} {'ratio':>6}  ONNX Runtime's node: our rows")
    for _, node, ms, t, groups in rows[: a.top]:
        ratio = f"{ms / t:6.2f}" if t else "      "
        their = f"{t:9.3f}" if t is not None else f"{'-':>9}"
        print(f"{ms:9.3f} {their} {ratio}  {node or '(none)'}: {', '.join(sorted(groups, key=lambda g: -ours[g]))}")
    alone = {n: t for n, t in theirs.items() if n not in per_node}
    if alone:
        print("ONNX Runtime's nodes without a row of ours: " + ", ".join(f"{n} {t:.3f}" for n, t in sorted(alone.items(), key=lambda x: -x[1])[:8]))
    print(f"sums: ours {sum(ours.values()):.3f} ms, ONNX Runtime {sum(theirs.values()):.3f} ms ({a.threads} thread{'s' if a.threads > 1 else ''}, {a.runs} runs)")


if __name__ == "__main__":
    main()
