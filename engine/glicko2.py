"""Glicko-2 rating arithmetic (Glickman, "Example of the Glicko-2 system"), pure functions."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5
_EPSILON = 1e-6


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating in the Glicko scale: rating r, rating deviation RD and volatility sigma."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def mu(self) -> float:
        """The rating in the Glicko-2 scale."""
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        """The rating deviation in the Glicko-2 scale."""
        return self.rd / SCALE

    @classmethod
    def from_glicko2(cls, mu: float, phi: float, volatility: float) -> Rating:
        """Build a rating from Glicko-2-scale values (mu, phi, sigma)."""
        return cls(mu * SCALE + DEFAULT_RATING, phi * SCALE, volatility)

    def __repr__(self) -> str:
        return f"Rating({self.rating:.1f}, rd={self.rd:.1f}, vol={self.volatility:.5f})"


@dataclass(frozen=True)
class Result:
    """One game of a rating period: the opponent's rating and the score (1 win, 0.5 draw, 0 loss)."""

    opponent: Rating
    score: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"a game score must be between 0 and 1, got {self.score}")


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois variant of regula falsi on f(x)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, results: Iterable[Result], tau: float = DEFAULT_TAU) -> Rating:
    """The player's rating after one rating period with these results (steps 2-8 of the paper)."""
    games = list(results)
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not games:
        return Rating.from_glicko2(mu, math.sqrt(phi * phi + sigma * sigma), sigma)
    v_inv = 0.0
    gain = 0.0
    for game in games:
        g = _g(game.opponent.phi)
        e = _expected(mu, game.opponent.mu, game.opponent.phi)
        v_inv += g * g * e * (1.0 - e)
        gain += g * (game.score - e)
    v = 1.0 / v_inv
    delta = v * gain
    new_sigma = _new_volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Rating.from_glicko2(new_mu, new_phi, new_sigma)


def expected_score(player: Rating, opponent: Rating) -> float:
    """The expected score of `player` against `opponent` (E in the paper)."""
    return _expected(player.mu, opponent.mu, opponent.phi)
