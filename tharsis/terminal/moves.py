"""A game told move by move, each change with its cause: the narration of `tharsis play` and `tharsis replay`.

The engine logs each cause as it begins (a card played, a standard project, a placement, a trigger, a placement
bonus, the production phase; runtime/api/narration.py has the kinds) and its end, and causes nest. A `Narrator`
watches the game (`Game.observer`): at every event it takes a `Snapshot` of what a player would want to hear about,
so each change between two events is put down to the innermost cause open at the time. A move (one player's
choices in a row, `move_ends`) is told as the causes it set off, in order, each with its effect on each player and
on the global parameters, the causes it set off indented under it:

    » ann plays Comet
      (ann pays 2 titanium + 15 MC, ..., chooses player bob)
      ann: TR 20→21, -15 MC, -2 titanium, -1 card in hand
      bob: -2 plant
      temperature -30→-28°C
      › ann places ocean on 13
        ann: TR 21→22
        oceans 0→1/9
        › placement bonus of 13
          ann: +2 cards in hand
      › ann's CrediCor
        ann: +4 MC

The mover's choices that the events do not tell (payments, options, targets) are told in brackets under the cause
they were made in.

In Chinese (`tharsis play --lang zh`) the same story is told with the words of tharsis/terminal/messages.py: each event
by its pattern in tharsis/terminal/engine_zh.py `ZH_EVENTS` (runtime/api/narration.py says them in English, which also
decides what is told), the choices by `ZH_CHOICES` and the option labels as the prompts show them, every name as the
names files give it.

The production phase is a cause of its own, told after the move that ended the generation. What changed under a
cause opened in an earlier move (the cards bought in a research phase) is told under the move's own line. A bot's
purchases, drafts and kept cards stay hidden from the other players, as at the table: only their number shows.
`play` and `replay` drive the same `Narrator`, so a replayed log is told exactly as the game was.
"""

from __future__ import annotations

import re
from typing import Optional, Sequence

import attrs

from tharsis.compiler.rules_text import parameter_unit
from tharsis.runtime.api import Decision
from tharsis.runtime.api.narration import (
    CAUSES,
    END,
    NOTES,
    QUIET,
    conjugate,
    labels_told,
    sentence,
    space_named,
    staged_kind,
)
from tharsis.runtime.api.queries import for_nobody
from tharsis.runtime.core.state import RESOURCES

from .engine_zh import ZH_CHOICES, ZH_EVENTS
from .messages import Words, words_for

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
        state = game.state
        return cls(state.generation, len(game.events), state.temperature, state.oxygen, state.oceans, tuple(
            PlayerSnapshot(tuple(p.resources[r] for r in RESOURCES), tuple(p.production[r] for r in RESOURCES),
                           p.tr, len(p.hand), tuple((c.name, c.resources) for c in p.played))
            for p in state.players), tuple(state.parameters.items()))


@attrs.define
class Move:
    """The choices one player made in a row (one action with its payment and placements, or a batch of buys)."""

    player: int
    before: Snapshot
    # (decision kind, label, note): the note is "for_nobody" for a choice made within a `neutral { }` block, "by N"
    # for one made for the mover by seat N (`decided by ... { }`)
    choices: list[tuple[str, str, str]] = attrs.field(factory=list)
    at: list[int] = attrs.field(factory=list)   # how many events were logged when each choice was made


def move_ends(move: Move, decision, game) -> bool:
    """A move is one player's choices in a row: it ends with another player's decision, a new action, a new
    generation, or the first card offer after an action."""
    last_kind = move.choices[-1][0] if move.choices else None
    asked = decision.player if decision.for_player is None else decision.for_player   # a choice made for the mover
    return (asked != move.player or decision.kind in ("action", "corporation")
            or game.state.generation != move.before.generation
            or (decision.kind == "buy" and last_kind not in ("buy", "pay")))


class Narrator:
    """Tells a game as it is played or replayed: call `before` at each decision (it returns the lines of the move
    that just ended and of a new generation's header), `choose` just before the choice is applied, and `finish`
    when the game ends or is left. `hidden[i]`: seat i's card choices are secret (a bot's hand)."""

    def __init__(self, hidden: Sequence[bool], language: str = "en"):
        self.hidden = tuple(hidden)
        self.language = language                   # of the lines told (tharsis/terminal/messages.py)
        self.move: Optional[Move] = None
        self.generation = 0                        # the generation whose header was told last
        self._marks: dict[int, Snapshot] = {}      # event number -> the state when it was logged
        self._open: tuple = (0, None, ())          # (events scanned, the last of them, causes open after them)
        self._begun = False                        # the prologue was told (or there was none)

    def before(self, game, decision) -> list[str]:
        return self.ended(game, decision) + self.header(game) + self.prologue(game)

    def prologue(self, game) -> list[str]:
        """What a new game's setup did before its first question (corporations given by `--corporation`, the
        Beginner Corporation's free cards), told once. The setup is run again, watched: it is the same every time
        (the seed fixes it). A resumed game's earlier events are not told again."""
        if self._begun:
            return []
        self._begun = True
        if len(game.log) or not len(game.events):
            return []
        from tharsis.runtime.api.game import Game

        watched = Game(game.options, game.content, observer=self._observe)
        if len(watched.events) != len(game.events) or not self._marks:
            return []
        lines = report(watched, Move(-1, attrs.evolve(self._marks[0], events=0)), False, self._marks,
                       language=self.language)
        self._marks.clear()
        return lines

    def ended(self, game, decision) -> list[str]:
        """The move that `decision` ends, told (nothing while the move goes on)."""
        if self.move is not None and move_ends(self.move, decision, game):
            return self.tell(game)
        return []

    def header(self, game) -> list[str]:
        """A new generation's header, once."""
        if game.state.generation == self.generation:
            return []
        self.generation = game.state.generation
        return ["", words_for(game, self.language)("generation_header", n=self.generation)]

    def choose(self, game, decision, label: str) -> None:
        """Note a choice about to be applied to `game` (the first of a move starts it)."""
        game.observer = self._observe   # a game taken back by undo is a copy, which has no observer
        if self.move is None:   # a choice made for another player (`decided by`) is part of their move
            self.move = Move(decision.acting, Snapshot.of(game))
        note = "for_nobody" if for_nobody(game) else f"by {decision.player}" if decision.for_player is not None else ""
        self.move.choices.append((decision.kind, label, note))
        self.move.at.append(len(game.events))

    def finish(self, game) -> list[str]:
        return self.tell(game) if self.move is not None else []

    def forget(self) -> None:
        """The move so far was taken back (undo): it is not told."""
        self.move = None
        self._marks.clear()

    def tell(self, game) -> list[str]:
        move, self.move = self.move, None
        opened = self._causes_open(game, move.before.events)
        lines = report(game, move, self.hidden[move.player], self._marks, opened, self.language, self.hidden)
        self._marks.clear()
        return lines

    def _observe(self, game, event) -> None:
        self._marks[len(game.events) - 1] = Snapshot.of(game)

    def _causes_open(self, game, count: int) -> tuple:
        """The causes open after the first `count` events (their numbers), scanned on from where the last move
        left off unless the events changed under it (an undo)."""
        events = game.events.to_list()
        scanned, last, stack = self._open
        if scanned > count or (scanned and events[scanned - 1] is not last):
            scanned, stack = 0, ()
        stack = list(stack)
        for number in range(scanned, count):
            kind = events[number][1]
            if kind == END:
                if stack:
                    stack.pop()
            elif kind in CAUSES:
                stack.append(number)
        self._open = (count, events[count - 1] if count else None, tuple(stack))
        return tuple(stack)


@attrs.define
class _Told:
    """One line of a move's story: a cause (or a note) and the changes put down to it."""

    event: Optional[int]   # its number in the event log; None: what causes from before the move changed
    depth: int
    kind: str = ""
    segments: list = attrs.field(factory=list)   # (Snapshot before, Snapshot after) of each stretch it changed
    choices: list = attrs.field(factory=list)    # the mover's choices made while it was the innermost cause


def report(game, move: Move, hidden: bool, marks: dict, opened: tuple = (), language: str = "en",
           secret_seats: Sequence[bool] = ()) -> list[str]:
    """What `move` did, cause by cause, as lines for the table. `marks`: the state at each of the move's events
    (taken by a `Narrator`); `opened`: the causes still open when the move began (the research phase). The
    mover's choices are told with the cause they were made in ("(ann pays 3 titanium)" under the card).
    `secret_seats[i]`: seat i's hand is hidden from the table, so the cards it was dealt and set aside (the
    corporations it did not choose) are not named."""
    words = words_for(game, language)
    events = game.events.to_list()
    first = move.before.events
    name = game.state.players[move.player].name if move.player >= 0 else ""   # -1: nobody's (the setup)
    root = _Told(None, 0)   # what causes opened before this move changed (the cards bought in research)
    told: list[_Told] = []
    by_event: dict[int, _Told] = {}
    stack = list(opened)
    made = list(zip(move.at or [first] * len(move.choices), move.choices))   # (events logged before, choice)
    previous = move.before

    def innermost() -> _Told:
        return by_event.get(stack[-1], root) if stack else root

    for number in range(first, len(events)):
        while made and made[0][0] <= number:
            innermost().choices.append(made.pop(0)[1])
        mark = marks.get(number, previous)
        innermost().segments.append((previous, mark))
        previous = mark
        kind = events[number][1]
        if kind == END:
            if stack:
                stack.pop()
        elif kind == "set_aside" and _secret(secret_seats, events[number][2]):
            continue
        elif kind in CAUSES or kind in NOTES:
            item = _Told(number, sum(1 for start in stack if start >= first), kind)
            told.append(item)
            if kind in CAUSES:
                by_event[number] = item
                stack.append(number)
    innermost().choices.extend(choice for _, choice in made)
    innermost().segments.append((previous, Snapshot.of(game)))

    shown = _shown(game, told)
    sentences = {item.event: told_event(game, events[item.event], words) for item in shown}
    # the English sentences say which spaces and cards the events named, for the choices they already tell, and the
    # labels of the options they tell (a card's action)
    everything = " ".join(sentences.values()) if words.english else \
        " ".join(sentence(game, events[item.event]) for item in shown)
    everything += "".join(f"\n{label}\n" for item in shown for label in labels_told(game, events[item.event]))
    lines: list[str] = []
    subject = _subject(name, words)
    said = _choices(root.choices, hidden, name, everything, game, words)
    within = 0   # a rule of an earlier move that a player's choice goes on with: told again, the move under it
    if said and opened and events[opened[0]][1] == "rule":
        lines.append(f"» {told_event(game, events[opened[0]], words)}" + words("continued"))
        within = 1
    root_lines = _change_lines(game, root.segments, 1 + within, words)
    if said:
        lines.append("  " * within + words("move_line", subject=subject, said=said).replace("» ", "› " * within or
                                                                                             "» ", 1))
    elif root_lines and opened:   # a cause of an earlier move goes on
        cause = events[opened[-1]]
        lines.append(f"» {told_event(game, cause, words)}" + ("" if cause[1] in QUIET else words("continued")))
    lines += root_lines
    for item in shown:
        depth = item.depth + within
        indent = "  " * depth
        lines.append(f"{indent}{'» ' if depth == 0 else '› '}{sentences[item.event]}")
        said = _choices(item.choices, hidden, name, everything, game, words)
        if said:
            lines.append(f"{indent}  " + words("choices_line", subject=subject, said=said))
        lines += _change_lines(game, item.segments, depth + 1, words)
    return lines


def _secret(secret_seats: Sequence[bool], seat) -> bool:
    return isinstance(seat, int) and 0 <= seat < len(secret_seats) and bool(secret_seats[seat])


def _subject(name: str, words: Words) -> str:
    """A player's name before the verb: `ann ` in English; in Chinese a space only after a Latin letter or a digit
    (ann 打出, 你打出)."""
    if words.english or (name[-1:].isascii() and name[-1:].isalnum()):
        return f"{name} "
    return name


def told_event(game, event, words: Words) -> str:
    """An event as a sentence in the words' language: runtime/api/narration.py's English, or the pattern of
    engine_zh.ZH_EVENTS with every name as the names files give it."""
    if words.english or isinstance(event, str) or event[1] not in ZH_EVENTS:
        return sentence(game, event)
    generation, kind, actor, *details = event
    players = game.state.players
    who = players[actor].name if actor is not None and 0 <= actor < len(players) else "无人"
    fields = {"who": _subject(who, words), "owner": who, "generation": generation}
    t = words.phrases
    parts = [str(detail) for detail in details]
    named = {"start": "card", "first_action": "card", "play": "card", "unplayable": "card", "action": "card",
             "trigger": "card", "set_aside": "card", "reveal": "card", "award_free": "award", "project": "project",
             "convert": "conversion", "milestone": "milestone", "award": "award", "rule": "rule",
             "visit": "site", "build": "site", "piece_back": "site", "site_bonus": "site", "marker": "site",
             "site_active": "site",
             "site_in": "site", "site_out": "site", "government": "faction", "faction_bonus": "faction",
             "faction_in": "faction", "faction_out": "faction", "pieces_back": "faction",
             "resolve": "card", "stage": "card", "stage_reveal": "card", "stage_discard": "card",
             "take_revealed": "card", "kept_doubled": "card", "discard_event": "card"}.get(kind)
    if named is not None and details:
        parts[0] = _definition_name(game, words, named, details[0])
    if kind == "kept":   # the card kept, and the card it is kept on
        parts = [_definition_name(game, words, "card", detail) for detail in details]
    if kind in ("place", "place_nobody", "neutral_city"):
        named = space_named(game, details[0], lambda area: words.names.area(area, words.language))
        parts[0] = named if named == parts[0] else f"{named[:named.rindex(' (')]}（{details[0]}）"
    if kind == "place":
        tile, name = details[1], details[2] if len(details) > 2 else None
        fields["tile"] = _tile(t, tile) + (f"「{_definition_name(game, words, 'card', name)}」" if name else "")
    elif kind == "place_nobody":
        fields["tile"] = _tile(t, details[1])
    elif kind == "tile_removed":
        parts[1] = _tile(t, details[1])
    elif kind == "action":
        from tharsis.compiler import rules_text

        fields["action"] = rules_text.parts(game.library[details[0]], words.language, words.names)["actions"][
            details[1]]
    elif kind == "track":
        unit = game.elements.scales.get(details[0], (0, 0, 0, ""))[3]
        fields["parameter"] = t.parameter(details[0])
        fields["value"] = f"{details[1]:+d}℃" if unit == "C" else f"{details[1]}{unit}"
    elif kind == "reveal_until":
        fields["found"] = words.join(f"「{_definition_name(game, words, 'card', n)}」" for n in details[1]) or "无"
    elif kind in ("reveal_from_hand", "reveal_shared", "discard_revealed"):
        fields["found"] = words.join(f"「{_definition_name(game, words, 'card', n)}」" for n in details[0]) or "无"
    elif kind == "discard_kind":
        fields["kind"] = t.card_type(details[1])
    elif kind in ("visit", "build", "piece_back"):
        fields["piece"] = t.pieces("1", details[1], 1)
    elif kind in ("faction_in", "faction_out"):
        government = game.elements.government
        fields["piece"] = t.piece(government.piece if government is not None else "piece")
        if actor is None:
            fields["owner"] = words("neutral_owner")
    elif kind == "pieces_back":
        government = game.elements.government
        fields["piece"] = t.piece(government.piece if government is not None else "piece", 2)
        counted: dict = {}
        for owner in details[1]:
            counted[owner] = counted.get(owner, 0) + 1
        fields["owners"] = words("sep").join(
            f"{players[o].name if 0 <= o < len(players) else words('neutral_owner')} {n}" for o, n in counted.items())
    elif kind == "site_bonus":
        site = game.elements.sites.get(details[0])
        fields["piece"] = t.piece(site.piece) if site is not None else ""
    elif kind in ("resolve", "stage", "stage_reveal", "stage_discard"):
        fields["kind"] = t.card_type(staged_kind(game, details[0]))
        if kind == "stage":
            parts[1] = t.stage(details[1])
    elif kind == "role":
        parts[0] = t.role(details[0])
    return ZH_EVENTS[kind].format(*parts, **fields)


def _tile(t, tile: str) -> str:
    return t.tile(tile)


def _definition_name(game, words: Words, kind: str, name: str) -> str:
    """A name an event gives, as the names files give it: a card (or corporation, or prelude) by its definition, a
    standard project, conversion, milestone or award by its own kind (a card and a project may share a name)."""
    tables = {"project": game.standard_projects, "conversion": game.standard_actions, "milestone": game.milestones,
              "award": game.awards, "site": game.elements.sites, "faction": game.elements.factions}
    definition = tables[kind].get(name) if kind in tables else game.library.get(name)
    if definition is not None:
        return words.name(definition)
    return words.name(name, "rule" if kind == "rule" else "card")


def _shown(game, told: list[_Told]) -> list[_Told]:
    """The lines worth telling: every cause and note, but a quiet cause (a trigger, a placement bonus) only when
    it, or a cause within it, changed something or asked the mover something."""
    keep = [False] * len(told)
    for index in range(len(told) - 1, -1, -1):
        item = told[index]
        players, globals_ = _changes(game, item.segments)
        keep[index] = item.kind not in QUIET or bool(players or globals_ or item.choices)
        following = index + 1
        while not keep[index] and following < len(told) and told[following].depth > item.depth:
            keep[index] = keep[following]
            following += 1
    return [item for index, item in enumerate(told) if keep[index]]


def _change_lines(game, segments: list, depth: int, words: Optional[Words] = None) -> list[str]:
    words = words or words_for(game, "en")
    players, globals_ = _changes(game, segments, words)
    indent = "  " * depth
    lines = [indent + words("change_line", name=game.state.players[index].name, changes=words("sep").join(changes))
             for index, changes in players]
    if globals_:
        lines.append(f"{indent}{globals_}")
    return lines


def _changes(game, segments: list, words: Optional[Words] = None) -> tuple[list, str]:
    """What the stretches `segments` changed: [(player, ["TR 20→21", "-3 MC", ...])] and the global parameters'
    changes as one text. Several stretches add up; a track shows its value after the last that moved it."""
    if not segments:
        return [], ""
    words = words or words_for(game, "en")
    players = []
    for index in range(len(segments[0][0].players)):
        players.append((index, _player_changes(game, [(b.players[index], a.players[index]) for b, a in segments],
                                               words)))
    return [(i, c) for i, c in players if c], _global_changes(segments, words, game)


def _choices(choices: list, hidden: bool, name: str, told: str = "", game=None, words: Optional[Words] = None) -> str:
    """The choices the events do not tell: payments, numbers, options, each with its verb agreeing with the
    player's `name`. Card choices of a hidden hand show only as a count; discards always do (the cards go face
    down). An option that names effects is said as the prompt showed it, in rules text (`chooses to raise Venus 1
    step`), never in card syntax; the order of a card's effects as `first`, `then`; a choice made for nobody says
    so. `told`: the events' English sentences (what they already say); `words`: another language's (with the
    `game`, whose names it says)."""
    named, counts, shown = _untold(choices, hidden, told)
    if words is not None and not words.english:
        return _choices_said(named, counts, shown, hidden, game, words)
    pays, chooses = conjugate(name, "pay"), conjugate(name, "choose")
    said = [f"{conjugate(name, verb)} {', '.join(cards)}" for verb, cards in named.items()]
    said += [f"{conjugate(name, verb)} {n} card{'s' if n > 1 else ''}" for verb, n in counts.items()]
    ordered = False
    for kind, label, note in shown:
        doing = _to_do(game, label, name) if game is not None else None
        if kind == "pay":
            said.append(f"{pays} {label}")
        elif kind == "corporation":
            said.append(f"{chooses} a corporation" if hidden else f"{chooses} {label.partition(' ')[2]}")
        elif kind in _ORDER and doing is not None:
            said.append(f"then to {doing}" if ordered else f"{chooses} to {doing} first")
            ordered = True
        elif doing is not None:
            said.append(f"{chooses} to {doing}")
        else:
            said.append(f"{chooses} {label}")
        if note and game is not None:
            said[-1] += ", " + _note(game, note, words or words_for(game, "en"))
    return ", ".join(said)


_ORDER = ("order", "trigger_order")   # the order of a card's effects, of the triggers a move sets off


def _to_do(game, label: str, name: str) -> Optional[str]:
    """An option that names effects, as what the player chose to do (`raise Venus 1 step`, `decrease their energy
    production 1 step, increase their MC production 2 steps`): the rules text the prompt showed, its sentences
    joined, spoken of the player (their, not your, unless the seat is called you); None for another label."""
    from .prompts import said as said_effects

    found = said_effects(game, label)
    if found is None or (found.head and not found.head.endswith(": ")):
        return None
    parts = []
    for part in found.rules.split(" -> "):
        sentences = [s.strip().removesuffix(".") for s in re.split(r"(?<=\.) ", part) if s.strip()]
        parts.append(", ".join(_lower_first(s) for s in sentences))
    doing = " and then ".join(parts)
    if name.casefold() != "you":
        doing = re.sub(r"\b(?:your(s?)|you)\b", lambda m: "they" if m.group(0) == "you" else "their" + m.group(1),
                       doing)
    trigger = found.head[:-2]
    return f"{doing} ({trigger})" if trigger else doing


def _lower_first(sentence: str) -> str:
    """`Raise Venus 1 step` -> `raise Venus 1 step`; a word in capitals (`MC`) or a name stays as written."""
    first = sentence.split(" ", 1)[0]
    return sentence[:1].lower() + sentence[1:] if first[1:].islower() or len(first) == 1 else sentence


def _note(game, note: str, words: Words) -> str:
    """A choice's note: made for nobody, or `decided by bob` for the mover (`by N`: seat N decided)."""
    if note.startswith("by "):
        return words("decided_by_note", name=game.state.players[int(note[3:])].name)
    return _for_nobody(game, words)


def _for_nobody(game, words: Words) -> str:
    """What a choice made within a `neutral { }` block is: the rules text's words for the block (`for nobody (no
    TR, no bonuses, ...)`), without the effects they introduce."""
    said = words.phrases("neutral", effects="").rstrip(": ：")
    return _lower_first(said) if words.english else said


def _untold(choices: list, hidden: bool, told: str) -> tuple[dict[str, list[str]], dict[str, int], list]:
    """What of `choices` the events do not tell, whatever the language: the hand's choices shown by card (verb ->
    card names) and those shown as a count (verb -> how many: a hidden hand's, and every discard), then the other
    choices in order as (kind, label, note)."""
    named: dict[str, list[str]] = {}
    counts: dict[str, int] = {}
    shown = []
    for kind, label, *note in choices:
        if kind == "discard":
            continue  # the hand's change says how many (the last of several is answered by the engine, unlogged)
        if kind in HIDDEN:
            verb = "discard" if label.startswith("discard ") else kind
            if hidden or label.startswith("discard "):
                counts[verb] = counts.get(verb, 0) + 1
            else:
                named.setdefault(verb, []).append(label.partition(" ")[2])
        elif note and note[0].startswith("by "):   # made by another player: said even where the events tell it
            shown.append((kind, label, note[0]))
        elif kind == "space" and (f"on {label.removeprefix('space ')}" in told
                                  or f"({label.removeprefix('space ')})" in told):
            continue   # built on: the placement tells it (a space chosen and not built on is said: Land Claim)
        elif kind == "play_kept" and f" {label.removeprefix('play ')}" in told:
            continue   # "ann plays CARD" tells it
        elif kind == "option" and f"\n{label}\n" in told:
            continue   # "ann uses CARD: ..." tells the option of its action
        elif kind in ("site", "faction") and label.startswith(kind + " ") and (
                f" {label.removeprefix(kind + ' ')}" in told or f" {label[len(kind) + 1:].rsplit(' ', 1)[0]}" in told):
            continue   # "ann sends a trade fleet to Io", "ann's delegate enters Unity" tell it (a piece removed from a
            # faction is labelled with its owner: "faction Unity neutral", told as "a neutral delegate leaves Unity")
        elif kind not in ("action", "final"):
            shown.append((kind, label, note[0] if note else ""))
    return named, counts, shown


def _choices_said(named: dict, counts: dict, shown: list, hidden: bool, game, words: Words) -> str:
    """`_choices` in another language than English: the same choices, the labels as the prompts show them."""
    from .prompts import label_text

    said = [ZH_CHOICES[verb] + words.join(f"「{_definition_name(game, words, 'card', card)}」" for card in cards)
            for verb, cards in named.items()]
    said += [ZH_CHOICES[verb] + ZH_CHOICES["cards"].format(n=n) for verb, n in counts.items()]
    ordered = False
    for kind, label, note in shown:
        if kind == "pay":
            said.append(ZH_CHOICES["pay"].format(what=label_text(game, Decision(-1, kind, ""), label, words)))
        elif kind == "corporation":
            corporation = _definition_name(game, words, "card", label.partition(" ")[2])
            said.append(ZH_CHOICES["corporation"] if hidden else ZH_CHOICES["choose"].format(what=f"「{corporation}」"))
        elif kind == "space":
            said.append(ZH_CHOICES["choose"].format(what=label_text(game, Decision(-1, kind, ""), label, words)))
        else:
            what = label_text(game, Decision(-1, kind, ""), label, words).rstrip("。")
            if kind in _ORDER:
                said.append(ZH_CHOICES["then" if ordered else "first"].format(what=what))
                ordered = True
            else:
                said.append(ZH_CHOICES["choose"].format(what=what))
        if note:
            said[-1] += words("sep") + _note(game, note, words)
    return words("sep").join(said)


def _player_changes(game, stretches: list[tuple[PlayerSnapshot, PlayerSnapshot]],
                    words: Optional[Words] = None) -> list[str]:
    words = words or words_for(game, "en")

    def short(resource: str) -> str:
        return _SHORT.get(resource, resource) if words.english else words.phrases.noun(resource, 1)

    changes = []
    tr = sum(after.tr - before.tr for before, after in stretches)
    if tr:
        last = next(after.tr for before, after in reversed(stretches) if after.tr != before.tr)
        changes.append(words("tr_change", before=last - tr, after=last))
    for i, resource in enumerate(RESOURCES):
        delta = sum(after.resources[i] - before.resources[i] for before, after in stretches)
        if delta:
            changes.append(words("resource_change", delta=f"{delta:+d}", resource=short(resource)))
    for i, resource in enumerate(RESOURCES):
        delta = sum(after.production[i] - before.production[i] for before, after in stretches)
        if delta:
            changes.append(words("production_change", delta=f"{delta:+d}", resource=short(resource)))
    hand = sum(after.hand - before.hand for before, after in stretches)
    if hand:
        changes.append(words("hand_change", n=abs(hand), delta=f"{hand:+d}"))
    held: dict[str, int] = {}
    for before, after in stretches:
        held_before = dict(before.card_resources)
        for card, count in after.card_resources:
            held[card] = held.get(card, 0) + count - held_before.get(card, 0)
    for card, delta in held.items():
        if delta:
            holds = game.library[card].holds or "resource"
            if words.english:
                changes.append(words("held_change", delta=f"{delta:+d}", holds=holds, card=card))
            else:
                changes.append(words("held_change", delta=f"{delta:+d}", holds=words.phrases.noun(holds),
                                     card=words.name(game.library[card])))
    return changes


def _global_changes(segments: list, words: Optional[Words] = None, game=None) -> str:
    words = words or words_for(None, "en")
    parts = []
    for track, key, sign in (("temperature", "temperature_change", "+d"), ("oxygen", "oxygen_change", ""),
                             ("oceans", "oceans_change", "")):
        moved = [(getattr(before, track), getattr(after, track)) for before, after in segments
                 if getattr(before, track) != getattr(after, track)]
        if moved:
            before, after = moved[-1][1] - sum(b - a for a, b in moved), moved[-1][1]
            parts.append(words(key, before=format(before, sign), after=format(after, sign)))
    names = [name for name, _ in segments[0][1].parameters]
    for position, name in enumerate(names):
        moved = [(before.parameters[position][1], after.parameters[position][1]) for before, after in segments
                 if before.parameters[position][1] != after.parameters[position][1]]
        if moved:
            before, after = moved[-1][1] - sum(b - a for a, b in moved), moved[-1][1]
            declared = game.elements.scales.get(name, (0, 0, 0, ""))[3] if game is not None else ""
            sign = "+d" if declared == "C" else ""
            parts.append(words("parameter_change", name=name if words.english else words.phrases.parameter(name),
                               before=format(before, sign), after=format(after, sign),
                               unit=parameter_unit(words.phrases, name, declared)))
    return words("sep").join(parts)


def vp_breakdown(result: dict, words: Optional[Words] = None, game=None) -> str:
    """Each player's victory points from cards, card by card (the `cards` column of the final table); `words`
    (and the `game`, for the cards' names in them) in another language."""
    words = words or words_for(None, "en")
    lines = [words("vp_from_cards")]
    for row in result["players"]:
        detail = row.get("card_detail") or {}
        cards = words("sep" if words.english else "list_sep").join(
            words("vp_card", card=_card_name(game, words, card), points=points)
            for card, points in sorted(detail.items(), key=lambda c: (-c[1], c[0])))
        lines.append(words("vp_line", name=row["name"], cards=cards, points=row["cards"]) if cards
                     else words("vp_none", name=row["name"]))
    return "\n".join(lines)


def _card_name(game, words: Words, card: str) -> str:
    if words.english or game is None or card not in game.library:
        return card
    return words.name(game.library[card])


def history(game, count: int = 20, language: str = "en") -> str:
    """The last `count` things that happened (causes and notes, without what they changed), for the `history`
    command."""
    words = words_for(game, language)
    events = [e for e in game.events.to_list()[-4 * count:] if isinstance(e, str) or e[1] != END]
    return "\n".join(e if isinstance(e, str) else words("history_line", generation=e[0],
                                                          sentence=told_event(game, e, words))
                     for e in events[-count:])
