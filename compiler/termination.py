"""Termination seen before any game: what a designer declares that would make games endless.

Pipeline place: a cross-file check (compiler/pipeline.py `_check_library`), over the compiled definitions, since
both problems need every definition at once. The engine has bounds of its own (runtime/core/flow.py: the steps of
one decision; runtime/sequence/phases.py: the generations) that stop such a game with E770; these checks say so
before any game is played, at the definition to fix. They are warnings: a scenario may try a parameter out with a
card or two, and the game itself is stopped anyway.

- W114 a parameter that `ends game: yes` but that the definitions in play with it cannot raise to its top: nothing
  raises it, or only effects that happen once a game (a card's `play:`, a corporation's first action, a rule at the
  start of the game, a track bonus) whose raises add up to fewer steps than its scale has. Anything that can happen
  again (an action, a standard project, a trigger, a rule of every generation, a raise by X or per a count) can
  take it to its top, so the check does not guess at how often.
- W113 a trigger cycle: triggers (and track bonuses) whose effects set one another off again, with the cycle's path.
  A cycle of raises of one parameter stops at the parameter's top, so it is reported only when something the
  cycle sets off also lowers that parameter (the issue's case: a trigger on raising it raises it, and a track bonus
  lowers it); a cycle through TR, card resources or production has no top and is always reported.
"""

from __future__ import annotations

from typing import Iterable, Optional

from . import effects as fx, text
from .definitions import Library
from .diagnostics import Diagnostics

__all__ = ["check_termination"]


def check_termination(library: Library, diagnostics: Diagnostics) -> None:
    _unreachable_parameters(library, diagnostics)
    _trigger_cycles(library, diagnostics)


# ------------------------------------------------------------------ W114: a parameter the game waits for in vain

def _effect_groups(definition, lowered: set[str]) -> Iterable[tuple[tuple, bool]]:
    """A definition's effects in groups, each with whether it may happen more than once a game. `lowered`: the
    parameters something lowers (their track bonuses can be reached again)."""
    kind = definition.kind
    if kind == "rule":
        yield definition.play, definition.at == "start_of_game"
        return
    yield tuple(getattr(definition, "play", ())), kind in ("card", "corporation")
    yield tuple(getattr(definition, "first_action", ())), True
    for track in getattr(definition, "tracks", ()):
        yield track.effects, track.parameter not in lowered
    for option in getattr(definition, "actions", ()):
        yield option.cost + option.effects, False
    yield tuple(getattr(definition, "passives", ())), False
    for field in ("unplayable", "bonus", "build", "role_reward"):
        yield tuple(getattr(definition, field, ())), False
    for step in getattr(definition, "track", ()):   # a site's
        yield tuple(step), False
    for _, effects in getattr(definition, "on_stage", ()):
        yield tuple(effects), False


def _in_play_with(library: Library, parameter) -> list:
    """The definitions in every game that has the parameter: those of its set and of the sets always in play."""
    expansions = {e.name for e in library.of_kind("expansion")}
    sets = {s for s in (getattr(d, "set", None) for d in library.definitions)
            if isinstance(s, str) and s not in expansions} | {parameter.set}
    return [d for d in library.definitions if getattr(d, "set", None) in sets
            and set(getattr(d, "needs", ())) <= sets]


def _lowered(library: Library) -> set[str]:
    return {e.parameter for d in library.definitions for effects, _ in _effect_groups(d, set())
            for e in fx.walk(effects) if isinstance(e, fx.ChangeParameter) and e.amount.coefficient < 0}


def _unreachable_parameters(library: Library, diagnostics: Diagnostics) -> None:
    lowered = _lowered(library)
    for parameter in library.of_kind("parameter"):
        if parameter.ends_game != "yes" or parameter.step <= 0:
            continue
        steps = (parameter.high - parameter.low) // parameter.step
        total, raisers, repeatable = 0, [], False
        for definition in _in_play_with(library, parameter):
            for effects, once in _effect_groups(definition, lowered):
                for e in fx.walk(effects):
                    if not (isinstance(e, fx.ChangeParameter) and e.parameter == parameter.name
                            and e.amount.coefficient > 0):
                        continue
                    if once and not e.amount.variable and e.amount.per is None:
                        total += e.amount.coefficient
                        raisers.append(definition.name)
                    else:
                        repeatable = True
        if repeatable or total >= steps:
            continue
        name = parameter.name
        if not raisers:
            diagnostics.warning("W114", f"parameter '{name}' must reach its top for the game to end (ends game: yes), "
                                      "but nothing in play with it raises it: no game with it would ever end",
                              parameter.source, f"raise it somewhere (a standard project, an action, a card's "
                                                f"`play: {name} +1`), or write `ends game: no`")
            continue
        shown = ", ".join(dict.fromkeys(raisers))
        diagnostics.warning("W114", f"parameter '{name}' must reach its top for the game to end (ends game: yes), but "
                                  f"its scale has {steps} steps and what raises it ({shown}) raises it {total} in "
                                  "all, once a game: no game with it would ever end", parameter.source,
                          "shorten the scale, raise it where it can happen again (a standard project, an action, "
                          "a rule at the end of every generation), or write `ends game: no`")


# ------------------------------------------------------------------ W113: triggers that set one another off

_ANY = "resource"   # `when you add resource`: any card resource


def _produced(effects: tuple) -> set[tuple]:
    """The events of triggers that these effects cause (`raise P`, `add R`, `production_raise`) and the
    parameters they lower (`lower P`)."""
    events: set[tuple] = set()
    for e in fx.walk(effects):
        if isinstance(e, fx.Trigger):
            continue
        if isinstance(e, fx.ChangeParameter):
            if e.amount.coefficient > 0:
                events |= {("raise", e.parameter), ("raise", "tr")}
            elif e.amount.coefficient < 0:
                events.add(("lower", e.parameter))
        elif isinstance(e, fx.AddResources) and e.amount.coefficient > 0:
            events.add(("add", e.resource))
        elif isinstance(e, fx.Production) and any(c.amount.coefficient > 0 for c in e.changes):
            events.add(("production_raise",))
    return events


def _listens(event: fx.TriggerEvent) -> Optional[tuple]:
    if event.kind == "raise":
        return ("raise", event.parameter)
    if event.kind == "add_resource":
        return ("add", event.resource)
    if event.kind == "production_raise":
        return ("production_raise",)
    return None


def _sets_off(produced: set[tuple], listens: tuple) -> Optional[tuple]:
    """The event of `produced` that a trigger listening for `listens` answers, or None."""
    if listens in produced:
        return listens
    if listens[0] == "add":
        return next((e for e in sorted(produced) if e[0] == "add" and _ANY in (e[1], listens[1])), None)
    return None


class _Node:
    __slots__ = ("definition", "words", "listens", "produced", "subject")

    def __init__(self, definition, words: str, listens: tuple, produced: set[tuple], subject: str):
        self.definition, self.words, self.listens, self.produced, self.subject = \
            definition, words, listens, produced, subject


def _nodes(library: Library) -> list[_Node]:
    nodes = []
    for definition in library.definitions:
        for passive in getattr(definition, "passives", ()):
            if isinstance(passive, fx.Trigger) and not passive.once_per_action:   # that one fires once an action
                listens = _listens(passive.event)
                if listens is not None:
                    nodes.append(_Node(definition, f"{definition.name} ({text.effect(passive, card_text=True)})",
                                       listens, _produced(passive.effects), passive.subject))
        for track in getattr(definition, "tracks", ()):
            written = text.effects(track.effects)
            nodes.append(_Node(definition, f"the track bonus of {track.parameter} at {track.value} ({written})",
                               ("raise", track.parameter), _produced(track.effects), "you"))
    return nodes


def _trigger_cycles(library: Library, diagnostics: Diagnostics) -> None:
    nodes = _nodes(library)
    if not nodes:
        return
    edges: list[list[tuple[int, tuple]]] = []
    for a in nodes:
        out = []
        for j, b in enumerate(nodes):
            event = _sets_off(a.produced, b.listens)
            if event is not None and not (a is b and b.subject == "another"):   # not set off by its owner
                out.append((j, event))
        edges.append(out)
    for component in _components(edges):
        inner = [(i, j, event) for i in component for j, event in edges[i] if j in component]
        if not inner:
            continue
        reached = _reachable(edges, component)
        lowered = {e[1] for k in reached for e in nodes[k].produced if e[0] == "lower"}
        endless = [event for _, _, event in inner
                   if not (event[0] == "raise" and event[1] != "tr" and event[1] not in lowered)]
        if not endless:
            continue   # raises of parameters nothing here lowers: they stop at the top
        path = _cycle(edges, component)
        start = nodes[path[0]]
        told = (" -> ".join(nodes[k].words for k in path) + f" -> {start.words} again" if len(path) > 1
                else f"{start.words} sets itself off again")
        why = _why(endless[0], nodes, reached)
        diagnostics.warning("W113", f"a trigger cycle that may never end: {told}{why}", start.definition.source,
                            "break the cycle: make one of these effects not set off the first again, or guard it "
                            "with a condition that the cycle makes false (`if dust < 5 { ... }`)")


def _why(event: tuple, nodes: list[_Node], reached: set[int]) -> str:
    if event[0] == "raise" and event[1] != "tr":
        lowering = next(nodes[k].words for k in sorted(reached) if ("lower", event[1]) in nodes[k].produced)
        return f"; {lowering} lowers {event[1]} again, so it never reaches its top"
    what = {"raise": "TR", "add": "card resources", "production_raise": "production"}[event[0]]
    return f" ({what} has no top to stop it)"


def _components(edges: list[list[tuple[int, tuple]]]) -> list[set[int]]:
    """The strongly connected components (Tarjan's algorithm, iterative: a long chain of triggers must not
    exhaust Python's recursion)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on_stack: set[int] = set()
    found: list[set[int]] = []
    counter = 0
    for root in range(len(edges)):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            recurse = False
            for k in range(position, len(edges[node])):
                target = edges[node][k][0]
                if target not in index:
                    work.append((node, k + 1))
                    work.append((target, 0))
                    recurse = True
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            if recurse:
                continue
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                found.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return found


def _reachable(edges: list[list[tuple[int, tuple]]], start: set[int]) -> set[int]:
    seen, todo = set(start), list(start)
    while todo:
        for target, _ in edges[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def _cycle(edges: list[list[tuple[int, tuple]]], component: set[int]) -> list[int]:
    """A shortest cycle through the component's first node, as the nodes in order."""
    first = min(component)
    previous: dict[int, int] = {}
    todo = [first]
    while todo:
        node = todo.pop(0)
        for target, _ in edges[node]:
            if target not in component:
                continue
            if target == first:
                path = [node]
                while path[-1] != first:
                    path.append(previous[path[-1]])
                return path[::-1]
            if target not in previous:
                previous[target] = node
                todo.append(target)
    return [first]

