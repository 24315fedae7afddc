#!/usr/bin/env python3
"""Checks an `npu-run --plot` roofline chart against the --report-json of the
same run:

  - one dot per NPU layer with MACs and DRAM bytes, in run order, at the
    layer's intensity (MAC slots per DRAM byte) and rate (slots a cycle) as
    the report's utilization, cycles and bytes give them;
  - each dot drawn where the chart's log axes put those values, coloured by
    its ratio, and above the roof min(peak, bandwidth x intensity) only where
    the report's ratio is below 1 (a padded conv: ONNX's MAC count includes
    the padding taps its kernel skips);
  - the whole model's diamond at the run's MAC slots over its minimum DRAM
    bytes, as far below the roof as the report's ratio to its roofline.

Prints `plot: ok` with the counts, or what is wrong and exits 1.

usage: check_roofline_plot.py PLOT.svg REPORT.json
"""
import json
import math
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def main(svg_path, json_path):
    root = ET.parse(svg_path).getroot()
    rep = json.load(open(json_path))
    peak, bw = float(root.get("data-peak")), float(root.get("data-bandwidth"))
    x_lo, x_hi = map(int, root.get("data-x-decades").split())
    y_lo, y_hi = map(int, root.get("data-y-decades").split())
    left, top, w, h = map(float, root.get("data-plot").split())

    def px(v):
        return left + (math.log10(v) - x_lo) / (x_hi - x_lo) * w

    def py(v):
        return top + h - (math.log10(v) - y_lo) / (y_hi - y_lo) * h

    bad = []
    want = []
    above = 0
    for l in rep["layers"]:
        slots = l["utilization"] * l["cycles"] * peak
        if slots > 0 and l["dram_bytes"] > 0 and l["cycles"] > 0:
            want.append((l["layer"], slots / l["dram_bytes"], slots / l["cycles"], l["cycles"] / l["roofline_cycles"]))
    dots = [c for c in root.iter(NS + "circle") if c.get("class") == "layer"]
    if len(dots) != len(want):
        bad.append(f"{len(dots)} dots for {len(want)} layers with MACs and DRAM bytes")
    for d, (name, x, y, ratio) in zip(dots, want):
        di, dr = float(d.get("data-intensity")), float(d.get("data-rate"))
        if not (close(di, x) and close(dr, y)):
            bad.append(f"{name}: dot at ({di}, {dr}), the report gives ({x}, {y})")
        if abs(float(d.get("cx")) - px(di)) > 0.01 or abs(float(d.get("cy")) - py(dr)) > 0.01:
            bad.append(f"{name}: drawn at ({d.get('cx')}, {d.get('cy')}), its values at ({px(di):.2f}, {py(dr):.2f})")
        # Above the roof only where the report says the layer beat its
        # roofline: a padded conv's MACs count the padding taps (ONNX's count),
        # which the kernels skip.
        if dr > min(peak, bw * di) * (1 + 1e-9):
            above += 1
            if ratio >= 1:
                bad.append(f"{name}: above the roof ({dr} > {min(peak, bw * di)}) at a ratio of {ratio:.3f}")
        colour = "#2e9d5b" if ratio <= 1.15 else "#e0a030" if ratio <= 2.0 else "#d9534f"
        if d.get("fill") != colour:
            bad.append(f"{name}: {d.get('fill')} for a ratio of {ratio:.2f}")
    # Inside the plot area, as the roof is: the DRAM's slope up to the ridge, then the peak.
    for d in dots:
        if not (left - 0.01 <= float(d.get("cx")) <= left + w + 0.01 and top - 0.01 <= float(d.get("cy")) <= top + h + 0.01):
            bad.append(f"a dot at ({d.get('cx')}, {d.get('cy')}) is outside the plot area")
    roof = [tuple(map(float, p.split(","))) for p in next(root.iter(NS + "polyline")).get("points").split()]
    start = max(10.0 ** x_lo, 10.0 ** y_lo / bw)
    want_roof = [(px(x), py(min(peak, bw * x))) for x in (start, min(max(peak / bw, start), 10.0 ** x_hi), 10.0 ** x_hi)]
    if len(roof) != 3 or any(abs(a - b) > 0.06 for p, q in zip(roof, want_roof) for a, b in zip(p, q)):
        bad.append(f"the roof is drawn at {roof}, not at {want_roof}")
    model = [p for p in root.iter(NS + "path") if p.get("class") == "model"]
    slots = rep["utilization"] * rep["cycles"] * peak
    mi, mr = slots / rep["min_dram_bytes"], slots / rep["cycles"]
    if len(model) != 1 or not (close(float(model[0].get("data-intensity")), mi) and close(float(model[0].get("data-rate")), mr)):
        bad.append(f"the model's diamond is not at ({mi}, {mr})")
    elif not model[0].get("d").startswith(f"M{px(mi):.2f},{py(mr) - 8:.2f} "):
        bad.append(f"the model's diamond is not drawn at ({px(mi):.2f}, {py(mr):.2f})")
    below = min(peak, bw * mi) / mr
    if abs(below / rep["ratio_to_roofline"] - 1) > 0.01:
        bad.append(f"the model sits {below:.3f}x below the roof; the report's ratio is {rep['ratio_to_roofline']:.3f}")
    if bad:
        print("plot: " + "; ".join(bad))
        return 1
    print(f"plot: ok ({len(dots)} dots of {len(rep['layers'])} layers, {above} above the roof, the model {below:.2f}x below it)")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
