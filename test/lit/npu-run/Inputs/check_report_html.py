#!/usr/bin/env python3
"""Opens an `npu-run --report-html` page in headless Chromium (Debian's
package, installed by scripts/setup.sh) and checks that it renders:

  - no console message at all (the page's own script logs nothing, so any
    message is an error: a script exception, a blocked resource);
  - the rendered DOM holds what the run's --report-json says: one graph box
    per NPU program and per CPU partition, one bar per NPU layer in each chart,
    one row per op that left the first backend;
  - the screenshot shows the NPU and CPU colours (the SVG was drawn).

Prints `report: ok` and the counts, or what is wrong and exits 1. The
screenshot is kept as a test artifact: SHOT, and a copy in target/artifacts/.

usage: check_report_html.py PAGE.html REPORT.json SHOT.png
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

NPU_BLUE = (0x5B, 0x8D, 0xEF)
CPU_ORANGE = (0xF2, 0xA6, 0x5A)


def chromium():
    for c in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(c)
        if p:
            return p
    sys.exit("report: no Chromium (scripts/setup.sh installs Debian's chromium package)")


def run_chromium(args, page):
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--enable-logging=stderr", "--v=0", *args, "file://" + os.path.abspath(page)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    consoles = [l for l in r.stderr.splitlines() if ":CONSOLE" in l]
    return r, consoles


def png_pixels(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB/RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"report: {path} is not a PNG")
    pos, idat, w, h, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                sys.exit(f"report: {path}: unexpected PNG format (depth {depth}, colour type {ctype})")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    prev, rows, i = bytearray(stride), [], 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def count_colour(rows, bpp, rgb):
    n = 0
    for line in rows:
        for x in range(0, len(line), bpp):
            if abs(line[x] - rgb[0]) < 6 and abs(line[x + 1] - rgb[1]) < 6 and abs(line[x + 2] - rgb[2]) < 6:
                n += 1
    return n


def main():
    page, report, shot = sys.argv[1:4]
    rep = json.load(open(report))
    problems = []
    r, consoles = run_chromium(["--dump-dom"], page)
    dom = r.stdout
    if r.returncode != 0 or "</html>" not in dom:
        problems.append(f"Chromium did not render the page (exit {r.returncode}): {r.stderr[-500:]}")
    problems += [f"console: {c.split(']', 1)[-1].strip()}" for c in consoles]
    cpu_partitions = {p["partition"] for p in rep["placements"] if p["backend"] == "cpu" and p["partition"]}
    past_first = [p for p in rep["placements"] if p["backend"] == "cpu" or p["reason_code"]]
    want = {
        "NPU program boxes": (len(re.findall(r'<g class="part" data-target="npu16"', dom)), rep["programs"]),
        "CPU partition boxes": (len(re.findall(r'<g class="part" data-target="cpu"', dom)), len(cpu_partitions)),
        "layer bars": (len(re.findall(r'<g class="layer"', dom)), len(rep["layers"])),
        "DRAM bars": (len(re.findall(r'<g class="dram"', dom)), len(rep["layers"])),
        "rows of ops past the first backend": (dom.count("<tr><td>") - 0, len(past_first)),
    }
    for what, (got, expected) in want.items():
        if got != expected:
            problems.append(f"{what}: {got} on the page, {expected} in the JSON report")
    for section in ("summary", "graph", "layers", "dram", "timeline", "cpu-ops", "hw"):
        if f'<section id="{section}"' not in dom:
            problems.append(f"no section '{section}'")
    r, consoles = run_chromium([f"--screenshot={os.path.abspath(shot)}", "--window-size=1280,2400"], page)
    problems += [f"console: {c.split(']', 1)[-1].strip()}" for c in consoles]
    if not os.path.exists(shot):
        problems.append("no screenshot")
    else:
        _, _, bpp, rows = png_pixels(shot)
        blue, orange = count_colour(rows, bpp, NPU_BLUE), count_colour(rows, bpp, CPU_ORANGE)
        if blue < 500 or orange < 500:
            problems.append(f"the screenshot shows {blue} NPU-blue and {orange} CPU-orange pixels: the graph did not draw")
        art = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "target", "artifacts")
        os.makedirs(art, exist_ok=True)
        shutil.copy(shot, os.path.join(art, "report-html.png"))
    if problems:
        for p in problems:
            print("report: " + p)
        sys.exit(1)
    print("report: ok (" + ", ".join(f"{k} {v[0]}" for k, v in want.items()) + ")")


if __name__ == "__main__":
    main()
