#!/usr/bin/env python3
"""Int8 models as ONNX Runtime's quantizer writes them (issue 17): the
benchmark's ResNet-18- and MobileNetV2-like CNNs and its transformer block
(bench/cpu_models.py), quantized by `onnxruntime.quantization.quantize_static`
with its defaults (QDQ, int8 activations with their own zero points, int8
symmetric weights), per output channel (`-pc`) and per tensor (`-pt`); with
uint8 activations (`-u8`); with uint8 activations and asymmetric uint8
weights (`-u8w`, ONNX Runtime's U8U8); and in the QOperator form (`-qop`: QLinearConv,
QLinearMatMul and com.microsoft QLinearAdd, QGemm, QLinearGlobalAveragePool,
QLinearMul, QLinearSoftmax), all on random calibration data.

Per model, in one run (the CPU's int8 products run on VNNI where the host
has it: `onnx-form-integer-products`; NPU_CPU_NO_VNNI=1 measures the portable
kernels):
- on `--target npu16,cpu --check-reference`: the share of the model's MACs on
  the NPU, NPU cycles over the roofline, the NPU compile time, whether the NPU
  partitions equal the host reference bit for bit, and the largest difference
  from ONNX Runtime's own output of the same int8 model in units of the
  output's quantization step (a float output: as a percentage of its largest
  magnitude, at most 2%);
- on the CPU, one thread each: our median latency and ONNX Runtime's on the
  int8 model, their ratio, our ratio to our own float model, and our output's
  difference from ONNX Runtime's in output steps (at most one).
On a host where ONNX Runtime's integer GEMM saturates (x86-64 without VNNI,
e.g. AVX2) the output differences are taken from ONNX Runtime with its graph
optimizations off (the QDQ groups in float, as the spec writes them).

The floors of issue 17 follow the table: >= 90% of the MACs on the NPU,
within one output step of ONNX Runtime, bit-exact partitions, NPU compile
<= 2 s, ResNet-18 within 1.3x its roofline, CPU int8 geometric mean <= 1.5x
ONNX Runtime's and no model slower than our float path. `--check` exits 1
when a model misses the MAC share, the output step (where ONNX Runtime's
integer kernels are exact) or bit-exactness; the rest, the compile time
(wall-clock, 40% apart between runs on a shared machine) among them, are
printed as misses.
`--ci` runs ResNet-18 and the transformer block per channel and in the
QOperator form, NPU only. `--corpus` runs the CNNs of the real-model corpus
(`test/models/corpus.toml`, fetched by `scripts/fetch-models.sh`) quantized
the same way (QDQ per channel, calibrated on four of their seeded inputs) on
npu16 and on the CPU (latency beside ONNX Runtime's, output steps from it).

`--dynamic` runs the benchmark's two-layer LSTM, transformer block and MLP
quantized by `onnxruntime.quantization.quantize_dynamic` with its defaults
(int8 weights; com.microsoft DynamicQuantizeLSTM, DynamicQuantizeLinear +
MatMulInteger) on the CPU: our latency beside ONNX Runtime's on the same
model and beside our own float model (issue 17's int8 recurrent layers), and
our output's difference from ONNX Runtime's as a fraction of its largest
magnitude (at most 2%).

usage: bench/int8_models.py [--runs 10] [--only NAME ...] [--keep DIR] [--check] [--ci] [--corpus] [--dynamic]
"""
import argparse
import json
import logging
import os
import subprocess
import sys

import numpy as np
import onnx
import onnx.version_converter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import cpu_models  # noqa: E402  (the same generated models)

NPU_RUN = cpu_models.NPU_RUN
BASES = ["resnet18", "mobilenetv2", "transformer"]


# Each variant: its suffix and how ONNX Runtime's quantizer is called (defaults otherwise).
VARIANTS = {
    "pc": dict(per_channel=True),
    "pt": dict(per_channel=False),
    "u8": dict(per_channel=True, activation_type="QUInt8"),
    "qop": dict(per_channel=True, quant_format="QOperator"),
    "u8w": dict(per_channel=True, activation_type="QUInt8", weight_type="QUInt8"),
}


def quantize(src, dst, input_name, shape, per_channel, activation_type="QInt8", weight_type="QInt8", quant_format="QDQ", extra_options=None):
    """ONNX Runtime's static quantizer with its defaults (QDQ, int8 activations with zero points) but the ones given."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    logging.getLogger().setLevel(logging.ERROR)

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.data = iter([{input_name: np.random.default_rng(100 + i).standard_normal(shape).astype(np.float32)} for i in range(4)])

        def get_next(self):
            return next(self.data, None)

    pre = dst + ".pre.onnx"
    quant_pre_process(src, pre, skip_symbolic_shape=True)
    quantize_static(pre, dst, Reader(), quant_format=QuantFormat[quant_format], activation_type=QuantType[activation_type], weight_type=QuantType[weight_type], per_channel=per_channel, extra_options=extra_options or {})


def output_step(path):
    """The scale of the DequantizeLinear that gives the graph's first output."""
    m = onnx.load(path)
    out = m.graph.output[0].name
    consts = {i.name: onnx.numpy_helper.to_array(i) for i in m.graph.initializer}
    consts.update({n.output[0]: onnx.numpy_helper.to_array(n.attribute[0].t) for n in m.graph.node if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value"})
    for n in m.graph.node:
        if n.output[0] == out and n.op_type == "DequantizeLinear" and n.input[1] in consts:
            return float(consts[n.input[1]])
    return None


def from_ort(path, outdir, ort_out):
    """How far our first output (in `outdir`) is from ONNX Runtime's: (the
    difference in output steps, whether it is within one, as shown, the step).
    A float output (a QOperator model ending in a float LayerNorm) has no
    step: its difference is a fraction of its largest magnitude, at most 2%."""
    m = onnx.load(path)
    got = np.load(os.path.join(outdir, m.graph.output[0].name + ".npy"))
    step = output_step(path)
    scale = step if step else float(np.max(np.abs(ort_out)))
    diff = float(np.max(np.abs(got - ort_out))) / scale
    ok = diff <= 1.0 + 1e-4 if step else diff <= 0.02
    return diff, ok, (f"{diff:>6.2f}" if step else f"{100 * diff:>5.1f}%"), step


def reference(path, feeds, ort_out):
    """What our int8 outputs are held to: ONNX Runtime's, or where its integer
    GEMM saturates (`cpu_models.ort_integer_gemm_exact`) its outputs with the
    QDQ groups unfused, the spec's semantics."""
    return ort_out if cpu_models.ort_integer_gemm_exact() else cpu_models.ort_unfused(path, feeds)


def mac_share(j):
    placed = j.get("placements", [])
    total = sum(p.get("macs", 0) for p in placed)
    return sum(p.get("macs", 0) for p in placed if p.get("backend", "cpu") != "cpu") / total if total else 0.0


def npu_row(path, name, x, xin, ort_out, d):
    """The NPU figures of one int8 model, and the floors it misses: (text, enforced misses, other misses)."""
    rj, out = os.path.join(d, f"{name}.npu.json"), os.path.join(d, f"{name}.npu")
    r = subprocess.run([NPU_RUN, path, "--target", "npu16,cpu", "--input", f"{x}={xin}", "--check-reference", "--report-json", rj, "--output-dir", out, "--output-names", "original"], capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(rj):
        return f"failed: {(r.stderr.strip().splitlines() or ['exit ' + str(r.returncode)])[-1]}", ["runs"], []
    j = json.load(open(rj))
    diff, ok_diff, shown, step = from_ort(path, out, ort_out)
    share, ratio, compile_s = mac_share(j), j["ratio_to_roofline"], j["compile_ms"] / 1e3
    exact = "no NPU" if "reference: 0 NPU" in r.stderr else "bit-exact" if "MISMATCH" not in r.stderr and "reference:" in r.stderr else "NOT EXACT"
    hard, soft = [], []
    if share < 0.9:
        hard.append(f"NPU MACs {100 * share:.0f}% < 90%")
    if not ok_diff:
        # Held where ONNX Runtime's integer kernels are exact; elsewhere no
        # exact reference exists (its unfused QDQ runs in float, and a deep
        # model's flipped steps grow through LayerNorm: ONNX Runtime's fused
        # and unfused transformer block differ by 5 steps on AVX2).
        miss = f"{diff:.2f} output steps from ORT" if step else f"{100 * diff:.1f}% of the output's range from ORT"
        (hard if cpu_models.ort_integer_gemm_exact() else soft).append(miss + ("" if cpu_models.ort_integer_gemm_exact() else " (ORT's integer GEMM saturates on this host: not held)"))
    if exact == "NOT EXACT":
        hard.append("partitions not bit-exact")
    # Wall-clock, so shown and not held: the same compile took 2.05 s and
    # 2.84 s in two runs on this shared two-core machine.
    if compile_s > 2.0:
        soft.append(f"NPU compile {compile_s:.2f} s")
    # Simulated cycles do not vary run to run: the floor is enforced (int8 activations; u8 ones are rewritten to them;
    # uint8 weights (u8w) run as two symmetric parts, twice the array's work for the model's MACs, apart).
    if name.startswith("resnet18") and not name.endswith("u8w") and ratio > 1.3:
        hard.append(f"roofline {ratio:.2f}x > 1.3x")
    text = f"{100 * share:>6.1f}% {j['cycles']:>10} {ratio:>6.2f} {compile_s:>8.2f} {shown}  {exact}"
    return text, hard, soft


def corpus_rows(a, d):
    """The corpus CNNs, quantized by ONNX Runtime, on the NPU and CPU paths: (hard misses, soft misses)."""
    import tomllib

    import npu_models
    import real_models

    models = {m["name"]: m for m in tomllib.load(open(os.path.join(ROOT, "test", "models", "corpus.toml"), "rb"))["model"]}
    hard_all, soft_all = [], []
    for name in npu_models.CORPUS_CNNS:
        if a.only and name not in a.only:
            continue
        m = models[name]
        src = os.path.join(real_models.CACHE, name + ".onnx")
        if not os.path.exists(src):
            raise SystemExit(f"{src} is missing: run scripts/fetch-models.sh")
        samples = [real_models.make_inputs(m, np.random.default_rng(seed)) for seed in range(5)]
        (xname, _), = samples[0].items()
        xin = os.path.join(d, f"{name}.x.npy")
        np.save(xin, samples[4][xname])
        path = os.path.join(d, f"{name}-pc.onnx")
        from onnxruntime.quantization import CalibrationDataReader, QuantFormat, quantize_static
        from onnxruntime.quantization.shape_inference import quant_pre_process

        class Reader(CalibrationDataReader):
            def __init__(self):
                self.it = iter(samples[:4])

            def get_next(self):
                return next(self.it, None)

        try:
            # Per-axis quantization needs opset 13 (ONNX Runtime's quantizer writes it regardless).
            fm = onnx.load(src)
            if any(o.domain in ("", "ai.onnx") and o.version < 13 for o in fm.opset_import):
                fm = onnx.version_converter.convert_version(fm, 13)
                src = path + ".op13.onnx"
                onnx.save(fm, src)
            quant_pre_process(src, path + ".pre.onnx", skip_symbolic_shape=True)
            quantize_static(path + ".pre.onnx", path, Reader(), quant_format=QuantFormat.QDQ, per_channel=True)
            ort_ms, ort_out = cpu_models.ort_median(path, {xname: samples[4][xname]}, a.runs)
            ort_out = reference(path, {xname: samples[4][xname]}, ort_out)
        except Exception as e:  # noqa: BLE001 (ONNX Runtime's quantizer refuses some models, or writes ones it cannot load)
            print(f"{name + '-pc':<17} ONNX Runtime's quantizer failed: {str(e).splitlines()[0][:100]}")
            continue
        text, hard, soft = npu_row(path, name + "-pc", xname, xin, ort_out[0], d)
        # The floors are the benchmark models'; on these only running and
        # bit-exactness are held (their float functions round differently from
        # ONNX Runtime's at some quantization boundaries, which deep models carry).
        soft += [h for h in hard if "runs" not in h and "bit-exact" not in h]
        hard = [h for h in hard if "runs" in h or "bit-exact" in h]
        # The CPU path (VNNI integer kernels where the host has them), one thread.
        q = cpu_models.ours(path, ["--target", "cpu", "--threads", "1", "--input", f"{xname}={xin}"], os.path.join(d, f"{name}-pc.cpu"), a.runs)
        if q:
            _, cok, cshown, _ = from_ort(path, os.path.join(d, f"{name}-pc.cpu"), ort_out[0])
            text += f" {q['p50_ms']:>8.2f} {ort_ms:>8.2f} {q['p50_ms'] / ort_ms:>6.2f} {cshown}"
            if not cok:
                soft.append(f"CPU output {cshown.strip()} from ORT")
        else:
            hard.append("runs on the CPU")
        print(f"{name + '-pc':<17} {text}" + (f"  misses: {', '.join(hard + soft)}" if hard or soft else ""))
        hard_all += [f"{name}: {h}" for h in hard]
        soft_all += [f"{name}: {s}" for s in soft]
    return hard_all, soft_all


DYNAMIC = ["lstm2", "transformer", "mlp"]


def dynamic_rows(a, d):
    """The --dynamic table: (enforced misses, other misses)."""
    from onnxruntime.quantization import quantize_dynamic

    logging.getLogger().setLevel(logging.ERROR)
    hard_all, soft_all = [], []
    for base in DYNAMIC:
        if a.only and base not in a.only and f"{base}-dyn" not in a.only:
            continue
        name = f"{base}-dyn"
        m, fpath, x, shape, data, xin = cpu_models.write_model(base, cpu_models.MODELS[base], d)
        path = os.path.join(d, f"{name}.onnx")
        quantize_dynamic(fpath, path)
        ops = sorted({n.op_type for n in onnx.load(path).graph.node if "Integer" in n.op_type or "Dynamic" in n.op_type})
        ort_ms, ort_out = cpu_models.ort_median(path, {x.name: data}, a.runs)
        fort_ms, _ = cpu_models.ort_median(fpath, {x.name: data}, a.runs)
        args = ["--target", "cpu", "--threads", "1", "--input", f"{x.name}={xin}"]
        q = cpu_models.ours(path, args, os.path.join(d, f"{name}.cpu"), a.runs)
        f = cpu_models.ours(fpath, args, os.path.join(d, f"{name}.float"), a.runs)
        hard, soft = [], []
        if not (q and f):
            hard.append("does not run")
            print(f"{name:<17} failed")
        else:
            diff, ok, shown, _ = from_ort(path, os.path.join(d, f"{name}.cpu"), ort_out[0])
            ratio, vs_float = q["p50_ms"] / ort_ms, q["p50_ms"] / f["p50_ms"]
            # The NPU path: the integer products on the array (the corrections on the CPU).
            ntext, nhard, nsoft = npu_row(path, name, x.name, xin, ort_out[0], d)
            print(f"{name:<17} {q['p50_ms']:>8.2f} {ort_ms:>8.2f} {ratio:>6.2f} {f['p50_ms']:>9.2f} {vs_float:>7.2f} {fort_ms:>9.2f} {shown:>6}  {ntext}  {', '.join(ops)}")
            if not ok:
                hard.append(f"output {shown.strip()} of its range from ORT")
            if vs_float > 1.0:
                soft.append(f"int8 {vs_float:.2f}x our float")
            # DynamicQuantizeLSTM has no NPU form (issue 18 puts LSTMs on the NPU): its share is shown, not held.
            soft += [h for h in nhard if base == "lstm2" and h.startswith("NPU MACs")] + nsoft
            hard += [h for h in nhard if not (base == "lstm2" and h.startswith("NPU MACs"))]
        hard_all += [f"{name}: {h}" for h in hard]
        soft_all += [f"{name}: {s}" for s in soft]
    return hard_all, soft_all


def verdict(hard_all, soft_all, check):
    """Prints the floors missed; the exit code (1 when `check` and an enforced floor is missed)."""
    if soft_all:
        print("floors not yet met: " + "; ".join(soft_all))
    if check and hard_all:
        print("FAILED: " + "; ".join(hard_all))
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--keep")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--ci", action="store_true")
    ap.add_argument("--corpus", action="store_true")
    ap.add_argument("--dynamic", action="store_true")
    a = ap.parse_args()
    d = cpu_models.setup(a.keep, "int8-models-")
    if a.dynamic:
        print(f"{'model':<17} {'CPU ms':>8} {'ORT ms':>8} {'ratio':>6} {'float ms':>9} {'/float':>7} {'ORT flt':>9} {'diff':>6}  {'NPU MACs':>7} {'cycles':>10} {'xroof':>6} {'compile':>8} {'diff':>6}  {'reference':<10} quantized ops")
        return verdict(*dynamic_rows(a, d), a.check)
    if a.corpus:
        print(f"{'model':<17} {'NPU MACs':>8} {'cycles':>10} {'xroof':>6} {'compile':>8} {'steps':>6}  {'reference':<10} {'CPU ms':>8} {'ORT ms':>8} {'ratio':>6} {'steps':>6}")
        return verdict(*corpus_rows(a, d), a.check)
    variants = [(b, v) for b in ("resnet18", "transformer") for v in ("pc", "qop")] if a.ci else [(b, v) for b in BASES for v in VARIANTS]
    print(f"{'model':<17} {'NPU MACs':>8} {'cycles':>10} {'xroof':>6} {'compile':>8} {'steps':>6}  {'reference':<10}" + ("" if a.ci else f" {'CPU ms':>8} {'ORT ms':>8} {'ratio':>6} {'/float':>7} {'steps':>6}"))
    hard_all, soft_all, ratios = [], [], []
    for base, v in variants:
        name = f"{base}-{v}"
        if a.only and base not in a.only and name not in a.only:
            continue
        m, fpath, x, shape, data, xin = cpu_models.write_model(base, cpu_models.MODELS[base], d)
        path = os.path.join(d, f"{name}.onnx")
        quantize(fpath, path, x.name, shape, **VARIANTS[v])
        ort_ms, ort_out = cpu_models.ort_median(path, {x.name: data}, 1 if a.ci else a.runs)
        ort_out = reference(path, {x.name: data}, ort_out)
        text, hard, soft = npu_row(path, name, x.name, xin, ort_out[0], d)
        if not a.ci:
            q = cpu_models.ours(path, ["--target", "cpu", "--threads", "1", "--input", f"{x.name}={xin}"], os.path.join(d, f"{name}.cpu"), a.runs)
            f = cpu_models.ours(fpath, ["--target", "cpu", "--threads", "1", "--input", f"{x.name}={xin}"], os.path.join(d, f"{name}.float"), a.runs)
            if q and f:
                ratio, vs_float = q["p50_ms"] / ort_ms, q["p50_ms"] / f["p50_ms"]
                ratios.append((v, ratio))
                cdiff, cok, cshown, _ = from_ort(path, os.path.join(d, f"{name}.cpu"), ort_out[0])
                text += f" {q['p50_ms']:>8.2f} {ort_ms:>8.2f} {ratio:>6.2f} {vs_float:>7.2f} {cshown}"
                if vs_float > 1.0:
                    soft.append(f"int8 {vs_float:.2f}x our float")
                if not cok:
                    hard.append(f"CPU output {cshown.strip()} from ORT")
        if v == "u8w":
            # Shown, not held: uint8 weights double the array's work, and ONNX Runtime's U8U8 kernels round their own way.
            soft += [h for h in hard if "runs" not in h and "bit-exact" not in h]
            hard = [h for h in hard if "runs" in h or "bit-exact" in h]
        print(f"{name:<17} {text}" + (f"  misses: {', '.join(hard + soft)}" if hard or soft else ""))
        hard_all += [f"{name}: {h}" for h in hard]
        soft_all += [f"{name}: {s}" for s in soft]
    # The floor holds for the models as the quantizer writes them by default
    # (QDQ, int8 activations; per tensor or per channel); uint8 activations,
    # where ONNX Runtime's u8 kernels are 2-3x faster than its s8 ones, and the
    # QOperator form, where its kernels are slower than its QDQ fusions, apart.
    for label, kinds, floor in (("QDQ int8 (pc, pt)", ("pc", "pt"), 1.5), ("uint8 activations (u8)", ("u8",), None), ("uint8 weights (u8w)", ("u8w",), None), ("QOperator (qop)", ("qop",), None)):
        rs = [r for v, r in ratios if v in kinds]
        if rs:
            gm = cpu_models.geomean(rs)
            missed = floor is not None and gm > floor
            print(f"CPU int8 geometric mean ratio, {label} (ours / ONNX Runtime, one thread): {gm:.2f}" + (f" (floor {floor}x: missed)" if missed else ""))
            if missed:
                soft_all.append(f"CPU geometric mean {gm:.2f}x > {floor}x ONNX Runtime")
    return verdict(hard_all, soft_all, a.check)


if __name__ == "__main__":
    sys.exit(main())
