"""Rules scenarios: YAML files that arrange a game state, take steps and check what happened.

Used by `tharsis test PATH...` and by pytest (tests/test_scenarios.py); the format is in docs/scenarios.md.
A scenario runs in a sandbox game (no setup): unspecified fields keep their defaults, steps go through the same
legality checks and decisions as a real game, and every decision is answered by a readable label.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import Any, Optional

import attrs

from tharsis.compiler import effects as fx, vocabulary as v
from tharsis.compiler.definitions import Library
from tharsis.compiler.diagnostics import Diagnostic, Span, did_you_mean, render_text
from tharsis.compiler.source import on_disk, read_bounded, why_unusable
from tharsis.designer import scenario_format
from tharsis.problems import ENDLESS, ENDLESS_HINT
from tharsis.runtime.api.game import EndlessGame, Game, GameOptions, load_library
from tharsis.runtime.core.decisions import Decision, NumberOptions
from tharsis.runtime.core.state import (
    ACTION,
    END,
    FINAL_GREENERY,
    NEUTRAL,
    PRODUCTION,
    RESEARCH,
    RESOURCES,
    SETUP,
    CardInPlay,
    Tile,
)
from tharsis.runtime.handlers.actions import take_action
from tharsis.runtime.handlers.sites import return_pieces
from tharsis.runtime.rules.legality import why_not
from tharsis.runtime.rules.scoring import final_scores
from tharsis.runtime.sequence import phases

ACTION_KEYS = {"play": "play", "action": "card_action", "project": "project", "convert": "convert",
               "claim": "milestone", "fund": "award", "first action": "first_action"}


OPTIONS_SCANNED = 200  # options looked at to find which decision an `offers:` label is about


class ScenarioError(Exception):
    """The scenario itself is wrong or cannot be carried out as written (an unknown card, a missing answer):
    reported as that scenario's error (E6xx, docs/errors.md), not counted as a rules failure. `span` is where;
    when None, the runner's current step."""

    def __init__(self, message: str, span: Optional[Span] = None, code: str = "E611", hint: Optional[str] = None):
        super().__init__(message)
        self.span, self.code, self.hint = span, code, hint


@attrs.define
class Outcome:
    name: str
    path: str
    failures: list[str] = attrs.field(factory=list)
    error: Optional[str] = None
    xfail: Optional[str] = None    # a known engine bug: the scenario is expected to fail until it is fixed
    line: Optional[int] = None     # where the scenario begins in its file (JUnit's `line`)

    @property
    def passed(self) -> bool:
        failed = bool(self.failures) or self.error is not None
        return failed if self.xfail else not failed

    @property
    def status(self) -> str:
        if self.xfail:
            return "XFAIL" if self.passed else "XPASS"
        return "PASS" if self.passed else "FAIL"


def load(path: Path) -> list[dict]:
    """The scenarios of a file, read safely (tharsis/designer/scenario_format.py); ScenarioError (rendered, E6xx) when
    the file cannot be read as scenarios at all."""
    where = Span.point(str(path), 1, 1)
    try:
        # bounded: a huge file is refused, not read whole; a pipe named *.yaml, or /dev/zero, is never opened
        data = read_bounded(path, scenario_format.MAX_BYTES)
        if len(data) > scenario_format.MAX_BYTES:
            raise ScenarioError(f"the file is larger than {scenario_format.MAX_BYTES // 1000} KB", where, "E604",
                                "split it into several scenario files")
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _file_error(ScenarioError("the file is not UTF-8 text", where, "E604",
                                        "save it as UTF-8")) from None
    except (OSError, ValueError) as exc:  # a name over 255 bytes, a pipe, no permission...: never opened
        reason, hint = why_unusable(exc)
        raise _file_error(ScenarioError(f"cannot read the file: {reason}", where, "E604", hint)) from None
    except ScenarioError as exc:
        raise _file_error(exc) from None
    try:
        data = scenario_format.read(str(path), text)
    except scenario_format.FormatError as exc:
        raise ScenarioError(scenario_format.render([exc.diagnostic], text), exc.diagnostic.span,
                            exc.diagnostic.code) from None
    if isinstance(data, dict) and "scenarios" in data:
        data = data["scenarios"]
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not data or not all(isinstance(s, dict) for s in data):
        found = "nothing" if data is None or data == [] else "something else"
        raise _file_error(ScenarioError(f"a scenario file holds a scenario (a mapping) or a list of them, "
                                        f"not {found}", where, "E610", "see docs/scenarios.md"), text)
    return data


def _file_error(exc: ScenarioError, text: Optional[str] = None) -> ScenarioError:
    """A file-level ScenarioError whose message is already rendered (path:line:col: error[E6xx]: ...)."""
    diagnostic = Diagnostic(exc.code, "error", str(exc), exc.span, exc.hint)
    return ScenarioError(scenario_format.render([diagnostic], text), exc.span, exc.code)


def find(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if on_disk(path).kind == "folder":  # anything else is read as a file, and `load` says what is wrong with it
            found.extend(sorted(p for p in path.rglob("*.y*ml") if p.suffix in (".yaml", ".yml")))
        else:
            found.append(path)
    return found


def run_file(path: Path, library: Optional[Library] = None) -> list[Outcome]:
    try:
        scenarios = load(path)
    except ScenarioError as exc:
        return [Outcome(path.name, str(path), error=str(exc))]
    return [run(s, str(path), library) for s in scenarios]


def run(spec: dict, path: str = "<scenario>", library: Optional[Library] = None,
        card_paths: tuple[str, ...] = ()) -> Outcome:
    """Check one scenario against the format, then carry it out; whatever goes wrong is this scenario's error.
    `card_paths`: the designer's folders `library` was compiled from (with the bundled content), compiled again
    with the scenario's own `cards:` text when it has one, so that its cards join theirs."""
    begins = _span(spec)
    outcome = Outcome(str(spec.get("name", "unnamed"))[:200], path,
                      xfail=spec.get("xfail") if isinstance(spec.get("xfail"), str) else None,
                      line=begins.line if begins else None)
    problems = scenario_format.check(spec, _card_names(library) if "cards" not in spec else None)
    if problems:
        outcome.error = scenario_format.render(problems, spec)
        return outcome
    runner = None
    try:
        runner = Runner(spec, outcome, library, card_paths)
        runner.run()
    except ScenarioError as exc:
        span = exc.span or (runner.location if runner else None) or _span(spec)
        outcome.error = scenario_format.render([Diagnostic(exc.code, "error", str(exc), span, exc.hint)], spec)
    except EndlessGame as exc:  # the content loops (the cards, not the engine): where, and what repeats
        span = (runner.location if runner else None) or _span(spec)
        outcome.error = scenario_format.render([Diagnostic(ENDLESS, "error", str(exc), span, ENDLESS_HINT)], spec)
    except Exception as exc:  # an engine bug met by this scenario: report it here, keep running the others
        span = (runner.location if runner else None) or _span(spec)
        outcome.error = scenario_format.render([Diagnostic(
            "E699", "error", f"internal error while running this scenario: {type(exc).__name__}: {exc}"[:500],
            span, "a Tharsis bug: please report it with this scenario")], spec)
    return outcome


def _card_names(library: Optional[Library]) -> Optional[set[str]]:
    """Names a scenario may use as cards: the cards and corporations of the content it runs with, and its factions
    (`action: Scientists`: a ruling faction's policy action is taken as a card's)."""
    try:
        library = library or load_library()
    except Exception:  # the content itself does not compile: the runner reports that
        return None
    return {d.name for d in library.definitions if d.kind in ("card", "corporation", "faction")}


def _span(container, key=None) -> Optional[Span]:
    return container.span(key) if isinstance(container, scenario_format.Located) else None


class Runner:
    def __init__(self, spec: dict, outcome: Outcome, library: Optional[Library], card_paths: tuple[str, ...] = ()):
        self.spec = spec
        self.outcome = outcome
        options = spec.get("options") or {}
        setup = spec.get("setup") or {}
        players = list(options.get("players") or [])
        if not players:  # a scenario is a two-player game unless `options.players` says otherwise
            players = list((setup.get("players") or {}).keys())
            for default in ("alice", "bob"):
                if len(players) < 2 and default not in players:
                    players.append(default)
        self.location: Optional[Span] = _span(spec)   # where the scenario is now: its current step
        if "cards" in spec:
            library = _with_inline_cards(str(spec["cards"]), path=outcome.path, span=_span(spec, "cards"),
                                         card_paths=card_paths)
        library = library or load_library()
        boards = {d.name.lower(): d.name for d in library.of_kind("board")}
        board = str(options.get("board", "Tharsis"))
        if board.lower() not in boards:
            raise ScenarioError(f"unknown board '{board}'", _span(options, "board"), "E607",
                                did_you_mean(board, boards.values()) or "boards: " + ", ".join(sorted(boards.values())))
        declared = {d.name for d in library.of_kind("expansion")}
        self.expansions = declared
        for expansion in options.get("expansions") or ():
            if str(expansion) not in declared:
                raise ScenarioError(f"unknown expansion '{expansion}'", _span(options, "expansions"), "E607",
                                    did_you_mean(str(expansion), declared) or
                                    "expansions: " + (", ".join(sorted(declared)) or "none declared"))
        try:
            self.game = Game(GameOptions(players=tuple(players), seed=int(options.get("seed", 0)),
                                         board=board,
                                         corporate_era=bool(options.get("corporate_era", False)),
                                         draft=bool(options.get("draft", False)),
                                         solo_tr63=bool(options.get("solo_tr63", False)),
                                         expansions=tuple(str(e) for e in options.get("expansions") or ()),
                                         sites=tuple(str(s) for s in options.get("sites") or ())),
                             library, start=False)
        except ValueError as exc:  # a site the content does not declare (or not of the expansions in play)
            raise ScenarioError(str(exc), _span(options, "sites"), "E607",
                                "is its expansion in `options.expansions`?") from None
        self.names = {p.name: p.index for p in self.game.state.players}
        self.order: list[str] = []
        self.asked: list[Decision] = []  # the decisions of the current step, for `offers` / `does not offer`
        self.answered_alone: list[Decision] = []  # those of the current step that had one option: no answer used
        self._located = 0   # the failures before this index already say their file:line:col

    @contextmanager
    def failures_at(self, span: Optional[Span]):
        """Failures found inside are prefixed with file:line:col of what the scenario wrote there (the expectation,
        or the step), so a designer goes from `alice holds 0 cards, expected 1` to the line that expected it. The
        innermost place that is known wins; a place without a position (a scenario built in Python) adds none."""
        start = len(self.outcome.failures)
        try:
            yield
        finally:
            failures = self.outcome.failures
            if span is not None:
                for index in range(max(start, self._located), len(failures)):
                    failures[index] = f"{span.path}:{span.line}:{span.column}: {failures[index]}"
                self._located = len(failures)

    def unused(self, where: str, answers: list[str]) -> "ScenarioError":
        """E611 for answers left over, saying which decisions of the step answered themselves (one option): the
        usual cause is an answer written for a choice the game did not have to ask."""
        alone = [f"'{d.prompt}' had one option ({d.options[0].label}) and was answered by itself"
                 for d in self.answered_alone]
        return ScenarioError(f"{where}: answers not used: {[str(a) for a in answers]}"
                             + (f" ({'; '.join(alone)})" if alone else ""))

    # ------------------------------------------------------------------ setup

    def player(self, name) -> int:
        if name not in self.names:
            raise ScenarioError(f"unknown player {name!r}; players: {', '.join(self.names)}")
        return self.names[name]

    def card(self, name: str, kind: str = "", where: Optional[Span] = None) -> str:
        """A card of the loaded content, by name; `kind`: of that declared kind, whose cards have names of their own
        when it has stages; `where`: where the scenario names it (else its current step)."""
        named = self.game.elements.staged_cards.get(kind, self.game.library)
        if name not in named:
            guess = did_you_mean(name, named)
            raise ScenarioError(f"card {name!r} is not in the loaded content (the bundled cards, the folders given "
                                "with --cards and the scenario's own `cards:`); a card of your own? load its "
                                "folder: tharsis test PATH --cards DIR" + (f" ({guess})" if guess else ""))
        self._require_sets_in_play(name, named[name], where)
        return name

    def _require_sets_in_play(self, name: str, definition, where: Optional[Span]) -> None:
        """E613 for a card of a declared expansion that `options.expansions` leaves out: the game would hold a card
        no deck of it has, whose expansion's parameters, pieces and rules are not in play, so what it does is not
        what a game with the expansion does (and the scenario would pass or fail for the wrong reason)."""
        sets = self.game.elements.sets
        wanted = [s for s in [getattr(definition, "set", None), *getattr(definition, "needs", ())]
                  if s in self.expansions and s not in sets]
        if wanted:
            missing = ", ".join(dict.fromkeys(wanted))
            raise ScenarioError(f"card {name!r} is of the expansion {missing}, which is not in this scenario's "
                                "options", where, "E613",
                                f"add it: options: {{expansions: [{missing}]}}")

    def site(self, name, container=None):
        """A declared site in play (its state), or E607 with the sites in play."""
        site = self.game.state.site(str(name))
        if site is None:
            in_play = [s.name for s in self.game.state.sites]
            raise ScenarioError(f"no site {name!r} is in play", _span(container, name), "E607",
                                did_you_mean(str(name), in_play) or "sites in play: " + (", ".join(in_play) or
                                "none (is its expansion on? options: {expansions: [...], sites: [...]})"))
        return site

    def piece(self, name, container=None) -> str:
        """A declared kind of piece of the game, by any form of its name (`trade fleets`), or E607."""
        found = v.lookup_piece(str(name).split(), self.game.elements.pieces)
        if found is None:
            raise ScenarioError(f"no piece {name!r} in this game", _span(container, name), "E607",
                                did_you_mean(str(name), self.game.elements.pieces) or
                                "pieces: " + (", ".join(self.game.elements.pieces) or "none"))
        return found

    def run(self) -> None:
        self.arrange(self.spec.get("setup") or {})
        steps = self.spec.get("steps")
        for number, step in enumerate(steps or [], start=1):
            with self.failures_at(_span(steps, number - 1)):
                self.step(number, step)
        if "expect" in self.spec:
            with self.failures_at(_span(self.spec, "expect")):
                self.expect("end", self.spec["expect"])

    def _arrange_player(self, state, name, spec, players: dict) -> None:
        """One player of `given: players:`: corporation, TR, stock, production, cards, pieces. A corporation with
        `start: true` is only named here: `_start_corporations` starts it once the whole table is set up."""
        self.location = _span(players, name) or self.location
        player = state.players[self.player(name)]
        spec = spec or {}
        for corporation, _ in self._corporations(spec) if "corporation" in spec else ():
            self._out_of_its_pile(corporation)   # the corporation pile (a game that has one) never deals it again
        if "corporation" in spec and not spec.get("start"):
            for position, (corporation, resources) in enumerate(self._corporations(spec)):
                player.corporations.append(corporation)
                player.played.insert(position, CardInPlay(corporation, resources=resources))
            self._corporation_state(player, spec)
        for key in ("tr",):
            if key in spec:
                player.tr = int(spec[key])
        for resource, amount in (spec.get("resources") or {}).items():
            player.resources[_resource(resource)] = int(amount)
        for resource, amount in (spec.get("production") or {}).items():
            player.production[_resource(resource)] = int(amount)
        # the cards given; those the corporation draws when started (`start: true`) come after them
        player.hand = [self.card(c, where=_span(spec.get("hand"), i)) for i, c in enumerate(spec.get("hand") or [])]
        for index, entry in enumerate(spec.get("played") or []):
            place = _span(spec.get("played"), index)
            if isinstance(entry, str):
                entry = {"card": entry}
            card = self.card(entry["card"], where=place)
            if self.game.library.get(card).kind == "corporation":
                raise ScenarioError(f"{card} is a corporation: write it as the player's `corporation:`, not under "
                                    "`played:` (which would put another copy of it in play)", place, "E607",
                                    f"to give it resources: corporation: {{card: {card}, resources: N}}")
            in_play = CardInPlay(card, resources=int(entry.get("resources", 0)),
                                 used=bool(entry.get("used", False)), tile=entry.get("tile"))
            kept = [[self.card(name, where=place), int(n)] for name, n in (entry.get("kept") or {}).items()]
            in_play.kept = kept or None   # cards kept face up on it (`move card from hand to here`)
            player.played.append(in_play)
        player.events = [self.card(c, where=_span(spec.get("events"), i))
                         for i, c in enumerate(spec.get("events") or [])]
        if "kept" in spec:  # cards of a declared kind (preludes) waiting to be played: the `kept cards` step
            if not state.kept:
                state.kept = [[] for _ in state.players]
            state.kept[player.index] = [self.card(c) for c in spec["kept"] or []]
        for name in [*(state.kept[player.index] if "kept" in spec else []), *player.hand, *player.events,
                     *(c.name for c in player.played), *(n for c in player.played for n, _ in c.kept or ())]:
            self._out_of_its_pile(name)
        if "tr raised this generation" in spec:
            player.tr_raised_this_generation = int(spec["tr raised this generation"])
        for resource, count in (spec.get("removed this generation") or {}).items():  # `plants: 3`, `animals: 1`
            word = v.singular(str(resource).lower())
            name = v.normalize(word) if v.normalize(word) in v.STANDARD_RESOURCES else word
            player.removed_this_generation[name] = int(count)
        for name in spec.get("harmed by this generation") or []:  # who removed its resources or lowered its production
            harmer = self.player(name)
            if harmer != player.index and harmer not in player.harmed_by_this_generation:
                player.harmed_by_this_generation.append(harmer)
        for piece, count in (spec.get("pieces") or {}).items():  # pieces of a declared kind in the supply
            player.pieces[self.piece(piece, spec.get("pieces"))] = int(count)

    def _out_of_its_pile(self, name: str) -> None:
        """A card of a declared kind (a prelude) given to a player leaves its kind's pile, as one dealt in a game
        does, so that a look at the pile never draws it a second time (`kept: [New Partner]` stayed in the prelude
        pile). Project cards stay in the deck as before: `setup.deck` arranges what is drawn."""
        pile = self.game.state.piles.get(getattr(self.game.library.get(name), "type", None) or "")
        if pile is not None and name in pile:
            pile.remove(name)

    def _corporations(self, spec: dict) -> list[tuple[str, int]]:
        """The corporations of a player's set-up and the resources on each: `corporation: Arklight`, `corporation:
        {card: Arklight, resources: 2}`, or a list of those for a player with several (a corporation is not written
        under `played:`)."""
        entries = spec["corporation"]
        corporations = []
        for entry in entries if isinstance(entries, list) else [entries]:
            if isinstance(entry, dict):
                corporations.append((self.card(entry["card"], where=_span(spec, "corporation")),
                                     int(entry.get("resources", 0))))
            else:
                corporations.append((self.card(entry, where=_span(spec, "corporation")), 0))
        return corporations

    def _corporation_state(self, player, spec: dict) -> None:
        """Mid-game by default: `first action pending: true` arranges the start of the game (the first actions of
        every corporation of the player that has one wait, in order); `used: true` their actions used this
        generation."""
        waiting = [c for c in player.corporations if self.game.library[c].first_action] \
            if spec.get("first action pending") else []
        player.first_action_done = not waiting
        player.first_actions = waiting if len(waiting) > 1 else []
        if spec.get("used"):
            for card in player.played[:len(player.corporations)]:
                card.used = True

    def _start_corporations(self, setup: dict) -> None:
        """`start: true`: the corporation's starting megacredits, its play effects and its own triggers, carried out
        in the order the players are listed, once every player, tile, site and pile is set up, so that a start acts on
        the table as the scenario wrote it whatever the order of `setup.players` (Mons Insurance lowering each
        opponent's production: an opponent listed after it had its `production:` set over the start's change)."""
        players = setup.get("players") or {}
        for name, spec in players.items():
            if not (spec or {}).get("start") or "corporation" not in spec:
                continue
            self.location = _span(players, name) or self.location
            player = self.game.state.players[self.player(name)]
            for position, (corporation, resources) in enumerate(self._corporations(spec)):
                self.drive(phases.start_corporation, (player.index, corporation), [], None, "setup")
                player.played[position].resources += resources   # besides those its start put there
            self._corporation_state(player, spec)

    def arrange(self, setup: dict) -> None:
        state = self.game.state
        for key, value in (setup.get("globals") or {}).items():
            if key not in ("temperature", "oxygen", "oceans", "generation", "first_player"):
                raise ScenarioError(f"unknown global {key!r}")
            setattr(state, key, self.player(value) if key == "first_player" else int(value))
        for key, value in (setup.get("parameters") or {}).items():  # declared global parameters (Venus)
            scale = self.game.elements.scales.get(str(key).lower())
            if scale is None or str(key).lower() not in state.parameters:
                raise ScenarioError(f"unknown declared parameter {key!r}", _span(setup.get("parameters"), key),
                                    "E607", "declared parameters in this game: " +
                                    (", ".join(sorted(state.parameters)) or "none (is its expansion on? "
                                                                            "options: {expansions: [...]})"))
            low, high, step, unit = scale
            if not (low <= int(value) <= high and (int(value) - low) % step == 0):
                raise ScenarioError(f"{key} runs from {low}{unit} to {high}{unit} in steps of {step}, not {value}",
                                    _span(setup.get("parameters"), key), "E607")
            state.parameters[str(key).lower()] = int(value)
        # the piles first: a corporation started with `start: true` draws from the deck arranged here
        self.location = _span(setup) or self.location
        if "deck" in setup:
            top = [self.card(c) for c in setup["deck"]]
            state.deck = [c for c in state.deck if c not in top] + list(reversed(top))
        if "whole deck" in setup:  # the entire draw pile, top first ([] empties it)
            state.deck = list(reversed([self.card(c) for c in setup["whole deck"] or []]))
        if "discard" in setup:
            state.discard = [self.card(c) for c in setup["discard"] or []]
            state.deck = [c for c in state.deck if c not in state.discard]
        for kind, top in (setup.get("piles") or {}).items():  # the next cards of a declared kind, in order
            if str(kind).lower() not in state.piles:
                why = ("the corporations not dealt are a pile only in a game with a card that looks at them "
                       "(`look N corporation cards play K`)" if str(kind).lower() in ("corporation", "corporations")
                       else "is its expansion in `options`?")
                raise ScenarioError(f"there is no pile of {kind} cards in this game (piles: "
                                    f"{', '.join(state.piles) or 'none'}); {why}",
                                    _span(setup.get("piles"), kind), "E607")
            pile, top = state.piles[str(kind).lower()], [self.card(c, str(kind).lower()) for c in top or []]
            pile[:] = [c for c in pile if c not in top] + list(reversed(top))
        for name, spec in (setup.get("players") or {}).items():
            self._arrange_player(state, name, spec, setup.get("players"))
        for space, spec in (setup.get("tiles") or {}).items():
            self.location = _span(setup.get("tiles"), space) or self.location
            space = _space(space)
            if space not in self.game.board.spaces:
                raise ScenarioError(f"no space {space!r} on {self.game.board.board.name}")
            if isinstance(spec, str):
                spec = {"tile": spec}
            owner = spec.get("owner")
            kind = spec["tile"]
            # a tile on top of another goes where the one below may go (New Holland's city on an ocean space)
            self._check_space_kind(space, spec.get("on top of") or kind, spec.get("name"))
            owner = None if owner is None else (NEUTRAL if owner == "neutral" else self.player(owner))
            marks = tuple(sorted((str(m), int(n)) for m, n in (spec.get("marks") or {}).items() if n))
            state.tiles[space] = Tile(kind=kind, owner=owner, name=spec.get("name"), is_city=kind in v.CITY_TILES,
                                      marks=marks)
            below = spec.get("on top of")   # `{tile: city, owner: bob, on top of: ocean}`: a tile covering another
            if below is not None:
                state.covered[space] = Tile(kind=below, owner=None if below in v.OCEAN_TILES else owner,
                                            is_city=below in v.CITY_TILES)
            counted = kind if below is None else below
            if counted in v.OCEAN_TILES and v.TILE_RAISES[counted] not in (setup.get("globals") or {}):
                state.oceans += 1
        self._arrange_sites(setup)
        if "government" in setup:
            self._set_up_government(setup["government"] or {}, setup)
        self._arrange_stages(setup)
        self.location = _span(setup) or self.location
        for entry in setup.get("milestones") or []:
            state.milestones.append((entry["name"], self.player(entry["player"])))
        for entry in setup.get("awards") or []:
            state.awards.append((entry["name"], self.player(entry["player"])))
        self._start_corporations(setup)

    def _check_space_kind(self, space: str, tile: str, name: Optional[str]) -> None:
        """E607 for a tile on a kind of space it never goes on: an ocean off the ocean spaces, another tile on an
        ocean space (the board says which spaces are which), unless the tile's `name` is a definition whose own
        placement of that tile names that kind of space (Mohole Area's `place special "Mohole Area" on ocean`). A
        scenario that ran with such a tile would test a position no game reaches, and say nothing of it."""
        found = self.game.board.spaces[space]
        ocean_tile, ocean_space = tile in v.OCEAN_TILES, found.kind == v.OCEAN_SPACE
        if ocean_tile == ocean_space or self._placed_there_by_name(name, tile, found.kind):
            return
        kinds = {v.OCEAN_SPACE: "an ocean space", v.LAND: "a land space", "offboard": "a space off Mars"}
        what = kinds.get(found.kind, found.kind)
        if found.reserved:
            what += f" (reserved for {found.reserved})"
        wanted = "an ocean space" if ocean_tile else "a space that is not an ocean space"
        article = "an" if tile[:1] in "aeiou" else "a"
        raise ScenarioError(f"space {space} of {self.game.board.board.name} is {what}: {article} {tile} tile goes on "
                            f"{wanted}", self.location, "E607",
                            "pick a space of that kind (the board's file in cards/boards/ says which are ocean "
                            "spaces), or name the card whose placement puts the tile there: `name: Mohole Area`")

    def _placed_there_by_name(self, name: Optional[str], tile: str, space_kind: str) -> bool:
        """Whether the definition called `name` places a `tile` tile on a `space_kind` space (`on ocean`, `on
        land`) in its play or its actions: the card text says where its tile may go."""
        try:
            definition = self.game.library.get(name) if name else None
        except KeyError:    # a special tile named after no definition
            return False
        if definition is None:
            return False
        effects = list(getattr(definition, "play", ()))
        for option in getattr(definition, "actions", ()):
            effects += [*option.cost, *option.effects]
        return any(isinstance(e, fx.PlaceTile) and e.tile == tile and any(f.kind == space_kind for f in e.filters)
                   for e in fx.walk(effects))

    def _arrange_sites(self, setup: dict) -> None:
        """The state of declared sites in play: the pieces on them, the visitor, whether active, the marker."""
        for name, spec in (setup.get("sites") or {}).items():  # the state of declared sites in play
            site = self.site(name, setup.get("sites"))
            spec = spec or {}
            if "pieces" in spec:
                site.pieces = [self.player(owner) for owner in spec["pieces"] or []]
            if "visitor" in spec:
                site.visitor = None if spec["visitor"] in (None, "nobody") else self.player(spec["visitor"])
            if "visitors" in spec:   # several (`send PIECE to any site`): the first is the visitor
                owners = [self.player(owner) for owner in spec["visitors"] or []]
                site.visitor, site.more_visitors = (owners[0] if owners else None), owners[1:]
            if "active" in spec:
                site.active = bool(spec["active"])
            site.marker = int(spec.get("marker", max(site.marker, len(site.pieces))))
            last = len(self.game.elements.sites[site.name].track) - 1
            if not len(site.pieces) <= site.marker <= last:
                raise ScenarioError(f"the marker of {site.name} stands on a step from its pieces' number "
                                    f"({len(site.pieces)}) to its last step ({last}), not {site.marker}",
                                    _span(setup.get("sites"), name), "E607")

    def _arrange_stages(self, setup: dict) -> None:
        """The cards of a kind with stages, first stage first (taken out of its pile)."""
        state = self.game.state
        for kind, cards in (setup.get("stages") or {}).items():  # the cards of a staged kind, first stage first
            declared = self.game.elements.card_kinds.get(str(kind))
            if declared is None or not declared.stages:
                raise ScenarioError(f"'{kind}' is no kind of card with stages in this game",
                                    _span(setup.get("stages"), kind), "E607")
            cards = [None if c is None else self.card(c, declared.name) for c in cards or []]
            if len(cards) > len(declared.stages):
                raise ScenarioError(f"'{kind}' has {len(declared.stages)} stages, not {len(cards)}",
                                    _span(setup.get("stages"), kind), "E607")
            state.stages[declared.name] = cards + [None] * (len(declared.stages) - len(cards))
            pile = state.piles.get(declared.name, [])
            for name in cards:
                if name is not None and name in pile:
                    pile.remove(name)

    def owner(self, name) -> int:
        """A player's index, or NEUTRAL for `neutral` (a piece or a role that belongs to nobody)."""
        return NEUTRAL if name == "neutral" else self.player(name)

    def _set_up_government(self, spec: dict, setup: dict) -> None:
        """The government as given: the pieces in its factions (taken from the owners' reserves and the neutral
        reserve), their leaders (as given, else found as if the pieces came in the order listed), the ruling and
        the dominant faction, the role holder (`nobody`: none) and the neutral reserve."""
        from tharsis.runtime.rules.politics import leader_of

        government = self.game.state.government
        declared = self.game.elements.government
        if government is None:
            raise ScenarioError("no government in this game (is its expansion in `options.expansions`?)",
                                _span(setup, "government"), "E607")
        names = [f.name for f in government.factions]
        for key in ("ruling", "dominant"):
            if key in spec and spec[key] not in names:
                raise ScenarioError(f"unknown faction '{spec[key]}'", _span(spec, key), "E607",
                                    did_you_mean(str(spec[key]), names) or "factions: " + ", ".join(names))
        for name, given in (spec.get("factions") or {}).items():
            faction = government.faction(str(name))
            if faction is None:
                raise ScenarioError(f"unknown faction '{name}'", _span(spec.get("factions"), name), "E607",
                                    did_you_mean(str(name), names) or "factions: " + ", ".join(names))
            owners = given.get("pieces") if isinstance(given, dict) else given
            faction.pieces, faction.leader = [], None
            for owner in [self.owner(o) for o in owners or []]:
                faction.pieces.append(owner)
                faction.leader = leader_of(faction, self.game.turn_order(), self.game.state.first_player)
                if owner == NEUTRAL:
                    government.neutral -= 1
                else:
                    pieces = self.game.state.players[owner].pieces
                    pieces[declared.piece] = pieces.get(declared.piece, 0) - 1
            if isinstance(given, dict) and "leader" in given:
                faction.leader = self.owner(given["leader"])
        if "role" in spec:
            role = None if spec["role"] in (None, "nobody") else self.owner(spec["role"])
            if government.role == NEUTRAL:
                government.neutral += 1
            elif government.role is not None:
                pieces = self.game.state.players[government.role].pieces
                pieces[declared.piece] = pieces.get(declared.piece, 0) + 1
            government.role = role
            if role == NEUTRAL:
                government.neutral -= 1
            elif role is not None:
                self.game.state.players[role].pieces[declared.piece] -= 1
        if "neutral" in spec:
            government.neutral = int(spec["neutral"])
        government.ruling = spec.get("ruling", government.ruling)
        from tharsis.runtime.rules.politics import dominant_after
        government.dominant = spec["dominant"] if "dominant" in spec else \
            dominant_after(government, government.dominant)
        if any(p.pieces.get(declared.piece, 0) < 0 for p in self.game.state.players) or government.neutral < 0:
            raise ScenarioError("more pieces in the factions (and the role) than the reserves hold",
                                _span(setup, "government"), "E607")

    # ------------------------------------------------------------------ steps

    def step(self, number: int, step) -> None:
        game = self.game
        where = f"step {number}"
        steps = self.spec.get("steps")
        self.location = _span(steps, number - 1) or self.location
        if isinstance(step, str):
            step = {step: True}
        if not isinstance(step, dict):
            raise ScenarioError(f"{where}: a step is a word or a mapping, got {step!r}")
        player = self.player(step.get("player", game.state.players[0].name))
        answers = [_answer(a) for a in _as_list(step.get("choose"))]
        self.order = [str(a) for a in _as_list(step.get("order"))]
        self.asked = []
        self.answered_alone = []
        payment = step.get("pay")
        kinds = [k for k in step if k in ACTION_KEYS or k in scenario_format.PHASE_STEPS]
        if len(kinds) != 1:
            words = ", ".join(list(ACTION_KEYS) + list(scenario_format.PHASE_STEPS))
            raise ScenarioError(f"{where}: say exactly one of {words}")
        kind = kinds[0]
        refused = step.get("refused")
        if kind == "production":
            game.state.phase = PRODUCTION
            self.drive(phases.production, (), answers, None, where)
            game.state.phase = ACTION
        elif kind == "generation":  # the end of a generation: the game ends here when Mars is terraformed
            game.state.phase = PRODUCTION  # as in a game: no action-phase effect (a tax, a policy) from here on
            self.drive(phases.production, (), answers, None, where, last=False)
            if game.ends():
                self.finish(answers, where)
            else:  # the pieces that return, the rules declared for the end of a generation (World Government
                # Terraforming, markers rising), then the next generation
                return_pieces(game)
                for rule in game.elements.rules.get("end_of_generation", ()):  # in order: the answers run on
                    self.drive(phases.run_rule, (rule.name, "end_of_generation"), answers, None, where, last=False)
                if answers:
                    raise self.unused(where, answers)
                phases.new_generation(game)
                game.state.phase = ACTION
                for each in game.state.players:
                    each.passed = False
        elif kind == "research":
            game.state.phase = RESEARCH
            self.drive(phases.research_deal, (), answers, None, where)
            game.state.phase = ACTION
        elif kind == "neutral setup":
            self.drive(phases.neutral_city, (None, 0), answers, None, where)
        elif kind == "kept cards":  # every player plays their kept cards of declared kinds, in turn order; the
            # answers run on from one player to the next, and must all be used by the last
            game.state.phase = SETUP  # as in a game: before the first action phase (no policy, no tax)
            for index in game.turn_order():
                if game.state.kept and game.state.kept[index]:
                    self.drive(phases.play_kept, (index,), answers, None, where, last=False)
            game.state.phase = ACTION
            if answers:
                raise self.unused(where, answers)
        elif kind == "start of game":  # the rules declared `at: start of game` (a solo set-up rule)
            game.state.phase = SETUP
            for rule in game.elements.rules.get("start_of_game", ()):
                self.drive(phases.run_rule, (rule.name, "start_of_game"), answers, None, where, last=False)
            game.state.phase = ACTION
            if answers:
                raise self.unused(where, answers)
        elif kind == "end":
            self.finish(answers, where)
        elif kind == "pass":
            game.state.players[player].passed = True
        else:
            target = step[kind]
            action = (ACTION_KEYS[kind],) if kind == "first action" else (ACTION_KEYS[kind], str(target))
            state = game.state.players[player]
            if game.state.over:
                reason = "the game is over"
            elif state.passed:
                reason = f"{state.name} has passed this generation"
            else:
                reason = why_not(game, player, action)
            if refused is not None:
                if reason is None:
                    self.outcome.failures.append(f"{where}: expected '{kind} {target}' to be refused "
                                                 f"({refused}), but it is legal")
                elif str(refused).lower() not in reason.lower():
                    self.outcome.failures.append(f"{where}: refused for '{reason}', expected '{refused}'")
                return self._step_expect(where, step)
            if reason is not None:
                self.outcome.failures.append(f"{where}: '{kind} {target}' was refused: {reason}")
                return None
            self.drive(take_action, (player, action), answers, payment, where)
        self._step_expect(where, step)

    def finish(self, answers: list[str], where: str) -> None:
        """Final greenery conversion (answered from `choose`), then final scoring: the game is over."""
        game = self.game
        game.state.phase = FINAL_GREENERY
        self.drive(phases.final_greenery_phase, (), answers, None, where)
        game.state.phase = END
        game.state.over = True
        game.result = final_scores(game)

    def _step_expect(self, where: str, step: dict) -> None:
        for key, present in (("offers", True), ("does not offer", False)):
            wanted = step.get(key)
            numbered = wanted.items() if isinstance(wanted, dict) else [(1, wanted)]
            for number, label in ((int(n), str(label)) for n, labels in numbered for label in _as_list(labels)):
                about = _about(label)
                about_it = [d for d in self.asked
                            if any(_about(o.label) == about for o in islice(d.options, OPTIONS_SCANNED))]
                # the order of a card's effects (`order:`'s question) only when no other decision is about it: its
                # options begin with the effects' words (`move ...`), which a card picked by one shares
                about_it = [d for d in about_it if d.kind != "order"] or about_it
                # `offers: {2: [...]}`: the 2nd decision about that thing (a second placement of one effect)
                decision = about_it[number - 1] if number <= len(about_it) else None
                if decision is None and number > 1:
                    self.outcome.failures.append(f"{where}: {len(about_it)} decision(s) about '{about}' were "
                                                 f"asked, not {number}")
                elif decision is None:
                    self.outcome.failures.append(f"{where}: no decision about '{about}' was asked")
                elif _offers(decision, label) != present:
                    self.outcome.failures.append(
                        f"{where}: '{decision.prompt}' {'does not offer' if present else 'offers'} '{label}'; "
                        f"options: {_shown(decision)}")
        if "expect" in step:
            with self.failures_at(_span(step, "expect")):
                self.expect(where, step["expect"])

    def drive(self, step, args: tuple, answers: list[str], payment, where: str, last: bool = True) -> None:
        """Run one step of the rules (an action, production, ...) in the sandbox, answering every question it
        asks (a lone option too, so that `offers` can see it); `last`: every answer must have been used by now."""
        game = self.game
        game.answer_single_options = False
        game.start_flow(step, *args)
        while game.flow.asking is not None:
            decision = game.pending()
            self.asked.append(decision)
            game.apply(self.answer(decision, answers, payment, where))
        if answers and last:
            raise self.unused(where, answers)

    def answer(self, decision: Decision, answers: list[str], payment, where: str):
        if len(decision.options) == 1:
            if decision.kind != "pay":   # a payment is answered by `pay:`, never by `choose:`
                self.answered_alone.append(decision)
            return decision.options[0]
        if decision.kind == "order":  # a card's effects: as written, unless the step gives `order:`
            if not self.order:
                return decision.options[0]
            choice = self.order.pop(0)
        elif decision.kind == "pay" and payment is not None:
            choice = str(payment)
        elif answers:
            choice = answers.pop(0)
            if isinstance(choice, SeatAnswer):
                choice = self._by_seat(decision, choice, where)
        else:
            raise ScenarioError(f"{where}: '{decision.prompt}' needs an answer (choose: ...); options: "
                                + _shown(decision))
        option = decision.find(choice)
        if option is None:
            raise ScenarioError(f"{where}: '{choice}' is not an option of '{decision.prompt}'; options: "
                                + _shown(decision))
        return option

    def _by_seat(self, decision: Decision, given: "SeatAnswer", where: str) -> str:
        """The label of an answer given as a player's (`bob: space 31`), once that player is the one asked."""
        seat = self.player(given.seat)
        if decision.player != seat:
            names = self.game.state.players
            made_for = f" (for {names[decision.for_player].name})" if decision.for_player is not None else ""
            raise ScenarioError(f"{where}: '{decision.prompt}'{made_for} is asked of {names[decision.player].name}, "
                                f"not {given.seat}, who was to answer '{given.label}'; options: " + _shown(decision))
        return given.label

    # ------------------------------------------------------------------ expectations

    def expect(self, where: str, spec: dict) -> None:
        state = self.game.state
        fail = self.outcome.failures.append
        for key, value in (spec.get("globals") or {}).items():
            actual = getattr(state, key, None)
            if actual != value:
                with self.failures_at(_span(spec.get("globals"), key)):
                    fail(f"{where}: {key} is {actual}, expected {value}")
        for key, value in (spec.get("parameters") or {}).items():
            actual = state.parameters.get(str(key).lower())
            if actual != value:
                with self.failures_at(_span(spec.get("parameters"), key)):
                    fail(f"{where}: {key} is {actual}, expected {value}")
        for name, wanted in (spec.get("players") or {}).items():
            with self.failures_at(_span(spec.get("players"), name)):
                self._expect_player(where, state.players[self.player(name)], wanted or {})
        for space, wanted in (spec.get("tiles") or {}).items():
            with self.failures_at(_span(spec.get("tiles"), space)):
                self._expect_tile(where, space, wanted)
        if "milestones" in spec:
            actual = [(m, state.players[p].name) for m, p in state.milestones]
            wanted = [(e["name"], e["player"]) for e in spec["milestones"]]
            if actual != wanted:
                fail(f"{where}: milestones are {actual}, expected {wanted}")
        if "awards" in spec:
            actual = [(a, state.players[p].name) for a, p in state.awards]
            wanted = [(e["name"], e["player"]) for e in spec["awards"]]
            if actual != wanted:
                fail(f"{where}: awards are {actual}, expected {wanted}")
        self._expect_sites(where, spec)
        if "government" in spec:
            self._expect_government(where, spec["government"] or {})
        if "state" in spec:  # any value of the saved state, by a dotted path: players.0.tr, claims.31, deck.-1
            snapshot = self.game.snapshot()
            for path, wanted in spec["state"].items():
                actual = _lookup(snapshot, str(path))
                if actual != wanted:
                    fail(f"{where}: state {path} is {actual!r}, expected {wanted!r}")
        if "score" in spec:
            result = self.game.result or final_scores(self.game)
            rows = {row["name"]: row for row in result["players"]}
            for name, wanted in spec["score"].items():
                if name == "winner":
                    if result["winner"] != wanted:
                        fail(f"{where}: winner is {result['winner']}, expected {wanted}")
                    continue
                for key, value in wanted.items():
                    actual = rows[name].get(key)
                    if actual != value:
                        fail(f"{where}: {name}'s score {key} is {actual}, expected {value}")

    def _expect_government(self, where: str, wanted: dict) -> None:
        """The government as expected: ruling and dominant faction, role holder, neutral reserve, and for each
        faction named the owners of its pieces (in any order) and its leader."""
        fail = self.outcome.failures.append
        government = self.game.state.government
        if government is None:
            fail(f"{where}: there is no government in this game")
            return
        said = {NEUTRAL: "neutral", None: "nobody", **{p.index: p.name for p in self.game.state.players}}
        for key in ("ruling", "dominant"):
            if key in wanted and getattr(government, key) != wanted[key]:
                fail(f"{where}: the {key} faction is {getattr(government, key)}, expected {wanted[key]}")
        if "role" in wanted and said[government.role] != (wanted["role"] or "nobody"):
            fail(f"{where}: the role is held by {said[government.role]}, expected {wanted['role']}")
        if "neutral" in wanted and government.neutral != wanted["neutral"]:
            fail(f"{where}: the neutral reserve holds {government.neutral}, expected {wanted['neutral']}")
        for name, given in (wanted.get("factions") or {}).items():
            faction = government.faction(str(name))
            if faction is None:
                fail(f"{where}: there is no faction {name}")
                continue
            owners = given.get("pieces") if isinstance(given, dict) else given
            actual = sorted(said[o] for o in faction.pieces)
            if owners is not None and actual != sorted(map(str, owners)):
                fail(f"{where}: the pieces in {name} are {actual}, expected {sorted(map(str, owners))}")
            if isinstance(given, dict) and "leader" in given and said[faction.leader] != (given["leader"] or "nobody"):
                fail(f"{where}: {name} is led by {said[faction.leader]}, expected {given['leader']}")

    def _expect_sites(self, where: str, spec: dict) -> None:
        """The sites in play, and each named site's state."""
        if "sites in play" in spec:
            actual = sorted(site.name for site in self.game.state.sites)
            if actual != sorted(map(str, spec["sites in play"])):
                self.outcome.failures.append(f"{where}: the sites in play are {actual}, expected "
                                             f"{sorted(map(str, spec['sites in play']))}")
        for name, wanted in (spec.get("sites") or {}).items():
            self._expect_site(where, str(name), wanted)
    def _expect_tile(self, where: str, space, wanted) -> None:
        """One space of `expect: tiles:`: its tile and owner, or nothing."""
        state = self.game.state
        fail = self.outcome.failures.append
        tile = state.tiles.get(_space(space))
        if wanted in (None, "none", "empty"):
            if tile is not None:
                fail(f"{where}: space {space} holds a {tile.kind}, expected nothing")
            return
        if isinstance(wanted, str):
            wanted = {"tile": wanted}
        if tile is None:
            fail(f"{where}: space {space} is empty, expected {wanted}")
            return
        if tile.kind != wanted.get("tile", tile.kind):
            fail(f"{where}: space {space} holds a {tile.kind}, expected {wanted['tile']}")
        owner_wanted = wanted.get("owner")
        if owner_wanted == "nobody":
            if tile.owner is not None:
                fail(f"{where}: space {space} belongs to player {tile.owner}, expected nobody")
        elif "owner" in wanted and tile.owner != (NEUTRAL if wanted["owner"] == "neutral"
                                                 else self.player(wanted["owner"])):
            owner = state.players[tile.owner].name if tile.owner is not None and tile.owner >= 0 else tile.owner
            fail(f"{where}: space {space} belongs to {owner}, expected {wanted['owner']}")
        if "on top of" in wanted:   # the tile under it (`empty`: none)
            below = state.covered.get(_space(space))
            kind = below.kind if below is not None else "empty"
            if kind != ("empty" if wanted["on top of"] in ("none", "empty") else wanted["on top of"]):
                fail(f"{where}: space {space} holds its {tile.kind} on top of {kind}, expected {wanted['on top of']}")
        if "marks" in wanted:
            marks = {m: n for m, n in tile.marks}
            expected = {str(m): int(n) for m, n in (wanted["marks"] or {}).items() if n}
            if marks != expected:
                fail(f"{where}: space {space} has the marks {marks or 'none'}, expected {expected or 'none'}")

    def _expect_site(self, where: str, name: str, wanted) -> None:
        fail = self.outcome.failures.append
        site = self.game.state.site(name)
        if wanted == "out of play":
            if site is not None:
                fail(f"{where}: {name} is in play, expected out of play")
            return
        if site is None:
            fail(f"{where}: {name} is not in play")
            return
        names = [p.name for p in self.game.state.players]
        wanted = wanted or {}
        if "marker" in wanted and site.marker != wanted["marker"]:
            fail(f"{where}: the marker of {name} is on step {site.marker}, expected {wanted['marker']}")
        if "pieces" in wanted and [names[p] for p in site.pieces] != list(wanted["pieces"] or []):
            fail(f"{where}: the pieces on {name} are {[names[p] for p in site.pieces]}, expected {wanted['pieces']}")
        if "visitor" in wanted:
            actual = "nobody" if site.visitor is None else names[site.visitor]
            if actual != (wanted["visitor"] or "nobody"):
                fail(f"{where}: {name} is visited by {actual}, expected {wanted['visitor']}")
        if "visitors" in wanted and [names[p] for p in site.visitors()] != list(wanted["visitors"] or []):
            fail(f"{where}: {name} is visited by {[names[p] for p in site.visitors()] or 'nobody'}, expected "
                 f"{wanted['visitors']}")
        if "active" in wanted and site.active != wanted["active"]:
            fail(f"{where}: {name} active is {site.active}, expected {wanted['active']}")

    def _expect_player(self, where: str, player, wanted: dict) -> None:
        fail = self.outcome.failures.append
        for section, table in (("resources", player.resources), ("production", player.production)):
            for resource, value in (wanted.get(section) or {}).items():
                actual = table[_resource(resource)]
                if actual != value:
                    fail(f"{where}: {player.name}'s {resource} {section if section == 'production' else ''}"
                         .rstrip() + f" is {actual}, expected {value}")
        if "tr" in wanted and player.tr != wanted["tr"]:
            fail(f"{where}: {player.name}'s TR is {player.tr}, expected {wanted['tr']}")
        if "hand" in wanted and sorted(player.hand) != sorted(wanted["hand"]):
            fail(f"{where}: {player.name}'s hand is {player.hand}, expected {wanted['hand']}")
        if "hand size" in wanted and len(player.hand) != wanted["hand size"]:
            fail(f"{where}: {player.name} holds {len(player.hand)} cards, expected {wanted['hand size']}")
        if "corporation" in wanted and player.corporations != _as_list(wanted["corporation"]):
            fail(f"{where}: {player.name}'s corporations are {player.corporations}, expected "
                 f"{_as_list(wanted['corporation'])}")
        for name in _as_list(wanted.get("played")):
            if player.card(name) is None:
                fail(f"{where}: {name} is not in play for {player.name}")
        for name in _as_list(wanted.get("events")):
            if name not in player.events:
                fail(f"{where}: {name} is not in {player.name}'s event pile")
        for name, value in (wanted.get("card resources") or {}).items():
            card = player.card(name)
            actual = card.resources if card else None
            if actual != value:
                fail(f"{where}: {name} holds {actual} resources, expected {value}")
        if "cards kept" in wanted:
            kept = {name: n for card in player.played for name, n in card.kept or ()}
            wanted_kept = {self.card(name): value for name, value in (wanted["cards kept"] or {}).items()}
            if kept != wanted_kept:
                fail(f"{where}: {player.name} keeps {kept or 'no cards'} on cards in play, expected "
                     f"{wanted_kept or 'none'}")
        for piece, value in (wanted.get("pieces") or {}).items():
            name = self.piece(piece)
            if player.pieces.get(name, 0) != value:
                fail(f"{where}: {player.name} has {player.pieces.get(name, 0)} {name} in supply, expected {value}")
        if "passed" in wanted and player.passed != wanted["passed"]:
            fail(f"{where}: {player.name} passed is {player.passed}, expected {wanted['passed']}")


def _with_inline_cards(text: str, path: str, span: Optional[Span] = None, card_paths: tuple[str, ...] = ()) -> Library:
    from tharsis.compiler import compile_text

    result = compile_text(text, f"{path} (cards)", with_bundled=True, beside=card_paths)
    if result.errors:
        raise ScenarioError("the scenario's cards do not compile:\n" + render_text(result.errors, result.sources),
                            span, "E612")
    return result.library


def _lookup(data, path: str):
    for part in path.split("."):
        if isinstance(data, list):
            try:
                data = data[int(part)]
            except (ValueError, IndexError):
                return f"<no {part!r} in a list of {len(data)}>"
        elif isinstance(data, dict):
            if part not in data:
                return f"<no {part!r}; keys: {', '.join(map(str, data))}>"   # every one: a designer reads them
            data = data[part]
        else:
            return f"<{path}: {part!r} is inside a plain value>"
    return data


def _resource(name: str) -> str:
    resource = v.normalize(str(name))
    if resource not in RESOURCES:
        raise ScenarioError(f"unknown resource {name!r}")
    return resource


def _space(space: Any) -> str:
    text = str(space)
    return text.zfill(2) if text.isdigit() else text


def _about(label: str) -> str:
    """What an option label is about: its first word (`space`, `player`, `card`), or `X` for `X=3`."""
    return re.split(r"[\s=]", str(label).strip(), maxsplit=1)[0]


def _offers(decision: Decision, label: str) -> bool:
    if isinstance(decision.options, NumberOptions):  # a range of X: looked up, never listed
        return decision.find(label) is not None
    return decision.find(label) is not None and label.lower() in (o.label.lower() for o in decision.options)


def _shown(decision: Decision, limit: int = 40) -> str:
    """The options of a decision for a message: at most `limit` of them (a range of X may hold millions)."""
    labels = [o.label for o in islice(decision.options, limit)]
    more = len(decision.options) - len(labels)
    return "; ".join(labels) + (f"; ... ({more} more)" if more > 0 else "")


@attrs.frozen
class SeatAnswer:
    """An answer of `choose:` given as a player's (`bob: space 31`): that player must be the one asked."""

    seat: str
    label: str

    def __str__(self) -> str:
        return f"{self.seat}: {self.label}"


def _answer(value):
    """An answer of `choose:`: its label, or a `SeatAnswer` for `{bob: space 31}`."""
    if isinstance(value, dict) and len(value) == 1:
        (seat, label), = value.items()
        return SeatAnswer(str(seat), str(label))
    return str(value)


def _as_list(value) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]
