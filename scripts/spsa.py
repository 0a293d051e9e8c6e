#!/usr/bin/env python3
"""Tunes Arbiter's search parameters by SPSA, playing game pairs under fastchess.

usage:
  scripts/spsa.py --engine TUNING_BUILD --iterations N [--pairs 1] [--tc 5+0.05 | --nodes N]
                  [--params NAME,NAME,...] [--r-end R] [--state spsa.json] [--book FILE] [--seed S]
                  [--concurrency 2] [--in-flight 1] [--pgn FILE] [--plot FILE.png]
  scripts/spsa.py --state spsa.json --plot FILE.png      (the plot of a run so far; plays nothing)
  scripts/spsa.py --state spsa.json --write-defaults src/search/tunables.h
                                                         (a run's values made the defaults)
  scripts/spsa.py --state spsa.json --report             (a run's record as a Markdown table)

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

The list's r_end (0.002 for every parameter) is sized for runs of about 10,000
iterations. How far a run can move a parameter whose gradient keeps its sign grows
with N * r_end, its noise with sqrt(N) * r_end. --r-end R gives every parameter r_end
R instead, so that a shorter run can still move far (3,000 iterations at 0.005: three
quarters of the reach of 10,000 at 0.002, with 1.4 times the noise).

Iterations in flight: with --in-flight M, M iterations are played at once, each by its
own fastchess with --concurrency / M games at once (at least one). An iteration is
perturbed around theta as it stands when the iteration starts and its update is added
when its games end, so an update may come from a theta up to M - 1 updates old (as in
OpenBench's runs with many workers). At --in-flight 1 a core waits while the longer
game of each pair ends, and both wait while fastchess and the engines start. At a fixed
node count, where a game does not depend on the time it gets, more games than cores
cost nothing: on two cores, one pair an iteration at 15,000 nodes, 23 iterations a
minute at --in-flight 1 (--concurrency 2), 28 at 2, 36 at 3. Under a clock, keep the
games at once to the cores.

State: after every iteration theta, the iterations done and the game totals are written
to --state (JSON), and every TRAJECTORY_EVERY iterations theta joins the run's
trajectory, which --plot draws (matplotlib): each parameter's value against the
iteration, as a share of its range, one panel per group of parameters, with the
defaults dashed. Ctrl-C (SIGINT) starts no more iterations, lets those being played end
and keeps their games; the same command continues the run, playing each iteration not
yet done once. A state made for another parameter list, iteration count, number of
pairs, seed or --r-end is refused. At the end (and after Ctrl-C) the current values are
printed as `name value default` lines; --write-defaults FILE writes them, rounded, into
FILE (src/search/tunables.h) as the parameters' defaults, leaving everything else in it
as it was. --report prints a run's record for src/search/README.md: iterations and
games, then a Markdown table of each parameter's start and end values and how far it
moved as a share of its range, the farthest first.

Openings come from ../shared/data/openings/8moves_v3.epd unless --book is given;
iteration k uses seed S + k, so a run is reproducible in its openings (not in its
games, which depend on the machine's load unless --nodes fixes the search).

Exit status: 0 done or interrupted cleanly; 2 usage error; 3 fastchess failed.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import importlib.util
import json
import pathlib
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading

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


_PGN_LOCK = threading.Lock()  # iterations in flight append to one --pgn file


def play_pairs(args, plus: list[int], minus: list[int], params: list[Param], k: int,
               scratch: pathlib.Path) -> tuple[float, match.Tally]:
    """Plays --pairs game pairs; (plus's points minus minus's, plus's tally)."""
    def spec(name: str, values: list[int]) -> match.EngineSpec:
        options = [f"{p.name}={v}" for p, v in zip(params, values)]
        return match.EngineSpec(name, args.engine, "uci", options, [])

    pgn = scratch / f"iteration-{k}.pgn"
    log = scratch / f"fastchess-{k}.log"
    plan = match.MatchPlan(engines=(spec("plus", plus), spec("minus", minus)),
                           tc=f"nodes={args.nodes}" if args.nodes else args.tc, rounds=args.pairs,
                           sprt=None, concurrency=games_at_once(args), book=args.book_file,
                           book_format=args.book_format, seed=args.seed + k, pgn=pgn, chess960=False,
                           tool_args=[])
    cmd = match.fastchess_command(args.fastchess, plan, log)
    finished = subprocess.run(cmd, cwd=scratch, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, text=True, errors="replace")
    if finished.returncode != 0 or not pgn.exists():
        raise RuntimeError(f"fastchess failed (status {finished.returncode}):\n{finished.stdout[-2000:]}")
    text = pgn.read_text(errors="replace")
    if args.pgn:
        with _PGN_LOCK, open(args.pgn, "a") as out:
            out.write(text)
    pgn.unlink()
    log.unlink(missing_ok=True)
    tally = match.parse_pgn_results(text, "plus")
    if tally.games != 2 * args.pairs:
        raise RuntimeError(f"expected {2 * args.pairs} finished games, got {tally.games}")
    return float(tally.wins - tally.losses), tally


def games_at_once(args) -> int:
    """The concurrency each iteration's fastchess gets: --concurrency shared among the
    iterations in flight."""
    return max(1, args.concurrency // args.in_flight)


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
    parser.add_argument("--r-end", type=float, help="every parameter's r_end (default: the engine's list)")
    parser.add_argument("--state", type=pathlib.Path, default=pathlib.Path("spsa.json"))
    parser.add_argument("--book", type=pathlib.Path, default=match.DEFAULT_BOOK)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=2,
                        help="games at once, shared among the iterations in flight (each plays at least one)")
    parser.add_argument("--in-flight", type=int, default=1,
                        help="iterations played at once (each with concurrency / in-flight games at once)")
    parser.add_argument("--pgn", type=pathlib.Path, help="append every game here")
    parser.add_argument("--plot", type=pathlib.Path, help="draw the parameters' trajectories to this PNG")
    parser.add_argument("--write-defaults", type=pathlib.Path, metavar="TUNABLES_H",
                        help="make the run's values (rounded) the defaults in this file; plays nothing")
    parser.add_argument("--report", action="store_true",
                        help="print the run's record (a Markdown table of start and end values); plays nothing")
    args = parser.parse_args(argv)
    if args.engine is None and args.iterations is None:
        if not args.plot and not args.write_defaults and not args.report:
            parser.error("--engine and --iterations, or --plot, --write-defaults or --report alone "
                         "(to use a run's state)")
        return args
    if args.write_defaults or args.report:
        parser.error("--write-defaults and --report use a run's state and play nothing: give them without --engine")
    if args.engine is None or args.iterations is None:
        parser.error("--engine and --iterations go together")
    if (args.iterations < 1 or args.pairs < 1 or args.concurrency < 1 or args.in_flight < 1
            or (args.nodes is not None and args.nodes < 1) or (args.r_end is not None and not args.r_end > 0)):
        parser.error("--iterations, --pairs, --concurrency, --in-flight, --nodes and --r-end must be positive")
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
            if backslash:  # it stays in its column, with at least one space before it
                line = body + " " * max(len(line) - 1 - len(body), 1) + backslash
            else:
                line = body + padding
        lines.append(line)
    missing = sorted(set(values) - seen)
    if missing:
        raise ValueError(f"not a parameter of the file: {', '.join(missing)}")
    return "\n".join(lines), changes


def report(state: dict) -> str:
    """A run's record: a line of totals, then a Markdown table of every parameter's
    start (its default: every run starts there), end (theta, rounded as the engine gets
    it, and unrounded), range and the move from start to end as a share of the range,
    the farthest first. (Not the trajectory's first point: a state saved before the
    trajectory was kept begins it where the run was resumed.)"""
    names = state["params"]
    start = [state["bounds"][name][0] for name in names]
    games = state["wins"] + state["draws"] + state["losses"]
    beyond = f" (and {len(state['ahead'])} beyond it)" if state.get("ahead") else ""
    lines = [f"{state['k']} of {state['iterations']} iterations{beyond}, {games} games: plus W/D/L "
             f"{state['wins']}/{state['draws']}/{state['losses']}, problems {state['problems']}",
             "",
             "| parameter | start | end | unrounded | min | max | moved (share of range) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    rows = []
    for index, (name, first) in enumerate(zip(names, start)):
        _, low, high = state["bounds"][name]
        end = state["theta"][name]
        moved = (end - first) / max(high - low, 1)
        shown = round(moved, 3) + 0.0  # a move too small to show is +0.0%, not -0.0%
        rows.append((-abs(moved), index,
                     f"| {name} | {first:g} | {round(end)} | {end:.1f} | {low} | {high} | {shown:+.1%} |"))
    lines += [row for _, _, row in sorted(rows)]
    return "\n".join(lines)


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
            if args.report:
                print(report(state))
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


class SignStream:
    """The signs d of each iteration: iteration k takes the k-th block of `count` draws of
    one generator seeded with --seed, so a resumed run skips the blocks of the iterations
    done. Iterations start in increasing order."""

    def __init__(self, seed: int, count: int):
        self.count = count
        self.rng, self.drawn = random.Random(seed), 0

    def signs(self, k: int) -> list[int]:
        if k <= self.drawn:
            raise ValueError(f"the signs of iteration {k} were drawn already")
        for _ in range((k - 1 - self.drawn) * self.count):
            self.rng.random()
        self.drawn = k
        return [1 if self.rng.random() < 0.5 else -1 for _ in range(self.count)]


def run(args, params: list[Param], scratch: pathlib.Path) -> int:
    """Plays the iterations not yet done, --in-flight of them at once (1: the classic
    sequential method); the state's `k` is the last of the iterations done without a
    gap and `ahead` lists those done beyond it."""
    names = [p.name for p in params]
    r_end = getattr(args, "r_end", None)
    if r_end is not None:
        for p in params:
            p.r_end = r_end
    state = {"params": names, "iterations": args.iterations, "pairs": args.pairs, "seed": args.seed, "r_end": r_end,
             "k": 0, "ahead": [], "theta": {p.name: p.theta for p in params}, "wins": 0, "draws": 0,
             "losses": 0, "problems": 0, "bounds": {p.name: [p.default, p.low, p.high] for p in params},
             "trajectory": [[0] + [p.theta for p in params]]}
    if args.state.exists():
        previous = json.loads(args.state.read_text())
        for key in ("params", "iterations", "pairs", "seed", "r_end"):
            if previous.get(key) != state[key]:
                raise match.UsageError(f"{args.state} belongs to another run ({key} differs); "
                                       "remove it or name another --state")
        state = previous
        state.setdefault("bounds", {p.name: [p.default, p.low, p.high] for p in params})
        state.setdefault("trajectory", [])
        state.setdefault("ahead", [])
        for p in params:
            p.theta = float(state["theta"][p.name])
        ahead = f" (and {len(state['ahead'])} beyond it)" if state["ahead"] else ""
        print(f"resuming after iteration {state['k']}{ahead} of {args.iterations}", flush=True)
    done = set(state["ahead"])
    todo = [k for k in range(state["k"] + 1, args.iterations + 1) if k not in done]
    signs = SignStream(args.seed, len(params))
    in_flight = args.in_flight
    running: dict[concurrent.futures.Future, tuple[int, list[int]]] = {}
    status, stopping = 0, False

    def finish(k: int, d: list[int], result: float, tally) -> None:
        update(params, d, k, args.iterations, result)
        done.add(k)
        while state["k"] + 1 in done:
            state["k"] += 1
            done.discard(state["k"])
        played = state["k"] + len(done)
        problems = sum(tally.problem_count(kind) for kind in match.PROBLEM_KINDS)
        state.update(ahead=sorted(done), theta={p.name: p.theta for p in params},
                     wins=state["wins"] + tally.wins, draws=state["draws"] + tally.draws,
                     losses=state["losses"] + tally.losses, problems=state["problems"] + problems)
        if played % TRAJECTORY_EVERY == 0 or played == args.iterations:
            state["trajectory"].append([played] + [round(p.theta, 3) for p in params])
        save_state(args.state, state)
        games = state["wins"] + state["draws"] + state["losses"]
        print(f"iteration {k}/{args.iterations}: plus {result:+g}; games {games}"
              f" (plus W/D/L {state['wins']}/{state['draws']}/{state['losses']}, problems {state['problems']})",
              flush=True)

    # Ctrl-C (SIGINT) lets the iterations being played finish and keeps their games.
    interrupted = threading.Event()
    previous_handler = signal.signal(signal.SIGINT, lambda *_: interrupted.set())
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=in_flight) as pool:
            while True:
                if interrupted.is_set() and not stopping:
                    stopping = True
                    print(f"interrupted; finishing the {len(running)} iteration(s) being played",
                          file=sys.stderr, flush=True)
                while todo and len(running) < in_flight and not stopping:
                    k = todo.pop(0)
                    d = signs.signs(k)
                    plus, minus = perturbed(params, d, k, args.iterations)
                    running[pool.submit(play_pairs, args, plus, minus, params, k, scratch)] = (k, d)
                if not running:
                    break
                finished, _ = concurrent.futures.wait(running, timeout=1,
                                                      return_when=concurrent.futures.FIRST_COMPLETED)
                for future in finished:
                    k, d = running.pop(future)
                    try:
                        result, tally = future.result()
                    except RuntimeError as error:
                        if not stopping and not interrupted.is_set():
                            print(f"spsa: iteration {k}: {error}", file=sys.stderr)
                            status, stopping = 3, True
                        continue
                    finish(k, d, result, tally)
    finally:
        signal.signal(signal.SIGINT, previous_handler)
    if stopping and status == 0:
        print("interrupted; the same command continues the run", file=sys.stderr)
    if status != 0:
        return status
    if getattr(args, "plot", None):
        # In a process of its own: this Python may lack matplotlib where Debian's has it.
        subprocess.run([sys.executable, __file__, "--state", str(args.state), "--plot", str(args.plot)], check=False)
    print("name value default")
    for p in params:
        print(f"{p.name} {round(p.theta)} {p.default}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
