"""Game state as plain data (slotted classes): everything a saved game needs besides the compiled content.

Cards are referred to by name; the compiled definitions live in the shared, immutable `Library`. Nothing here
knows a rule: the flow and the effect handlers change this state, runtime/rules/measures.py reads it.

Copying is hand-written (`copy()`), shallow where the contents are immutable (names, `Tile`s, tuples, compiled
modifiers) and one level deeper where they are not (`CardInPlay`), because a search bot clones a game thousands of
times a second and `copy.deepcopy` is a hundred times slower. The random generator's state is a plain int.

The three classes the rules read most (`CardInPlay`, `PlayerState`, `GameData`) are written out rather than made by
attrs: a compiled engine (`THARSIS_COMPILE=1 pip install .`, setup.py) builds them as C extension types from
state.pxd beside this file, so that compiled code typed with them reads their fields from the object's struct
instead of through Python's generic attribute look-up, and attrs classes cannot be extension types. Each lists its
fields once, as its `__slots__`; `fields`, equality and the repr read that list (and so would anything else that
needs the fields: the saves name theirs below, `copy()` copies by hand).
"""

from __future__ import annotations

from typing import Optional

import attrs

# seats at one game: every bound on players (options, saves, research, an expansion's table of sites) reads these;
# their home is the compiler's vocabulary, since the compiler checks a table of sites by them too
from tharsis.compiler.vocabulary import (
    MAX_PLAYERS as MAX_PLAYERS,  # re-exported (ruff: F401 does not apply)
    MIN_PLAYERS as MIN_PLAYERS,
)

RESOURCES = ("megacredits", "steel", "titanium", "plant", "energy", "heat")
NEUTRAL = -1  # the owner of the solo game's neutral cities and greeneries

# The phases a game goes through, in order (`GameData.phase`): the one home of their names, which the flow sets and
# the views, the research encoding, the bots and the scenarios read.
PHASES = ("setup", "research", "action", "production", "final greenery", "end")
SETUP, RESEARCH, ACTION, PRODUCTION, FINAL_GREENERY, END = PHASES


def _zeroes() -> dict[str, int]:
    return {r: 0 for r in RESOURCES}


class CardInPlay:
    __slots__ = ("name", "resources", "used", "tile", "kept")
    # used: its action was used this generation; tile: the space of the tile this card placed (Capital, Commercial
    # District), or None; kept: the cards kept face up on it (`move card from hand to here`, Self-Replicating
    # Robots), each `[name, resources on it]`, or None while it keeps none (no list for every card in play)

    def __init__(self, name: str, resources: int = 0, used: bool = False, tile: Optional[str] = None,
                 kept: Optional[list] = None):
        self.name, self.resources, self.used, self.tile, self.kept = name, resources, used, tile, kept

    def copy(self) -> "CardInPlay":
        new = CardInPlay.__new__(CardInPlay)
        new.name, new.resources, new.used, new.tile = self.name, self.resources, self.used, self.tile
        new.kept = None if self.kept is None else [list(pair) for pair in self.kept]
        return new

    def __eq__(self, other):
        return _equal(self, other)

    def __repr__(self) -> str:
        return _repr(self)


@attrs.define
class FactionState:
    """A faction of the government in play (compiler/definitions.py `Faction`): the owners of the pieces in it, in
    order of arrival (a player's index, or NEUTRAL), and the owner of the piece that leads it (None: it is empty)."""

    name: str
    pieces: list[int] = attrs.field(factory=list)
    leader: Optional[int] = None

    def copy(self) -> "FactionState":
        new = _new(FactionState)
        new.name, new.pieces, new.leader = self.name, self.pieces.copy(), self.leader
        return new

    def count(self, owner: int) -> int:
        return self.pieces.count(owner)


@attrs.define
class GovernmentState:
    """The politics of a game with a government: its factions in board order, the ruling and the dominant one, the
    holder of the role (a player's index, NEUTRAL, or None: nobody; the holder's piece is out of every reserve) and
    the pieces in the neutral reserve. Each player's reserve is their supply of the government's piece."""

    factions: list[FactionState]
    ruling: Optional[str] = None
    dominant: Optional[str] = None
    role: Optional[int] = None
    neutral: int = 0

    def faction(self, name: Optional[str]) -> Optional[FactionState]:
        for faction in self.factions:
            if faction.name == name:
                return faction
        return None

    def copy(self) -> "GovernmentState":
        new = _new(GovernmentState)
        new.factions = [f.copy() for f in self.factions]
        new.ruling, new.dominant, new.role, new.neutral = self.ruling, self.dominant, self.role, self.neutral
        return new


@attrs.define
class SiteState:
    """A site in play (compiler/definitions.py `Site`): where its marker stands (a step of its track, from 0),
    whether it is active, the owners of the pieces on it in order of arrival, and the owner of the piece visiting
    it (None: no visitor). `more_visitors`: the owners of the pieces that visit it beside the visitor, sent by a
    `send PIECE to any site` (Coordinated Raid) in order of arrival; empty in every other game."""

    name: str
    marker: int
    active: bool = True
    pieces: list[int] = attrs.field(factory=list)
    visitor: Optional[int] = None
    more_visitors: list[int] = attrs.field(factory=list)

    def copy(self) -> "SiteState":
        new = _new(SiteState)
        new.name, new.marker, new.active, new.visitor = self.name, self.marker, self.active, self.visitor
        new.pieces = self.pieces.copy()
        new.more_visitors = self.more_visitors.copy()
        return new

    def visitors(self) -> list[int]:
        """Every player whose piece visits the site now, the first visitor first."""
        return ([] if self.visitor is None else [self.visitor]) + self.more_visitors


@attrs.frozen
class Tile:
    """Immutable: a placed tile never changes, so copies of a game share them."""

    kind: str                     # ocean | greenery | city | special
    owner: Optional[int]          # player index, None for oceans, NEUTRAL for solo neutral tiles
    name: Optional[str] = None    # the name a city or special tile was given by its card
    is_city: bool = False
    claimed: Optional[int] = None  # the player whose `claim space` marker the space had when the tile went on it
    # declared marks put on the tile (`put cathedral on city`): (mark, count) pairs in order of name, none for most
    # tiles; a mark put replaces the tile with one that has it (the tile stays immutable, shared by copies)
    marks: tuple = ()

    def marked(self, mark: str) -> int:
        """How many of a declared mark the tile has (St. Joseph of Cupertino Mission's cathedrals)."""
        for name, count in self.marks:
            if name == mark:
                return count
        return 0


@attrs.frozen
class BoardMarker:
    """A named marker on a space of the board (`place marker "Nomad" ...`): whose it is, and whether it blocks tiles
    (`blocking tiles`: no tile may go on its space). Immutable, as a tile is: a move puts a new one."""

    space: str
    owner: int
    blocks: bool = False


class PlayerState:
    __slots__ = ("name", "index", "corporations", "tr", "resources", "production", "starting_production", "hand",
                 "played", "events", "passed", "tr_raised_this_generation", "next_card_modifiers", "first_action_done",
                 "actions_used", "pieces", "removed_this_generation", "harmed_by_this_generation", "first_actions",
                 "events_face_down", "tr_skipped_this_generation")
    # corporations: the player's corporations in the order played (one, or none before set-up; a second from a card
    # that plays one, `look 4 corporation cards play 1`); first_actions: when a player has several corporations with a
    # first action still to take, those corporations in order (the first one's is the pending one); empty otherwise,
    # when `first_action_done` alone says whether the first corporation's first action waits; played: corporations
    # first, then project cards in play; next_card_modifiers: compiled modifiers from
    # `next card { }`; actions_used: once-a-generation actions not of cards, used this one; pieces: declared pieces
    # with a supply, how many in it; removed_this_generation: resources this player removed from other players this
    # generation, by kind (`plants removed from opponents this generation`); harmed_by_this_generation: the other side,
    # the players who removed this player's resources or decreased their production this generation, in the order
    # they first did (`steal 3 megacredits from any player who harmed you this generation`); events_face_down: cards
    # this player turned face down into their events pile (`turn this card face down`), which nothing counts;
    # tr_skipped_this_generation: the TR steps not gained this generation under `skip first N tr steps each generation`

    def __init__(self, name: str, index: int, corporations: Optional[list[str]] = None, tr: int = 20,
                 resources: Optional[dict[str, int]] = None, production: Optional[dict[str, int]] = None,
                 starting_production: int = 1, hand: Optional[list[str]] = None,
                 played: Optional[list[CardInPlay]] = None, events: Optional[list[str]] = None, passed: bool = False,
                 tr_raised_this_generation: int = 0, next_card_modifiers: Optional[list] = None,
                 first_action_done: bool = True, actions_used: Optional[list[str]] = None,
                 pieces: Optional[dict[str, int]] = None, removed_this_generation: Optional[dict[str, int]] = None,
                 harmed_by_this_generation: Optional[list[int]] = None, first_actions: Optional[list[str]] = None,
                 events_face_down: Optional[list[str]] = None, tr_skipped_this_generation: int = 0):
        self.name, self.index, self.tr = name, index, tr
        self.corporations = [] if corporations is None else corporations
        self.resources = _zeroes() if resources is None else resources
        self.production = _zeroes() if production is None else production
        self.starting_production = starting_production
        self.hand = [] if hand is None else hand
        self.played = [] if played is None else played
        self.events = [] if events is None else events
        self.passed, self.tr_raised_this_generation = passed, tr_raised_this_generation
        self.next_card_modifiers = [] if next_card_modifiers is None else next_card_modifiers
        self.first_action_done = first_action_done
        self.actions_used = [] if actions_used is None else actions_used
        self.pieces = {} if pieces is None else pieces
        self.removed_this_generation = {} if removed_this_generation is None else removed_this_generation
        self.harmed_by_this_generation = [] if harmed_by_this_generation is None else harmed_by_this_generation
        self.tr_skipped_this_generation = tr_skipped_this_generation
        self.events_face_down = [] if events_face_down is None else events_face_down
        self.first_actions = [] if first_actions is None else first_actions

    def add_corporation(self, name: str, has_first_action: bool) -> None:
        """A corporation comes into play: the first at set-up, another from a card (the reference engine's
        `playAdditionalCorporationCard`); a first action of the new one waits after those already waiting."""
        if not self.corporations:
            self.first_action_done = not has_first_action
        elif has_first_action:
            waiting = self.first_actions or ([] if self.first_action_done else [self.corporations[0]])
            self.first_actions = waiting + [name]
            self.first_action_done = False
        self.corporations.append(name)

    def pending_first_action(self) -> Optional[str]:
        """The corporation whose first action the player must take next, or None."""
        if self.first_action_done:
            return None
        if self.first_actions:
            return self.first_actions[0]
        return self.corporations[0] if self.corporations else None

    def take_first_action(self) -> Optional[str]:
        """The pending first action is taken: its corporation, and the next one (if any) waits."""
        corporation = self.pending_first_action()
        if self.first_actions:
            self.first_actions.pop(0)
        self.first_action_done = not self.first_actions
        return corporation

    def card(self, name: str) -> Optional[CardInPlay]:
        for card in self.played:
            if card.name == name:
                return card
        return None

    def copy(self) -> "PlayerState":
        new = PlayerState.__new__(PlayerState)
        new.name, new.index, new.tr = self.name, self.index, self.tr
        new.corporations = self.corporations.copy()
        new.resources, new.production = self.resources.copy(), self.production.copy()
        new.starting_production = self.starting_production
        new.hand, new.played = self.hand.copy(), [c.copy() for c in self.played]
        new.events, new.passed = self.events.copy(), self.passed
        new.tr_raised_this_generation = self.tr_raised_this_generation
        new.next_card_modifiers, new.first_action_done = self.next_card_modifiers.copy(), self.first_action_done
        new.actions_used = self.actions_used.copy() if self.actions_used else []
        new.pieces = self.pieces.copy() if self.pieces else {}
        new.removed_this_generation = self.removed_this_generation.copy() if self.removed_this_generation else {}
        new.harmed_by_this_generation = self.harmed_by_this_generation.copy() if self.harmed_by_this_generation else []
        new.first_actions = self.first_actions.copy() if self.first_actions else []
        new.events_face_down = self.events_face_down.copy() if self.events_face_down else []
        new.tr_skipped_this_generation = self.tr_skipped_this_generation
        return new

    def __eq__(self, other):
        return _equal(self, other)

    def __repr__(self) -> str:
        return _repr(self)


class GameData:
    """The whole game as plain data (a `Game` holds one as `game.state`). Not `GameState`: that name is the research
    view's (runtime/api/research.py), the one docs/api.md gives to search and learning code."""

    __slots__ = ("board", "players", "temperature", "oxygen", "oceans", "tiles", "claims", "deck", "discard",
                 "face_down", "generation", "first_player", "phase", "milestones", "awards", "neutral_tr", "over",
                 "rng", "parameters", "kept", "piles", "stages", "sites", "set_aside", "government",
                 "fired_this_action", "markers", "covered")
    # tiles: space -> Tile (the tile on top); covered: space -> the Tile under the one on top, for a tile placed `on
    # top of` another (New Holland's city on an ocean: the space holds both, each counting as its kind); claims: Land
    # Claim markers, space -> player; deck: hidden (a determiniser may reshuffle it); face_down: the cards of the
    # discard pile that went there face down (research cards not bought, cards looked at and not kept), name -> the
    # player who discarded them, the only one who knows them, emptied when the pile is reshuffled; milestones, awards:
    # (name, player) in the order funded; rng: the deal state, key << 64 | position (rng.py); parameters: declared
    # global parameters, name -> value; kept: per player, cards of declared kinds still to play; piles: the draw pile
    # of each declared kind of card; stages: a staged kind's card in each stage (None: empty); sites: declared sites
    # in play, in the order they came; set_aside: declared sites of the sets in play not in play; government: the
    # declared government in play, if any (a GovernmentState); fired_this_action: the `once per action` triggers fired
    # in the action under way, each [owner, card, trigger's place among the card's passives], emptied when an action
    # starts (runtime/handlers/triggers.py `new_action`)

    def __init__(self, board: str, players: list[PlayerState], temperature: int = -30, oxygen: int = 0,
                 oceans: int = 0, tiles: Optional[dict[str, Tile]] = None, claims: Optional[dict[str, int]] = None,
                 deck: Optional[list[str]] = None, discard: Optional[list[str]] = None,
                 face_down: Optional[dict[str, int]] = None, generation: int = 1, first_player: int = 0,
                 phase: str = SETUP, milestones: Optional[list[tuple[str, int]]] = None,
                 awards: Optional[list[tuple[str, int]]] = None, neutral_tr: int = 0, over: bool = False, rng: int = 0,
                 parameters: Optional[dict[str, int]] = None, kept: Optional[list[list[str]]] = None,
                 piles: Optional[dict[str, list[str]]] = None, stages: Optional[dict[str, list]] = None,
                 sites: Optional[list[SiteState]] = None, set_aside: Optional[list[str]] = None,
                 government: Optional[GovernmentState] = None, fired_this_action: Optional[list] = None,
                 markers: Optional[dict[str, BoardMarker]] = None, covered: Optional[dict[str, Tile]] = None):
        self.board, self.players = board, players
        self.temperature, self.oxygen, self.oceans = temperature, oxygen, oceans
        self.tiles = {} if tiles is None else tiles
        self.claims = {} if claims is None else claims
        self.deck = [] if deck is None else deck
        self.discard = [] if discard is None else discard
        self.face_down = {} if face_down is None else face_down
        self.generation, self.first_player, self.phase = generation, first_player, phase
        self.milestones = [] if milestones is None else milestones
        self.awards = [] if awards is None else awards
        self.neutral_tr, self.over, self.rng = neutral_tr, over, rng
        self.parameters = {} if parameters is None else parameters
        self.kept = [] if kept is None else kept
        self.piles = {} if piles is None else piles
        self.stages = {} if stages is None else stages
        self.sites = [] if sites is None else sites
        self.set_aside = [] if set_aside is None else set_aside
        self.government = government
        self.fired_this_action = [] if fired_this_action is None else fired_this_action
        self.markers = {} if markers is None else markers   # named markers on the board: name -> BoardMarker
        self.covered = {} if covered is None else covered

    def site(self, name: str) -> Optional[SiteState]:
        for site in self.sites:
            if site.name == name:
                return site
        return None

    def copy(self) -> "GameData":
        new = GameData.__new__(GameData)
        new.board, new.players = self.board, [p.copy() for p in self.players]
        new.temperature, new.oxygen, new.oceans = self.temperature, self.oxygen, self.oceans
        new.tiles, new.claims = self.tiles.copy(), self.claims.copy()
        new.deck, new.discard, new.face_down = self.deck.copy(), self.discard.copy(), self.face_down.copy()
        new.generation, new.first_player, new.phase = self.generation, self.first_player, self.phase
        new.milestones, new.awards = self.milestones.copy(), self.awards.copy()
        new.neutral_tr, new.over, new.rng = self.neutral_tr, self.over, self.rng
        new.parameters, new.kept = self.parameters.copy(), [k.copy() for k in self.kept]
        new.piles = {kind: pile.copy() for kind, pile in self.piles.items()} if self.piles else {}
        new.stages = {kind: cards.copy() for kind, cards in self.stages.items()} if self.stages else {}
        new.sites = [site.copy() for site in self.sites] if self.sites else []
        new.set_aside = self.set_aside.copy() if self.set_aside else []
        new.government = self.government.copy() if self.government is not None else None
        new.fired_this_action = [fired.copy() for fired in self.fired_this_action] if self.fired_this_action else []
        new.markers = self.markers.copy() if self.markers else {}
        new.covered = self.covered.copy() if self.covered else {}
        return new

    def __eq__(self, other):
        return _equal(self, other)

    def __repr__(self) -> str:
        return _repr(self)


def fields(cls: type) -> tuple[str, ...]:
    """The fields of a state class, in order: the written-out classes' `__slots__`, an attrs class's fields."""
    if attrs.has(cls):
        return tuple(field.name for field in attrs.fields(cls))
    return cls.__slots__


def _equal(one, other):
    """`==` of the written-out classes, as attrs writes it: the same class and equal fields, in order."""
    if other.__class__ is not one.__class__:
        return NotImplemented
    names = one.__slots__
    return [getattr(one, name) for name in names] == [getattr(other, name) for name in names]


def _repr(one) -> str:
    """The repr of the written-out classes, as attrs writes it: `PlayerState(name='ann', index=0, ...)`."""
    shown = ", ".join(f"{name}={getattr(one, name)!r}" for name in one.__slots__)
    return f"{one.__class__.__qualname__}({shown})"


_new = object.__new__


def state_to_data(state: GameData, encode_modifier) -> dict:
    """The state as JSON-ready data (the `state` of a save; `Game.snapshot()`); compiled `next card` modifiers
    are written by `encode_modifier` (a reference into the compiled library)."""
    data = {f: getattr(state, f) for f in _PLAIN_GAME}
    data["players"] = [_player_to_data(p, encode_modifier) for p in state.players]
    data["tiles"] = {sid: _tile_to_data(t) for sid, t in state.tiles.items()}
    data["claims"] = dict(state.claims)
    data["deck"], data["discard"] = list(state.deck), list(state.discard)
    if state.face_down:  # saves from before face-down discards load with none
        data["face_down"] = dict(state.face_down)
    data["milestones"] = [list(m) for m in state.milestones]
    data["awards"] = [list(a) for a in state.awards]
    if state.parameters or state.kept or state.piles:  # only when an expansion uses them: base saves as before
        data["parameters"] = dict(state.parameters)
        data["kept"] = [list(k) for k in state.kept]
        data["piles"] = {kind: list(pile) for kind, pile in state.piles.items()}
    if state.stages:  # only with a kind of card that has stages
        data["stages"] = {kind: list(cards) for kind, cards in state.stages.items()}
    if state.sites or state.set_aside:  # only with declared sites: other saves as before
        data["sites"] = [{"name": s.name, "marker": s.marker, "active": s.active, "pieces": list(s.pieces),
                          "visitor": s.visitor, **({"more_visitors": list(s.more_visitors)} if s.more_visitors else {})}
                         for s in state.sites]   # more visitors only when there are some: other saves as before
        data["set_aside"] = list(state.set_aside)
    government = state.government
    if government is not None:  # only with a declared government: other saves as before
        data["government"] = {"factions": [{"name": f.name, "pieces": list(f.pieces), "leader": f.leader}
                                           for f in government.factions],
                              "ruling": government.ruling, "dominant": government.dominant, "role": government.role,
                              "neutral": government.neutral}
    if state.fired_this_action:  # only within an action that fired a `once per action` trigger: saves as before
        data["fired_this_action"] = [list(fired) for fired in state.fired_this_action]
    if state.markers:  # only with a marker on the board: saves as before
        data["markers"] = {name: {"space": m.space, "owner": m.owner, "blocks": m.blocks}
                           for name, m in state.markers.items()}
    if state.covered:  # only once a tile went on top of another: other saves as before
        data["covered"] = {sid: _tile_to_data(t) for sid, t in state.covered.items()}
    return data


def state_from_data(data: dict, decode_modifier) -> GameData:
    state = GameData.__new__(GameData)
    for f in _PLAIN_GAME:
        setattr(state, f, data[f])
    state.players = [_player_from_data(p, decode_modifier) for p in data["players"]]
    state.tiles = {sid: _tile_from_data(t) for sid, t in data["tiles"].items()}
    state.claims = dict(data["claims"])
    state.deck, state.discard = list(data["deck"]), list(data["discard"])
    state.face_down = {str(name): int(player) for name, player in data.get("face_down", {}).items()}
    state.milestones = [tuple(m) for m in data["milestones"]]
    state.awards = [tuple(a) for a in data["awards"]]
    state.parameters = dict(data.get("parameters", {}))
    state.kept = [list(k) for k in data.get("kept", [])]
    state.piles = {kind: list(pile) for kind, pile in data.get("piles", {}).items()}
    state.stages = {kind: list(cards) for kind, cards in data.get("stages", {}).items()}
    state.sites = [SiteState(s["name"], s["marker"], s["active"], list(s["pieces"]), s["visitor"],
                             [int(p) for p in s.get("more_visitors", ())]) for s in data.get("sites", ())]
    state.set_aside = list(data.get("set_aside", ()))
    saved = data.get("government")
    state.government = None if saved is None else GovernmentState(
        [FactionState(f["name"], list(f["pieces"]), f["leader"]) for f in saved["factions"]], saved["ruling"],
        saved["dominant"], saved["role"], saved["neutral"])
    state.fired_this_action = [list(fired) for fired in data.get("fired_this_action", ())]
    state.markers = {str(name): BoardMarker(str(m["space"]), int(m["owner"]), bool(m["blocks"]))
                     for name, m in data.get("markers", {}).items()}
    state.covered = {sid: _tile_from_data(t) for sid, t in data.get("covered", {}).items()}
    return state


def _tile_to_data(tile: Tile) -> dict:
    data = {"kind": tile.kind, "owner": tile.owner, "name": tile.name, "is_city": tile.is_city}
    if tile.claimed is not None:  # only a tile put on a claimed space: other saves as before
        data["claimed"] = tile.claimed
    if tile.marks:  # only a tile with a declared mark on it: other saves as before
        data["marks"] = {name: count for name, count in tile.marks}
    return data


def _tile_from_data(data: dict) -> Tile:
    marks = tuple(sorted((str(name), int(count)) for name, count in data.get("marks", {}).items()))
    return Tile(data["kind"], data["owner"], data["name"], data["is_city"], data.get("claimed"), marks)


_PLAIN_GAME = ("board", "temperature", "oxygen", "oceans", "generation", "first_player", "phase", "neutral_tr",
               "over", "rng")
_PLAIN_PLAYER = ("name", "index", "tr", "starting_production", "passed", "tr_raised_this_generation",
                 "first_action_done")


def _card_to_data(card: CardInPlay) -> dict:
    data = {"name": card.name, "resources": card.resources, "used": card.used, "tile": card.tile}
    if card.kept:  # only a card that keeps cards: other saves as before
        data["kept"] = [list(pair) for pair in card.kept]
    return data


def _player_to_data(player: PlayerState, encode_modifier) -> dict:
    data = {"name": player.name, "index": player.index, "corporation": corporation_to_data(player.corporations)}
    data.update((f, getattr(player, f)) for f in _PLAIN_PLAYER[2:])  # the keys in the order saves always had
    data["resources"], data["production"] = dict(player.resources), dict(player.production)
    data["hand"], data["events"] = list(player.hand), list(player.events)
    data["played"] = [_card_to_data(c) for c in player.played]
    data["next_card_modifiers"] = [encode_modifier(m) for m in player.next_card_modifiers]
    if player.actions_used:  # only once such an action was used: other saves as before
        data["actions_used"] = list(player.actions_used)
    if player.pieces:  # only with declared pieces that have a supply
        data["pieces"] = dict(player.pieces)
    if player.removed_this_generation:  # only in a generation where something was removed: other saves as before
        data["removed_this_generation"] = dict(player.removed_this_generation)
    if player.harmed_by_this_generation:  # only in a generation where someone harmed the player: other saves as before
        data["harmed_by_this_generation"] = list(player.harmed_by_this_generation)
    if player.first_actions:  # only with several corporations' first actions waiting: other saves as before
        data["first_actions"] = list(player.first_actions)
    if player.events_face_down:  # only once a card was turned face down: other saves as before
        data["events_face_down"] = list(player.events_face_down)
    if player.tr_skipped_this_generation:  # only in a generation where a step was skipped: other saves as before
        data["tr_skipped_this_generation"] = player.tr_skipped_this_generation
    return data


def corporation_to_data(corporations: list[str]):
    """The saved `corporation`: the one name (None before set-up), as every save had it; a list only for a player
    with several corporations."""
    if len(corporations) > 1:
        return list(corporations)
    return corporations[0] if corporations else None


def corporations_from_data(saved) -> list[str]:
    if saved is None:
        return []
    return [saved] if isinstance(saved, str) else list(saved)


def _player_from_data(data: dict, decode_modifier) -> PlayerState:
    player = PlayerState.__new__(PlayerState)
    for f in _PLAIN_PLAYER:
        setattr(player, f, data[f])
    player.resources, player.production = dict(data["resources"]), dict(data["production"])
    player.hand, player.events = list(data["hand"]), list(data["events"])
    player.played = [CardInPlay(c["name"], c["resources"], c["used"], c["tile"],
                                [list(pair) for pair in c["kept"]] if c.get("kept") else None) for c in data["played"]]
    player.next_card_modifiers = [decode_modifier(m) for m in data["next_card_modifiers"]]
    player.actions_used = list(data.get("actions_used", ()))
    player.pieces = dict(data.get("pieces", {}))
    player.removed_this_generation = dict(data.get("removed_this_generation", {}))
    player.harmed_by_this_generation = list(data.get("harmed_by_this_generation", ()))
    player.corporations = corporations_from_data(data.get("corporation"))
    player.first_actions = list(data.get("first_actions", ()))
    player.events_face_down = list(data.get("events_face_down", ()))
    player.tr_skipped_this_generation = data.get("tr_skipped_this_generation", 0)
    return player


class History:
    """An append-only list (the log of choices, the event messages) that copies in O(1): a chain of
    (previous, item) pairs shared between copies, turned into a list only when read as a whole (kept until items
    are appended: a list as long as the history is its items, which are only ever appended)."""

    __slots__ = ("_head", "_length", "_list")

    def __init__(self, items=()):
        self._head, self._length, self._list = None, 0, None
        for item in items:
            self.append(item)

    def append(self, item) -> None:   # `_list` is left as it was: `to_list` sees by its length that it is stale
        self._head = (self._head, item)
        self._length += 1

    def copy(self) -> "History":
        new = History.__new__(History)
        new._head, new._length, new._list = self._head, self._length, self._list
        return new

    def to_list(self) -> list:
        if self._list is None or len(self._list) != self._length:   # none made yet, or items appended since
            items = []
            node = self._head
            while node is not None:
                node, item = node
                items.append(item)
            items.reverse()
            self._list = items
        return list(self._list)

    def __len__(self) -> int:
        return self._length

    def __iter__(self):
        return iter(self.to_list())

    def __getitem__(self, index):
        if index == -1 and self._head is not None:
            return self._head[1]
        return self.to_list()[index]

    def __eq__(self, other) -> bool:
        if isinstance(other, History):
            return self._head is other._head or self.to_list() == other.to_list()
        return self.to_list() == other

    def __repr__(self) -> str:
        return f"History({self.to_list()!r})"
