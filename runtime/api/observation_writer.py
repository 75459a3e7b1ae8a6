"""The observation tensor kept up to date in place: what a learning loop asks at every decision, for a fraction of
the cost of writing it anew.

`GameState.fill_observation_tensor` builds the observation (`observation(player)`, plain data) and encodes it
(encoding.py): about 60 us a decision, more than the engine takes to play one. Between two decisions little
changes: a few resources, perhaps a tile or a card. An `ObservationWriter` keeps one player's tensor in a buffer
of its own and, at each call, compares each part of the state the tensor shows with a copy of it kept at the last
call (list and dict comparisons, which run in C and stop at the first difference), and rewrites only the parts that
differ, and of those only the entries that differ from what the part wrote last (set differences, in C). The result
is exactly `observation_tensor(player)` (tests/test_envs.py compares them at every decision of games with every
expansion).

The parts, each with what is compared: the header (the player to move, the first player, the generation, the
phase, the decision's kind), the global parameters, the piles (deck size and the discard pile with its face-down
cards), the tiles and Land Claims, the milestones and awards, the sites and the government (compared in full:
they are small and only some expansions have them), per seat its numbers, its corporation and cards in play with
their resources, the used actions, the observer's hand, and what the flow holds (the frames of the flow, which are
immutable, compared by identity, with the hand and the kept cards).

Interface: `ObservationWriter(game, player)`, then `write(game, out)` with the same `out` each time (zeros the
first time). Another game (a new deal, a determinisation: another state object) clears the buffer and writes the
whole tensor; another buffer (zeros) is written whole.
"""

from __future__ import annotations

from array import array
from operator import truediv
from typing import TYPE_CHECKING

from tharsis.compiler.vocabulary import GLOBAL_RANGES, STANDARD_RESOURCES, TILES

from ..core.decisions import DECISION_KINDS
from ..core.state import MAX_PLAYERS, PHASES
from . import hidden
from .encoding import SCALES, SEAT_NUMBERS, encoding_for, marker_entries

if TYPE_CHECKING:
    from .game import Game

__all__ = ["ObservationWriter"]

_NOBODY = MAX_PLAYERS
_SEAT_PARTS = tuple(f"seat {i}" for i in range(MAX_PLAYERS))       # the parts' names, made once
_PLAYED_PARTS = tuple(f"played {i}" for i in range(MAX_PLAYERS))
_ZEROS = (0,) * len(STANDARD_RESOURCES)
_STOCK = (SCALES["stock"],) * len(STANDARD_RESOURCES)
_PRODUCTION = (SCALES["production"],) * len(STANDARD_RESOURCES)
_UNSEEN = object()
_NONE: frozenset = frozenset()   # a key no part of the state equals: the part is written at the next call


def _float_view(out):
    """Where the writer writes `out`: a memoryview of it when it is a flat buffer of float32 (numpy's), through
    which setting an item costs a fraction of numpy's indexing (and converts a Python float to float32 the same
    way, by a C cast), else `out` itself (a list)."""
    try:
        view = memoryview(out)
    except TypeError:
        return out
    if view.format == "f" and view.ndim == 1 and view.c_contiguous and not view.readonly:
        return view
    return out


class _Recorder(dict):
    """Entries written by the encoding's own code for the small parts (sites, government): index -> value."""

    def __missing__(self, index):
        return 0.0


class ObservationWriter:
    """One player's observation tensor of one game, rewritten part by part as the game changes (the module
    docstring)."""

    def __init__(self, game: "Game", player: int):
        self.encoding = encoding = encoding_for(game)
        self.player = player
        self.offsets = offsets = {}
        at = 0
        for index, (_, length) in enumerate(encoding.layout):
            offsets[index] = at
            at += length
        self.size = at
        self._out = None
        self._state = None
        self._written: dict[str, dict[int, float]] = {}   # the entries each part wrote last: index -> value
        self._sets: dict[str, set[int]] = {}        # the same for the multi-hot parts
        self._keys: dict[str, object] = {}
        self._headers: dict[tuple, list] = {}   # header -> its entries (the header's numbers fix them)
        self._reader = hidden.FlowReader(player)
        self._tile_entries: dict[str, tuple] = {}   # space -> (its tile, the tile's entries)
        self._seen = self._others = 0   # cards of the discard pile the observer sees, and the others' face down

    def write(self, game: "Game", out) -> None:
        """Brings `out` to `observation_tensor(player)` of `game` now."""
        if out is not self._out:   # a new buffer: zeros, nothing of ours in it
            self._out, self._written, self._sets = out, {}, {}
            self._keys = {}
            self._view = _float_view(out)
        out = self._view
        if game.state is not self._state:   # another game (its seats may be others): cleared, then written whole
            if self._state is not None:
                out[0:self.size] = array("f", bytes(4 * self.size))
            self._state = game.state
            self._written, self._sets, self._keys = {}, {}, {}
            self._reader = hidden.FlowReader(self.player)
            self._tile_entries = {}
        state, observer, keys = game.state, self.player, self._keys
        players = state.players
        decision = game.pending()
        current = decision.player if decision is not None else None
        header = (current, state.first_player, state.generation, state.phase,
                  decision.kind if current == observer else None, len(players))
        if keys.get("header") != header:
            keys["header"] = header
            entries = self._headers.get(header)
            if entries is None:   # a few dozen headers a game: each one's entries made once
                if len(self._headers) >= 4096:
                    self._headers.clear()
                entries = self._headers[header] = self._header_entries(header)
            self._rewrite(out, "header", entries)
        parameters = (state.temperature, state.oxygen, state.oceans, *state.parameters.values())
        if keys.get("parameters") != parameters:
            keys["parameters"] = parameters
            self._parameters(out, state)
        self._piles(out, state, keys)
        if keys.get("tiles", _UNSEEN) != state.tiles or keys.get("claims", _UNSEEN) != state.claims:
            keys["tiles"], keys["claims"] = dict(state.tiles), dict(state.claims)
            self._tiles(out, state)
        if keys.get("milestones", _UNSEEN) != state.milestones or keys.get("awards", _UNSEEN) != state.awards:
            keys["milestones"], keys["awards"] = list(state.milestones), list(state.awards)
            self._claimed(out, state)
        elements = game.elements
        if elements.sites or elements.pieces or elements.government is not None or elements.staged_cards:
            self._small_parts(out, game, keys)
        used = False
        for index, player in enumerate(players):
            used = self._seat(out, index, player, keys) or used
        if used:
            self._used(out, players)
        me = players[observer]
        if keys.get("hand") != me.hand:
            keys["hand"] = list(me.hand)
            self._multi_hot(out, "hand", 18, me.hand)
        self._flow(out, game, me, keys)
        if self.encoding.markers and keys.get("markers", _UNSEEN) != state.markers:   # content with markers only
            keys["markers"] = dict(state.markers)
            markers = {name: (m.space, m.owner, m.blocks) for name, m in state.markers.items()}
            self._rewrite(out, "markers", [(index, 1.0) for index in
                                           marker_entries(self.encoding.spaces, self.offsets[23], markers)])

    def _flow(self, out, game: "Game", me, keys: dict) -> None:
        """What the flow holds for the observer (with their kept cards) and the card being played
        (hidden.FlowReader: the frames that stayed on the stack are not read again)."""
        held, playing = self._reader.read(game)
        kept = game.state.kept[self.player] if game.state.kept else ()
        held = list(kept) + held
        if keys.get("held") != held:
            keys["held"] = held
            self._multi_hot(out, "held", 19, held)
        if keys.get("playing", _UNSEEN) != playing:
            keys["playing"] = playing
            self._multi_hot(out, "playing", 21, (playing[1],) if playing else ())

    # ------------------------------------------------------------------ the parts

    def _rewrite(self, out, part: str, entries) -> None:
        """Brings the entries of `part` from what it wrote last to `entries` ((index, value) pairs, the last of an
        index counting, or a dict): clears the indices it no longer writes and writes the values that differ, found
        by set operations in C (between two calls most entries of a part stay: the header's player and generation,
        the tiles but one)."""
        new = entries if type(entries) is dict else dict(entries)
        old = self._written.get(part)
        if old:
            for index in old.keys() - new.keys():
                out[index] = 0.0
            for index, value in new.items() - old.items():
                out[index] = value
        else:
            for index, value in new.items():
                out[index] = value
        self._written[part] = new

    def _relative(self, index, count: int) -> int:
        return (index - self.player) % count if isinstance(index, int) and 0 <= index < count else _NOBODY

    def _header_entries(self, header) -> dict[int, float]:
        current, first, generation, phase, kind, count = header
        at = self.offsets
        entries = [(self.player, 1.0), (at[1] + count - 1, 1.0), (at[2] + self._relative(current, count), 1.0),
                   (at[4], generation / SCALES["generation"])]
        if self._relative(first, count) < MAX_PLAYERS:
            entries.append((at[3] + self._relative(first, count), 1.0))
        if phase in PHASES:
            entries.append((at[5] + PHASES.index(phase), 1.0))
        if kind in DECISION_KINDS:
            entries.append((at[22] + DECISION_KINDS.index(kind), 1.0))
        return dict(entries)

    def _parameters(self, out, state) -> None:
        values = dict(state.parameters, **{name: getattr(state, name) for name in GLOBAL_RANGES})
        base = self.offsets[6]
        entries = []
        for i, (name, (low, high)) in enumerate(self.encoding.scales.items()):
            if name in values:
                entries.append((base + i, (values[name] - low) / (high - low)))
        self._rewrite(out, "parameters", entries)

    def _piles(self, out, state, keys: dict) -> None:
        """The deck's size, and the discard pile: its size (every card, face down too) and the cards the observer
        sees in it. The pile mostly grows at its end (a card discarded, face down or not): then only the new cards
        are read."""
        deck, discard, face_down = len(state.deck), state.discard, state.face_down
        known = keys.get("discard")
        if known is not None and len(discard) == len(known) and len(face_down) == len(keys["face down"]) and \
                discard == known and face_down == keys["face down"]:
            if keys["deck"] != deck:   # a card drawn, the discard pile as it was: one number to write
                keys["deck"] = deck
                base = self.offsets[7]
                out[base] = self._written["piles"][base] = deck / SCALES["deck"]
            return
        observer = self.player
        old = len(known) if known is not None else 0
        before = keys.get("face down")
        grown = known is not None and len(discard) >= old and discard[:old] == known
        if grown:   # new cards at the end, and face-down marks for them only (no mark changed or gone)?
            new = discard[old:]
            if len(face_down) == len(before):
                marked = ()
                grown = face_down == before
            else:
                marked = face_down.keys() - before.keys()
                grown = before.items() <= face_down.items() and all(n in new for n in marked)
        if grown:
            seen = [n for n in new if face_down.get(n, observer) == observer]
            self._seen += len(seen)
            self._others += sum(1 for n in marked if face_down[n] != observer)
            cards, at = self.encoding.cards, self.offsets[20]
            written = self._sets.setdefault("discard", set())
            for name in seen:
                if name in cards:
                    out[at + cards[name]] = 1.0
                    written.add(at + cards[name])
        else:
            seen = [n for n in discard if face_down.get(n, observer) == observer]
            self._seen = len(seen)
            self._others = sum(1 for owner in face_down.values() if owner != observer)
            self._multi_hot(out, "discard", 20, seen)
        keys["deck"], keys["discard"], keys["face down"] = deck, list(discard), dict(face_down)
        base = self.offsets[7]
        self._rewrite(out, "piles", [(base, deck / SCALES["deck"]),
                                     (base + 1, (self._seen + self._others) / SCALES["deck"])])

    def _tiles(self, out, state) -> None:
        """The tiles and claims. A tile is immutable (a space's new tile is a new object), so each tile's entries
        are found once and kept with it."""
        spaces, per_space = self.encoding.spaces, self.encoding.per_space
        base, count = self.offsets[8], len(state.players)
        entries = []
        known = self._tile_entries
        for space, tile in state.tiles.items():
            found = known.get(space)
            if found is None or found[0] is not tile:
                found = known[space] = (tile, [])
                if space in spaces:
                    at = base + spaces[space] * per_space
                    if tile.kind in TILES:
                        found[1].append((at + TILES.index(tile.kind), 1.0))
                    found[1].append((at + len(TILES) + self._relative(tile.owner, count), 1.0))
            entries += found[1]
        for space in state.claims:
            if space in spaces:
                entries.append((base + spaces[space] * per_space + per_space - 1, 1.0))
        self._rewrite(out, "tiles", entries)

    def _claimed(self, out, state) -> None:
        entries, count = [], len(state.players)
        at = self.offsets[9]
        for table, rows in ((self.encoding.milestones, state.milestones), (self.encoding.awards, state.awards)):
            for name, owner, *_ in rows:
                seat = self._relative(owner, count)
                if name in table and seat < MAX_PLAYERS:
                    entries.append((at + table[name] * MAX_PLAYERS + seat, 1.0))
            at += len(table) * MAX_PLAYERS
        self._rewrite(out, "claimed", entries)

    def _small_parts(self, out, game: "Game", keys: dict) -> None:
        """The sites, supplies of pieces, government and stages, written by the encoding's own code into a record
        and compared with the last: small, and only in games of some expansions."""
        state = game.state
        government = state.government
        key = ([(s.name, s.marker, s.active, tuple(s.pieces), s.visitor) for s in state.sites],
               [dict(p.pieces) for p in state.players],
               None if government is None else (government.ruling, government.dominant, government.role,
                                                government.neutral, [(f.name, tuple(f.pieces), f.leader)
                                                                     for f in government.factions]),
               {kind: list(cards) for kind, cards in state.stages.items()})
        if keys.get("small parts", _UNSEEN) == key:
            return
        keys["small parts"] = key
        observation = {"observer": self.player,
                       "players": [{"pieces": dict(p.pieces)} for p in state.players],
                       "sites": [{"name": s.name, "marker": s.marker, "active": s.active, "pieces": list(s.pieces),
                                  "visitor": s.visitor} for s in state.sites],
                       "stages": {kind: list(cards) for kind, cards in state.stages.items()}}
        if government is not None:
            observation["government"] = {
                "ruling": government.ruling, "dominant": government.dominant, "role": government.role,
                "neutral": government.neutral,
                "factions": [{"name": f.name, "pieces": list(f.pieces), "leader": f.leader}
                             for f in government.factions]}
        count = len(state.players)
        recorder = _Recorder()
        at = self.encoding._sites(recorder, self.offsets[11], observation, lambda i: self._relative(i, count))
        self.encoding._politics(recorder, at, observation, lambda i: self._relative(i, count))
        self._rewrite(out, "small parts", {i: v for i, v in recorder.items() if v})

    def _seat(self, out, index: int, player, keys: dict) -> bool:
        """A seat's numbers, corporation and cards in play (with their resources); whether the used actions of its
        cards changed."""
        state = self._state
        kept = len(state.kept[index]) if state.kept else 0
        numbers = (player.tr, len(player.hand), kept, player.passed, player.tr_raised_this_generation)
        part = _SEAT_PARTS[index]
        known = keys.get(part)
        if known is None or known[0] != numbers or known[1] != player.resources or known[2] != player.production:
            keys[part] = (numbers, dict(player.resources), dict(player.production))
            base = self.offsets[16] + self._relative(index, len(state.players)) * self.encoding.per_seat
            # the stock and production divided by their scales in C (map), as `encoding` does item by item
            values = [player.tr / SCALES["tr"],
                      *map(truediv, map(player.resources.get, STANDARD_RESOURCES, _ZEROS), _STOCK),
                      *map(truediv, map(player.production.get, STANDARD_RESOURCES, _ZEROS), _PRODUCTION),
                      len(player.hand) / SCALES["hand"], kept / SCALES["hand"], 1.0 if player.passed else 0.0,
                      float(player.tr_raised_this_generation)]
            out[base:base + len(values)] = array("f", values)   # every number at its place: nothing to clear
        # the cards in play compared by identity (a card's name never changes), their resources and used actions as
        # lists: most calls find them all as they were (a comprehension reads a slot faster than `map(attrgetter)`)
        played = player.played
        resources, used = [c.resources for c in played], [c.used for c in played]
        part = _PLAYED_PARTS[index]
        known = keys.get(part)
        corporations = tuple(player.corporations)
        if known is not None and known[1] == played and known[2] == resources and known[0] == corporations:
            if known[3] == used:
                return False
            keys[part] = (corporations, known[1], resources, used)
            return True
        keys[part] = (corporations, list(played), resources, used)
        base = self.offsets[16] + self._relative(index, len(state.players)) * self.encoding.per_seat
        names, at = self.encoding.cards, base + len(SEAT_NUMBERS)
        entries = {}
        for corporation in corporations:
            if corporation in names:
                entries[at + names[corporation]] = 1.0
        for name, held in zip([c.name for c in played], resources):
            if name in names:
                entries[at + len(names) + names[name]] = 1.0 + min(held, 20) / SCALES["card resources"]
        self._rewrite(out, part, entries)
        return known is None or known[3] != used   # the used actions changed

    def _used(self, out, players) -> None:
        cards, at = self.encoding.cards, self.offsets[17]
        self._rewrite(out, "used", {at + cards[c.name]: 1.0 for p in players for c in p.played
                                    if c.used and c.name in cards})

    def _multi_hot(self, out, part: str, layout_index: int, names) -> None:
        """A multi-hot part over the cards: only the entries that differ from the last are written."""
        cards, at = self.encoding.cards, self.offsets[layout_index]
        new = {at + cards[n] for n in names if n in cards}
        old = self._sets.get(part, _NONE)
        for index in old - new:
            out[index] = 0.0
        for index in new - old:
            out[index] = 1.0
        self._sets[part] = new
