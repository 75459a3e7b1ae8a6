"""The game: its options, its state and the decision API (`pending`, `apply`, `clone`, save, load and replay).

Where the game stands is data (runtime/core/flow.py): a stack of steps, the question being asked, the RNG state (an
int). `apply` checks only the chosen option (runtime/core/decisions.py), resumes the question's step and runs the flow
to the next question. Illegal choices raise `IllegalChoice` before anything changes. A question with a single
option is answered automatically and not logged.

`clone()` copies the state and the stack (frames are immutable and shared), never replays. A save holds the
options, the log of choices and the exact state and flow (runtime/api/saves.py); loading restores them directly, and
`from_json(..., verify=True)` also replays the log and checks that it reproduces the saved state.
Determinism: every shuffle and draw uses the game's RNG state, so (options, log of choices) fixes the game.

`Game` is a `Table` (runtime/core/table.py: the tables, the state, the flow, the logs and the services the rules
call, such as drawing a card or logging an event) with this decision API on top, and knows nothing of the rules:
those are module-level functions taking the game first, in the layers below (runtime/sequence/, handlers/, rules/).
Here a game is built (its tables from the content and the options, once per process) and started.
"""

from __future__ import annotations

import json
import numbers
import operator
from functools import lru_cache
from pathlib import Path
from typing import Optional

import attrs

from tharsis.compiler.definitions import Board, Library, Space
from tharsis.compiler.effects import (
    CardPrice,
    Discount,
    KeepEnergy,
    KeptPlayable,
    LookPlay,
    MoveCard,
    ResearchDeal,
    SkipTr,
    Substitute,
    Tax,
    TileBan,
    is_effect,
    walk,
)
from tharsis.compiler.vocabulary import GLOBAL_RANGES, GREENERY_TILES

from ..core import flow as flow_steps, rng
from ..core.board import board_map
from ..core.decisions import Decision, IllegalChoice, Option
from ..core.flow import EndlessGame, Flow, Step
from ..core.state import ACTION, MAX_PLAYERS, MIN_PLAYERS, GameData, History, PlayerState
from ..core.table import Table
from ..handlers.politics import set_up as set_up_government
from ..handlers.sites import set_up as set_up_sites
from ..handlers.triggers import events_with_triggers
from ..rules.legality import fixed_candidates
from ..sequence.phases import SOLO_GENERATIONS, game_ends, start_game

__all__ = ["SAVE_FORMAT", "ContentError", "EndlessGame", "Game", "GameOptions", "load_library"]

SAVE_FORMAT = 1
STARTING_TR, SOLO_TR = 20, 14


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
    expansions: tuple[str, ...] = ()        # declared expansions in play (`expansion "NAME" { }` in card text)
    sites: tuple[str, ...] = ()             # declared sites to play with instead of those dealt at random

    def __attrs_post_init__(self) -> None:
        """Options of the wrong type are a ValueError that says which, not an AttributeError deep in the deal
        (docs/api.md): a seed is any integer (numpy's too, never a bool: `None` would not repeat), names are
        strings, `max_generations` is None (the rules decide) or at least 1."""
        if not isinstance(self.seed, numbers.Integral) or isinstance(self.seed, bool):
            raise ValueError(f"seed {self.seed!r} is not an integer")
        object.__setattr__(self, "seed", operator.index(self.seed))
        for key in ("players", "card_paths", "corporations", "expansions", "sites"):
            value = getattr(self, key)
            if not isinstance(value, tuple) or not all(isinstance(item, str) for item in value):
                raise ValueError(f"{key} {_shown(value)} is not a tuple of strings")
        if not isinstance(self.board, str):
            raise ValueError(f"board {_shown(self.board)} is not a string")
        for key in ("corporate_era", "draft", "initial_draft", "beginner", "solo_tr63"):
            if not isinstance(getattr(self, key), bool):
                raise ValueError(f"{key} {_shown(getattr(self, key))} is not True or False")
        limit = self.max_generations
        if limit is not None and (not isinstance(limit, numbers.Integral) or isinstance(limit, bool) or limit < 1):
            raise ValueError(f"max_generations {_shown(limit)} is not None (the rules decide) or a number of "
                             "generations from 1")

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    def to_json(self) -> dict:
        data = attrs.asdict(self)
        for key in ("expansions", "sites"):
            if not data[key]:  # saves and logs of games without expansions read exactly as before
                del data[key]
        return data

    @classmethod
    def from_json(cls, data: dict) -> "GameOptions":
        """The options of a save, or ValueError saying what is wrong with them."""
        if not isinstance(data, dict):
            raise ValueError(f"the options are {_shown(data)}, not an object")
        unknown = sorted(set(data) - {field.name for field in attrs.fields(cls)})
        if unknown:
            raise ValueError(f"unknown options: {', '.join(map(_shown, unknown))}")
        data = dict(data)
        for key in ("players", "card_paths", "corporations", "expansions", "sites"):
            if not isinstance(data.get(key, ()), (list, tuple)):
                raise ValueError(f"options.{key} is {_shown(data[key])}, not a list of strings")
            data[key] = tuple(data.get(key, ()))
        return cls(**data)


def _replayed(cls, options: GameOptions, log: list, library) -> "Game":
    try:
        return cls.replay(options, log, library)
    except IllegalChoice as exc:
        raise ValueError(f"the saved log does not replay: {exc}") from None


def _save_data(text) -> dict:
    """The top of a save, checked for what `from_json` reads first, or ValueError (docs/api.md: everything the API
    refuses is a ValueError with a message)."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise ValueError(f"a save is JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError("the save is nested too deep to be one") from None
    if not isinstance(data, dict):
        raise ValueError(f"a save is a JSON object, not {_shown(data)}")
    found = data.get("format")
    if not isinstance(found, int) or isinstance(found, bool) or found != SAVE_FORMAT:
        raise ValueError(f"unsupported save format {_shown(found)} (this version reads {SAVE_FORMAT})")
    for key in ("options", "log"):
        if key not in data:
            raise ValueError(f"the save has no {key!r}")
    if not isinstance(data["log"], list) or not all(isinstance(label, str) for label in data["log"]):
        raise ValueError("the save's 'log' is not a list of choices (strings)")
    return data


def _shown(value) -> str:
    """A value as a message shows it: a long one cut."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class ContentError(Exception):
    """The card content does not compile; the message lists the errors."""


def load_library(card_paths: tuple[str, ...] = ()) -> Library:
    """The bundled content plus designers' folders, compiled once per process while their files are unchanged."""
    return _load_library(tuple(card_paths), _fingerprint(card_paths))


def _fingerprint(card_paths: tuple[str, ...]) -> tuple:
    from tharsis.compiler.source import content_files

    files = []
    for folder in card_paths:
        path = Path(folder)
        for file in ([path] if path.is_file() else content_files(path)):
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


class Game(Table):
    """One game: a `Table` (shared immutable tables, the mutable `state` and `flow`, the logs, the services the
    rules use) with the decision API on top."""

    def __init__(self, options: GameOptions, library: Optional[Library] = None, *, start: bool = True,
                 observer=None):
        """`start=False` builds the board, players and a shuffled deck but runs no setup: a sandbox in which
        tests and scenarios arrange a state by hand and then take actions (see tharsis/designer/scenarios.py).
        `observer` watches the events from the first (the setup before the first question included)."""
        if not MIN_PLAYERS <= len(options.players) <= MAX_PLAYERS:
            raise ValueError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players")
        self._tables(options, library)
        solo = options.solo
        self.state = GameData(board=self.board.board.name, rng=rng.seeded(options.seed), players=[
            PlayerState(name=name, index=i, tr=SOLO_TR if solo else STARTING_TR) for i, name in
            enumerate(options.players)])
        self.state.parameters = {p.name: p.low for p in self.elements.parameters.values()}
        self.flow = Flow()
        self.log = History()
        self.deciders: Optional[History] = History()  # (player, kind) of each logged choice (information states)
        self.events = History()
        self.result: Optional[dict] = None
        self._passives: dict[int, tuple] = {}  # see runtime/rules/passives.py
        self._view: Optional[Decision] = None
        if observer is not None:
            self.observer = observer
        if start:
            self.flow.stack.append(Step(start_game))
            flow_steps.run(self)
        else:
            self.state.deck = self.project_deck()
            self.state.piles = {kind: self.kind_deck(kind) for kind in sorted(self.elements.card_kinds)}
            if self.elements.corporation_pile:  # every corporation of the sets in play (a scenario takes out its own)
                self.state.piles["corporation"] = self.kind_deck("corporation")
            self.state.phase = ACTION
            for player in self.state.players:
                player.starting_production = 0 if (options.corporate_era or options.solo) else 1
            set_up_sites(self)
            set_up_government(self)

    def _tables(self, options: GameOptions, library: Optional[Library]) -> None:
        """What depends only on the options and the content: shared by every clone of the game."""
        self.options = options
        self.content = library or load_library(tuple(options.card_paths))
        (self.library, self.standard_projects, self.standard_actions, self.board, self.milestones, self.awards,
         self._conversions, self._fixed_candidates, self._trigger_events, self.elements) = _tables(self.content,
                                                                                                   options)

    # ------------------------------------------------------------------ the decision API

    def pending(self) -> Optional[Decision]:
        """The decision the game waits for, or None when the game is over."""
        asking = self.flow.asking
        if asking is None:
            return None
        decision = asking.decision
        if decision.eager_options is None:  # a lazy decision (the action menu): bound to this game once
            if self._view is None:
                self._view = decision.bind(self)
            return self._view
        return decision

    def choices(self) -> list[tuple[int, str, str]]:
        """(player, decision kind, label) of every logged choice. A restored save does not hold who decided: it is
        found once by replaying the log."""
        if self.deciders is None:
            self.deciders = Game.replay(self.options, self.log, self.content).deciders
        return [(player, kind, label) for (player, kind), label in zip(self.deciders, self.log)]

    @property
    def over(self) -> bool:
        return self.flow.asking is None

    @property
    def current_player(self) -> Optional[int]:
        asking = self.flow.asking
        return None if asking is None else asking.decision.player

    def apply(self, choice) -> "Game":
        """Answer the pending decision with an option (its index, its label or the Option itself)."""
        asking = self.flow.asking
        if asking is None:
            raise IllegalChoice("the game is over")
        decision = asking.decision
        if decision.eager_options is None:  # the action menu: its view of this game, bound by `pending` (which
            decision = self._view if self._view is not None else self.pending()   # the player asked before)
        if choice.__class__ is not Option and not isinstance(choice, (Option, int)) and \
                isinstance(choice, numbers.Integral):
            choice = operator.index(choice)  # numpy's and other integer types index like an int (an option, the
            # bots' answer, is not asked the abstract class's question: the cost of a call at every decision)
        option = decision.find(choice)
        if option is None:
            shown = ", ".join(decision.labels(12)) + (", ..." if len(decision.options) > 12 else "")
            raise IllegalChoice(f"{choice!r} is not a legal choice for {self.state.players[decision.player].name} "
                                f"({decision.prompt}); legal: {shown}")
        self.log.append(option.label)
        if self.deciders is not None:
            self.deciders.append((decision.player, decision.kind))
        self.flow.asking = None
        self._view = None
        asking.resume(self, option.value, *asking.args)
        flow_steps.run(self)
        return self

    def start_flow(self, function, *args) -> None:
        """Run one step (e.g. an action, a production phase) in a sandbox game up to its first question."""
        self.flow.stack.append(Step(function, args))
        flow_steps.run(self)

    def clone(self) -> "Game":
        """An independent copy: mutating one never changes the other. Copies state and flow, never replays."""
        new = Game.__new__(Game)   # not `object.__new__`, which refuses a compiled `Table` (core/table.pxd)
        new.options, new.content, new.library = self.options, self.content, self.library
        new.standard_projects, new.standard_actions = self.standard_projects, self.standard_actions
        new.board, new.milestones, new.awards = self.board, self.milestones, self.awards
        new._conversions, new._fixed_candidates = self._conversions, self._fixed_candidates
        new._trigger_events, new.elements = self._trigger_events, self.elements
        new.state = self.state.copy()
        new.flow = self.flow.copy()
        new.log, new.events = self.log.copy(), self.events.copy()
        new.deciders = None if self.deciders is None else self.deciders.copy()
        new.result = self.result
        new._passives = self._passives.copy()
        new._view = None
        if self.answer_single_options is not Game.answer_single_options:
            new.answer_single_options = self.answer_single_options
        return new

    def __deepcopy__(self, memo) -> "Game":
        """`copy.deepcopy` is `clone()`: the tables are shared and immutable, and a recursive copy of a long log
        (a chain of pairs) would overflow the stack."""
        return self.clone()

    def __reduce__(self):
        """Pickled through the save format: the options, log, state and flow as JSON (restored exactly, with the
        bundled or designers' content compiled again in the reading process)."""
        return (_from_save, (self.to_json(),))

    @classmethod
    def replay(cls, options: GameOptions, log, library: Optional[Library] = None) -> "Game":
        game = cls(options, library)
        for label in log:
            game.apply(label)
        return game

    def to_json(self) -> str:
        from .saves import encode_flow
        return json.dumps({"format": SAVE_FORMAT, "options": self.options.to_json(), "log": self.log.to_list(),
                           "state": self.snapshot(), "flow": encode_flow(self), "events": self.events.to_list()},
                          ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str, library: Optional[Library] = None, *, verify: bool = False) -> "Game":
        """Restore a saved game as it was. `verify` also replays its log from the seed and refuses the save
        unless that reproduces the saved state and flow (a changed content or a tampered file)."""
        from .saves import restore
        data = _save_data(text)
        options = GameOptions.from_json(data["options"])
        if "flow" not in data:  # a save written before the flow was data: its log is all there is
            game = _replayed(cls, options, data["log"], library)
            if "state" in data and game.snapshot() != data["state"]:
                raise ValueError("the saved log does not reproduce the saved state (was the content changed?)")
            return game
        game = cls.__new__(cls)
        game._tables(options, library)
        try:
            restore(game, data)
        except (KeyError, TypeError, AttributeError, IndexError, RecursionError, OverflowError) as exc:
            # the save's state and flow are read as the engine wrote them: anything else is not one of its saves
            raise ValueError(f"the saved state is not one the engine wrote ({type(exc).__name__}: "
                             f"{_shown(str(exc))})") from None
        if verify:
            replayed = _replayed(cls, options, data["log"], game.content)
            if replayed.snapshot() != data["state"] or replayed.to_json() != game.to_json():
                raise ValueError("the saved log does not reproduce the saved state (was the content changed?)")
        return game

    def snapshot(self) -> dict:
        """The full state as plain data (for saves, comparisons and tools)."""
        from ..core.state import state_to_data
        from .saves import encode
        return state_to_data(self.state, lambda m: encode(self, m))

    # ------------------------------------------------------------------ helpers about the game as a whole

    def ends(self) -> bool:
        """Whether the game ends after this generation (runtime/sequence/phases.py `game_ends`)."""
        return game_ends(self)


def _from_save(text: str) -> Game:
    """How a pickled game is read back (`Game.__reduce__`)."""
    return Game.from_json(text)


def _variant_on(o: GameOptions, variant: str) -> bool:
    return {"solo": o.solo, "solo_tr63": o.solo and o.solo_tr63, "corporate_era": o.corporate_era,
            "draft": o.draft, "beginner": o.beginner}.get(variant, False)


@attrs.frozen
class GameElements:
    """What the content declares beyond cards, for the sets in play: the declared global parameters, every
    parameter's scale (minimum, maximum, step, unit; the printed three included), the rules by the moment they run,
    the declared kinds of card, how long a solo game lasts, the sets themselves, and the parameters that must be
    maxed for the game to end: (name, minimum, size of its scale, whether it is a printed one), the printed three
    and each declared one that `ends game: yes` (or `solo`, in a solo game)."""

    sets: frozenset
    parameters: dict
    scales: dict
    rules: dict
    card_kinds: dict
    solo_generations: int
    card_payments: bool = False   # some card lets its resources pay (`use RES here as N MC`), or the stock for a tag
    ending: tuple = ()
    pieces: dict = attrs.field(factory=dict)        # declared kinds of piece of the sets in play, by name
    sites: dict = attrs.field(factory=dict)         # declared sites of the sets in play, by name
    site_tables: dict = attrs.field(factory=dict)   # set -> {players: sites dealt}, from the chosen expansions
    wakes: frozenset = frozenset()                  # events that may make an inactive site active
    heat_payments: bool = False   # some card in play lets its resources stand in for heat (`use RES here as N heat`)
    card_prices: bool = False     # some card in play sets the price of a card bought (`buy cards for N megacredits`)
    taxed: bool = False             # some definition in play taxes TR steps (`tax 3 megacredits per tr step`)
    government: Optional[object] = None             # the declared government of the sets in play, if any
    factions: dict = attrs.field(factory=dict)      # its factions, by name
    # the cards of each kind with stages, by kind then name: apart from the library, as their names are their kind's
    staged_cards: dict = attrs.field(factory=dict)
    # the cards of the sets in play whose points go to every player or each opponent (`vp: each player -1 per your
    # city`): final scoring looks for them in every play area only when there are some
    shared_vp: frozenset = frozenset()
    # some card of the sets in play lets its resources pay for named standard projects (`use asteroids here as 1 MC
    # for standard project "Aquifer"`): the action menu looks for them only then (a scan of the played cards a project)
    project_payments: bool = False
    # some definition in play looks at corporation cards (`look 4 corporation cards play 1`): only then do the
    # corporations not dealt at set-up stay in a pile (a state every other game's saves do without)
    corporation_pile: bool = False
    # some card of the sets in play keeps cards on it (`move card from hand to here`) or lets its player play them
    # (`cards here may be played as if from hand`): the menu, the prices and the hidden cards look at them only then
    kept_cards: bool = False
    # some card of the sets in play makes the production phase's energy conversion optional (`keep energy during
    # production`): the phase looks for it in each player's cards only then, and asks how much energy becomes heat
    energy_kept: bool = False
    # some card of the sets in play skips TR steps (`skip first N tr steps each generation`): a TR step gained looks
    # for it only then
    tr_skipped: bool = False
    # some card of the sets in play lowers the price of milestones or awards (`discount N on milestones | awards`):
    # only then does the turn's menu ask each player's price of them rather than the printed one
    goal_discounts: bool = False
    # some card of the sets in play keeps a kind of tile off the spaces next to its tile (`no greenery next to this
    # tile`): only then do placements look for such cards in play
    tile_bans: bool = False
    # some card of the sets in play lowers the price of an action (`discount N on action of "Guild Hall"`): only then
    # does an action's `pay` look for the player's discounts on it
    action_discounts: bool = False
    # some card of the sets in play changes a player's research deal (`research 5 cards buy up to 4`): only then does
    # the research phase look for it in each player's cards
    research_deals: bool = False


def _elements(content: Library, options: GameOptions) -> GameElements:
    declared = {d.name: d for d in content.of_kind("expansion")}
    unknown = [name for name in options.expansions if name not in declared]
    if unknown:
        from tharsis.compiler.diagnostics import did_you_mean
        hint = did_you_mean(unknown[0], declared)
        raise ValueError(f"unknown expansion {unknown[0]!r}" + (f" ({hint})" if hint else "") +
                         f"; expansions: {', '.join(sorted(declared)) or 'none declared'}")
    chosen = [declared[name] for name in dict.fromkeys(options.expansions)]
    sets = {"base"} | ({"corpera"} if options.corporate_era or options.solo else set())
    sets |= {d.set for d in content.definitions if hasattr(d, "set") and d.set not in ("base", "corpera")
             and d.set not in declared}
    sets |= set(options.expansions)
    parameters = {p.name: p for p in content.of_kind("parameter") if p.set in sets}
    scales = dict(GLOBAL_RANGES)
    scales.update((p.name, (p.low, p.high, p.step, p.unit)) for p in parameters.values())
    rules: dict[str, tuple] = {}
    for rule in content.of_kind("rule"):
        if rule.set in sets:
            rules[rule.at] = rules.get(rule.at, ()) + (rule,)
    rules = {moment: _in_order(declared_rules) for moment, declared_rules in rules.items()}
    card_kinds = {k.name: k for k in content.of_kind("card_kind") if k.set in sets}
    solo = min([e.solo_generations for e in chosen if e.solo_generations] or [SOLO_GENERATIONS])
    card_payments = any(isinstance(p, Substitute) and (p.here or p.tag is not None) and p.instead_of == "megacredits"
                        for d in content.definitions if d.kind in ("card", "corporation") and d.set in sets
                        for p in d.passives)
    names = list(GLOBAL_RANGES) + [name for name, p in parameters.items()
                                   if p.ends_game == "yes" or (options.solo and p.ends_game == "solo")]
    ending = tuple((name, scales[name][0], scales[name][1] - scales[name][0], name in GLOBAL_RANGES) for name in names)
    pieces = {p.name: p for p in content.of_kind("piece") if p.set in sets}
    sites = {s.name: s for s in content.of_kind("site") if s.set in sets}
    tables = {e.name: dict(e.sites) for e in chosen if e.sites}
    wakes = frozenset("play" for s in sites.values() if s.inactive_until is not None)
    heat_payments = any(isinstance(p, Substitute) and p.here and p.instead_of == "heat"
                        for d in content.definitions if d.kind in ("card", "corporation") and d.set in sets
                        for p in d.passives)
    taxed = any(isinstance(p, Tax) for d in content.definitions if getattr(d, "set", None) in sets
                for p in getattr(d, "passives", ()))
    governments = [g for g in content.of_kind("government") if g.set in sets]
    if len(governments) > 1:
        raise ValueError("two governments in play: " + ", ".join(f"{g.name} ({g.set})" for g in governments) +
                         "; a game has one")
    government = governments[0] if governments else None
    factions = {f.name: f for f in content.of_kind("faction") if government is not None and f.name in
                government.factions}
    staged_cards: dict[str, dict] = {kind: {} for kind, declared in card_kinds.items() if declared.stages}
    for card in content.of_kind("card"):
        if card.type in staged_cards:
            staged_cards[card.type][card.name] = card
    card_prices = any(isinstance(p, CardPrice) for d in content.definitions
                      if d.kind in ("card", "corporation") and d.set in sets for p in d.passives)
    shared_vp = frozenset(d.name for d in content.definitions if d.kind in ("card", "corporation") and d.set in sets
                          and d.vp is not None and d.vp.scorers is not None)
    project_payments = any(isinstance(p, Substitute) and p.projects for d in content.definitions
                           if d.kind in ("card", "corporation") and d.set in sets for p in d.passives)
    corporation_pile = any(isinstance(e, LookPlay) and e.card_kind == "corporation" for d in content.definitions
                           if getattr(d, "set", None) in sets for e in walk(_effects_in(d)))
    kept_cards = any(_keeps_cards(d) for d in content.definitions
                     if d.kind in ("card", "corporation") and d.set in sets)
    energy_kept = any(isinstance(p, KeepEnergy) for d in content.definitions
                      if d.kind in ("card", "corporation") and d.set in sets for p in d.passives)
    tr_skipped = any(isinstance(p, SkipTr) for d in content.definitions if getattr(d, "set", None) in sets
                     for p in getattr(d, "passives", ()))
    goal_discounts = any(isinstance(p, Discount) and p.target.kind in ("milestones", "awards")
                         for d in content.definitions if getattr(d, "set", None) in sets
                         for p in getattr(d, "passives", ()))
    tile_bans = any(isinstance(p, TileBan) for d in content.definitions
                    if d.kind in ("card", "corporation") and d.set in sets for p in d.passives)
    action_discounts = any(isinstance(p, Discount) and p.target.kind == "action"
                           for d in content.definitions if getattr(d, "set", None) in sets
                           for p in getattr(d, "passives", ()))
    research_deals = any(isinstance(p, ResearchDeal) for d in content.definitions
                         if d.kind in ("card", "corporation") and d.set in sets for p in d.passives)
    return GameElements(frozenset(sets), parameters, scales, rules, card_kinds, solo, card_payments, ending, pieces,
                        sites, tables, wakes, heat_payments, card_prices, taxed, government, factions, staged_cards,
                        shared_vp, project_payments, corporation_pile, kept_cards, energy_kept, tr_skipped,
                        goal_discounts, tile_bans, action_discounts, research_deals)


def _effects_in(value) -> list:
    """The effects a definition holds at its top (its play, actions, triggers, first action, ...), found by their
    values, whatever field or nested record (an action's option) holds them; `walk` finds those inside them."""
    if value.__class__ is tuple:
        return [e for item in value for e in _effects_in(item)]
    if is_effect(value):
        return [value]
    if attrs.has(type(value)):
        return [e for f in attrs.fields(type(value)) for e in _effects_in(getattr(value, f.name))]
    return []


def _keeps_cards(definition) -> bool:
    """Whether a card keeps cards on it (`move card from hand to here`) or lets them be played from there."""
    if any(isinstance(p, KeptPlayable) for p in definition.passives):
        return True
    effects = definition.play + tuple(e for option in definition.actions for e in option.cost + option.effects)
    return any(isinstance(e, MoveCard) and e.destination == "here" for e in walk(effects + definition.passives))


def _in_order(rules: tuple) -> tuple:
    """The rules of one moment in the order they were loaded, except that a rule with `after: SET` comes after
    every rule of that set (a circle of `after`s keeps the loaded order for the rules in it)."""
    left, ordered = list(rules), []
    while left:
        ready = next((r for r in left if not any(o is not r and o.set in r.after for o in left)), left[0])
        ordered.append(ready)
        left.remove(ready)
    return tuple(ordered)


def _with_expansions(board: Board, elements: GameElements, chosen: list) -> Board:
    """The board with what the expansions in play add: off-board spaces (numbered after the board's last space),
    milestones and awards, and the track bonuses of the declared parameters."""
    if not chosen and not elements.parameters:
        return board
    spaces = list(board.spaces)
    next_id = max(int(s.id) for s in spaces) + 1 if spaces else 1
    for expansion in chosen:
        for name in expansion.offboard:
            spaces.append(Space(id=f"{next_id:02d}", row=-1, x=-1, kind="offboard", reserved=name))
            next_id += 1
    tracks = board.tracks + tuple(t for p in elements.parameters.values() for t in p.tracks)
    milestones = board.milestones + tuple(m for e in chosen for m in e.milestones if m not in board.milestones)
    awards = board.awards + tuple(a for e in chosen for a in e.awards if a not in board.awards)
    return attrs.evolve(board, spaces=tuple(spaces), tracks=tracks, milestones=milestones, awards=awards)


_TABLES: dict[tuple, tuple] = {}


def _tables(content: Library, options: GameOptions) -> tuple:
    """The lookup tables of a content for some options, built once per process (every clone and every game of
    a simulation shares them; they are never changed)."""
    key = (id(content), options.board.lower(), options.solo, options.solo_tr63, options.corporate_era,
           options.draft, options.beginner, options.expansions)
    cached = _TABLES.get(key)
    if cached is None or cached[0] is not content:
        cached = (content, _build_tables(content, options))
        _TABLES[key] = cached
    return cached[1]


def _build_tables(content: Library, options: GameOptions) -> tuple:
    elements = _elements(content, options)
    sets = elements.sets
    # the cards of a kind with stages have names of their own kind, whether their set is in play or not (a global
    # event named like a base card never stands for it in a game without the event's set)
    staged = {k.name for k in content.of_kind("card_kind") if k.stages}
    library = {d.name: d for d in content.definitions if d.kind in ("card", "corporation")
               and getattr(d, "type", None) not in staged}
    library.update(elements.factions)  # a faction's policy actions are used like a card's (runtime/rules/legality.py)
    standard_projects = {d.name: d for d in content.of_kind("standard_project")
                         if (d.variant is None or _variant_on(options, d.variant)) and d.set in sets}
    standard_actions = {d.name: d for d in content.of_kind("standard_action")
                        if (d.variant is None or _variant_on(options, d.variant)) and d.set in sets}
    boards = {d.name.lower(): d for d in content.of_kind("board")}
    if options.board.lower() not in boards:
        raise ValueError(f"unknown board {options.board!r}; boards: {', '.join(sorted(boards))}")
    declared = {d.name: d for d in content.of_kind("expansion")}
    board = _with_expansions(boards[options.board.lower()], elements,
                             [declared[name] for name in dict.fromkeys(options.expansions)])
    named = {d.name: d for d in content.definitions if d.kind in ("milestone", "award")}
    milestones = {} if options.solo else {n: named[n] for n in board.milestones}
    awards = {} if options.solo else {n: named[n] for n in board.awards}
    conversions = {n: a for n, a in standard_actions.items()
                   if any(getattr(e, "tile", None) in GREENERY_TILES for e in a.play)}
    fixed = fixed_candidates(standard_projects, standard_actions, milestones, awards, options.solo)
    in_play = [d for d in library.values() if d.set in sets]  # an expansion's triggers cost nothing without it
    # (the factions in the library are those of the government in play: their policy's triggers may fire)
    return (library, standard_projects, standard_actions, board_map(board), milestones, awards, conversions, fixed,
            events_with_triggers(in_play) | elements.wakes, elements)
