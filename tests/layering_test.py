#!/usr/bin/env python3
"""Fails when a source file includes a header from a layer above its own.

Layers, lowest first: util, chess, syzygy, eval, search, uci; main.cpp may include anything.
"""
import pathlib
import re
import sys

LAYERS = ["util", "chess", "syzygy", "eval", "search", "uci"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/')


def main() -> int:
    src = pathlib.Path(sys.argv[1])
    problems = []
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".h", ".cpp") or path.parent == src:
            continue
        layer = path.relative_to(src).parts[0]
        if layer not in LAYERS:
            problems.append(f"{path}: folder '{layer}' is not a known layer")
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = INCLUDE.match(line)
            if match and match.group(1) in LAYERS and LAYERS.index(match.group(1)) > LAYERS.index(layer):
                problems.append(f"{path}:{number}: {layer}/ includes {match.group(1)}/ (upward)")
    for problem in problems:
        print(problem)
    print(f"layering: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
