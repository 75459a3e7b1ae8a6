"""Cross-file check (after compiling, beside compiler/termination.py): a definition that raises or lowers a global
parameter of an expansion it neither belongs to nor `needs:` (W115).

A game deals a card or a corporation when its set and every set of its `needs:` are in play; a parameter is in a
game only with its own set. A corporation of a set always in play whose first action raises an expansion's parameter
is therefore dealt in games without that expansion: the runtime lets such a raise do nothing (as at the parameter's
top), so the designer is told here, with the field that keeps the card out of those games. A condition on such a
parameter is left alone: it never holds without it, which a card may mean ("3 MC per parameter at its top, the
expansion's too if in play").
"""

from __future__ import annotations

from typing import Iterable, Iterator

import attrs

from . import effects as fx
from .definitions import Library
from .diagnostics import Diagnostics

NEEDS_KINDS = ("card", "corporation")   # the kinds with a `needs:` field; the others are given the set instead


def check_parameter_sets(library: Library, diagnostics: Diagnostics) -> None:
    expansions = {e.name for e in library.of_kind("expansion")} | {"corpera"}
    owners = {p.name: p.set for p in library.of_kind("parameter") if p.set in expansions}
    if not owners:
        return
    for definition in library.definitions:
        own = getattr(definition, "set", None)
        if definition.kind == "parameter" or not isinstance(own, str):
            continue
        brought = {own, *getattr(definition, "needs", ())}
        missing = sorted({name for name in _parameters_changed(definition) if owners.get(name, own) not in brought})
        for name in missing:
            wanted = owners[name]
            hint = (f"add 'needs: {wanted}' to keep it out of games without {wanted}"
                    if definition.kind in NEEDS_KINDS else f"give it 'set: {wanted}'")
            diagnostics.warning("W115", f"{definition.kind.replace('_', ' ')} '{definition.name}' changes {name}, a "
                                        f"parameter of the set '{wanted}', but is dealt without it (set: {own}); "
                                        f"there the change does nothing",
                                definition.source, hint)


def _parameters_changed(definition) -> Iterator[str]:
    """The parameters a compiled definition raises or lowers anywhere (in blocks, triggers, actions, tracks)."""
    for value in _attrs_values(_values(definition)):
        if isinstance(value, fx.ChangeParameter) and value.parameter != "tr":
            yield value.parameter


def _values(definition) -> Iterator:
    for field in attrs.fields(type(definition)):
        if field.eq and field.name not in ("source", "name", "set", "needs"):
            yield getattr(definition, field.name)


def _attrs_values(values: Iterable) -> Iterator:
    """Every attrs value reachable from `values`, each once."""
    stack, seen = list(values), set()
    while stack:
        value = stack.pop()
        if isinstance(value, (tuple, list, frozenset, set)):
            stack.extend(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif attrs.has(type(value)) and id(value) not in seen:
            seen.add(id(value))
            yield value
            stack.extend(getattr(value, f.name) for f in attrs.fields(type(value)) if f.eq)
