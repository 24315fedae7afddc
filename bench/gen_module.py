#!/usr/bin/env python3
"""Generates a module of N operations (default 1,000,000) for the core
benchmarks: functions of arith chains with duplicated subexpressions and
foldable constants, plus unregistered ops with regions and attributes, so the
parser, verifier and printer see every common construct.

usage: gen_module.py OUT.mlir [N]
"""
import random
import sys


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    rng = random.Random(42)
    ops_per_func = 1000
    lines = []
    count = 0
    f = 0
    while count < n:
        lines.append(f"func.func @f{f}(%a: i32, %b: i32, %x: f32) -> (i32, f32) {{")
        count += 2  # func + return
        ints = ["%a", "%b"]
        floats = ["%x"]
        k = 0
        body = min(ops_per_func, n - count)
        while k < body:
            r = rng.random()
            name = f"%v{k}"
            if r < 0.15:
                lines.append(f"  {name} = arith.constant {rng.randint(-100, 100)} : i32")
                ints.append(name)
            elif r < 0.55:
                op = rng.choice(["addi", "muli", "subi", "andi", "ori", "xori", "maxsi"])
                a, b = rng.choice(ints[-8:]), rng.choice(ints[-8:])
                lines.append(f"  {name} = arith.{op} {a}, {b} : i32")
                ints.append(name)
            elif r < 0.75:
                op = rng.choice(["addf", "mulf", "subf"])
                a, b = rng.choice(floats[-8:]), rng.choice(floats[-8:])
                lines.append(f"  {name} = arith.{op} {a}, {b} : f32")
                floats.append(name)
            elif r < 0.85:
                a, b = rng.choice(ints[-8:]), rng.choice(ints[-8:])
                lines.append(f"  {name} = arith.cmpi slt, {a}, {b} : i32")
                lines.append(f"  {name}s = arith.select {name}, {a}, {b} : i32")
                ints.append(f"{name}s")
                k += 1
            else:
                a = rng.choice(ints[-8:])
                lines.append(f'  {name} = "test.op"({a}) {{tag = "t{k}", idx = {k} : i64, scale = 1.5 : f32}} : (i32) -> i32')
                ints.append(name)
            k += 1
        count += body
        lines.append(f"  return {ints[-1]}, {floats[-1]} : i32, f32")
        lines.append("}")
        f += 1
    with open(out, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print(f"wrote {out}: {count} ops in {f} functions", file=sys.stderr)


if __name__ == "__main__":
    main()
