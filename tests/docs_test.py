#!/usr/bin/env python3
"""The README speaks of the engine as it is: the default net by the name the engine
gives it (`EvalFile`'s default, the file nets/default-net.txt names), and every option
the engine declares in its Options table, with the engine's default.

    docs_test.py ENGINE"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main() -> int:
    engine = sys.argv[1]
    uci = subprocess.run([engine], input="uci\nquit\n", capture_output=True, text=True, timeout=30).stdout
    options = dict(re.findall(r"^option name (.+?) type \w+(?: default (.*?))?(?: min .*)?$", uci, re.MULTILINE))
    readme = (ROOT / "README.md").read_text()
    problems = []
    net = [line.strip() for line in (ROOT / "nets" / "default-net.txt").read_text().splitlines()
           if line.strip() and not line.startswith("#")][0]
    if options.get("EvalFile") != net:
        problems.append(f"the engine's EvalFile default is {options.get('EvalFile')!r}, nets/default-net.txt names {net!r}")
    table = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([^`]+)` \|[^|]+\|\s*([^|]*?)\s*\|", readme, re.MULTILINE)}
    for name, default in options.items():
        if name not in table:
            problems.append(f"option {name} is not in the README's Options table")
        elif default and default.strip() not in table[name].replace("`", ""):
            problems.append(f"option {name}: the README's default {table[name].strip()!r}, the engine's {default!r}")
    # The default net is named as the engine names it, wherever the README calls it the default.
    for line in readme.splitlines():
        if re.search(r"default net", line) and "gen" in line and net not in line:
            problems.append(f"the README names the default net without its file name {net}: {line.strip()[:100]}")
    for problem in problems:
        print(problem)
    print(f"docs: {len(options)} options, net {net}: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
