"""The balance of a simulation: what a designer asks of many bot games, computed from the records simulate wrote.

Win rates with their 95 % Wilson intervals per seat and per corporation; for every card that was played its play
rate (the share of games in which someone played it), its win rate when played (the share of the players who
played it who won) with its interval, the mean VP it scored by the end and the mean generation in which it was
played; the distributions of final scores and of game lengths. Only the records are read (tharsis/games/records.py
`play_one`), so the numbers are the ones the JSONL and CSV hold. The designer's own cards and corporations (those
of the `--cards` folders, not the bundled ones) are marked, so the report (tharsis/games/report.py) can highlight them.
Every card and corporation also counts the bots of the players who played it: where the seats are played by
different bots, a card's win rate when played says as much about those bots as about the card, and the report then
says whose plays they were and draws no verdict (the card's own effect is `simulate --effect`'s,
tharsis/games/effects.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional

import attrs

from tharsis.compiler import bundled_cards_path
from tharsis.games.results_files import win_share
from tharsis.games.simulate import wilson


@attrs.frozen
class Yours:
    """The designer's own cards and corporations (from `--cards` folders): those the games could deal (their set
    was in play), and those they could not (a set of an expansion not chosen), which no game can have played."""

    cards: frozenset[str] = frozenset()
    corporations: frozenset[str] = frozenset()
    outside: frozenset[str] = frozenset()

    def __contains__(self, name: str) -> bool:
        return name in self.cards or name in self.corporations


def designer_content(game) -> Yours:
    """Which definitions of `game`'s library come from outside the bundled cards, and which of them its sets deal."""
    bundled = bundled_cards_path().resolve()
    sets = game.sets_in_play()
    cards, corporations, outside = set(), set(), set()
    for definition in game.library.values():
        if definition.kind not in ("card", "corporation"):
            continue
        path = Path(definition.source.path).resolve()
        if path == bundled or bundled in path.parents:
            continue
        if definition.set not in sets:
            outside.add(definition.name)
        else:
            (corporations if definition.kind == "corporation" else cards).add(definition.name)
    return Yours(frozenset(cards), frozenset(corporations), frozenset(outside))


def designer_content_of(record: dict, card_paths: Optional[list[str]]) -> tuple[Yours, list]:
    """The designer's cards of the games `record` is one of (`tharsis report`), and warnings: of the `card_paths`
    folders (--cards) or, without them, of the folders the games were played with that are still here (W763 for
    each that is not). The sets in play come from the record's options, so a card of an expansion the games did
    not deal is told apart as `designer_content` does it. ProblemError: E705 for a --cards folder that is not
    there, E715 for cards that do not compile or options they cannot play."""
    from tharsis.problems import CONTENT, USAGE, Problem, ProblemError, missing_path
    from tharsis.runtime.api.game import ContentError, Game, GameOptions, load_library

    warnings: list[Problem] = []
    if card_paths is None:
        card_paths = []
        for folder in record["options"].get("card_paths") or []:
            if isinstance(folder, str) and missing_path("--cards", folder) is None:
                card_paths.append(folder)
            else:
                warnings.append(Problem("W763", f"the card folder {folder} the games were played with is not here: "
                                                "its cards are not highlighted", "give it with --cards DIR"))
    else:
        refused = [p for p in (missing_path("--cards", folder) for folder in card_paths) if p is not None]
        if refused:
            raise ProblemError(refused, USAGE)
    if not card_paths:
        return Yours(), warnings
    played_with = {key: record["options"][key] for key in ("corporate_era", "solo_tr63", "beginner", "expansions")
                   if key in record["options"]}
    try:
        options = GameOptions.from_json({**played_with, "players": [p["seat"] for p in record["players"]],
                                         "board": record["board"],
                                         "card_paths": [str(Path(folder).resolve()) for folder in card_paths]})
        game = Game(options, load_library(options.card_paths), start=False)
    except ContentError as exc:
        raise ProblemError([Problem("E715", "the designer's cards do not compile", "fix them: tharsis check DIR")],
                           CONTENT, str(exc)) from None
    except (ValueError, TypeError) as exc:   # an expansion or a board these cards do not declare
        raise ProblemError([Problem("E715", f"the games' options cannot be played with these cards: {exc}",
                                    "give the card folders the games were played with (--cards DIR)")],
                           CONTENT) from None
    return designer_content(game), warnings


@attrs.frozen
class Rate:
    """How often `name` (a seat, a corporation) won: `wins` of `games` player-games, with the 95 % interval."""

    name: str
    games: int
    wins: float                    # a full tie gives each of its N seats 1/N of a win
    yours: bool = False
    bots: tuple[tuple[str, int], ...] = ()   # (bot, players) of the players counted, most first

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


@attrs.frozen
class CardBalance:
    """One card over the games: `plays` players played it (a deck has one copy, so at most one a game)."""

    name: str
    plays: int
    wins: float                    # a full tie gives each of its N seats 1/N of a win
    games: int                       # all the games of the run, the play rate's denominator
    vp: float                        # mean VP it scored at the end of the games it was played in
    generation: Optional[float]      # mean generation it was played in (None: records without it)
    yours: bool = False
    bots: tuple[tuple[str, int], ...] = ()   # (bot, plays) of the players who played it, most first

    @property
    def play_rate(self) -> float:
        return self.plays / self.games if self.games else 0.0

    @property
    def rate(self) -> float:
        return self.wins / self.plays if self.plays else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.plays)


@attrs.frozen
class Balance:
    games: int
    seats: tuple[Rate, ...]                          # in seat order
    bots: tuple[str, ...]                            # each seat's bot
    scores: tuple[tuple[int, ...], ...]              # each seat's final score in every game
    generations: tuple[int, ...]                     # every game's length in generations
    corporations: tuple[Rate, ...]                   # highest win rate first
    cards: tuple[CardBalance, ...]                   # highest win rate when played first
    average: float                                   # the average player's win rate: wins / player-games
    never_played: tuple[str, ...]                    # the designer's cards and corporations no game played
    outside: tuple[str, ...]                         # the designer's cards of sets these games did not deal
    ties: int                                        # games the megacredits tie-break decided
    solo_won: Optional[int]                          # solo games won (None: not solo)
    first_seed: Optional[int]
    last_seed: Optional[int]

    @property
    def mixed_bots(self) -> bool:
        """Whether the seats are played by different bots: then a win rate when played is no verdict on a card."""
        return len(set(self.bots)) > 1


def _by_rate(item) -> tuple:
    """Highest rate first; among equal rates the better known (more games) first, then by name."""
    return (-item.rate, -(item.games if isinstance(item, Rate) else item.plays), item.name)


def _count(wins: float):
    """Wins as shown: a whole number, or to two places when a tie split one (`12.5`, `3.33`)."""
    return int(wins) if wins == int(wins) else round(wins, 2)


def _most_first(counts: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def balance(records: Iterable[dict], yours: Yours = Yours()) -> Balance:
    """The balance of the games `records` (simulate's records, one per game, all with the same seats)."""
    records = list(records)
    games = len(records)
    seats = [p["seat"] for p in records[0]["players"]] if records else []
    bots = [p["bot"] for p in records[0]["players"]] if records else []
    seat_wins = {seat: 0 for seat in seats}
    scores: dict[str, list[int]] = {seat: [] for seat in seats}
    corporations: dict[str, list[int]] = {}
    cards: dict[str, dict] = {}
    player_games = wins = 0
    for record in records:
        for player in record["players"]:
            won = win_share(record, player["seat"])
            player_games += 1
            wins += won
            seat_wins[player["seat"]] += won
            scores[player["seat"]].append(player["total"])
            entry = corporations.setdefault(player["corporation"], [0, 0, {}])
            entry[0] += 1
            entry[1] += won
            entry[2][player["bot"]] = entry[2].get(player["bot"], 0) + 1
            generations = player.get("played_generation", {})
            points = player.get("card_vp", {})
            for name in player["played"]:
                card = cards.setdefault(name, {"plays": 0, "wins": 0, "vp": 0, "generation": 0, "known": 0,
                                               "bots": {}})
                card["plays"] += 1
                card["bots"][player["bot"]] = card["bots"].get(player["bot"], 0) + 1
                card["wins"] += won
                card["vp"] += points.get(name, 0)
                if name in generations:
                    card["generation"] += generations[name]
                    card["known"] += 1
    played = set(cards) | set(corporations)
    return Balance(
        games=games,
        seats=tuple(Rate(seat, games, _count(seat_wins[seat])) for seat in seats),
        bots=tuple(bots),
        scores=tuple(tuple(scores[seat]) for seat in seats),
        generations=tuple(r["generations"] for r in records),
        corporations=tuple(sorted((Rate(name, n, _count(w), name in yours, _most_first(bots))
                                   for name, (n, w, bots) in corporations.items()), key=_by_rate)),
        cards=tuple(sorted((CardBalance(name, c["plays"], _count(c["wins"]), games, c["vp"] / c["plays"],
                                        c["generation"] / c["known"] if c["known"] else None, name in yours,
                                        _most_first(c["bots"]))
                            for name, c in cards.items()), key=_by_rate)),
        average=wins / player_games if player_games else 0.0,
        never_played=tuple(sorted((yours.cards | yours.corporations) - played)),
        outside=tuple(sorted(yours.outside)),
        ties=sum(1 for r in records if r["tie_break"]),
        solo_won=sum(1 for r in records if r["solo_won"]) if records and "solo_won" in records[0] else None,
        first_seed=min((r["seed"] for r in records), default=None),
        last_seed=max((r["seed"] for r in records), default=None),
    )
