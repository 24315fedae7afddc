#!/usr/bin/env python3
"""Writes FileCheck lines for the IR `npu-opt` prints, as MLIR's
generate-test-checks.py does: a `CHECK-LABEL` per function (its signature
on a `CHECK-SAME`), a `CHECK` per line, each SSA value and block argument captured once (`%[[VAL_3:.*]]`) and
matched by name after (`%[[VAL_3]]`), FileCheck's own brackets escaped, the
`// -----` of split input kept. Review what it writes: it checks everything,
where a good test checks what the pass is about.

usage: npu-opt test.mlir --pass-pipeline=... | scripts/generate-test-checks.py [--prefix CHECK] [--source test.mlir]

With --source, prints that test file with the generated lines put before
each function of the same name (the input's old lines of the prefix left out).
"""
import argparse
import re
import sys

SSA = re.compile(r"%([A-Za-z_.$\-][\w.$\-]*|\d+)(#\d+)?")
FUNC = re.compile(r"^\s*func\.func\s+(?:private\s+)?@([\w.$\-]+)")


def escape(text):
    """FileCheck reads `{{` and `[[` as the start of a regex or a variable."""
    return text.replace("{{", "{{[{][{]}}").replace("[[", "{{[[][[]}}")


class Namer:
    def __init__(self):
        self.names = {}

    def line(self, text, signature=False):
        """The line with each value defined here captured and each other value
        referenced; `signature`: a function's arguments, defined here."""
        # Definitions: results before `=`, block arguments in a block header
        # or a function signature (`%name: type`).
        defined = set()
        head = text.split("=", 1)[0] if re.match(r"^\s*%[\w.$\-#:, %]*=", text) else ""
        for m in SSA.finditer(head):
            defined.add(m.group(1))
        for m in re.finditer(r"%([\w.$\-]+)\s*:", text):
            if signature or re.match(r"^\s*\^bb", text):
                defined.add(m.group(1))
        out, last = [], 0
        for m in SSA.finditer(text):
            out.append(escape(text[last:m.start()]))
            name, suffix = m.group(1), m.group(2) or ""
            if name in defined and name not in self.names:
                var = f"VAL_{len(self.names)}"
                self.names[name] = var
                out.append(f"%[[{var}:.*]]" + escape(suffix))
            elif name in self.names:
                out.append(f"%[[{self.names[name]}]]" + escape(suffix))
            else:
                out.append(escape(m.group(0)))
            last = m.end()
        out.append(escape(text[last:]))
        return "".join(out)


def checks(ir, prefix):
    """{function name: its check lines}, in order, and the lines of each split."""
    funcs, current, namer = [], None, None
    for raw in ir.splitlines():
        text = raw.strip()
        if not text or text in ("module {", "}") and current is None:
            continue
        if text.startswith("// -----"):
            current = None
            continue
        m = FUNC.match(raw)
        if m:
            namer = Namer()
            # A label may not capture: the signature goes on a SAME line.
            label, rest = text.split("(", 1) if "(" in text else (text, "")
            current = (m.group(1), [f"// {prefix}-LABEL: {escape(label)}("] + ([f"// {prefix}-SAME: {namer.line(rest, signature=True)}"] if rest else []))
            funcs.append(current)
            continue
        if current is None:
            continue
        if text == "}" and raw.startswith("  }"):
            current[1].append(f"// {prefix}: }}")
            current = None
            continue
        current[1].append(f"// {prefix}: {namer.line(text)}")
    return funcs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--prefix", default="CHECK")
    ap.add_argument("--source")
    a = ap.parse_args()
    funcs = checks(sys.stdin.read(), a.prefix)
    if not a.source:
        for i, (_, lines) in enumerate(funcs):
            if i:
                print()
            print("\n".join(lines))
        return 0
    by_name = {}
    for name, lines in funcs:
        by_name.setdefault(name, lines)
    own = re.compile(r"^\s*//\s*" + re.escape(a.prefix) + r"(-[A-Z]+)?:")
    for raw in open(a.source).read().splitlines():
        if own.match(raw):
            continue
        m = FUNC.match(raw)
        if m and m.group(1) in by_name:
            print("\n".join(by_name.pop(m.group(1))))
        print(raw)
    return 0


if __name__ == "__main__":
    sys.exit(main())
