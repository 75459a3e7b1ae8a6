"""What a move did, for `tharsis play`: the engine's events of the move plus what changed for every player.

The engine records a line per action in `game.events` ("bob plays Mangrove", "bob places greenery on 31") but not
what was paid or gained; those come from comparing a `Snapshot` taken before the move with the state after it.
A bot's purchases, drafts and kept cards stay hidden from the other players, as at the table: only their number
shows (and the change of its hand).
"""

from __future__ import annotations

import attrs

from tharsis.runtime.narration import conjugate
from tharsis.runtime.state import RESOURCES

HIDDEN = ("buy", "draft", "keep")   # card choices, each told with its kind as the verb
_SHORT = {"megacredits": "MC", "titanium": "titanium"}


@attrs.frozen
class PlayerSnapshot:
    resources: tuple[int, ...]
    production: tuple[int, ...]
    tr: int
    hand: int
    card_resources: tuple[tuple[str, int], ...]


@attrs.frozen
class Snapshot:
    """The parts of the state a move can change that a player would want to hear about."""

    generation: int
    events: int
    temperature: int
    oxygen: int
    oceans: int
    players: tuple[PlayerSnapshot, ...]
    parameters: tuple = ()   # declared global parameters (name, value)

    @classmethod
    def of(cls, game) -> "Snapshot":
        s = game.state
        return cls(s.generation, len(game.events), s.temperature, s.oxygen, s.oceans, tuple(
            PlayerSnapshot(tuple(p.resources[r] for r in RESOURCES), tuple(p.production[r] for r in RESOURCES),
                           p.tr, len(p.hand), tuple((c.name, c.resources) for c in p.played))
            for p in s.players), tuple(s.parameters.items()))


@attrs.define
class Move:
    """The choices one player made in a row (one action with its payment and placements, or a batch of buys)."""

    player: int
    before: Snapshot
    choices: list[tuple[str, str]] = attrs.field(factory=list)   # (decision kind, label)


def report(game, move: Move, hidden: bool) -> list[str]:
    """What `move` did (played, paid, placed, gained, raised), as lines for the table; `hidden`: the mover's card
    choices are secret (a bot's hand)."""
    name = game.state.players[move.player].name
    before, after = move.before, Snapshot.of(game)
    events = [_strip_generation(e) for e in game.events[before.events:]]
    lines = [f"» {'; '.join(events)}"] if events else []
    said = _choices(move, hidden, name, told=" ".join(events))
    if said:
        lines.append(f"  ({name} {said})" if events else f"» {name} {said}")
    if after.generation != before.generation:
        lines.append(f"  with the production phase of generation {before.generation}:")
    for index, player in enumerate(game.state.players):
        changes = _player_changes(game, before.players[index], after.players[index])
        if changes:
            lines.append(f"  {player.name}: {', '.join(changes)}")
    globals_ = _global_changes(before, after)
    if globals_:
        lines.append(f"  {globals_}")
    return lines


def _strip_generation(event: str) -> str:
    head, sep, rest = event.partition(": ")
    return rest if sep and head.startswith("gen ") else event


def _choices(move: Move, hidden: bool, name: str, told: str = "") -> str:
    """The choices the events do not tell: payments, numbers, options, each with its verb agreeing with the
    player's `name`. Card choices of a hidden hand show only as a count; discards always do (the cards go face
    down)."""
    pays, chooses = conjugate(name, "pay"), conjugate(name, "choose")
    counts: dict[str, int] = {}
    named: dict[str, list[str]] = {}
    shown = []
    for kind, label in move.choices:
        if kind == "discard":
            continue  # the hand's change says how many (the last of several is answered by the engine, unlogged)
        if kind in HIDDEN:
            verb = conjugate(name, "discard" if label.startswith("discard ") else kind)
            if hidden or label.startswith("discard "):
                counts[verb] = counts.get(verb, 0) + 1
            else:
                named.setdefault(verb, []).append(label.partition(" ")[2])
        elif kind == "pay":
            shown.append(f"{pays} {label}")
        elif kind == "corporation":
            shown.append(f"{chooses} a corporation" if hidden else f"{chooses} {label.partition(' ')[2]}")
        elif kind == "space":
            if f"on {label.removeprefix('space ')}" not in told:   # a space chosen but not built on (Land Claim)
                shown.append(f"{chooses} {label}")
        elif kind not in ("action", "final"):
            shown.append(f"{chooses} {label}")
    said = [f"{verb} {', '.join(names)}" for verb, names in named.items()]
    said += [f"{verb} {n} card{'s' if n > 1 else ''}" for verb, n in counts.items()]
    return ", ".join(said + shown)


def _player_changes(game, before: PlayerSnapshot, after: PlayerSnapshot) -> list[str]:
    changes = []
    if after.tr != before.tr:
        changes.append(f"TR {before.tr}→{after.tr}")
    for i, resource in enumerate(RESOURCES):
        delta = after.resources[i] - before.resources[i]
        if delta:
            changes.append(f"{delta:+d} {_SHORT.get(resource, resource)}")
    for i, resource in enumerate(RESOURCES):
        delta = after.production[i] - before.production[i]
        if delta:
            changes.append(f"{delta:+d} {_SHORT.get(resource, resource)} production")
    if after.hand != before.hand:
        delta = after.hand - before.hand
        changes.append(f"{delta:+d} card{'s' if abs(delta) != 1 else ''} in hand")
    held_before = dict(before.card_resources)
    for card, count in after.card_resources:
        delta = count - held_before.get(card, 0)
        if delta:
            holds = game.library[card].holds or "resource"
            changes.append(f"{delta:+d} {holds} on {card}")
    return changes


def _global_changes(before: Snapshot, after: Snapshot) -> str:
    parts = []
    if after.temperature != before.temperature:
        parts.append(f"temperature {before.temperature:+d}→{after.temperature:+d}°C")
    if after.oxygen != before.oxygen:
        parts.append(f"oxygen {before.oxygen}→{after.oxygen}%")
    if after.oceans != before.oceans:
        parts.append(f"oceans {before.oceans}→{after.oceans}/9")
    for (name, old), (_, new) in zip(before.parameters, after.parameters):
        if new != old:
            parts.append(f"{name} {old}→{new}")
    return ", ".join(parts)
