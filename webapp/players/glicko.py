"""Glicko-2 ratings, as Mark Glickman's paper "Example of the Glicko-2 system" (2013) defines them.

Pure arithmetic, no Flask and no database. Every finished attempt is one rating period holding one
game between the player and the puzzle, as Lichess rates its puzzles: the player scores 1 for a
solve (less for each hint used) and 0 for a miss, and the puzzle scores the rest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from webapp.rating_defaults import DEFAULT_DEVIATION, DEFAULT_RATING, DEFAULT_VOLATILITY

SCALE = 173.7178
"""Glicko-2's scale: a rating point difference of 173.7178 is one unit of mu."""
TAU = 0.5
"""How much the volatility may change; the paper suggests 0.3 to 1.2, and uses 0.5 in its example."""
CONVERGENCE = 0.000001
"""The paper's epsilon for the volatility iteration."""

PROVISIONAL_DEVIATION = 110.0
"""Above this deviation a rating is provisional (shown with a "?"), as on Lichess."""
MIN_DEVIATION = 45.0
"""Nobody's rating is ever that certain: a floor keeps ratings moving, as Lichess does."""
HINT_COSTS = (0.1, 0.2, 0.3)
"""What each rung of the hint ladder takes off a solve's score: each hint costs more than the last."""


SLIP_COST = HINT_COSTS[0]
"""What each slip takes off a solve's score: as much as the first hint, as a wrong move in a Lichess
puzzle costs."""


def solve_score(hints: int, slips: int = 0) -> float:
    """A solve's result in its rating game: 1 without hints or slips, then 0.9, 0.7 and 0.4 for the
    hints, and 0.1 less for each slip (never below 0)."""
    return round(max(0.0, 1.0 - sum(HINT_COSTS[:hints]) - SLIP_COST * slips), 6)


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the familiar scale (1500 for a newcomer)."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    """RD: how uncertain the rating is; it shrinks with games and grows with time away."""
    volatility: float = DEFAULT_VOLATILITY
    """sigma: how erratic the results have been."""

    @property
    def provisional(self) -> bool:
        """Too few games yet for the rating to mean much: each of the first ones moves it a lot."""
        return self.deviation > PROVISIONAL_DEVIATION

    @property
    def mu(self) -> float:
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE


@dataclass(frozen=True, slots=True)
class Game:
    """One result in a rating period: the opponent as rated before the period, and the score."""

    opponent: Rating
    score: float
    """1 for a win, 0 for a loss, 0.5 for a draw; anything between for a partial win."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"a score is between 0 and 1, not {self.score}")


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, opponent_mu: float, opponent_g: float) -> float:
    return 1.0 / (1.0 + math.exp(-opponent_g * (mu - opponent_mu)))


def update(player: Rating, games: Sequence[Game], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these games (steps 1 to 8 of the paper)."""
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not games:
        # step 6 alone: a period without games only makes the rating less certain
        return idle(player, 1)

    # step 3: the estimated variance of the rating from the game outcomes alone
    terms = []
    for game in games:
        g = _g(game.opponent.phi)
        terms.append((g, _expected(mu, game.opponent.mu, g), game.score))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in terms)
    # step 4: the estimated improvement
    improvement = sum(g * (score - e) for g, e, score in terms)
    delta = v * improvement

    # step 5: the new volatility
    sigma_new = _volatility(delta, phi, v, sigma, tau)
    # steps 6 and 7: the new deviation and rating
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    # step 8: back to the familiar scale
    return Rating(SCALE * mu_new + DEFAULT_RATING, SCALE * phi_new, sigma_new)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: solve f(x) = 0 by the Illinois algorithm, as the paper does."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    upper = a
    if delta * delta > phi * phi + v:
        lower = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        lower = a - k * tau
    f_upper, f_lower = f(upper), f(lower)
    while abs(lower - upper) > CONVERGENCE:
        middle = upper + (upper - lower) * f_upper / (f_lower - f_upper)
        f_middle = f(middle)
        if f_middle * f_lower <= 0:
            upper, f_upper = lower, f_lower
        else:
            f_upper /= 2.0
        lower, f_lower = middle, f_middle
    return math.exp(upper / 2.0)


def play(player: Rating, puzzle: Rating, score: float) -> tuple[Rating, Rating]:
    """Rate one attempt as a game: the player's and the puzzle's ratings after it.

    Both sides are updated from the other's rating before the game; the deviations keep a floor."""
    player_after = update(player, [Game(puzzle, score)])
    puzzle_after = update(puzzle, [Game(player, 1.0 - score)])
    return _floored(player_after), _floored(puzzle_after)


def idle(rating: Rating, periods: int) -> Rating:
    """The rating after `periods` rating periods without games: step 6 of the paper that many times
    in one, so a player back after months is less certain of their rating (as on Lichess), never
    less certain than a newcomer."""
    if periods <= 0:
        return rating
    phi = math.sqrt(rating.phi * rating.phi + periods * rating.volatility * rating.volatility)
    ceiling = max(DEFAULT_DEVIATION, rating.deviation)
    return Rating(rating.rating, min(phi * SCALE, ceiling), rating.volatility)


def _floored(rating: Rating) -> Rating:
    return Rating(rating.rating, max(rating.deviation, MIN_DEVIATION), rating.volatility)
