"""Saving and restoring a game's exact state and flow as JSON, without replaying.

The flow's frames (runtime/core/flow.py) hold step functions, contexts, decisions and compiled effects. Functions are
written by their registered step name; compiled effects and definitions by the definition they belong to and their
position in a walk of that definition alone (`references`: {"x": [kind, name, n]}), so a save does not depend on
what else is loaded (a card added to the content, or left out of a game, renumbers nothing); runtime values
(contexts, options, decisions, tuples) by a small tagged encoding. JSON has no tuples, so containers are tagged:
{"t": [...]} a tuple, {"l": [...]} a list, {"d": [[key, value], ...]} a dict. Saves written before references
were per definition hold {"x": n}, a position in a walk of the whole library, and still load with that library.

This module trusts its input (`Game.from_json`: the Python API, tests, the benchmark). Reading a file a
user hands over is tharsis/games/saves.py's: it checks the file's shape with error codes (E7xx), rebuilds the game by
replaying its log and compares the result with the `state` written here; it does not read the `flow`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from tharsis.compiler import definitions, effects as fx

from ..core.decisions import Decision, NumberOptions, Option
from ..core.flow import STEPS, Ask, Flow, Step
from ..core.state import History, state_from_data
from ..rules.checks import EffectContext
from ..rules.legality import ActionMenu

if TYPE_CHECKING:
    from ..core.table import Table

_COMPILED_MODULES = (fx.__name__, definitions.__name__)
# the fields of an `EffectContext` every save writes (up to `raised`); those after them (`added`, `decider`, `actor`)
# came later and are written only up to the last that differs from its default, so that saves made before they
# existed stay as they were
_CONTEXT_FIELDS_ALWAYS_SAVED = 9
_REFERENCES: dict[int, tuple] = {}
_WHOLE_LIBRARY: dict[int, tuple] = {}


def _walk(value, visit) -> None:
    """Every compiled object inside `value`, depth first in field order, each once (`visit` returns False for an
    object already seen)."""
    if isinstance(value, (tuple, list)):
        for item in value:
            _walk(item, visit)
    elif isinstance(value, dict):
        for item in value.values():
            _walk(item, visit)
    elif attrs.has(type(value)) and type(value).__module__ in _COMPILED_MODULES:
        if visit(value):
            for field in attrs.fields(type(value)):
                _walk(getattr(value, field.name), visit)


def references(content) -> tuple[dict[int, list], dict[tuple, list]]:
    """(id of a compiled object -> [kind, name, n], (kind, name) -> the objects of that definition by n) for a
    compiled library, built once. Each definition is walked alone, so an object's reference depends on its own
    definition only; an object found in two definitions belongs to the first."""
    cached = _REFERENCES.get(id(content))
    if cached is not None and cached[0] is content:
        return cached[1], cached[2]
    numbers: dict[int, list] = {}
    objects: dict[tuple, list] = {}
    staged = {kind.name for kind in content.of_kind("card_kind") if kind.stages}
    for definition in content.definitions:
        kind = definition.kind
        if kind == "card" and definition.type in staged:  # its name is its kind's (a project card may share it)
            kind = f"card kind {definition.type}"
        objects[(kind, definition.name)] = _number(definition, numbers, kind)
    _REFERENCES[id(content)] = (content, numbers, objects)
    return numbers, objects


def _number(definition, numbers: dict[int, list], kind: str) -> list:
    """The objects of one definition in walk order; each not yet in `numbers` gets its [kind, name, n] there."""
    found: list = []
    seen: set[int] = set()

    def visit(value) -> bool:
        if id(value) in seen:
            return False
        seen.add(id(value))
        numbers.setdefault(id(value), [kind, definition.name, len(found)])
        found.append(value)
        return True

    _walk(definition, visit)
    return found


def _whole_library_walk(content) -> list:
    """The objects of a library by their position in one walk of it all: how saves numbered them before references
    were per definition (read only)."""
    cached = _WHOLE_LIBRARY.get(id(content))
    if cached is not None and cached[0] is content:
        return cached[1]
    seen: set[int] = set()
    objects: list = []

    def visit(value) -> bool:
        if id(value) in seen:
            return False
        seen.add(id(value))
        objects.append(value)
        return True

    _walk(content.definitions, visit)
    _WHOLE_LIBRARY[id(content)] = (content, objects)
    return objects


def encode(game: "Table", value):
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, tuple):
        return {"t": [encode(game, v) for v in value]}
    if isinstance(value, list):
        return {"l": [encode(game, v) for v in value]}
    if isinstance(value, dict):
        return {"d": [[encode(game, k), encode(game, v)] for k, v in value.items()]}
    if isinstance(value, Step):
        return {"s": value.function.step_name, "a": [encode(game, v) for v in value.args]}
    if isinstance(value, Ask):
        return {"ask": value.resume.step_name, "q": encode(game, value.decision),
                "a": [encode(game, v) for v in value.args]}
    if isinstance(value, ActionMenu):
        return {"menu": [value.player, value.number]}
    if isinstance(value, Decision):
        options = value.options
        # a choice made for another player (`decided by ... { }`) says for whom last; others are written as before
        for_player = [] if value.for_player is None else [value.for_player]
        if isinstance(options, NumberOptions):
            return {"decision": [value.player, value.kind, value.prompt, {"range": [options.low, options.high]}]
                    + for_player}
        return {"decision": [value.player, value.kind, value.prompt, [encode(game, o) for o in options]]
                + for_player}
    if isinstance(value, Option):
        return {"o": [value.label, encode(game, value.value)]}
    if isinstance(value, EffectContext):   # the fields added later are left out at their defaults, from the last
        fields = attrs.fields(EffectContext)   # on: saves stay as they were
        kept = len(fields)
        while kept > _CONTEXT_FIELDS_ALWAYS_SAVED and getattr(value, fields[kept - 1].name) == fields[kept - 1].default:
            kept -= 1
        return {"ctx": [encode(game, getattr(value, f.name)) for f in fields[:kept]]}
    numbers, _ = references(game.content)
    number = numbers.get(id(value))
    if number is None:
        raise ValueError(f"cannot save {value!r}: not part of the compiled content")
    return {"x": list(number)}


def decode(game: "Table", data):
    if data is None or isinstance(data, (bool, int, str)):
        return data
    if isinstance(data, list):
        raise ValueError("a saved flow value is malformed (an untagged list)")
    tag = next(iter(data))
    if tag == "t":
        return tuple(decode(game, v) for v in data["t"])
    if tag == "l":
        return [decode(game, v) for v in data["l"]]
    if tag == "d":
        return {decode(game, k): decode(game, v) for k, v in data["d"]}
    if tag == "s":
        return Step(_step(data["s"]), tuple(decode(game, v) for v in data["a"]))
    if tag == "ask":
        return Ask(decode(game, data["q"]), _step(data["ask"]), tuple(decode(game, v) for v in data["a"]))
    if tag == "menu":
        return ActionMenu(*data["menu"])
    if tag == "decision":
        player, kind, prompt, options, *for_player = data["decision"]
        for_player = for_player[0] if for_player else None
        if isinstance(options, dict):
            return Decision(player, kind, prompt, NumberOptions(*options["range"]), for_player)
        return Decision(player, kind, prompt, tuple(decode(game, o) for o in options), for_player)
    if tag == "o":
        return Option(data["o"][0], decode(game, data["o"][1]))
    if tag == "ctx":
        return EffectContext(*(decode(game, v) for v in data["ctx"]))
    if tag == "x":
        where = data["x"]
        if isinstance(where, int):  # a save from before references were per definition
            return _whole_library_walk(game.content)[where]
        kind, name, number = where
        found = references(game.content)[1].get((kind, name))
        if found is None or number >= len(found):
            raise ValueError(f"the save refers to the {kind.replace('_', ' ')} {name!r}, which is not in the content "
                             "(or has changed)")
        return found[number]
    raise ValueError(f"a saved flow value is malformed (unknown tag {tag!r})")


def _step(name: str):
    if name not in STEPS:
        raise ValueError(f"the save refers to an unknown step {name!r} (saved by another version?)")
    return STEPS[name]


def encode_flow(game: "Table") -> dict:
    flow = game.flow
    saved = {"stack": [encode(game, frame) for frame in flow.stack], "asking": encode(game, flow.asking),
             "playing": encode(game, flow.playing), "no_oxygen": flow.no_oxygen}
    # written only when set (a target of `steal`, an event going to that player's pile), so that other saves are
    # as before
    if flow.target is not None:
        saved["target"] = flow.target
    if flow.event_pile is not None:
        saved["event_pile"] = list(flow.event_pile)
    return saved


def restore(game: "Table", data: dict) -> None:
    """Fill a game built without state (`object.__new__` + tables) from a save's data."""
    from ..rules.scoring import final_scores

    game.state = state_from_data(data["state"], lambda m: decode(game, m))
    saved = data["flow"]
    game.flow = Flow(stack=[decode(game, f) for f in saved["stack"]], asking=decode(game, saved["asking"]),
                     playing=decode(game, saved["playing"]), no_oxygen=saved["no_oxygen"],
                     target=saved.get("target"),
                     event_pile=tuple(saved["event_pile"]) if saved.get("event_pile") else None)
    game.log = History(data["log"])
    game.deciders = None  # who made each choice: found again by replaying, when an information state asks
    game.events = History(data.get("events", ()))
    game._passives, game._view = {}, None
    game.result = final_scores(game) if game.state.over else None


def upgraded_reference(content, number: int) -> list:
    """The per-definition reference of what an older save numbered `number` in a walk of the whole library (so an
    older save's state compares with a state written now)."""
    numbers, _ = references(content)
    return list(numbers[id(_whole_library_walk(content)[number])])
