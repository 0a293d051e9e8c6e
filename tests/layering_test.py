#!/usr/bin/env python3
"""Fails when a source file includes a header from a layer it may not use.

Layers, lowest first: util, chess, then syzygy, eval and winnability (each needs only
the rules core), search, then uci and tools side by side: both drive the search's engine
facade, the text protocol and the command-line tools never each other. main.cpp may
include anything.

winnability, the FIDE dead-position and flag-fall decider, stands above the rules core:
chess never includes it (Game::status takes its verdict as an argument). It costs up to
tens of milliseconds a position, so it is for answering a user (uci's `d`) and for the
tools, not for the search, the evaluation or the tablebase prober.
"""
import pathlib
import re
import sys

# Each layer and the layers it may include (besides itself).
ALLOWED = {
    "util": [],
    "chess": ["util"],
    "syzygy": ["util", "chess"],
    "eval": ["util", "chess"],
    "winnability": ["util", "chess"],
    "search": ["util", "chess", "syzygy", "eval"],
    "uci": ["util", "chess", "syzygy", "eval", "search", "winnability"],
    "tools": ["util", "chess", "syzygy", "eval", "search", "winnability"],
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/')


def main() -> int:
    src = pathlib.Path(sys.argv[1])
    problems = []
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".h", ".cpp") or path.parent == src:
            continue
        layer = path.relative_to(src).parts[0]
        if layer not in ALLOWED:
            problems.append(f"{path}: folder '{layer}' is not a known layer")
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = INCLUDE.match(line)
            target = match.group(1) if match else None
            if target in ALLOWED and target != layer and target not in ALLOWED[layer]:
                problems.append(f"{path}:{number}: {layer}/ includes {target}/ (not a layer below it)")
    for problem in problems:
        print(problem)
    print(f"layering: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
