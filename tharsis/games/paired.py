"""`tharsis simulate --effect CARD`: what difference a card makes, measured by paired games.

The question is causal ("what does this card change?"), so the experiment holds everything else fixed. For every
seed it plays one game without the tested cards (all of them out of the deck) and, for each tested card, the same
game again with that card in the hand of one seat (the holder) from the start, as if bought in the first research
(its 3 MC buy price is not charged). The two games of a pair share the seed, so they share the shuffle of the
deck (the tested cards are taken out after it: every other card is where it is in the plain game of that seed), the
corporations dealt, the starting cards and the bots' random numbers (seeded from the game's seed and the seat). They
are therefore the same game, move for move, until the card makes a difference: until the holder can play it, sell it
or weighs it in a choice. The difference between the holder's result in the two games is the card's effect in that
deal, and its mean over the seeds is the card's effect (tharsis/games/effects.py, with its interval).

Why not the card in the deck against the card out of it: a card in the deck reaches one player in a fraction of
the games (whoever draws it, if anyone buys it), so most pairs would say nothing, and the effect of the card would
be mixed with who drew it. Handing it to a seat measures it in every pair, on a known player.

The holder is each seat in turn (pair k: seat k mod the number of seats), so the effect is that of an average seat,
first player or last, and of each seat's bot in proportion; `--holder SEAT` fixes it. The games without the cards
are shared by every tested card of a seed: n seeds and m cards are n * (m + 1) games, 2n for one card. Each record
says its part in the experiment under `effect` (`holder`, `card`: the card handed or null, `without`: the cards out
of the deck) and `moves`, a digest of its choices, so two games of a pair can be seen to be identical.
"""

from __future__ import annotations

import hashlib
from typing import Iterator, Optional, Sequence

import attrs

from tharsis.runtime.api.game import Game, GameOptions

MIN_PAIRS = 30   # below this many pairs a t interval of differences between -1 and 1 is not to be trusted


@attrs.frozen
class Plan:
    """The experiment: the cards to measure, and the seat that holds them (None: each seat in turn)."""

    cards: tuple[str, ...]
    holder: Optional[str] = None

    def games(self, pairs: int) -> int:
        """How many games `pairs` seeds take: one without the cards, and one with each card."""
        return pairs * (len(self.cards) + 1)

    def holder_of(self, pair: int, seats: Sequence[str]) -> str:
        return self.holder if self.holder is not None else seats[pair % len(seats)]

    def tasks(self, options: GameOptions, seats: list[tuple[str, str]], pairs: int) -> Iterator[tuple]:
        """The tasks of `records.play_one` in play order: for every seed the game without the cards, then the game
        with each card."""
        names = [name for name, _ in seats]
        for pair in range(pairs):
            game = attrs.evolve(options, seed=options.seed + pair).to_json()
            holder = self.holder_of(pair, names)
            for card in (None, *self.cards):
                yield game, seats, {"holder": holder, "card": card, "without": list(self.cards)}


class HandedGame(Game):
    """A game of the experiment: the project deck without the cards `without`, and the card `card` (if any) in the
    hand of the seat `holder` before the first question (they see it when they choose their corporation)."""

    def __init__(self, options: GameOptions, library, *, without: Sequence[str], holder: int,
                 card: Optional[str]):
        self._without = frozenset(without)
        self._holder, self._card = holder, card
        super().__init__(options, library)

    def project_deck(self) -> list[str]:
        """The deck shuffled whole as in any game of this seed, then the tested cards taken out: every other card
        keeps its place, and the random numbers drawn are the same in both games of a pair. The set-up builds the
        deck once, before dealing anything, which is when the holder gets the card."""
        deck = [name for name in super().project_deck() if name not in self._without]
        if self._card is not None:
            self.state.players[self._holder].hand.append(self._card)
            self._card = None
        return deck


def moves_digest(game: Game) -> str:
    """A short digest of every choice of a game: equal for two games that were the same move for move."""
    return hashlib.sha256("\n".join(game.log).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def check_plan(cards: Sequence[str], holder: Optional[str], pairs: int, game: Game, seats: Sequence[str]) -> Plan:
    """The experiment the flags ask for, or ProblemError (exit 2) with every problem: too few or too many games
    (E701), a --holder that is no seat (E702) or without --effect (E706), a name that is no card (E707, with a
    did-you-mean), a definition that is not a project card of these games' deck (E764). `game` is the first game,
    built but not started: its deck is the one the experiment takes the cards out of."""
    from tharsis.problems import USAGE, Problem, ProblemError, suggest

    from .options import GAMES

    if not cards:
        if holder is not None:
            raise ProblemError([Problem("E706", f"--holder {holder}: the holder of a card is a seat of the card-effect "
                                                "experiment, and no --effect CARD is given",
                                        "add --effect CARD, or drop --holder")], USAGE)
        return Plan(())
    problems = []
    names = tuple(dict.fromkeys(cards))
    if pairs < MIN_PAIRS:
        problems.append(Problem("E701", f"--games {pairs} with --effect: a card's effect needs at least {MIN_PAIRS} "
                                        "pairs of games (--games is the number of pairs, each a seed played with and "
                                        "without the card)",
                                f"--games {MIN_PAIRS} or more; a few hundred to see an effect of a few points"))
    elif Plan(names).games(pairs) > GAMES[1]:
        problems.append(Problem("E701", f"--games {pairs} with {len(names)} --effect cards is "
                                        f"{Plan(names).games(pairs):,} games; a run plays at most {GAMES[1]:,}",
                                "fewer pairs, or fewer cards a run"))
    if holder is not None and holder not in seats:
        problems.append(Problem("E702", f"--holder {holder}: there is no seat {holder!r}",
                                suggest(holder, seats, "seats")))
    deck = set(game.state.deck)
    projects = sorted(d.name for d in game.library.values() if d.kind == "card"
                      and d.type not in game.elements.card_kinds)
    for name in names:
        problem = _not_a_card_of_the_deck(name, game, deck, projects)
        if problem is not None:
            problems.append(problem)
    if problems:
        raise ProblemError(problems, USAGE)
    return Plan(names, holder)


def _not_a_card_of_the_deck(name: str, game: Game, deck: set, projects: list[str]):
    """E707 for a name that is no definition, E764 for one that is not a project card these games deal."""
    from tharsis.problems import Problem, suggest

    if name in deck:
        return None
    definition = game.library.get(name) or next((d for d in game.content.definitions if d.name == name), None)
    if definition is None:
        return Problem("E707", f"--effect {name}: no card is called {name!r}",
                       suggest(name, sorted(deck) or projects) or "a card of your own is known once its folder is "
                       "loaded: add --cards DIR, or list it under [tool.tharsis] cards in pyproject.toml")
    if definition.kind != "card":
        kind = definition.kind.replace("_", " ")
        return Problem("E764", f"--effect {name}: {name} is a {kind}, not a project card: the experiment hands a "
                               "project card to a seat", "a corporation's win rate: --corporation SEAT=NAME "
                                                         "--track NAME" if kind == "corporation" else None)
    if definition.type in game.elements.card_kinds:
        return Problem("E764", f"--effect {name}: {name} is a {definition.type} (a kind of card dealt apart from the "
                               "project deck), not a project card: the experiment hands a project card to a seat")
    expansions = {d.name for d in game.content.of_kind("expansion")}
    missing = [f"--expansion {e}" for e in sorted(({definition.set} | set(definition.needs)) & expansions
                                                   - set(game.options.expansions))]
    if "corpera" in {definition.set, *definition.needs}:
        missing.append("--corporate-era")
    return Problem("E764", f"--effect {name}: these games do not deal {name} (a card of the "
                           f"{definition.set} set)", f"add {' '.join(missing)}" if missing else None)
