"""What one player can know, and the worlds consistent with it (the determinisation of runtime/api/research.py).

A card name is somewhere in the state (a hand, the deck, a pile, the kept cards of a declared kind) or held by the
flow's frames (a research offer, a draft pack, the corporations and starting cards dealt but not yet taken, cards
looked at mid-action). For an observer, each place is public (cards in play, the discard pile's face-up cards, the
card being played or paid for, a corporation being started), the observer's own (their hand and kept cards, the
cards they discarded face down, the frames that ask them or act for them) or hidden (the deck, the piles, the other
hands and kept cards, the other players' face-down discards, the frames of the other players).
Frames say whose they are by their arguments: a `player` argument, a `EffectContext`'s player, the pending question's
player; set-up and draft frames hold one entry per player (`_PER_PLAYER`).

A determinisation draws a random bijection `swap` on the hidden names of each sort (project cards, each declared
kind of card, corporations together with those never dealt) and applies it to every place, the state and
the frames alike (labels and prompts renamed with their names). It maps the names in the order of the places they
fill to a shuffle of the same names sorted, so the world drawn depends on what the observer knows and on the
random numbers, not on where the hidden cards really are. Every card the flow refers to is therefore still
where the flow expects it, whatever the flow does next (pay for it, discard it, keep it). What the observer saw
earlier but no longer sees (a pack passed on in a draft) counts as hidden: the world forgets it rather than leak.

Interface: `hidden_names(game, observer)`, `determinize(game, observer, rng)` (changes `game`, a clone, in place).
"""

from __future__ import annotations

import inspect
import re
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

import attrs

from ..core.decisions import Decision, NumberOptions, Option
from ..core.flow import Ask, Step
from ..rules.checks import EffectContext

if TYPE_CHECKING:
    import random

    from .game import Game

__all__ = ["PRIVATE_KINDS", "FlowReader", "being_played", "determinize", "hidden_names", "held_by_flow"]

# the decisions whose choice only the decider sees (which card bought, drafted, kept, which corporation)
PRIVATE_KINDS = frozenset({"buy", "draft", "keep", "corporation"})

_PLAIN = frozenset({int, bool, float, type(None)})  # the types of a frame's arguments that never name a card
PUBLIC = -1   # an owner: everyone sees it
NOBODY = -2   # an owner: nobody sees it (a place whose owner a frame does not say)


def _per_player_setup(args: tuple) -> Iterator[tuple[int, Any]]:
    """choose_corporations / corporation_chosen: (dealt per player, position, chosen (player, name) pairs,
    starting cards per player)."""
    dealt, _position, chosen, *rest = args
    yield from enumerate(dealt)
    for index, name in chosen:
        yield index, name
    for cards in rest:
        yield from enumerate(cards)


def _per_player_draft(args: tuple) -> Iterator[tuple[int, Any]]:
    """draft_pick / drafted: (packs held now, kept per player, index, direction, the step after the draft)."""
    packs, kept, _index, _direction, after = args
    yield from enumerate(packs)
    yield from enumerate(kept)
    yield from _frame_parts(after.function, after.args, NOBODY)


_PER_PLAYER: dict[str, Callable[[tuple], Iterator[tuple[int, Any]]]] = {
    "phases.choose_corporations": _per_player_setup,
    "phases.corporation_chosen": _per_player_setup,
    "phases.draft_pick": _per_player_draft,
    "phases.drafted": _per_player_draft,
    "phases.research_offers": lambda args: enumerate(args[0]) if args else (),
    "phases.start_corporation": lambda args: [(PUBLIC, args[1])],  # the corporations are revealed together
    # a card being paid for: announced to everyone (its payment's prompt names it), though still in its owner's hand
    "actions.card_paid": lambda args: [(PUBLIC, args[1])],
    # cards revealed from the deck for every player to pick from: face up to all (runtime/handlers/zones.py)
    "zones.pick_next": lambda args: [(PUBLIC, args[0])],
    "zones.revealed_taken": lambda args: [(PUBLIC, args[0])],
}
# frames whose names are standard projects, milestones, awards or conversions, never cards (a card and a standard
# project may share a name)
_NOT_CARDS = frozenset({"actions.project_paid", "actions.fire_standard_project", "actions.claimed_milestone",
                        "actions.funded_award", "effects.award_funded", "phases.final_greenery",
                        "phases.greenery_chosen",
                        # a card of a kind with stages, named in its kind (a project card may share the name)
                        "stages.enter_stage"})
_OWNER_ARGUMENT: dict[Callable, tuple[str, int]] = {}


def _owner_argument(function: Callable, skip: int) -> tuple[str, int]:
    """Which argument says whose a frame is: ("player", position), ("ctx", position) or ("", -1)."""
    found = _OWNER_ARGUMENT.get(function)
    if found is None:
        names = list(inspect.signature(function).parameters)[1:]  # without `game`
        found = ("", -1)
        for kind in ("player", "ctx", "index"):
            if kind in names and (kind != "index" or function.step_name.startswith("phases.")):
                found = (kind, names.index(kind))
                break
        _OWNER_ARGUMENT[function] = found
    kind, position = found
    return kind, position - skip if position >= 0 else position


def _frame_parts(function: Callable, args: tuple, asker: int) -> Iterator[tuple[int, Any]]:
    """(owner, value) for the arguments of a frame: `asker` is the player a pending question is put to."""
    special = _PER_PLAYER.get(function.step_name)
    if special is not None:
        yield from special(args)
        return
    skip = 1 if asker != NOBODY else 0  # a resumed question's function takes the chosen value first
    kind, position = _owner_argument(function, skip)
    owner = asker if asker != NOBODY else NOBODY
    if 0 <= position < len(args):
        value = args[position]
        if kind == "ctx" and isinstance(value, EffectContext):
            owner = value.player
        elif kind != "ctx" and isinstance(value, int) and not isinstance(value, bool):
            owner = value
    yield owner, args


def _strings(value, out: list) -> None:
    kind = type(value)   # the exact types first (most of what frames hold), then their subclasses
    if kind is str:
        out.append(value)
    elif kind is tuple or kind is list:
        for item in value:   # names (an offer, a hand, options naming cards or spaces) taken here: a call for
            kind = type(item)   # each would cost more than the rest
            if kind is Option:
                item = item.value
                kind = type(item)
            if kind is str:
                out.append(item)
            elif kind not in _PLAIN:
                _strings(item, out)
    elif kind is Option:
        _strings(value.value, out)
    elif kind in _PLAIN or kind in _OPAQUE:
        return
    elif isinstance(value, (tuple, list)):
        for item in value:
            _strings(item, out)
    elif isinstance(value, Step):
        _strings(value.args, out)
    elif isinstance(value, Option):
        _strings(value.value, out)
    elif isinstance(value, EffectContext):
        out.extend(n for n in (value.card, value.playing, value.that_card) if n)
    else:   # a type that holds no name (a compiled effect, a decision): not tested again
        _OPAQUE.add(kind)


_OPAQUE: set = set()   # the types `_strings` found no name in, by type alone (every branch above tests the type)


def _state_places(game: "Game") -> Iterator[tuple[int, list]]:
    """The lists of card names the state holds, with their owner (a player, PUBLIC or NOBODY): plain lists of
    names, so a set takes them in one call (they are most of what a determinisation reads: the deck alone holds
    most of the cards)."""
    state = game.state
    yield NOBODY, state.deck
    staged = game.elements.staged_cards
    kept = any(c.kept for p in state.players for c in p.played) if game.elements.kept_cards else False
    for kind, pile in state.piles.items():
        if kind not in staged:   # a kind with stages: names of its own, redealt apart (`determinize`)
            yield NOBODY, pile
    for player in state.players:
        yield player.index, player.hand
        yield PUBLIC, [c.name for c in player.played]
        if kept:   # the cards kept face up on a card in play (`move card from hand to here`) are public
            yield PUBLIC, [name for c in player.played if c.kept for name, _ in c.kept]
        yield PUBLIC, player.events
        if player.events_face_down:   # turned face down in play: everyone saw which
            yield PUBLIC, player.events_face_down
        if player.corporations:
            yield PUBLIC, player.corporations
    for index, kept in enumerate(state.kept):
        yield index, kept
    face_down = state.face_down
    if face_down:  # the cards discarded face down are their discarder's to know, the rest everyone's
        yield PUBLIC, [n for n in state.discard if n not in face_down]
        for index in range(len(state.players)):
            yield index, [n for n in state.discard if face_down.get(n) == index]
    else:
        yield PUBLIC, state.discard
    yield PUBLIC, [t.name for t in state.tiles.values() if t.name]
    yield PUBLIC, game.options.corporations


def _frames(game: "Game") -> list[tuple[Any, int]]:
    """The flow's frames, each with the player its question is put to (NOBODY for a step)."""
    frames = [(frame, NOBODY) for frame in game.flow.stack]
    asking = game.flow.asking
    if asking is not None:
        frames.append((asking, asking.decision.player))
    return frames


def _places_of(frame, asker: int) -> Iterator[tuple[int, Any]]:
    """(owner, value) of what one frame holds: a function of the frame alone (frames are immutable)."""
    function = frame.resume if isinstance(frame, Ask) else frame.function
    if function.step_name in _NOT_CARDS:
        return
    if not _PLAIN.issuperset(map(type, frame.args)):  # most frames hold only numbers: no card in them
        for owner, value in _frame_parts(function, frame.args, asker):
            yield owner, value
            if isinstance(value, tuple):  # a EffectContext among the arguments names public cards (in play, played)
                yield PUBLIC, [v for v in value if isinstance(v, EffectContext)]
    if isinstance(frame, Ask) and frame.decision.eager_options is not None \
            and not isinstance(frame.decision.eager_options, NumberOptions):
        yield asker, frame.decision.eager_options


def _frame_places(game: "Game") -> Iterator[tuple[int, Any]]:
    for frame, asker in _frames(game):
        yield from _places_of(frame, asker)


def being_played(game: "Game") -> Optional[tuple[int, str]]:
    """(player, card) of the card being played, public to everyone: the one whose payment is under way (announced,
    still in its owner's hand until paid: the newest `card_paid` frame), else the one whose effects are resolving."""
    for frame in reversed(game.flow.stack):
        if isinstance(frame, Step) and frame.function.step_name == "actions.card_paid":
            return frame.args[0], frame.args[1]
    return game.flow.playing


def held_by_flow(game: "Game", observer: int, cache: Optional[dict] = None) -> list[str]:
    """The cards the flow's frames hold for `observer` and nobody else (the dealt corporations and starting cards,
    a research offer, a draft pack and the cards drafted so far, cards looked at), in order, once each. `cache`, a
    dict kept by the caller between calls on one content, keeps what each frame holds: most frames stay on the stack
    for many decisions, and reading one again is most of the cost (the observation writer's)."""
    found: dict[str, None] = {}
    library = game.library
    for frame, asker in _frames(game):
        if cache is None:
            named = _named(frame, asker, library)
        else:
            entry = cache.get(id(frame))
            if entry is None or entry[0] is not frame:   # the frame is kept with its entry: its id stays its own
                entry = cache[id(frame)] = (frame, _named(frame, asker, library))
            named = entry[1]
        for owner, names in named:
            if owner == observer:
                found.update(dict.fromkeys(names))
    return [n for n in found if n not in game.state.players[observer].hand]


def _named(frame, asker: int, library) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """(owner, card names) of what a frame holds."""
    found = []
    for owner, value in _places_of(frame, asker):
        names = tuple(filter(library.__contains__, _all(value)))   # frames hold other strings too
        if names:
            found.append((owner, names))
    return tuple(found)


_NAMED_MEMO: dict[int, tuple[Any, dict]] = {}   # id of a library -> (the library, frame key -> `_named`)
_MEMO_BOUND = 50_000   # entries before a library's memo starts again (a long run sees new frames every decision)


def _named_by_value(frame, asker: int, library) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """`_named(frame, asker, library)`, remembered by what the frame holds: a frame is immutable and what it names
    is a function of its step, its arguments (and their types, so that `True` is not taken for seat 1) and, for a
    question, the player asked and its listed options; equal values name the same cards. Most frames a game pushes
    hold the same few values again and again (an offer of a card, a turn's steps), and walking them is most of the
    cost of reading the flow. A frame whose values cannot be hashed (a dict of a payment) is read as before."""
    found = _NAMED_MEMO.get(id(library))
    if found is None or found[0] is not library:
        found = _NAMED_MEMO[id(library)] = (library, {})
    memo = found[1]
    args = frame.args
    if type(frame) is Ask:
        eager = frame.decision.eager_options
        key = (frame.resume, args, tuple(map(type, args)), asker,
               None if eager is None or isinstance(eager, NumberOptions) else tuple(eager))
    else:
        key = (frame.function, args, tuple(map(type, args)), asker)
    try:
        return memo[key]
    except KeyError:
        pass
    except TypeError:   # an unhashable value among them
        return _named(frame, asker, library)
    if len(memo) >= _MEMO_BOUND:
        memo.clear()
    named = memo[key] = _named(frame, asker, library)
    return named


class FlowReader:
    """`held_by_flow(game, observer)` and `being_played(game)` of one observer, for a caller that asks at every
    decision (the observation writer): the flow's stack keeps its bottom frames from one decision to the next (they
    are immutable), so what the frames below the first one that changed hold is kept, and only the frames above it
    and the question are read, each remembered by its values (`_named_by_value`)."""

    def __init__(self, observer: int):
        self.observer = observer
        self._frames: list = []        # the stack read last
        self._held: list[dict] = []    # per frame: the names the frames up to it hold for the observer, in order
        self._paid: list = []          # per frame: the newest card being paid for up to it, or None
        self._asking = None
        self._asked: tuple = ()

    def read(self, game: "Game") -> tuple[list[str], Optional[tuple[int, str]]]:
        """(held_by_flow(game, observer), being_played(game)), the same as those functions give."""
        stack, frames = game.flow.stack, self._frames
        same, bound = 0, min(len(frames), len(stack))
        while same < bound and frames[same] is stack[same]:
            same += 1
        del frames[same:], self._held[same:], self._paid[same:]
        held = self._held[-1] if self._held else {}
        paid = self._paid[-1] if self._paid else None
        library, observer = game.library, self.observer
        for frame in stack[same:]:
            frames.append(frame)
            names = [n for owner, named in _named_by_value(frame, NOBODY, library) if owner == observer for n in named]
            if names:
                held = {**held, **dict.fromkeys(names)}
            if isinstance(frame, Step) and frame.function.step_name == "actions.card_paid":
                paid = (frame.args[0], frame.args[1])
            self._held.append(held)
            self._paid.append(paid)
        asking = game.flow.asking
        if asking is not self._asking:
            self._asking = asking
            self._asked = () if asking is None else tuple(
                n for owner, named in _named_by_value(asking, asking.decision.player, library) if owner == observer
                for n in named)
        if self._asked:
            held = {**held, **dict.fromkeys(self._asked)}
        hand = game.state.players[observer].hand
        return [n for n in held if n not in hand], paid if paid is not None else game.flow.playing


def hidden_names(game: "Game", observer: int) -> set[str]:
    """The card names `observer` cannot see anywhere, each of which is somewhere they cannot see."""
    return set(_hidden_in_order(game, observer)[0])


def _hidden_in_order(game: "Game", observer: int) -> tuple[list[str], set[str]]:
    """The hidden names in the order of the places they first fill (the deck from its top, the piles, the other
    players' hands and kept cards, then the frames), and the strings `observer` sees. That order is one of places,
    not of cards: the same for every world consistent with what `observer` sees."""
    seen: set[str] = set()
    unseen: list[str] = []
    for owner, names in _state_places(game):
        if owner == PUBLIC or owner == observer:
            seen.update(names)
        else:
            unseen += names
    nested = [(PUBLIC, game.flow.playing)]
    nested += _frame_places(game)
    for owner, value in nested:
        if owner == PUBLIC or owner == observer:
            seen.update(_all(value))
        else:
            _strings(value, unseen)
    library = game.library
    return [n for n in dict.fromkeys(unseen) if n not in seen and n in library], seen  # frames hold other strings


_SORTS: dict[int, tuple] = {}


def _sorts(game: "Game") -> tuple[dict[str, str], frozenset[str]]:
    """The sort of every card name of the game's content (project, a declared kind, corporation): the names a
    determinisation may exchange; and the names of the project cards. Made once per table of the content (every
    clone of a game shares it)."""
    elements = game.elements
    cached = _SORTS.get(id(elements))
    if cached is None or cached[0] is not elements:
        kinds = elements.card_kinds
        sorts = {name: "corporation" if d.kind == "corporation" else d.type if d.type in kinds else "project"
                 for name, d in game.library.items() if d.kind in ("card", "corporation")}  # not a faction
        cached = _SORTS[id(elements)] = (elements, sorts, frozenset(n for n, s in sorts.items() if s == "project"))
    return cached[1], cached[2]


def determinize(game: "Game", observer: int, rng: "random.Random") -> None:
    """Redeal, in `game` (a clone), every card `observer` cannot see: the hidden names of each sort, sorted and
    shuffled, fill the places those names fill now, in the order of `_hidden_in_order`. The result depends on
    what `observer` knows and on `rng` alone, never on where the hidden cards really are: every world consistent
    with what they see gives the same sample for the same numbers."""
    _redeal_staged(game, rng)
    order, seen = _hidden_in_order(game, observer)
    if not order:
        return
    sort_of, projects = _sorts(game)
    if projects.issuperset(order):  # most often: project cards only
        sorts = {"project": order}
    else:  # corporations at set-up, cards of declared kinds: a few among the project cards
        sorts = {"project": [n for n in order if n in projects]}
        for name in order:
            if name not in projects:
                sorts.setdefault(sort_of[name], []).append(name)
    swap: dict[str, str] = {}
    for sort in sorted(sorts):
        names = sorts[sort]
        if sort == "corporation":  # the corporations never dealt could have been dealt instead
            swap.update(_corporations(game, seen, names, rng))
        else:
            drawn = sorted(names)  # sorted: the same list whatever places the names are in now
            _shuffle(drawn, rng)
            swap.update(zip(names, drawn))
    _apply(game, swap)


def _redeal_staged(game: "Game", rng: "random.Random") -> None:
    """The piles of the kinds with stages, face down, each shuffled among its own cards (their names are their
    kind's: a project card may share one); the cards in the stages are face up."""
    piles = game.state.piles
    for kind in sorted(game.elements.staged_cards):
        pile = piles.get(kind)
        if pile:
            drawn = sorted(pile)
            _shuffle(drawn, rng)
            pile[:] = drawn


def _corporations(game: "Game", seen: set[str], names: list[str], rng: "random.Random") -> dict:
    """The redeal of the hidden corporations `names` (in the order of their places), drawn from them and those
    never dealt (which could have been dealt instead: neither `seen` nor hidden)."""
    sets = game.sets_in_play()
    drawn = sorted(names + [d.name for d in game.library.values()
                            if d.kind == "corporation" and d.set in sets and sets.issuperset(d.needs)
                            and d.variant is None and d.name not in seen and d.name not in names])
    _shuffle(drawn, rng)
    return dict(zip(names, drawn))


def _shuffle(items: list, rng: "random.Random") -> None:
    """`random.Random.shuffle` written out (the same Fisher-Yates, the same draws, the same order for the same
    generator) without its method call per card, which halves the time of a determinisation's longest step."""
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(items))):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:  # rejection keeps every position equally likely
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def _all(value) -> list:
    names: list = []
    _strings(value, names)
    return names


def _apply(game: "Game", swap: dict[str, str]) -> None:
    state = game.state
    get = swap.get  # get(name, name): the new name, or the name itself; mapped in C over the long lists
    state.deck[:] = list(map(get, state.deck, state.deck))
    staged = game.elements.staged_cards
    for kind, pile in state.piles.items():
        if kind not in staged:
            pile[:] = list(map(get, pile, pile))
    for player in state.players:
        player.hand[:] = list(map(get, player.hand, player.hand))
    for kept in state.kept:
        kept[:] = list(map(get, kept, kept))
    if state.face_down:  # another player's face-down discards are hidden: they may be redealt too
        state.discard[:] = list(map(get, state.discard, state.discard))
        state.face_down = {get(n, n): owner for n, owner in state.face_down.items()}
    renamer = _Renamer(swap)
    flow = game.flow
    flow.stack[:] = [renamer.value(frame) for frame in flow.stack]
    if flow.asking is not None:
        flow.asking = renamer.value(flow.asking)
    flow.playing = renamer.value(flow.playing)
    game._view = None


class _Renamer:
    """Applies a substitution of card names through a frame's arguments, rebuilding only what changes (compiled
    effects and anything else immutable are kept as they are). A question's labels and prompt are renamed with
    the names its frame holds ("buy X" has the value True: its name is in the frame's arguments)."""

    def __init__(self, swap: dict[str, str]):
        self.swap = swap

    def text(self, text: str, names: list[str]) -> str:
        """`text` with `names` renamed in one pass (a swap of two names stays a swap), whole names only: a name is
        not renamed inside a longer name that contains it."""
        if not names:
            return text
        alternatives = "|".join(map(re.escape, sorted(set(names), key=len, reverse=True)))
        pattern = re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-]| [A-Z0-9])")
        return pattern.sub(lambda m: self.swap[m.group(0)], text)

    def value(self, value):
        kind = type(value)
        if kind is str:
            return self.swap.get(value, value)
        if kind is tuple or kind is list:
            items = [self.value(v) for v in value]
            if all(a is b for a, b in zip(items, value)):
                return value
            return kind(items)
        if kind is dict:
            return {self.value(k): self.value(v) for k, v in value.items()}
        if kind is Step:
            if value.function.step_name in _NOT_CARDS or _PLAIN.issuperset(map(type, value.args)):
                return value
            args = self.value(value.args)
            return value if args is value.args else Step(value.function, args)
        if kind is Ask:
            return self._ask(value)
        if kind is EffectContext:
            fields = {f: self.swap[getattr(value, f)] for f in ("card", "playing", "that_card")
                      if getattr(value, f) in self.swap}
            return attrs.evolve(value, **fields) if fields else value
        return value

    def _ask(self, asking: Ask) -> Ask:
        if asking.resume.step_name in _NOT_CARDS:
            return asking
        decision = asking.decision
        options = decision.eager_options
        listed = type(decision) is Decision and options is not None and not isinstance(options, NumberOptions)
        names = [n for n in _all((asking.args, options if listed else ())) if n in self.swap]
        if not names:
            return asking
        if listed:
            own = [n for n in _all(asking.args) if n in self.swap]
            decision = Decision(decision.player, decision.kind, self.text(decision.prompt, own), tuple(
                self._option(o, own) for o in options), decision.for_player)
        return Ask(decision, asking.resume, self.value(asking.args))

    def _option(self, option: Option, frame_names: list[str]) -> Option:
        """An option renamed by the names of its value ("draft X"), or else by its frame's ("buy X" is True)."""
        named = _all(option.value)
        value = self.value(option.value)
        names = [n for n in named if n in self.swap] if named else frame_names
        label = self.text(option.label, names)
        return option if value is option.value and label == option.label else Option(label, value)
