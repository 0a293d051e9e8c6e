#!/usr/bin/env python3
"""Tunes Arbiter's search parameters by SPSA, playing game pairs under fastchess.

usage:
  scripts/spsa.py --engine TUNING_BUILD --iterations N [--pairs 1] [--tc 5+0.05 | --nodes N]
                  [--params NAME,NAME,...] [--state spsa.json] [--book FILE] [--seed S]
                  [--concurrency 2] [--pgn FILE] [--plot FILE.png]
  scripts/spsa.py --state spsa.json --plot FILE.png      (the plot of a run so far; plays nothing)
  scripts/spsa.py --state spsa.json --write-defaults src/search/tunables.h
                                                         (a run's values made the defaults)

The engine must be a tuning build (`cmake -DARBITER_TUNE=ON`): there every parameter of
src/search/tunables.h is a UCI spin option, and `arbiter spsa` lists them as
`name, int, default, min, max, c_end, r_end` (the OpenBench SPSA format). --params
limits the run to some of them; the others keep their defaults.

The method (simultaneous perturbation stochastic approximation, Spall 1992), for a run of
N iterations, iteration k = 1 ... N, and every parameter i with its own c_end and r_end:
    c_k = c_end * (N / k)^gamma                      perturbation size, c_N = c_end
    a_k = r_end * c_end^2 * ((A + N) / (A + k))^alpha  step size, A = N / 10
    d_i = +1 or -1 at random;  plus = theta + c_k d,  minus = theta - c_k d
(both rounded to integers and kept in [min, max] before they are sent). The two engines
play --pairs game pairs, each an opening played twice with colours reversed; with r the
points of `plus` minus the points of `minus` over those games, every parameter moves by
    theta_i += a_k * r * d_i / c_k
and is kept in [min, max]. gamma = 0.101 and alpha = 0.602 are Spall's recommended
values. theta is kept as a real number; the engine gets it rounded.

State: after every iteration theta, k and the game totals are written to --state (JSON),
and every TRAJECTORY_EVERY iterations theta joins the run's trajectory, which --plot
draws (matplotlib): each parameter's value against the iteration, as a share of its
range, one panel per group of parameters, with the defaults dashed.
The same command continues an interrupted run; a state made for another parameter
list, iteration count or seed is refused. At the end (and on Ctrl-C) the current
values are printed as `name value default` lines; --write-defaults FILE writes them,
rounded, into FILE (src/search/tunables.h) as the parameters' defaults, leaving
everything else in it as it was.

Openings come from ../shared/data/openings/8moves_v3.epd unless --book is given;
iteration k uses seed S + k, so a run is reproducible in its openings (not in its
games, which depend on the machine's load unless --nodes fixes the search).

Exit status: 0 done or interrupted cleanly; 2 usage error; 3 fastchess failed.
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import pathlib
import random
import re
import subprocess
import sys
import tempfile

GAMMA = 0.101
ALPHA = 0.602
TRAJECTORY_EVERY = 10  # iterations between the points of the saved trajectory

sys.path.insert(0, str(pathlib.Path(__file__).with_name("nnue")))
import system_python  # noqa: E402

_spec = importlib.util.spec_from_file_location("match_script", pathlib.Path(__file__).with_name("match.py"))
match = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = match  # dataclasses look their module up while the class is built
_spec.loader.exec_module(match)


@dataclasses.dataclass
class Param:
    name: str
    default: int
    low: int
    high: int
    c_end: float
    r_end: float
    theta: float


def parse_spsa_list(text: str) -> list[Param]:
    """The lines of `arbiter spsa`: name, int, default, min, max, c_end, r_end."""
    params = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        fields = [field.strip() for field in line.split(",")]
        if len(fields) != 7 or fields[1] != "int":
            raise ValueError(f"line {number} of the parameter list is not 'name, int, default, min, max, c, r': "
                             f"{line!r}")
        name = fields[0]
        default, low, high = (int(field) for field in fields[2:5])
        c_end, r_end = float(fields[5]), float(fields[6])
        if not low <= default <= high or c_end <= 0 or r_end <= 0:
            raise ValueError(f"parameter {name}: default outside [min, max] or a step that is not positive")
        params.append(Param(name, default, low, high, c_end, r_end, float(default)))
    return params


def perturbation(param: Param, k: int, iterations: int) -> float:
    return param.c_end * (iterations / k) ** GAMMA


def step(param: Param, k: int, iterations: int) -> float:
    a_end = param.r_end * param.c_end ** 2
    big_a = iterations / 10
    return a_end * ((big_a + iterations) / (big_a + k)) ** ALPHA


def clamp(value: float, param: Param) -> float:
    return min(max(value, param.low), param.high)


def perturbed(params: list[Param], signs: list[int], k: int, iterations: int) -> tuple[list[int], list[int]]:
    """The integer values of `plus` and `minus` for iteration k."""
    plus, minus = [], []
    for param, sign in zip(params, signs):
        c = perturbation(param, k, iterations)
        plus.append(round(clamp(param.theta + c * sign, param)))
        minus.append(round(clamp(param.theta - c * sign, param)))
    return plus, minus


def update(params: list[Param], signs: list[int], k: int, iterations: int, result: float) -> None:
    """theta_i += a_k * r * d_i / c_k, kept in range; r = plus's points minus minus's."""
    for param, sign in zip(params, signs):
        delta = step(param, k, iterations) * result * sign / perturbation(param, k, iterations)
        param.theta = clamp(param.theta + delta, param)


def play_pairs(args, plus: list[int], minus: list[int], params: list[Param], k: int,
               scratch: pathlib.Path) -> tuple[float, match.Tally]:
    """Plays --pairs game pairs; (plus's points minus minus's, plus's tally)."""
    def spec(name: str, values: list[int]) -> match.EngineSpec:
        options = [f"{p.name}={v}" for p, v in zip(params, values)]
        return match.EngineSpec(name, args.engine, "uci", options, [])

    pgn = scratch / f"iteration-{k}.pgn"
    plan = match.MatchPlan(engines=(spec("plus", plus), spec("minus", minus)),
                           tc=f"nodes={args.nodes}" if args.nodes else args.tc, rounds=args.pairs,
                           sprt=None, concurrency=args.concurrency, book=args.book_file,
                           book_format=args.book_format, seed=args.seed + k, pgn=pgn, chess960=False,
                           tool_args=[])
    cmd = match.fastchess_command(args.fastchess, plan, scratch / "fastchess.log")
    finished = subprocess.run(cmd, cwd=scratch, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, text=True, errors="replace")
    if finished.returncode != 0 or not pgn.exists():
        raise RuntimeError(f"fastchess failed (status {finished.returncode}):\n{finished.stdout[-2000:]}")
    text = pgn.read_text(errors="replace")
    if args.pgn:
        with open(args.pgn, "a") as out:
            out.write(text)
    pgn.unlink()
    tally = match.parse_pgn_results(text, "plus")
    if tally.games != 2 * args.pairs:
        raise RuntimeError(f"expected {2 * args.pairs} finished games, got {tally.games}")
    return float(tally.wins - tally.losses), tally


def save_state(path: pathlib.Path, state: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(state, indent=1) + "\n")
    tmp.replace(path)


def engine_parameters(engine: str) -> list[Param]:
    listed = subprocess.run([engine, "spsa"], capture_output=True, text=True, timeout=30)
    if listed.returncode != 0:
        raise match.UsageError(f"'{engine} spsa' failed: {listed.stderr.strip()}")
    params = parse_spsa_list(listed.stdout)
    uci = subprocess.run([engine], input="uci\nquit\n", capture_output=True, text=True, timeout=30).stdout
    missing = [p.name for p in params if f"option name {p.name} type spin" not in uci]
    if missing:
        raise match.UsageError(f"{engine} is not a tuning build (no UCI option {missing[0]}); "
                               "build it with cmake -DARBITER_TUNE=ON")
    return params


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", help="a tuning build of arbiter")
    parser.add_argument("--iterations", type=int)
    parser.add_argument("--pairs", type=int, default=1, help="game pairs per iteration")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--tc", default="5+0.05")
    limit.add_argument("--nodes", type=int, help="fixed nodes per move instead of a clock")
    parser.add_argument("--params", help="comma-separated names (default: all)")
    parser.add_argument("--state", type=pathlib.Path, default=pathlib.Path("spsa.json"))
    parser.add_argument("--book", type=pathlib.Path, default=match.DEFAULT_BOOK)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--pgn", type=pathlib.Path, help="append every game here")
    parser.add_argument("--plot", type=pathlib.Path, help="draw the parameters' trajectories to this PNG")
    parser.add_argument("--write-defaults", type=pathlib.Path, metavar="TUNABLES_H",
                        help="make the run's values (rounded) the defaults in this file; plays nothing")
    args = parser.parse_args(argv)
    if args.engine is None and args.iterations is None:
        if not args.plot and not args.write_defaults:
            parser.error("--engine and --iterations, or --plot or --write-defaults alone (to use a run's state)")
        return args
    if args.write_defaults:
        parser.error("--write-defaults uses a run's state and plays nothing: give it without --engine")
    if args.engine is None or args.iterations is None:
        parser.error("--engine and --iterations go together")
    if args.iterations < 1 or args.pairs < 1 or args.concurrency < 1 or (args.nodes is not None and args.nodes < 1):
        parser.error("--iterations, --pairs, --concurrency and --nodes must be positive")
    if not args.nodes and not match.TC_FORMAT.match(args.tc):
        parser.error(f"bad time control: {args.tc}")
    return args


# One parameter of tunables.h: `X(name, default, min, max, step)`, then the padding and the
# backslash that continue the macro (kept in the same column when the default's width changes).
TUNABLE_LINE = re.compile(r"^(\s*X\()(\w+)(,\s*)(-?\d+)(,[^)]*\))( *)(\\?)$")


def write_defaults(text: str, values: dict[str, int]) -> tuple[str, list[tuple[str, int, int]]]:
    """`text` (tunables.h) with each named parameter's default replaced by its value, and
    the (name, old, new) changes made; a name the text does not define raises ValueError."""
    lines, changes, seen = [], [], set()
    for line in text.split("\n"):
        found = TUNABLE_LINE.match(line)
        if found and found.group(2) in values:
            head, name, comma, old, rest, padding, backslash = found.groups()
            new = values[name]
            seen.add(name)
            if new != int(old):
                changes.append((name, int(old), new))
            body = f"{head}{name}{comma}{new}{rest}"
            width = len(line) - len(backslash)
            line = body + (" " * max(width - len(body), 1 if backslash else 0) if padding or backslash else "") + backslash
        lines.append(line)
    missing = sorted(set(values) - seen)
    if missing:
        raise ValueError(f"not a parameter of the file: {', '.join(missing)}")
    return "\n".join(lines), changes


def plot_trajectory(state: dict, bounds: dict, path: pathlib.Path) -> None:
    """Each parameter's value over the run, as a share of its range ([min, max] to
    [0, 1]), in panels of up to eight parameters; `bounds` maps a name to (default,
    min, max)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = state["params"]
    points = state.get("trajectory", [])
    ks = [point[0] for point in points]
    panels = [names[i:i + 8] for i in range(0, len(names), 8)] or [[]]
    fig, axes = plt.subplots(len(panels), 1, figsize=(11, 3.2 * len(panels)), squeeze=False)
    for axis, panel in zip(axes[:, 0], panels):
        for name in panel:
            default, low, high = bounds[name]
            span = max(high - low, 1)
            index = names.index(name)
            line, = axis.plot(ks, [(point[1 + index] - low) / span for point in points], label=name, linewidth=1)
            axis.axhline((default - low) / span, color=line.get_color(), linestyle="--", linewidth=0.6)
        axis.set_ylim(0, 1)
        axis.set_ylabel("share of range")
        axis.legend(fontsize=7, ncol=2, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        axis.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("iteration")
    games = state["wins"] + state["draws"] + state["losses"]
    fig.suptitle(f"SPSA: {state['k']} of {state['iterations']} iterations, {games} games (defaults dashed)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.engine is None:
        if args.plot:
            system_python.require("matplotlib")  # re-runs under Debian's Python when this one lacks it
        try:
            state = json.loads(args.state.read_text())
            if args.write_defaults:
                values = {name: round(theta) for name, theta in state["theta"].items()}
                text, changes = write_defaults(args.write_defaults.read_text(), values)
                args.write_defaults.write_text(text)
                for name, old, new in changes:
                    print(f"{name} {old} -> {new}")
                print(f"{len(changes)} of {len(values)} defaults changed in {args.write_defaults}")
        except (ValueError, KeyError, OSError) as error:
            print(f"spsa: {error}", file=sys.stderr)
            return 2
        if args.plot:
            plot_trajectory(state, {name: tuple(b) for name, b in state["bounds"].items()}, args.plot)
        return 0
    try:
        args.engine = match.resolve_engine(args.engine)
        args.fastchess = match.choose_tool("fastchess", ["uci", "uci"])[1]
        params = engine_parameters(args.engine)
        if args.params:
            wanted = [name.strip() for name in args.params.split(",") if name.strip()]
            unknown = sorted(set(wanted) - {p.name for p in params})
            if unknown:
                raise match.UsageError(f"unknown parameter(s): {', '.join(unknown)}")
            params = [p for p in params if p.name in wanted]
        with tempfile.TemporaryDirectory(prefix="arbiter-spsa-") as scratch_name:
            scratch = pathlib.Path(scratch_name)
            args.book_file, args.book_format = match.resolve_book(args.book, scratch)
            return run(args, params, scratch)
    except match.UsageError as error:
        print(f"spsa: {error}", file=sys.stderr)
        return 2
    except (ValueError, OSError, subprocess.TimeoutExpired) as error:
        print(f"spsa: {error}", file=sys.stderr)
        return 2


def run(args, params: list[Param], scratch: pathlib.Path) -> int:
    names = [p.name for p in params]
    state = {"params": names, "iterations": args.iterations, "pairs": args.pairs, "seed": args.seed,
             "k": 0, "theta": {p.name: p.theta for p in params}, "wins": 0, "draws": 0, "losses": 0,
             "problems": 0, "bounds": {p.name: [p.default, p.low, p.high] for p in params},
             "trajectory": [[0] + [p.theta for p in params]]}
    if args.state.exists():
        previous = json.loads(args.state.read_text())
        for key in ("params", "iterations", "pairs", "seed"):
            if previous.get(key) != state[key]:
                raise match.UsageError(f"{args.state} belongs to another run ({key} differs); "
                                       "remove it or name another --state")
        state = previous
        state.setdefault("bounds", {p.name: [p.default, p.low, p.high] for p in params})
        state.setdefault("trajectory", [])
        for p in params:
            p.theta = float(state["theta"][p.name])
        print(f"resuming after iteration {state['k']} of {args.iterations}", flush=True)
    rng = random.Random(args.seed)
    for _ in range(state["k"] * len(params)):  # the signs already drawn
        rng.random()
    try:
        for k in range(state["k"] + 1, args.iterations + 1):
            signs = [1 if rng.random() < 0.5 else -1 for _ in params]
            plus, minus = perturbed(params, signs, k, args.iterations)
            try:
                result, tally = play_pairs(args, plus, minus, params, k, scratch)
            except RuntimeError as error:
                print(f"spsa: iteration {k}: {error}", file=sys.stderr)
                return 3
            update(params, signs, k, args.iterations, result)
            state.update(k=k, theta={p.name: p.theta for p in params}, wins=state["wins"] + tally.wins,
                         draws=state["draws"] + tally.draws, losses=state["losses"] + tally.losses,
                         problems=state["problems"] + sum(tally.problem_count(kind) for kind in match.PROBLEM_KINDS))
            if k % TRAJECTORY_EVERY == 0 or k == args.iterations:
                state["trajectory"].append([k] + [round(p.theta, 3) for p in params])
            save_state(args.state, state)
            print(f"iteration {k}/{args.iterations}: plus {result:+g}; games {state['wins'] + state['draws'] + state['losses']}"
                  f" (plus W/D/L {state['wins']}/{state['draws']}/{state['losses']}, problems {state['problems']})",
                  flush=True)
    except KeyboardInterrupt:
        print("interrupted; the same command continues the run", file=sys.stderr)
    if getattr(args, "plot", None):
        # In a process of its own: this Python may lack matplotlib where Debian's has it.
        subprocess.run([sys.executable, __file__, "--state", str(args.state), "--plot", str(args.plot)], check=False)
    print("name value default")
    for p in params:
        print(f"{p.name} {round(p.theta)} {p.default}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
