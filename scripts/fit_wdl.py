#!/usr/bin/env python3
"""Fits the WDL model of src/search/wdl.h to self-play positions (numpy only).

usage: fit_wdl.py DATA.abin [DATA.abin ...] [--min-material N] [--max-material N]
                  [--min-count N] [--validation FRACTION]

The model (the form of Stockfish's WDL model; our own data and fit): a position with
search score s (centipawns, from White's side) and material m on the board (pawns 1,
knights and bishops 3, rooks 5, queens 9, both sides, clamped to [min, max]) is won by
White with probability

    P(win)  = 1 / (1 + exp((a(x) - s) / b(x)))          x = m / 58
    P(loss) = 1 / (1 + exp((a(x) + s) / b(x)))
    P(draw) = 1 - P(win) - P(loss)

with a(x) and b(x) cubic polynomials. a is the score at which a win is as likely as not;
b is how fast the chances change with the score. The model is symmetric by construction
(a side's win is the other's loss), so the side to move does not enter.

Method:
1. The data: `.abin` records (nets/README.md) made by `arbiter convert` from `.agame`
   self-play games. Each gives s, the game's result and the pieces (so m). The converter
   has already dropped positions in check, with a capture or promotion as best move, and
   with mate scores.
2. For every material value with at least --min-count positions, the two constants a, b
   that maximise the likelihood of the results seen (damped Newton's method on the
   multinomial log-likelihood).
3. Cubic polynomials in x fitted to those a and b by least squares weighted by the
   number of positions (the starting point of step 4).
4. The eight polynomial coefficients refined together by maximum likelihood on every
   position (damped Newton's method; gradient exact, Hessian by central differences of
   the gradient).
The last --validation share of the records (whole games at the end of the file, default
10%) is held out: the script reports the mean log-likelihood per position there for the
old fixed model (a = 140, b = 80), the per-material constants of step 2 and the fitted
polynomials, then prints the constants for src/search/wdl.h.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "nnue"))
import system_python  # noqa: E402

system_python.require("numpy")
import numpy as np  # noqa: E402

import abin  # noqa: E402

MATERIAL_OF_CODE = np.array([1, 3, 3, 5, 9, 0] * 2, dtype=np.int32)  # codes 0-11 (nets/README.md)
NORMALISING_MATERIAL = 58.0  # x = m / 58, as Stockfish scales its polynomials
OLD_MARGIN, OLD_SCALE = 140.0, 80.0  # the model this fit replaces
PROBABILITY_FLOOR = 1e-12  # keeps log() finite where the model gives an outcome no chance


def read_positions(paths):
    """Scores (White's side), results (0 Black won, 1 draw, 2 White won) and material."""
    scores, results, material = [], [], []
    for path in paths:
        records = abin.open_file(path)
        for begin in range(0, len(records), 1 << 20):
            chunk = np.asarray(records[begin:begin + (1 << 20)])
            _, codes, _ = abin.decode_boards(chunk)
            values = np.where(codes >= 0, MATERIAL_OF_CODE[np.clip(codes, 0, 11)], 0)
            material.append(values.sum(axis=1).astype(np.int32))
            scores.append(chunk["score"].astype(np.float64))
            results.append(chunk["result"].astype(np.int8))
    return np.concatenate(scores), np.concatenate(results), np.concatenate(material)


def probabilities(s, a, b):
    p_win = 1.0 / (1.0 + np.exp(np.clip((a - s) / b, -500, 500)))
    p_loss = 1.0 / (1.0 + np.exp(np.clip((a + s) / b, -500, 500)))
    return p_win, p_loss, 1.0 - p_win - p_loss


def log_likelihood(s, r, a, b):
    """Summed log-likelihood of results r under the model with (per-position) a and b."""
    p_win, p_loss, p_draw = probabilities(s, a, b)
    p = np.where(r == 2, p_win, np.where(r == 0, p_loss, p_draw))
    return float(np.log(np.maximum(p, PROBABILITY_FLOOR)).sum())


def gradient_ab(s, r, a, b):
    """Per-position derivatives of the log-likelihood with respect to a and b."""
    p_win, p_loss, p_draw = probabilities(s, a, b)
    u, v = (s - a) / b, (-s - a) / b
    dw_da, dw_db = -p_win * (1 - p_win) / b, -p_win * (1 - p_win) * u / b
    dl_da, dl_db = -p_loss * (1 - p_loss) / b, -p_loss * (1 - p_loss) * v / b
    dd_da, dd_db = -(dw_da + dl_da), -(dw_db + dl_db)
    win, loss = r == 2, r == 0
    inv_w = 1 / np.maximum(p_win, PROBABILITY_FLOOR)
    inv_l = 1 / np.maximum(p_loss, PROBABILITY_FLOOR)
    inv_d = 1 / np.maximum(p_draw, PROBABILITY_FLOOR)
    g_a = np.where(win, dw_da * inv_w, np.where(loss, dl_da * inv_l, dd_da * inv_d))
    g_b = np.where(win, dw_db * inv_w, np.where(loss, dl_db * inv_l, dd_db * inv_d))
    return g_a, g_b


def maximise(f, grad, theta, steps=200, tolerance=1e-10):
    """Levenberg-Marquardt ascent: Newton's step on the Hessian (central differences of
    the exact gradient) shifted by lambda times its diagonal; lambda shrinks after a step
    that raises the objective and grows after one that does not. Stops when a step gains
    less than `tolerance` (relative) or lambda runs away."""
    value = f(theta)
    damping = 1e-3
    for _ in range(steps):
        g = grad(theta)
        n = len(theta)
        h = np.empty((n, n))
        for j in range(n):
            eps = 1e-4 * max(1.0, abs(theta[j]))
            e = np.zeros(n)
            e[j] = eps
            h[:, j] = (grad(theta + e) - grad(theta - e)) / (2 * eps)
        curvature = -(h + h.T) / 2  # positive definite near a maximum
        scale = np.maximum(np.abs(np.diag(curvature)), 1e-12)
        while damping < 1e12:
            try:
                step = np.linalg.solve(curvature + damping * np.diag(scale), g)
            except np.linalg.LinAlgError:
                damping *= 10
                continue
            candidate = theta + step
            v = f(candidate) if np.all(np.isfinite(candidate)) else -np.inf
            if v > value:
                gain = v - value
                theta, value = candidate, v
                damping = max(damping / 10, 1e-9)
                break
            damping *= 10
        else:
            break
        if gain <= tolerance * max(1.0, abs(value)):
            break
    return theta, value


def fit_constants(s, r):
    """a and b of one material value (step 2)."""
    f = lambda t: log_likelihood(s, r, t[0], t[1]) if t[1] > 1 else -np.inf  # noqa: E731

    def grad(t):
        g_a, g_b = gradient_ab(s, r, t[0], t[1])
        return np.array([g_a.sum(), g_b.sum()])

    theta, _ = maximise(f, grad, np.array([OLD_MARGIN, OLD_SCALE]))
    return theta


def polynomial(coefficients, x):
    """((c0 x + c1) x + c2) x + c3, the form src/search/wdl.h evaluates."""
    value = np.zeros_like(x)
    for c in coefficients:
        value = value * x + c
    return value


def fit_polynomials(s, r, x, start):
    """The eight coefficients together (step 4): a's four, then b's four."""
    powers = np.stack([x ** 3, x ** 2, x, np.ones_like(x)])  # d a / d c_k

    def f(t):
        b = polynomial(t[4:], x)
        return log_likelihood(s, r, polynomial(t[:4], x), b) if (b > 1).all() else -np.inf

    def grad(t):
        g_a, g_b = gradient_ab(s, r, polynomial(t[:4], x), polynomial(t[4:], x))
        return np.concatenate([powers @ g_a, powers @ g_b])

    return maximise(f, grad, start)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", nargs="+")
    parser.add_argument("--min-material", type=int, default=10)
    parser.add_argument("--max-material", type=int, default=78)
    parser.add_argument("--min-count", type=int, default=2000)
    parser.add_argument("--validation", type=float, default=0.1)
    args = parser.parse_args(argv)

    s, r, m = read_positions(args.data)
    clamped = np.clip(m, args.min_material, args.max_material)
    x = clamped / NORMALISING_MATERIAL
    held = int(len(s) * args.validation)
    train = slice(0, len(s) - held)
    test = slice(len(s) - held, len(s))
    print(f"positions: {len(s)} ({len(s) - held} fitted, {held} held out); results "
          f"White {np.mean(r == 2):.3f} draw {np.mean(r == 1):.3f} Black {np.mean(r == 0):.3f}")
    print(f"material: raw {m.min()}..{m.max()}, clamped to {args.min_material}..{args.max_material}")

    # Step 2: constants per material value.
    ts, tr, tm, tx = s[train], r[train], clamped[train], x[train]
    rows = []
    print(f"{'material':>8} {'positions':>9} {'a':>8} {'b':>8}   draw rate at |s| < 30")
    for value in range(args.min_material, args.max_material + 1):
        sel = tm == value
        count = int(sel.sum())
        if count < args.min_count:
            continue
        a, b = fit_constants(ts[sel], tr[sel])
        near = sel & (np.abs(ts) < 30)
        draw_rate = float(np.mean(tr[near] == 1)) if near.any() else float("nan")
        rows.append((value, count, a, b))
        print(f"{value:>8} {count:>9} {a:>8.1f} {b:>8.1f}   {draw_rate:.3f}")
    if len(rows) < 4:
        print("too few material values with enough positions for cubic polynomials", file=sys.stderr)
        return 1

    # Step 3: weighted least squares of cubics to the per-material constants.
    values = np.array([row[0] for row in rows], dtype=np.float64) / NORMALISING_MATERIAL
    weights = np.sqrt(np.array([row[1] for row in rows], dtype=np.float64))
    a_points = np.array([row[2] for row in rows])
    b_points = np.array([row[3] for row in rows])
    design = np.stack([values ** 3, values ** 2, values, np.ones_like(values)], axis=1)
    a_start = np.linalg.lstsq(design * weights[:, None], a_points * weights, rcond=None)[0]
    b_start = np.linalg.lstsq(design * weights[:, None], b_points * weights, rcond=None)[0]

    # Step 4: all coefficients on every position.
    start = np.concatenate([a_start, b_start])
    before = log_likelihood(ts, tr, polynomial(a_start, tx), polynomial(b_start, tx))
    theta, value = fit_polynomials(ts, tr, tx, start)
    print(f"\nmean log-likelihood per fitted position: {before / len(ts):.5f} with the cubics of step 3, "
          f"{value / len(ts):.5f} after step 4")

    # Held-out comparison.
    vs, vr, vm, vx = s[test], r[test], clamped[test], x[test]
    if held:
        old = log_likelihood(vs, vr, OLD_MARGIN, OLD_SCALE) / held
        table_a, table_b = np.full(held, np.nan), np.full(held, np.nan)
        for value_m, _, a, b in rows:
            table_a[vm == value_m], table_b[vm == value_m] = a, b
        known = ~np.isnan(table_a)
        per_material = log_likelihood(vs[known], vr[known], table_a[known], table_b[known]) / max(1, known.sum())
        model_known = log_likelihood(vs[known], vr[known], polynomial(theta[:4], vx[known]),
                                     polynomial(theta[4:], vx[known])) / max(1, known.sum())
        model = log_likelihood(vs, vr, polynomial(theta[:4], vx), polynomial(theta[4:], vx)) / held
        print(f"held-out mean log-likelihood: old fixed model {old:.5f}, fitted model {model:.5f}; "
              f"on the {known.sum()} with a per-material fit: per-material constants {per_material:.5f}, "
              f"fitted model {model_known:.5f}")

    print("\nfitted a(x), b(x) at some material values:")
    for value_m in (args.min_material, 20, 30, 40, 50, 60, args.max_material):
        xm = np.array([min(max(value_m, args.min_material), args.max_material) / NORMALISING_MATERIAL])
        a, b = polynomial(theta[:4], xm)[0], polynomial(theta[4:], xm)[0]
        p_win, p_loss, p_draw = probabilities(100.0, a, b)
        print(f"  material {value_m:>2}: a {a:7.1f}  b {b:6.1f}  at +100 cp: W {p_win:.3f} D {p_draw:.3f} L {p_loss:.3f}")

    print("\nfor src/search/wdl.h:")
    print(f"constexpr int WdlMinMaterial = {args.min_material}, WdlMaxMaterial = {args.max_material};")
    print("constexpr double WdlA[4] = {" + ", ".join(f"{c:.6g}" for c in theta[:4]) + "};")
    print("constexpr double WdlB[4] = {" + ", ".join(f"{c:.6g}" for c in theta[4:]) + "};")
    return 0


if __name__ == "__main__":
    sys.exit(main())
