"""Reading scenario files safely, and checking every key against the scenario format (docs/scenarios.md).

A scenario file is untrusted input: it must never crash, hang or exhaust memory, and every mistake in it is that
scenario's own error, with file:line:col, a caret, a stable code (E6xx, docs/errors.md) and a did-you-mean.

Reading: PyYAML's safe loader composes the node tree (a size limit keeps that linear and bounded); the tree is
then turned into plain values here, counting every value produced and every level of nesting, so an alias bomb
(a few hundred bytes that expand to billions of values), a recursive alias or a thousand nested brackets stop at
a limit with an error instead of a hang or a RecursionError. Mappings and lists remember where each key and item
was written (`Located`), so later checks and the runner can point at the line.

Checking: the format is data (`SCENARIO` below): for each key, what it holds. `check` walks a scenario against
it and reports unknown keys (with a did-you-mean), values of the wrong type, out-of-range values, and a scenario
that checks nothing at all.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional

import yaml

from tharsis.compiler import vocabulary as v
from tharsis.compiler.diagnostics import Diagnostic, Span, did_you_mean, render_text
from tharsis.games.options import PLAYERS, SEED_MAX
from tharsis.runtime.core.state import RESOURCES

MAX_BYTES = 1_000_000      # a scenario file of a megabyte is already hundreds of scenarios
MAX_VALUES = 100_000       # values after expanding aliases: an alias bomb stops here
MAX_DEPTH = 30             # nesting of mappings and lists; the format itself needs 6


class FormatError(Exception):
    """A file that cannot be read as scenarios at all; `diagnostic` says where and why."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class Located:
    """Where a mapping or list was written, and where each of its keys or items was."""

    path: str = "<scenario>"
    source: Optional[str] = None
    mark: tuple[int, int] = (0, 0)     # 1-based line and column; 0 when unknown (built in Python)
    marks: dict                         # key or index -> (line, column)

    def mark_of(self, key) -> tuple[int, int]:
        return self.marks.get(key, self.mark)

    def span(self, key=None, width: int = 1) -> Optional[Span]:
        line, column = self.mark_of(key) if key is not None else self.mark
        return Span.point(self.path, line, column, width) if line else None


class YamlMap(dict, Located):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.marks = {}
        self.value_marks: dict = {}    # key -> where its value starts (wrong values are pointed at there)

    def value_span(self, key) -> Optional[Span]:
        line, column = self.value_marks.get(key) or self.mark_of(key)
        return Span.point(self.path, line, column) if line else None


class YamlList(list, Located):
    def __init__(self, *args):
        super().__init__(*args)
        self.marks = {}


def _span_of(path: str, mark) -> Optional[Span]:
    return Span.point(path, mark.line + 1, mark.column + 1) if mark is not None else None


class _DepthLimitedLoader(yaml.SafeLoader):
    """The safe loader, composing no deeper than MAX_DEPTH levels (the composer is recursive)."""

    def __init__(self, stream, path: str):
        super().__init__(stream)
        self.path = path
        self.depth = 0

    def compose_node(self, parent, index):
        if self.depth >= MAX_DEPTH:
            event = self.peek_event()
            raise FormatError(Diagnostic("E603", "error", f"the YAML is nested more than {MAX_DEPTH} levels deep",
                                         _span_of(self.path, event.start_mark),
                                         "a scenario needs a handful of levels; flatten the file"))
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def read(path: str, text: str) -> Any:
    """The YAML document of a scenario file as plain values (YamlMap, YamlList, scalars), or FormatError."""
    if len(text) > MAX_BYTES:
        raise FormatError(Diagnostic("E604", "error", f"the file is larger than {MAX_BYTES // 1000} KB",
                                     Span.point(path, 1, 1), "split it into several scenario files"))
    try:
        loader = _DepthLimitedLoader(text, path)  # the reader refuses control characters here, before any parsing
    except yaml.reader.ReaderError as exc:
        raise FormatError(_unreadable_character(path, text, exc)) from None
    try:
        node = loader.get_single_node()
    except FormatError:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = " ".join(str(part) for part in (exc.context, exc.problem) if part) or "not valid YAML"
        raise FormatError(Diagnostic("E601", "error", f"not valid YAML: {message}", _span_of(path, mark),
                                     "check the indentation, the colons and the brackets around this place")) from None
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        raise FormatError(Diagnostic("E601", "error", f"not valid YAML: {exc}", Span.point(path, 1, 1))) from None
    finally:
        loader.dispose()
    if node is None:
        return None
    return _Values(loader, path, text).value(node, 0)


def _unreadable_character(path: str, text: str, error: yaml.reader.ReaderError) -> Diagnostic:
    """E601 at a character YAML does not allow (NUL, the other control characters but tab and line breaks, C1
    controls, U+FFFE and U+FFFF), with the escape that writes it in a double-quoted string."""
    position = error.position if isinstance(error.position, int) and 0 <= error.position <= len(text) else 0
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    code = error.character if isinstance(error.character, int) else ord(text[position]) if position < len(text) else 0
    escape = f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return Diagnostic("E601", "error", f"not valid YAML: the character U+{code:04X} (a control character or a "
                                       "non-character) is not allowed in a YAML file", Span.point(path, line, column),
                      f"delete it; to keep it in a value, write it as an escape in double quotes: \"{escape}\"")


class _Values:
    """Turns composed YAML nodes into values, counting them: aliases may repeat a node, never beyond the limits."""

    def __init__(self, loader, path: str, text: str):
        self.loader, self.path, self.text = loader, path, text
        self.count = 0

    def value(self, node, depth: int):
        self.count += 1
        if self.count > MAX_VALUES or depth > MAX_DEPTH:
            too_many = self.count > MAX_VALUES
            raise FormatError(Diagnostic(
                "E602", "error",
                f"the file expands to more than {MAX_VALUES:,} values" if too_many else
                f"aliases nest the file more than {MAX_DEPTH} levels deep",
                _span_of(self.path, node.start_mark),
                "an alias (*name) repeats everything under its anchor (&name): an alias of aliases grows "
                "exponentially, an alias inside its own anchor forever; write the values out"))
        if isinstance(node, yaml.MappingNode):
            result = YamlMap()
            self._locate(result, node)
            merged = []
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":  # `<<: *base` copies base's keys not given here
                    merged.append((key_node, self.value(value_node, depth + 1)))
                    continue
                if not isinstance(key_node, yaml.ScalarNode):
                    raise FormatError(Diagnostic("E606", "error", "a key must be a plain word, not a mapping or a "
                                                 "list", _span_of(self.path, key_node.start_mark)))
                key = self.scalar(key_node)
                if isinstance(key, (list, dict)) or not _hashable(key):
                    key = str(key)
                if key in result:
                    raise FormatError(Diagnostic("E608", "error", f"'{key}' is given twice in one mapping",
                                                 _span_of(self.path, key_node.start_mark),
                                                 f"the first is on line {result.marks[key][0]}; keep one"))
                result.marks[key] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                result.value_marks[key] = (value_node.start_mark.line + 1, value_node.start_mark.column + 1)
                result[key] = self.value(value_node, depth + 1)
            for key_node, value in merged:
                for base in (value if isinstance(value, list) else [value]):
                    if not isinstance(base, YamlMap):
                        raise FormatError(Diagnostic("E606", "error", "`<<` merges a mapping (or a list of them)",
                                                     _span_of(self.path, key_node.start_mark)))
                    for key, item in base.items():
                        if key not in result:
                            result[key] = item
                            result.marks[key] = base.marks.get(key, base.mark)
                            result.value_marks[key] = base.value_marks.get(key, base.mark)
            return result
        if isinstance(node, yaml.SequenceNode):
            result = YamlList()
            self._locate(result, node)
            for index, item in enumerate(node.value):
                result.marks[index] = (item.start_mark.line + 1, item.start_mark.column + 1)
                result.append(self.value(item, depth + 1))
            return result
        return self.scalar(node)

    def scalar(self, node):
        try:
            return self.loader.construct_object(node, deep=False)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:  # a 5,000-digit number, a bad !!binary, ...
            raise FormatError(Diagnostic("E606", "error", f"cannot read the value '{node.value[:40]}': "
                                         f"{str(exc).splitlines()[0][:120]}",
                                         _span_of(self.path, node.start_mark))) from None

    def _locate(self, result: Located, node) -> None:
        result.path, result.source = self.path, self.text
        result.mark = (node.start_mark.line + 1, node.start_mark.column + 1)


def _hashable(value) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


# ---------------------------------------------------------------------------------------------- the format


class Shape:
    """What a value must be. `check` appends a Diagnostic for each problem; `describe` names it for messages."""

    name = "a value"

    def check(self, value, where: "Place", report: list) -> None:
        raise NotImplementedError


class Place:
    """A value's position: its container and key (for the line), and the dotted path (for messages)."""

    def __init__(self, container, key, path: str, fallback: Optional[Span], cards: Optional[Any] = None):
        self.container, self.key, self.path, self.fallback = container, key, path, fallback
        self.cards = cards   # the names of the loaded cards and corporations, when known

    def span(self, width: int = 1) -> Optional[Span]:
        if isinstance(self.container, YamlMap) and self.key is not None:
            return self.container.value_span(self.key) or self.fallback
        if isinstance(self.container, Located):
            return self.container.span(self.key, width) or self.fallback
        return self.fallback

    def child(self, container, key, label: str) -> "Place":
        return Place(container, key, f"{self.path}.{label}" if self.path else label, self.span(), self.cards)


def _kind_of(value) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"'{str(value).lower()}' (true/false)"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text '{value[:40]}'"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"a {type(value).__name__}"


def _wrong(where: Place, shape: Shape, value, report: list) -> None:
    report.append(Diagnostic("E606", "error", f"'{where.path}' should be {shape.name}, not {_kind_of(value)}",
                             where.span(), getattr(shape, "example", None)))


class Scalar(Shape):
    def __init__(self, *types: type, name: str, example: Optional[str] = None,
                 valid: Optional[Callable[[Any], Optional[str]]] = None):
        self.types, self.name, self.example, self.valid = types, name, example, valid

    def check(self, value, where, report):
        if isinstance(value, bool) and bool not in self.types or not isinstance(value, self.types):
            _wrong(where, self, value, report)
        elif self.valid is not None:
            problem = self.valid(value)
            if problem:
                report.append(Diagnostic("E607", "error", f"'{where.path}': {problem}", where.span()))


class CardName(Scalar):
    """The name of a card or corporation: must be in the loaded content (checked when the content is known)."""

    def __init__(self):
        super().__init__(str, name="a card's name")

    def check(self, value, where, report):
        super().check(value, where, report)
        if isinstance(value, str) and where.cards is not None and value not in where.cards:
            guess = did_you_mean(value, where.cards)
            report.append(Diagnostic(
                "E611", "error", f"card '{value}' is not in the loaded content (the bundled cards, the folders "
                f"given with --cards and the scenario's own `cards:`)", where.span(),
                "a card of your own? load its folder: tharsis test PATH --cards DIR"
                + (f" ({guess})" if guess else "")))


class ListOf(Shape):
    def __init__(self, item: Shape, single: bool = False, valid: Optional[Callable[[list], Optional[str]]] = None):
        """`single`: one item may be written without the brackets (`played: Pets`)."""
        self.item, self.single, self.valid = item, single, valid
        self.name = f"a list (each {item.name})" + (" or just one" if single else "")

    def check(self, value, where, report):
        if not isinstance(value, list):
            if self.single:
                self.item.check(value, where, report)
            else:
                _wrong(where, self, value, report)
            return
        for index, item in enumerate(value):
            self.item.check(item, where.child(value, index, str(index)), report)
        if self.valid is not None:
            problem = self.valid(value)
            if problem:
                report.append(Diagnostic("E607", "error", f"'{where.path}': {problem}", where.span()))


class Fields(Shape):
    """A mapping with a closed set of keys (each with its shape)."""

    def __init__(self, fields: dict[str, Shape], name: str = "a mapping", required: tuple[str, ...] = ()):
        self.fields, self.name, self.required = fields, name, required

    def check(self, value, where, report):
        if not isinstance(value, dict):
            _wrong(where, self, value, report)
            return
        for key in self.required:
            if key not in value:
                report.append(Diagnostic("E606", "error", f"'{where.path}' needs '{key}'", where.span(),
                                         f"e.g. {self.name}"))
        for key, item in value.items():
            shape = self.fields.get(key) if isinstance(key, str) else None
            if shape is None:
                report.append(_unknown_key(key, self.fields, value, where))
                continue
            shape.check(item, where.child(value, key, str(key)), report)


class KeyedBy(Shape):
    """A mapping whose keys are open (player names, space ids) or from a vocabulary (resources)."""

    def __init__(self, value: Shape, name: str, keys: Optional[Iterable[str]] = None,
                 normalize: Callable[[str], str] = str):
        self.value, self.name, self.normalize = value, name, normalize
        self.keys = tuple(keys) if keys is not None else None

    def check(self, value, where, report):
        if not isinstance(value, dict):
            _wrong(where, self, value, report)
            return
        for key, item in value.items():
            if self.keys is not None and self.normalize(str(key)) not in self.keys:
                report.append(_unknown_key(key, self.keys, value, where))
                continue
            self.value.check(item, where.child(value, key, str(key)), report)


class AnyOf(Shape):
    """The first shape whose Python type fits the value (a step is a word or a mapping)."""

    def __init__(self, *shapes: Shape, name: str):
        self.shapes, self.name = shapes, name

    def check(self, value, where, report):
        for shape in self.shapes:
            if _fits(shape, value):
                shape.check(value, where, report)
                return
        _wrong(where, self, value, report)


class Anything(Shape):
    name = "any value"

    def check(self, value, where, report):
        return


def _fits(shape: Shape, value) -> bool:
    if isinstance(shape, Scalar):
        return isinstance(value, shape.types) and not (isinstance(value, bool) and bool not in shape.types)
    if isinstance(shape, (Fields, KeyedBy, SeatAnswer)):
        return isinstance(value, dict)
    if isinstance(shape, ListOf):
        return isinstance(value, list) or (shape.single and _fits(shape.item, value))
    return True


def _unknown_key(key, known: Iterable[str], container, where: Place) -> Diagnostic:
    span = container.span(key, len(str(key))) if isinstance(container, Located) else None
    hint = did_you_mean(str(key), known) or ("keys here: " + ", ".join(sorted(known)))
    inside = f" in '{where.path}'" if where.path else ""
    return Diagnostic("E605", "error", f"unknown key '{key}'{inside}", span or where.span(), hint)


def _players_ok(players: list) -> Optional[str]:
    if not PLAYERS[0] <= len(players) <= PLAYERS[1]:  # the same bounds as the flags and saves of a game
        return f"a game has {PLAYERS[0]} to {PLAYERS[1]} players, not {len(players)}"
    if len(set(map(str, players))) != len(players):
        return "two players with one name"
    return None


def _seed_ok(seed: int) -> Optional[str]:
    return None if 0 <= seed <= SEED_MAX else "a seed is a whole number from 0 to 2^63-1"


def _resource_key(name: str) -> str:
    return v.normalize(name)


TEXT = Scalar(str, name="a text")
NUMBER = Scalar(int, name="a whole number")
FLAG = Scalar(bool, name="true or false")
FLAG_OR_NOTHING = Scalar(bool, type(None), name="true or nothing")
NAME = Scalar(str, name="a name")
LABEL = Scalar(str, int, name="an option's label", example="e.g. `space 31`, `player bob`, `X=3`")
SPACE_ID = Scalar(str, int, name="a space id")
class ByDecision(KeyedBy):
    """`offers: {2: [space 05]}`: labels keyed by the number of the decision they are about (the 2nd of the step
    about a space), each key a whole number from 1."""

    def check(self, value, where, report):
        if isinstance(value, dict):
            for key in value:
                if not (isinstance(key, int) and not isinstance(key, bool) or str(key).isdigit()) or int(key) < 1:
                    report.append(Diagnostic("E607", "error", f"'{where.path}': '{key}' is no decision's number "
                                             "(1 the first of the step about that thing, 2 the second, ...)",
                                             where.span()))
                    return
        super().check(value, where, report)


OFFERED = AnyOf(ListOf(LABEL, single=True),
                ByDecision(ListOf(LABEL, single=True), "labels by the number of the decision"),
                name="labels (`[space 21]`), or labels by decision number (`{2: [space 05]}`)")
RESOURCE_NUMBERS = KeyedBy(NUMBER, "resources and amounts", keys=RESOURCES, normalize=_resource_key)


class SeatAnswer(Shape):
    """An answer given as a player's (`bob: space 31`): a mapping of one player's name to the label, so that the
    scenario checks that this player is the one asked (docs/scenarios.md "Who is asked")."""

    name = "an option's label, or one player's answer (`bob: space 31`)"
    example = "e.g. `space 31`, or `bob: space 31` (bob is the one asked)"

    def check(self, value, where, report):
        if len(value) != 1:
            report.append(Diagnostic("E606", "error", f"'{where.path}': an answer given as a player's names one "
                                     f"player, not {len(value)}", where.span(), self.example))
            return
        for seat, label in value.items():
            NAME.check(seat, where, report)
            LABEL.check(label, where.child(value, seat, str(seat)), report)


ANSWER = AnyOf(LABEL, SeatAnswer(), name="an option's label, or one player's answer (`bob: space 31`)")
PLAYER_AND_NAME = Fields({"name": NAME, "player": NAME}, name="`{name: Mayor, player: alice}`",
                         required=("name", "player"))
TILE_KIND = Scalar(str, name="a tile", valid=lambda kind: None if kind in v.TILES else
                   f"unknown tile '{kind}'; {did_you_mean(kind, v.TILES) or 'tiles: ' + ', '.join(v.TILES)}")
EXPECTED_TILE = Scalar(str, name="a tile", valid=lambda kind: None if kind in v.TILES + ("empty", "none") else
                       f"unknown tile '{kind}'; "
                       f"{did_you_mean(kind, v.TILES + ('empty',)) or 'tiles: ' + ', '.join(v.TILES)}")

CARD = CardName()
CORPORATION = AnyOf(CARD, Fields({"card": CARD, "resources": NUMBER}, name="`{card: Arklight, resources: 2}`",
                                 required=("card",)),
                    name="a corporation's name or `{card: Arklight, resources: 2}`")
PLAYER_SETUP = Fields({
    "corporation": ListOf(CORPORATION, single=True),   # a list for a player with several
    "start": FLAG, "first action pending": FLAG, "used": FLAG, "tr": NUMBER,
    "resources": RESOURCE_NUMBERS, "production": RESOURCE_NUMBERS, "hand": ListOf(CARD),
    "played": ListOf(AnyOf(CARD, Fields({"card": CARD, "resources": NUMBER, "used": FLAG, "tile": SPACE_ID,
                                         "kept": KeyedBy(NUMBER, "cards kept on it and the resources on each")},
                                        name="`{card: Pets, resources: 2}`", required=("card",)),
                           name="a card name or `{card: Pets, resources: 2}`")),
    "events": ListOf(CARD), "tr raised this generation": NUMBER, "kept": ListOf(CARD),
    "removed this generation": KeyedBy(NUMBER, "resources this player removed from other players this generation"),
    "harmed by this generation": ListOf(NAME),
    "pieces": KeyedBy(NUMBER, "declared pieces and how many are in the supply"),
}, name="a player's set-up")

MARKS = KeyedBy(NUMBER, "declared marks on the tile and how many (`{cathedral: 1}`)")
TILE = AnyOf(TILE_KIND, Fields({"tile": TILE_KIND, "owner": NAME, "name": NAME, "on top of": TILE_KIND, "marks": MARKS},
                              name="`{tile: city, owner: alice}`", required=("tile",)),
             name="a tile: `ocean` or `{tile: city, owner: alice}`")

def _on_track(parameter: str) -> Scalar:
    low, high, step, unit = v.GLOBAL_RANGES[parameter]
    return Scalar(int, name="a whole number", valid=lambda value: None if low <= value <= high and
                  (value - low) % step == 0 else f"{parameter} runs from {low}{unit} to {high}{unit}"
                  + (f" in steps of {step}" if step > 1 else "") + f", not {value}")


SITE = Fields({"marker": NUMBER, "pieces": ListOf(NAME), "visitor": NAME, "visitors": ListOf(NAME), "active": FLAG},
              name="`{marker: 2, pieces: [alice, bob], visitor: alice, active: true}`")

FACTION = AnyOf(ListOf(NAME), Fields({"pieces": ListOf(NAME), "leader": NAME},
                                    name="`{pieces: [alice, neutral], leader: alice}`"),
                name="the owners of a faction's pieces (`[alice, neutral]`) or `{pieces: [...], leader: alice}`")
GOVERNMENT = Fields({"ruling": NAME, "dominant": NAME, "role": NAME, "neutral": NUMBER,
                     "factions": KeyedBy(FACTION, "factions and the owners of their pieces")},
                    name="`{ruling: Reds, dominant: Greens, role: alice, neutral: 10, factions: {Reds: [alice]}}`")

SETUP = Fields({
    "globals": Fields({"temperature": _on_track("temperature"), "oxygen": _on_track("oxygen"),
                       "oceans": _on_track("oceans"),
                       "generation": Scalar(int, name="a whole number",
                                            valid=lambda g: None if 1 <= g <= 999 else "generations run from 1"),
                       "first_player": NAME}, name="global parameters"),
    "players": KeyedBy(AnyOf(PLAYER_SETUP, Scalar(type(None), name="nothing"), name="a player's set-up"),
                       "players and their set-up"),
    "tiles": KeyedBy(TILE, "spaces and tiles"),
    "deck": ListOf(CARD), "whole deck": ListOf(CARD), "discard": ListOf(CARD),
    "milestones": ListOf(PLAYER_AND_NAME), "awards": ListOf(PLAYER_AND_NAME),
    "parameters": KeyedBy(NUMBER, "declared global parameters and their values"),
    "piles": KeyedBy(ListOf(CARD), "declared kinds of card and the top of their piles"),
    "sites": KeyedBy(SITE, "declared sites in play and their state"),
    "government": GOVERNMENT,
    "stages": KeyedBy(ListOf(AnyOf(CARD, Scalar(type(None), name="nothing"), name="a card or nothing")),
                      "declared kinds with stages and the card in each stage, first stage first"),
}, name="a set-up")

PLAYER_EXPECT = Fields({
    "resources": RESOURCE_NUMBERS, "production": RESOURCE_NUMBERS, "tr": NUMBER, "hand": ListOf(NAME),
    "hand size": NUMBER, "played": ListOf(NAME, single=True), "events": ListOf(NAME, single=True),
    "corporation": ListOf(NAME, single=True),
    "card resources": KeyedBy(NUMBER, "cards and their resources"), "passed": FLAG,
    "pieces": KeyedBy(NUMBER, "declared pieces and how many are in the supply"),
    "cards kept": KeyedBy(NUMBER, "every card kept on the player's cards in play and the resources on it"),
}, name="a player's expectations")

SCORE_KEYS = ("tr", "milestones", "awards", "greeneries", "cities", "cards", "government", "total")

EXPECT = Fields({
    "globals": Fields({"temperature": NUMBER, "oxygen": NUMBER, "oceans": NUMBER, "generation": NUMBER},
                      name="global parameters"),
    "players": KeyedBy(AnyOf(PLAYER_EXPECT, Scalar(type(None), name="nothing"), name="a player's expectations"),
                       "players and their expectations"),
    "tiles": KeyedBy(AnyOf(EXPECTED_TILE, Scalar(type(None), name="nothing"),
                           Fields({"tile": TILE_KIND, "owner": NAME, "on top of": EXPECTED_TILE, "marks": MARKS},
                                  name="a tile"), name="a tile or `empty`"),
                     "spaces and tiles"),
    "milestones": ListOf(PLAYER_AND_NAME), "awards": ListOf(PLAYER_AND_NAME),
    "parameters": KeyedBy(NUMBER, "declared global parameters and their values"),
    "score": KeyedBy(AnyOf(Fields({k: NUMBER for k in SCORE_KEYS}, name="a score breakdown"), NAME,
                           Scalar(type(None), name="nothing"), name="a score breakdown (or the winner's name)"),
                     "players and their scores, or winner"),
    "state": KeyedBy(Anything(), "dotted paths and values"),
    "sites": KeyedBy(AnyOf(SITE, Scalar(str, name="`out of play`", valid=lambda word: None if word == "out of play"
                                        else f"'{word}': a site's state, or `out of play`"),
                           name="a site's state or `out of play`"), "declared sites and their state"),
    "sites in play": ListOf(NAME),
    "government": GOVERNMENT,
}, name="expectations")

ACTION_STEPS = ("play", "action", "project", "convert", "claim", "fund")
PHASE_STEPS = ("pass", "production", "generation", "research", "neutral setup", "kept cards", "start of game",
               "end")
STEP_FIELDS: dict[str, Shape] = {key: NAME for key in ACTION_STEPS}
STEP_FIELDS.update({"play": CARD, "action": CARD})
STEP_FIELDS.update({key: FLAG_OR_NOTHING for key in PHASE_STEPS + ("first action",)})
STEP_FIELDS.update({
    "player": NAME, "choose": ListOf(ANSWER, single=True), "order": ListOf(LABEL, single=True), "pay": LABEL,
    "refused": Scalar(str, int, name="a text"), "offers": OFFERED, "does not offer": OFFERED, "expect": EXPECT,
})
STEP = AnyOf(Scalar(str, name="a step", valid=lambda word: None if word in PHASE_STEPS else
                    f"'{word}' is not a step; {did_you_mean(word, PHASE_STEPS) or 'steps: ' + ', '.join(PHASE_STEPS)}"),
             Fields(STEP_FIELDS, name="a step"), name="a step (a word such as `production`, or a mapping)")

OPTIONS = Fields({
    "players": ListOf(NAME, valid=_players_ok), "seed": Scalar(int, name="a whole number", valid=_seed_ok),
    "board": NAME, "corporate_era": FLAG, "draft": FLAG, "solo_tr63": FLAG, "expansions": ListOf(NAME),
    "sites": ListOf(NAME),
}, name="game options")

SCENARIO = Fields({
    "name": TEXT, "options": OPTIONS, "cards": TEXT, "setup": SETUP, "steps": ListOf(STEP), "expect": EXPECT,
    "xfail": TEXT,
}, name="a scenario")

CHECKING_STEP_KEYS = ("expect", "refused", "offers", "does not offer")


def check(spec: dict, cards: Optional[Any] = None) -> list[Diagnostic]:
    """Every problem of one scenario against the format, in file order; with `cards` (the names of the loaded
    cards and corporations), also every card it names that is not loaded."""
    report: list[Diagnostic] = []
    top = Place(spec, None, "", spec.span() if isinstance(spec, Located) else None, cards)
    SCENARIO.check(spec, top, report)
    if not report and not _checks_something(spec):
        report.append(Diagnostic("E609", "error", "this scenario checks nothing: it has no `expect` and no step "
                                 "with `expect`, `refused`, `offers` or `does not offer`", top.span(),
                                 "say what should be true afterwards, e.g. `expect: {players: {alice: {tr: 21}}}`"))
    return report


def _checks_something(spec: dict) -> bool:
    if spec.get("expect"):
        return True
    steps = spec.get("steps") or []
    return any(isinstance(step, dict) and any(step.get(k) not in (None, [], {}) for k in CHECKING_STEP_KEYS)
               for step in steps)


def render(diagnostics: list[Diagnostic], spec_or_text) -> str:
    """The diagnostics as `path:line:col: error[E6xx]: message`, the source line, a caret and the hint."""
    sources = {}
    source = spec_or_text.source if isinstance(spec_or_text, Located) else spec_or_text
    for d in diagnostics:
        if d.span is not None and isinstance(source, str):
            sources[d.span.path] = source
    text = render_text(diagnostics, sources)
    return text.rsplit("\n", 1)[0] if "\n" in text else text  # without the closing "N errors" count
