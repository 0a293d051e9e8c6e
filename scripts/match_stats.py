"""The statistics of scripts/match.py: Elo from a score, its 95% interval, and the SPRT.

Pure functions of W/D/L counts or of pentanomial pair counts (how many game pairs scored 0,
0.5, 1, 1.5 and 2 points); the formulas are set out in match.py's docstring. Python 3
standard library only.
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal


def score_of(wins: float, draws: float, losses: float) -> float:
    """Mean points per game, 0.5 when no game was played."""
    n = wins + draws + losses
    return (wins + 0.5 * draws) / n if n else 0.5


def elo_from_score(score: float) -> float:
    """Logistic Elo difference of an expected score; +/-inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score of a logistic Elo difference (inverse of elo_from_score)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def game_variance(wins: float, draws: float, losses: float) -> float:
    """Variance of one game's points under the trinomial model fitted to W/D/L."""
    n = wins + draws + losses
    if not n:
        return 0.0
    s = score_of(wins, draws, losses)
    return (wins * (1.0 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n


def score_interval_in_elo(samples: int, score: float, variance: float, z: float) -> tuple[float, float, float]:
    """(elo, lower, upper): the normal-approximation interval of a mean score over `samples`
    samples of `variance` each, mapped to Elo. The ends are +/-inf when the interval leaves
    (0, 1), and both are the point estimate when the variance is zero."""
    half = z * math.sqrt(variance / samples) if samples else math.inf
    return elo_from_score(score), elo_from_score(score - half), elo_from_score(score + half)


def elo_interval(wins: int, draws: int, losses: int, z: float = Z95) -> tuple[float, float, float]:
    """(elo, lower, upper) of the games' score (all games the same result: no spread)."""
    return score_interval_in_elo(wins + draws + losses, score_of(wins, draws, losses),
                                 game_variance(wins, draws, losses), z)


def elo_margin(wins: int, draws: int, losses: int, z: float = Z95) -> float:
    """Half the width of elo_interval, the `+/-` figure."""
    _, lower, upper = elo_interval(wins, draws, losses, z)
    return (upper - lower) / 2.0


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's LLR bounds: (ln(beta/(1-alpha)), ln((1-beta)/alpha))."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def gsprt_llr(samples: int, score: float, variance: float, elo0: float, elo1: float) -> float:
    """GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0), logistic Elo, normal approximation.

    LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var), with N samples (games or game pairs) of mean
    score s (points per game) and variance var per sample, s0, s1 the expected scores at elo0
    and elo1.
    """
    if not samples or variance <= 0.0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return samples * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Trinomial GSPRT log-likelihood ratio (gsprt_llr over single games).

    An empty class counts as half a game in var only, which keeps the ratio finite and small
    before all three results have occurred (two straight wins must not accept H1).
    """
    var = game_variance(*(c if c else 0.5 for c in (wins, draws, losses)))
    return gsprt_llr(wins + draws + losses, score_of(wins, draws, losses), var, elo0, elo1)


# A game pair (one opening, colours reversed) scores 0, 0.5, 1, 1.5 or 2 points: the five classes
# of the pentanomial model, counted in that order; per game that is 0, 1/4, 1/2, 3/4, 1.
PAIR_CLASS_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def pair_score_and_variance(pairs: list[float]) -> tuple[float, float]:
    """(mean points per game, variance of a pair's points per game) of pentanomial counts."""
    n = sum(pairs)
    if not n:
        return 0.5, 0.0
    s = sum(count * x for count, x in zip(pairs, PAIR_CLASS_SCORES)) / n
    return s, sum(count * (x - s) ** 2 for count, x in zip(pairs, PAIR_CLASS_SCORES)) / n


def pentanomial_interval(pairs: list[int], z: float = Z95) -> tuple[float, float, float]:
    """(elo, lower, upper) as elo_interval, with the game pair as the sample: the spread that
    the shared opening takes out of the two games is not counted twice."""
    return score_interval_in_elo(sum(pairs), *pair_score_and_variance(pairs), z)


def closest_distribution(observed: list[float], scores: tuple[float, ...], mean: float) -> list[float]:
    """The distribution over `scores` with expectation `mean` under which the observed
    frequencies are likeliest: observed_i / (1 + theta (score_i - mean)), theta the root of
    sum observed_i (score_i - mean) / (1 + theta (score_i - mean)) = 0 (Van den Bergh,
    "Comparing the approximations for the generalized log likelihood ratio of a multinomial
    distribution", proposition 1.1). The sum falls from +inf to -inf as theta crosses the
    interval where every denominator is positive, so bisection finds the root. `mean` must lie
    strictly between the lowest and the highest score.
    """
    def excess(theta: float) -> float:
        return sum(p * (a - mean) / (1.0 + theta * (a - mean)) for p, a in zip(observed, scores))

    low, high = -1.0 / (scores[-1] - mean), -1.0 / (scores[0] - mean)
    for _ in range(100):  # far more halvings than a double's precision needs
        middle = (low + high) / 2.0
        if excess(middle) > 0.0:
            low = middle
        else:
            high = middle
    theta = (low + high) / 2.0
    return [p / (1.0 + theta * (a - mean)) for p, a in zip(observed, scores)]


def pentanomial_llr(pairs: list[int], elo0: float, elo1: float) -> float:
    """Pentanomial GSPRT log-likelihood ratio by maximum likelihood, the statistic fastchess
    stops on (model logistic): N sum f_i log(p1_i / p0_i) over the N pairs' classes of
    frequency f_i, with p0, p1 the distributions closest to f of expected score s0, s1. An
    empty class counts as a thousandth of a pair, as fastchess counts it, which keeps every
    logarithm finite. Near zero Elo it equals the normal approximation (gsprt_llr); farther
    out they part (at +34 after 405 pairs: 3.02 here and in fastchess, 3.13 approximated).
    """
    if not any(pairs):
        return 0.0
    counts = [c if c else 1e-3 for c in pairs]
    total = sum(counts)
    observed = [c / total for c in counts]
    p0 = closest_distribution(observed, PAIR_CLASS_SCORES, score_from_elo(elo0))
    p1 = closest_distribution(observed, PAIR_CLASS_SCORES, score_from_elo(elo1))
    return total * sum(f * math.log(b / a) for f, a, b in zip(observed, p0, p1))


def sprt_decision(llr: float, alpha: float, beta: float) -> str:
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1 accepted"
    if llr <= lower:
        return "H0 accepted"
    return "continue"
