"""Confidence intervals of a mean of paired differences, corrected for the number of cards compared.

The card-effect experiment (tharsis/games/paired.py, tharsis/games/effects.py) gives, for every card, one difference
per pair of games (the holder's win with the card less its win without it, and the same for VP). Its effect is the
mean difference, and its interval is Student's t interval of that mean: the pairs are independent (each has its own
seed), the differences within one are what pairing makes small.

Several cards compared at once each get an interval at level 1 - alpha/m (Bonferroni, m the number of cards): then
all m intervals hold their true effects together in at least 95 % of runs, whatever the dependence between them (the
cards share their games without any card), so one "effect" among twenty is not a 1-in-20 accident. The p-value of
the test of "no effect" is given too, Bonferroni-adjusted (m times the p-value, at most 1), so that an interval that
leaves out zero and an adjusted p-value under 0.05 always say the same thing.

Student's distribution is computed here (the regularized incomplete beta function, by its continued fraction), not
taken from scipy, which Tharsis does not depend on; tests/test_effects.py checks it against scipy where scipy is
installed.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Optional, Sequence

import attrs

ALPHA = 0.05           # one run's family-wise error: 95 % intervals


@attrs.frozen
class Estimate:
    """The mean of paired differences, its interval (None with fewer than two pairs) and the test of "no effect"."""

    mean: float
    low: Optional[float]
    high: Optional[float]
    p: float                 # two-sided p-value of "the mean difference is 0", uncorrected
    p_adjusted: float        # Bonferroni: min(1, m * p)
    pairs: int

    @property
    def excludes_zero(self) -> bool:
        return self.low is not None and (self.low > 0 or self.high < 0)


def paired_estimate(differences: Sequence[float], compared: int = 1, alpha: float = ALPHA) -> Estimate:
    """The mean of `differences` with its interval at level 1 - alpha/compared (two-sided)."""
    n = len(differences)
    if n == 0:
        return Estimate(0.0, None, None, 1.0, 1.0, 0)
    mean = math.fsum(differences) / n
    if n < 2:
        return Estimate(mean, None, None, 1.0, 1.0, n)
    variance = math.fsum((d - mean) ** 2 for d in differences) / (n - 1)
    error = math.sqrt(variance / n)
    if error == 0.0:
        # every pair differed by the same amount (no difference at all, most often): the interval is that amount
        p = 1.0 if mean == 0 else 0.0
        return Estimate(mean, mean, mean, p, min(1.0, p * compared), n)
    half = t_quantile(1 - alpha / (2 * compared), n - 1) * error
    p = t_two_sided(abs(mean) / error, n - 1)
    return Estimate(mean, mean - half, mean + half, p, min(1.0, p * compared), n)


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= t) for Student's T with `df` degrees of freedom (t >= 0)."""
    if t <= 0:
        return 1.0
    return incomplete_beta(df / (df + t * t), df / 2, 0.5)


@lru_cache(maxsize=256)
def t_quantile(probability: float, df: float) -> float:
    """The t with P(T <= t) = probability (0.5 < probability < 1), by bisection on the two-sided tail (a run asks
    for the same few: one level, and the pairs of each card)."""
    if not 0.5 < probability < 1:
        raise ValueError(f"probability {probability} is not between 0.5 and 1")
    tail = 2 * (1 - probability)
    low, high = 0.0, 1.0
    while t_two_sided(high, df) > tail:
        low, high = high, high * 2
    for _ in range(200):
        middle = (low + high) / 2
        if t_two_sided(middle, df) > tail:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2


def incomplete_beta(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction (evaluated with Lentz's
    method), on the side of x where the fraction converges fast."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _fraction(x, a, b) / a
    return 1 - front * _fraction(1 - x, b, a) / b


def _fraction(x: float, a: float, b: float) -> float:
    tiny, epsilon = 1e-300, 1e-15
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 1000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < epsilon:
            break
    return result
