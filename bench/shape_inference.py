#!/usr/bin/env python3
"""Shape inference on ONNX's node tests, ours against ONNX's own
(`onnx.shape_inference.infer_shapes(data_prop=True)`, onnx 1.22.0), side by side:
how many tests get every output's declared type (or a more precise one: a
declared `?` takes any size), in two settings:

- no input values: only the declared input types are known;
- shape inputs bound: the graph inputs whose values reach an operand that decides
  a shape (`npu-translate --list-shape-inputs`, as our own figure binds them) are
  known, as initializers; every other input stays unknown.

Ours is read from the manifests `cargo test --test onnx_node_import` keeps
(test/onnx/node-infer.manifest, node-infer-shape-bound.manifest); ONNX's is
computed here. Also lists which of ours fail, grouped by operator.

usage: bench/shape_inference.py [--data DIR] [--failures]
"""
import argparse
import collections
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NPU_TRANSLATE = os.path.join(ROOT, "target", "release", "npu-translate")
DEFAULT_DATA = os.path.join(os.environ.get("NPU_CACHE", os.path.expanduser("~/.cache/npu")), "onnx-1.22.0", "node")


def shape_inputs(model_path):
    """The graph inputs whose values decide shapes, as our importer names them
    (`npu-translate --list-shape-inputs`: the table in
    dialects/onnx/src/shape_operands.rs, followed through the graph)."""
    out = subprocess.run([NPU_TRANSLATE, "--import-onnx", model_path, "--list-shape-inputs"], capture_output=True, text=True)
    return set(out.stdout.split()) if out.returncode == 0 else set()


def agrees(declared, inferred):
    """Same element type and rank; every declared size known is the inferred one."""
    if declared.WhichOneof("value") != inferred.WhichOneof("value"):
        return False
    kind = declared.WhichOneof("value")
    if kind in ("sequence_type", "optional_type"):
        return agrees(getattr(declared, kind).elem_type, getattr(inferred, kind).elem_type)
    if kind != "tensor_type":
        return declared == inferred
    d, i = declared.tensor_type, inferred.tensor_type
    if d.elem_type != i.elem_type:
        return False
    if not d.HasField("shape"):
        return True
    if not i.HasField("shape") or len(d.shape.dim) != len(i.shape.dim):
        return False
    for a, b in zip(d.shape.dim, i.shape.dim):
        if a.HasField("dim_value") and (not b.HasField("dim_value") or a.dim_value != b.dim_value):
            return False
    return True


def onnx_infers(model_dir, bind):
    import onnx
    from onnx import numpy_helper, shape_inference

    m = onnx.load(os.path.join(model_dir, "model.onnx"))
    declared = [onnx.TypeProto.FromString(o.type.SerializeToString()) for o in m.graph.output]
    if bind:
        names = shape_inputs(os.path.join(model_dir, "model.onnx"))
        inits = {t.name for t in m.graph.initializer}
        inputs = [i for i in m.graph.input if i.name not in inits]
        for k, vi in enumerate(inputs):
            pb = os.path.join(model_dir, "test_data_set_0", f"input_{k}.pb")
            if vi.name in names and os.path.exists(pb) and vi.type.WhichOneof("value") == "tensor_type":
                t = onnx.TensorProto.FromString(open(pb, "rb").read())
                t.name = vi.name
                m.graph.initializer.append(t)
                m.graph.input.remove(vi)
    for o in m.graph.output:
        if o.type.HasField("tensor_type"):
            o.type.tensor_type.ClearField("shape")
    m.graph.ClearField("value_info")
    try:
        got = shape_inference.infer_shapes(m, strict_mode=False, data_prop=True).graph.output
    except Exception:
        return False
    return all(agrees(d, g.type) for d, g in zip(declared, got))


def ours(manifest):
    res = {}
    for line in open(os.path.join(ROOT, "test/onnx", manifest)):
        if line.startswith("#") or " " not in line:
            continue
        name, outcome = line.rstrip("\n").split(" ", 1)
        res[name] = outcome
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--failures", action="store_true", help="list our failures with shape inputs bound")
    args = ap.parse_args()
    if not os.path.exists(NPU_TRANSLATE):
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "tools"], cwd=ROOT, check=True)
    plain, bound = ours("node-infer.manifest"), ours("node-infer-shape-bound.manifest")
    # The tests our importer takes as the default domain (others fail to import there).
    tests = sorted(n for n, o in plain.items() if not o.startswith("import:"))
    counts = {"ours": [0, 0], "onnx": [0, 0]}
    for n in tests:
        d = os.path.join(args.data, n)
        counts["ours"][0] += plain[n] == "match"
        counts["ours"][1] += bound[n] == "match"
        counts["onnx"][0] += onnx_infers(d, False)
        counts["onnx"][1] += onnx_infers(d, True)
    total = len(tests)
    print(f"ONNX 1.22.0 node tests of the default domain that import: {total}")
    print("| inference | no input values | shape inputs bound |")
    print("|---|---|---|")
    for who, label in (("ours", "ours (onnx-shape-inference + canonicalize)"), ("onnx", "ONNX's infer_shapes(data_prop=True)")):
        a, b = counts[who]
        print(f"| {label} | {a} ({100 * a / total:.1f}%) | {b} ({100 * b / total:.1f}%) |")
    if args.failures:
        groups = collections.defaultdict(list)
        for n in tests:
            if bound[n] != "match":
                groups[re.sub(r"^test_", "", n).split("_")[0]].append(n)
        for g, ns in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            print(f"{g}: {len(ns)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
