"""The game: setup, generations, the end, and the decision API (`pending`, `apply`, `clone`, save and replay).

The whole game is one generator (`_play`) that yields a `Decision` whenever a player must choose; `apply`
validates a choice against the listed options and resumes it. Illegal choices raise `IllegalChoice` before
anything changes. A decision with a single option is answered automatically and not logged.

Determinism: every shuffle and draw uses one `random.Random(seed)`, so (options, log of choices) fixes the
game. Saving writes exactly that; loading and cloning replay it.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Optional

import attrs

from tharsis.compiler.definitions import Library

from .actions import ActionsMixin
from .board import board_map
from .decisions import Decision, IllegalChoice, Option
from .effects import Context, EffectsMixin
from .payment import CARD_PRICE, PaymentMixin
from .scoring import final_scores
from .state import RESOURCES, NEUTRAL, CardInPlay, GameState, PlayerState
from .tiles import TilesMixin
from .triggers import TriggersMixin

SAVE_FORMAT = 1
STARTING_TR, SOLO_TR = 20, 14
SOLO_GENERATIONS = 14
STARTING_CARDS, STARTING_CORPORATIONS, RESEARCH_CARDS = 10, 2, 4


@attrs.frozen
class GameOptions:
    players: tuple[str, ...] = ("alice", "bob")
    seed: int = 0
    board: str = "Tharsis"
    corporate_era: bool = False
    draft: bool = False
    initial_draft: bool = False
    beginner: bool = False
    solo_tr63: bool = False
    card_paths: tuple[str, ...] = ()
    max_generations: Optional[int] = None   # a safety stop for simulations; None follows the rules
    corporations: tuple[str, ...] = ()      # per seat, a corporation to play instead of a dealt choice ("" = deal)

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    def to_json(self) -> dict:
        return attrs.asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> "GameOptions":
        data = dict(data)
        for key in ("players", "card_paths", "corporations"):
            data[key] = tuple(data.get(key, ()))
        return cls(**data)


class ContentError(Exception):
    """The card content does not compile; the message lists the errors."""


def load_library(card_paths: tuple[str, ...] = ()) -> Library:
    """The bundled content plus designers' folders, compiled once per process while their files are unchanged."""
    return _load_library(tuple(card_paths), _fingerprint(card_paths))


def _fingerprint(card_paths: tuple[str, ...]) -> tuple:
    files = []
    for folder in card_paths:
        path = Path(folder)
        for file in ([path] if path.is_file() else sorted(path.rglob("*.mars"))):
            try:
                stat = file.stat()
            except OSError:
                continue
            files.append((str(file), stat.st_mtime_ns, stat.st_size))
    return tuple(files)


@lru_cache(maxsize=8)
def _load_library(card_paths: tuple[str, ...], fingerprint: tuple) -> Library:
    from tharsis.compiler import bundled_cards_path, compile_paths
    from tharsis.compiler.diagnostics import render_text

    result = compile_paths([bundled_cards_path(), *map(Path, card_paths)])
    if result.errors:
        raise ContentError(render_text(result.errors, result.sources))
    return result.library


class Game(PaymentMixin, TilesMixin, EffectsMixin, TriggersMixin, ActionsMixin):
    def __init__(self, options: GameOptions, library: Optional[Library] = None, *, start: bool = True):
        """`start=False` builds the board, players and a shuffled deck but runs no setup: a sandbox in which
        tests and scenarios arrange a state by hand and then take actions (see tharsis/scenarios.py)."""
        if not 1 <= len(options.players) <= 5:
            raise ValueError("a game has 1 to 5 players")
        self.options = options
        self.content = library or load_library(tuple(options.card_paths))
        self.library = {d.name: d for d in self.content.definitions if d.kind in ("card", "corporation")}
        self.standard_projects = {d.name: d for d in self.content.of_kind("standard_project")
                                  if d.variant is None or self.variant_on(d.variant)}
        self.standard_actions = {d.name: d for d in self.content.of_kind("standard_action")
                                 if d.variant is None or self.variant_on(d.variant)}
        boards = {d.name.lower(): d for d in self.content.of_kind("board")}
        if options.board.lower() not in boards:
            raise ValueError(f"unknown board {options.board!r}; boards: {', '.join(sorted(boards))}")
        board = boards[options.board.lower()]
        self.board = board_map(board)
        named = {d.name: d for d in self.content.definitions if d.kind in ("milestone", "award")}
        self.milestones = {} if options.solo else {n: named[n] for n in board.milestones}
        self.awards = {} if options.solo else {n: named[n] for n in board.awards}
        self.rng = random.Random(options.seed)
        solo = options.solo
        self.state = GameState(board=board.name, players=[
            PlayerState(name=name, index=i, tr=SOLO_TR if solo else STARTING_TR) for i, name in
            enumerate(options.players)])
        self.log: list[str] = []
        self.events: list[str] = []
        self.result: Optional[dict] = None
        self._playing: Optional[tuple[int, str]] = None
        self._no_oxygen = False
        self._passives: dict[int, tuple] = {}  # see PaymentMixin.passives
        self._pending: Optional[Decision] = None
        if start:
            self._flow = self._play()
            self._advance(None)
        else:
            self._flow = iter(())
            self.state.deck = self._project_deck()
            self.state.phase = "action"
            for player in self.state.players:
                player.starting_production = 0 if (options.corporate_era or options.solo) else 1

    # ------------------------------------------------------------------ the decision API

    def pending(self) -> Optional[Decision]:
        """The decision the game waits for, or None when the game is over."""
        return self._pending

    @property
    def over(self) -> bool:
        return self._pending is None

    def apply(self, choice) -> "Game":
        """Answer the pending decision with an option (its index, its label or the Option itself)."""
        decision = self._pending
        if decision is None:
            raise IllegalChoice("the game is over")
        option = decision.find(choice)
        if option is None:
            shown = ", ".join(decision.labels(12)) + (", ..." if len(decision.options) > 12 else "")
            raise IllegalChoice(f"{choice!r} is not a legal choice for {self.state.players[decision.player].name} "
                                f"({decision.prompt}); legal: {shown}")
        self.log.append(option.label)
        self._advance(option)
        return self

    def _advance(self, option: Optional[Option]) -> None:
        try:
            decision = self._flow.send(option) if option is not None else next(self._flow)
            while len(decision.options) == 1:
                decision = self._flow.send(decision.options[0])
        except StopIteration:
            decision = None
        self._pending = decision

    def clone(self) -> "Game":
        return Game.replay(self.options, self.log, self.content)

    @classmethod
    def replay(cls, options: GameOptions, log: list[str], library: Optional[Library] = None) -> "Game":
        game = cls(options, library)
        for label in log:
            game.apply(label)
        return game

    def to_json(self) -> str:
        return json.dumps({"format": SAVE_FORMAT, "options": self.options.to_json(), "log": self.log,
                           "state": self.snapshot()}, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str, library: Optional[Library] = None) -> "Game":
        data = json.loads(text)
        if data.get("format") != SAVE_FORMAT:
            raise ValueError(f"unsupported save format {data.get('format')!r}")
        game = cls.replay(GameOptions.from_json(data["options"]), data["log"], library)
        if "state" in data and game.snapshot() != data["state"]:
            raise ValueError("the saved log does not reproduce the saved state (was the content changed?)")
        return game

    def snapshot(self) -> dict:
        """The full state as plain data (for saves, comparisons and tools)."""
        return json.loads(json.dumps(attrs.asdict(self.state, recurse=True), default=list))

    # ------------------------------------------------------------------ helpers used by the rules

    def variant_on(self, variant: str) -> bool:
        o = self.options
        return {"solo": o.solo, "solo_tr63": o.solo and o.solo_tr63, "corporate_era": o.corporate_era,
                "draft": o.draft, "beginner": o.beginner}.get(variant, False)

    def reseed(self, seed: int) -> None:
        """Replace the source of future shuffles (search determinises what a player cannot foresee)."""
        self.rng = random.Random(seed)

    def log_event(self, message: str) -> None:
        self.events.append(f"gen {self.state.generation}: {message}")

    def take_from_deck(self, count: int) -> list[str]:
        state = self.state
        taken = []
        for _ in range(count):
            if not state.deck:
                if not state.discard:
                    break
                state.deck, state.discard = state.discard, []
                self.rng.shuffle(state.deck)
            taken.append(state.deck.pop())
        return taken

    def draw(self, player: int, count: int) -> None:
        self.state.players[player].hand.extend(self.take_from_deck(count))

    def card_price(self, player: int) -> int:
        return CARD_PRICE

    def offer_card(self, player: int, name: str, price: int) -> Iterator:
        """Generator: buy `name` for `price` (a decision when affordable), else it is discarded."""
        state = self.state.players[player]
        if price == 0:
            state.hand.append(name)
            return
        if self.can_pay(player, price):
            choice = yield Decision(player, "buy", f"Buy {name} for {price} MC?",
                                    (Option(f"buy {name}", True), Option(f"discard {name}", False)))
            if choice.value:
                yield from self.pay(player, price, (), f"buying {name}")
                state.hand.append(name)
                return
        self.state.discard.append(name)

    def turn_order(self) -> list[int]:
        count = len(self.state.players)
        return [(self.state.first_player + i) % count for i in range(count)]

    # ------------------------------------------------------------------ the flow of a game

    def _play(self) -> Iterator:
        state = self.state
        yield from self._setup()
        while True:
            if state.generation > 1:
                if not self.options.solo:
                    state.first_player = (state.first_player + 1) % len(state.players)
                state.phase = "research"
                yield from self._research()
            state.phase = "action"
            yield from self._action_phase()
            state.phase = "production"
            yield from self._production()
            if self._ends():
                break
            state.generation += 1
        state.phase = "final greenery"
        yield from self._final_greenery()
        state.phase = "end"
        state.over = True
        self.result = final_scores(self)

    def _ends(self) -> bool:
        if self.options.solo:
            return self.state.generation >= SOLO_GENERATIONS
        limit = self.options.max_generations
        return self.terraformed() or (limit is not None and self.state.generation >= limit)

    def sets_in_play(self) -> set[str]:
        """Base always, Corporate Era when on (and in solo), every designer's own set always."""
        sets = {"base"} | ({"corpera"} if self.options.corporate_era or self.options.solo else set())
        return sets | {d.set for d in self.library.values() if d.set not in ("base", "corpera")}

    def _project_deck(self) -> list[str]:
        sets = self.sets_in_play()
        cards = sorted(d.name for d in self.library.values() if d.kind == "card" and d.set in sets)
        self.rng.shuffle(cards)
        return cards

    def _setup(self) -> Iterator:
        o, state = self.options, self.state
        sets = self.sets_in_play()
        state.deck = self._project_deck()
        corporations = sorted(d.name for d in self.library.values()
                              if d.kind == "corporation" and d.set in sets and d.variant is None)
        beginner = [d.name for d in self.library.values() if d.kind == "corporation" and d.variant == "beginner"]
        self.rng.shuffle(corporations)
        base_production = 0 if (o.corporate_era or o.solo) else 1
        for player in state.players:
            player.starting_production = base_production
            player.production = {r: base_production for r in RESOURCES}
        fixed = dict(enumerate(o.corporations))
        for name in fixed.values():
            if name and name not in self.library:
                raise ValueError(f"unknown corporation {name!r}")
        corporations = [c for c in corporations if c not in fixed.values()]
        dealt_corporations = []
        for index, _ in enumerate(state.players):
            if fixed.get(index):
                dealt_corporations.append([fixed[index]])
            elif o.beginner and beginner:
                dealt_corporations.append(beginner[:1])
            else:
                dealt_corporations.append([corporations.pop() for _ in range(STARTING_CORPORATIONS)])
        dealt_cards = [self.take_from_deck(STARTING_CARDS) for _ in state.players]
        if o.initial_draft and len(state.players) > 1:
            dealt_cards = yield from self._draft(dealt_cards, direction=1)
        chosen = []
        for index in self.turn_order():
            choice = yield Decision(index, "corporation", "Choose your corporation",
                                    tuple(Option(f"corporation {c}", c) for c in dealt_corporations[index]))
            chosen.append((index, choice.value))
        for index, name in sorted(chosen):
            for other in dealt_corporations[index]:
                if other != name:
                    self.log_event(f"{state.players[index].name} sets aside {other}")
        for index, name in sorted(chosen, key=lambda item: self.turn_order().index(item[0])):
            yield from self._start_corporation(index, name)
        if o.solo:
            yield from self._neutral_cities()
        for index in self.turn_order():
            price = self.starting_card_price(index)
            for name in dealt_cards[index]:
                yield from self.offer_card(index, name, price)
        state.phase = "action"

    def _start_corporation(self, index: int, name: str) -> Iterator:
        player = self.state.players[index]
        corporation = self.library[name]
        player.corporation = name
        player.resources["megacredits"] += corporation.starting_megacredits
        player.played.insert(0, CardInPlay(name))
        player.first_action_done = not corporation.first_action
        self.log_event(f"{player.name} starts with {name}")
        self._playing = (index, name)
        try:
            yield from self.run(corporation.play, Context(index, card=name))
            yield from self.fire("play", index, card=name)
        finally:
            self._playing = None

    def _neutral_cities(self) -> Iterator:
        """Solo setup: two neutral cities, each with a neutral greenery, placed by counting discarded card costs."""
        revealed = self.take_from_deck(4)
        self.state.discard.extend(revealed)
        # a deck too small to reveal 4 cards (designers' sets): a missing card counts as cost 0, the first space
        costs = [self.library[name].cost for name in revealed] + [0] * (4 - len(revealed))
        mars = [s.id for s in self.board.mars]
        for city_cost, greenery_cost, order in ((costs[0], costs[1], mars), (costs[2], costs[3], mars[::-1])):
            free = [s for s in order if s not in self.state.tiles]
            if not free:
                break
            city = free[(max(city_cost, 1) - 1) % len(free)]
            yield from self.put_tile(NEUTRAL, city, "city", neutral=True)
            around = [s for s in self.board.clockwise[city] if s is not None and s not in self.state.tiles]
            if around:
                greenery = around[(max(greenery_cost, 1) - 1) % len(around)]
                yield from self.put_tile(NEUTRAL, greenery, "greenery", neutral=True)
            yield from self.fire("place", NEUTRAL, tile="city", space=city, is_city=True)
            self.log_event(f"a neutral city is placed on {city}")

    def _draft(self, packs: list[list[str]], direction: int) -> Iterator:
        count = len(packs)
        kept: list[list[str]] = [[] for _ in range(count)]
        while any(packs):
            for index in range(count):
                if not packs[index]:
                    continue
                choice = yield Decision(index, "draft", "Draft a card (keep one, pass the rest)",
                                        tuple(Option(f"draft {n}", n) for n in dict.fromkeys(packs[index])))
                packs[index].remove(choice.value)
                kept[index].append(choice.value)
            packs = [packs[(i - direction) % count] for i in range(count)]
        return kept

    def _research(self) -> Iterator:
        state = self.state
        packs = [self.take_from_deck(RESEARCH_CARDS) for _ in state.players]
        if self.options.draft and len(state.players) > 1:
            packs = yield from self._draft(packs, direction=1 if state.generation % 2 == 0 else -1)
        for index in self.turn_order():
            for name in packs[index]:
                yield from self.offer_card(index, name, self.card_price(index))

    def _action_phase(self) -> Iterator:
        state = self.state
        for player in state.players:
            player.passed = False
        while not all(p.passed for p in state.players):
            for index in self.turn_order():
                if not state.players[index].passed:
                    yield from self._turn(index)

    def _turn(self, index: int) -> Iterator:
        player = self.state.players[index]
        for number in (1, 2):
            options = self.action_options(index, first=number == 1)
            choice = yield Decision(index, "action", f"action {number} of 2", tuple(options))
            if choice.value == ("pass",):
                player.passed = True
                self.log_event(f"{player.name} passes")
                return
            if choice.value == ("end",):
                return
            yield from self.take_action(index, choice.value)

    def _production(self) -> Iterator:
        """Generator: `when you produce` triggers (in turn order), then every player produces at once."""
        for index in self.turn_order():
            yield from self.fire("production", index)
        for player in self.state.players:
            stock, production = player.resources, player.production
            stock["heat"] += stock["energy"]
            stock["energy"] = 0
            stock["megacredits"] += player.tr + production["megacredits"]
            for resource in RESOURCES[1:]:
                stock[resource] += production[resource]
            for card in player.played:
                card.used = False
            player.tr_raised_this_generation = 0
            player.next_card_modifiers = []

    def _final_greenery(self) -> Iterator:
        conversions = {n: a for n, a in self.standard_actions.items()
                       if any(getattr(e, "tile", None) == "greenery" for e in a.play)}
        self._no_oxygen = self.options.solo
        for index in self.turn_order():
            while True:
                options = [Option(f"convert {n}", n) for n, a in conversions.items()
                           if self.standard_action_possible(index, a)]
                if not options:
                    break
                choice = yield Decision(index, "final", "Convert plants into a greenery?",
                                        tuple(options) + (Option("done", None),))
                if choice.value is None:
                    break
                yield from self.take_action(index, ("convert", choice.value))
