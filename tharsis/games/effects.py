"""The effect of each card, from the records of a `simulate --effect` run (the experiment: tharsis/games/paired.py).

A pair is the game of a seed without the tested cards and the game of the same seed with one card in the holder's
hand. Per pair, the difference of the holder's win (1 for a win, a share of it in a full tie, the solo game's
verdict in a solo game) and of the holder's final score is the card's effect in that deal; per card, the mean
difference is its effect, with an interval corrected for the number of cards compared (tharsis/games/intervals.py).

The verdict is only what the interval of the win-rate effect shows: "raises the win rate" or "lowers the win rate"
when it leaves out zero, "not enough games to say" when it holds zero or when there are fewer than MIN_PAIRS pairs
(whatever the interval), and "changed no game" when every pair was the same game move for move. The VP effect is
said beside it (a card can add points that rarely decide a game).

Only the records are read, as the balance report reads them: `simulate` prints this table, `--format csv` writes it
for pandas (`effect_rows`), and the report draws it (tharsis/games/report.py), also for `tharsis report RESULTS`.
"""

from __future__ import annotations

from typing import Iterable, Optional

import attrs

from .intervals import ALPHA, Estimate, paired_estimate
from .paired import MIN_PAIRS
from .results_files import win_share

RAISES, LOWERS, UNSURE, FEW, NONE = "raises", "lowers", "unsure", "few", "none"


@attrs.frozen
class CardEffect:
    """What holding `name` from the start changed, over `win.pairs` pairs of games."""

    name: str
    win: Estimate             # the holder's win (0 to 1) with the card less without it
    vp: Estimate              # the holder's final score with the card less without it
    played: int               # pairs in which the holder played the card, in the game with it
    identical: int            # pairs whose two games were the same move for move
    holders: tuple[tuple[str, str, int], ...]   # (seat, bot, pairs) of the seats that held it
    yours: bool = False

    @property
    def pairs(self) -> int:
        return self.win.pairs

    @property
    def verdict_key(self) -> str:
        if self.pairs and self.identical == self.pairs:
            return NONE
        if self.pairs < MIN_PAIRS:
            return FEW
        if self.win.excludes_zero:
            return RAISES if self.win.mean > 0 else LOWERS
        return UNSURE

    @property
    def verdict(self) -> str:
        key = self.verdict_key
        if key == NONE:
            return "changed no game"
        if key == FEW:
            return f"not enough games to say ({self.pairs} pairs; a verdict needs {MIN_PAIRS})"
        text = {RAISES: "raises the win rate", LOWERS: "lowers the win rate", UNSURE: "not enough games to say"}[key]
        if self.vp.excludes_zero:
            text += f" ({'more' if self.vp.mean > 0 else 'fewer'} VP shown)"
        return text


@attrs.frozen
class Effects:
    cards: tuple[CardEffect, ...]      # highest win-rate effect first, then highest VP effect
    compared: int                      # the cards compared: the intervals are corrected for this many
    seats: tuple[tuple[str, str], ...]  # (seat, bot) of the games
    seeds: int                         # seeds with a game without the cards
    incomplete: int                    # pairs left out: one of their games is missing (failed or interrupted)
    baseline: tuple[dict, ...]         # the games without the cards, one per seed, in seed order

    @property
    def holders(self) -> tuple[tuple[str, str, int], ...]:
        """(seat, bot, pairs) of every seat that held a card, over all the cards, in seat order."""
        counts: dict[str, int] = {}
        for card in self.cards:
            for seat, _, pairs in card.holders:
                counts[seat] = counts.get(seat, 0) + pairs
        return tuple((seat, bot, counts[seat]) for seat, bot in self.seats if seat in counts)


def is_experiment(records: Iterable[dict]) -> bool:
    """Whether these are the records of a `simulate --effect` run."""
    return any(isinstance(record.get("effect"), dict) for record in records)


def baseline(records: Iterable[dict]) -> list[dict]:
    """The games without the tested cards (one per seed): the descriptive tables of an experiment are theirs."""
    return [r for r in records if isinstance(r.get("effect"), dict) and r["effect"].get("card") is None]


def outcome(record: dict, seat: str) -> float:
    """The seat's win in one game: its share of the win, or in a solo game whether it met the goal."""
    if "solo_won" in record:
        return 1.0 if record["solo_won"] else 0.0
    return win_share(record, seat)


def _score(record: dict, seat: str) -> int:
    return next(p["total"] for p in record["players"] if p["seat"] == seat)


def effects(records: Iterable[dict], yours: frozenset = frozenset(), alpha: float = ALPHA) -> Effects:
    """The effect of every tested card in `records` (an experiment's, failed games left out)."""
    by_seed: dict[int, dict] = {}
    tested: dict[str, None] = {}
    for record in records:
        effect = record.get("effect")
        if not isinstance(effect, dict) or "players" not in record:
            continue
        by_seed.setdefault(record["seed"], {})[effect["card"]] = record
        tested.update(dict.fromkeys(effect["without"]))
    first = next((game for seed in sorted(by_seed) for game in by_seed[seed].values()), None)
    seats = tuple((p["seat"], p["bot"]) for p in first["players"]) if first else ()
    bots = dict(seats)
    compared = len(tested)
    cards, incomplete = [], 0
    for name in tested:
        wins, points, played, identical, held = [], [], 0, 0, {}
        for seed in sorted(by_seed):
            without, with_card = by_seed[seed].get(None), by_seed[seed].get(name)
            if without is None or with_card is None:
                incomplete += 1
                continue
            holder = with_card["effect"]["holder"]
            wins.append(outcome(with_card, holder) - outcome(without, holder))
            points.append(_score(with_card, holder) - _score(without, holder))
            played += any(p["seat"] == holder and name in p["played"] for p in with_card["players"])
            identical += with_card.get("moves") is not None and with_card.get("moves") == without.get("moves")
            held[holder] = held.get(holder, 0) + 1
        cards.append(CardEffect(
            name, paired_estimate(wins, compared, alpha), paired_estimate(points, compared, alpha), played, identical,
            tuple((seat, bots.get(seat, "?"), held[seat]) for seat, _ in seats if seat in held), name in yours))
    cards.sort(key=lambda c: (-c.win.mean, -c.vp.mean, c.name))
    return Effects(tuple(cards), compared, seats, sum(1 for games in by_seed.values() if None in games), incomplete,
                   tuple(by_seed[seed][None] for seed in sorted(by_seed) if None in by_seed[seed]))


# ------------------------------------------------------------------------------------------------ text and CSV

def _points(value: Optional[float], scale: float = 100.0, places: int = 1) -> str:
    return "–" if value is None else f"{value * scale:+.{places}f}"


def interval_text(estimate: Estimate, scale: float = 100.0, places: int = 1) -> str:
    """`+2.1 to +9.8`, or `–` when there is no interval (fewer than two pairs)."""
    if estimate.low is None:
        return "–"
    return f"{_points(estimate.low, scale, places)} to {_points(estimate.high, scale, places)}"


def holders_text(effects: Effects) -> str:
    """Who held the cards: `each seat in turn: a (greedy), b (random)` or `me (greedy)`."""
    held = effects.holders
    if len(held) == 1 and len(effects.seats) > 1:
        return f"{held[0][0]} ({held[0][1]})"
    return "each seat in turn: " + ", ".join(f"{seat} ({bot})" for seat, bot, _ in held)


def table(effects: Effects) -> str:
    """The effects as `simulate` prints them, a line per card, highest win-rate effect first."""
    star = "*" if effects.compared > 1 else ""
    header = (f"{'card':<28}{'pairs':>6}{'played':>8}{'win rate':>10}{'95% interval' + star:>20}"
              f"{'VP':>8}{'95% interval' + star:>18}  verdict")
    lines = ["what each card changes for the seat that holds it from the start, against the same game without it",
             f"({effects.seeds} seeds; holder: {holders_text(effects)})", header, "-" * len(header)]
    for card in effects.cards:
        played = f"{card.played / card.pairs:.0%}" if card.pairs else "–"
        lines.append(f"{card.name[:27]:<28}{card.pairs:>6}{played:>8}{_points(card.win.mean) + ' pp':>10}"
                     f"{interval_text(card.win) + ' pp':>20}{_points(card.vp.mean, 1):>8}"
                     f"{interval_text(card.vp, 1):>18}  {card.verdict}")
    if effects.compared > 1:
        lines.append(f"* simultaneous 95% intervals for the {effects.compared} cards compared (Bonferroni: each at "
                     f"{100 - 5 / effects.compared:.4g}%)")
    lines.append("played: the pairs in which the holder played the card (a card the bots do not play is measured as "
                 "they use it: sold, or kept)")
    if effects.incomplete:
        lines.append(f"{effects.incomplete} pairs left out: one of their games is missing")
    return "\n".join(lines)


EFFECT_COLUMNS = ("card", "yours", "pairs", "played", "identical", "win_effect", "win_low", "win_high", "vp_effect",
                  "vp_low", "vp_high", "p_value", "p_adjusted", "compared", "verdict", "holders")


def effect_rows(effects: Effects) -> list[dict]:
    """A row per card for pandas: the effects as fractions (win) and points (VP), the interval's ends (empty with
    fewer than two pairs), the p-value of "no effect" and its Bonferroni adjustment, the verdict's key word."""
    return [{"card": c.name, "yours": c.yours, "pairs": c.pairs, "played": c.played, "identical": c.identical,
             "win_effect": c.win.mean, "win_low": c.win.low, "win_high": c.win.high, "vp_effect": c.vp.mean,
             "vp_low": c.vp.low, "vp_high": c.vp.high, "p_value": c.win.p, "p_adjusted": c.win.p_adjusted,
             "compared": effects.compared, "verdict": c.verdict_key,
             "holders": " ".join(f"{seat}={pairs}" for seat, _, pairs in c.holders)} for c in effects.cards]
