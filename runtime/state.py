"""Game state as plain data (attrs, slots): everything a saved game needs besides the compiled content.

Cards are referred to by name; the compiled definitions live in the shared, immutable `Library`. Nothing here
knows a rule: runtime/game.py and runtime/effects.py change this state, runtime/measures.py reads it.
"""

from __future__ import annotations

from typing import Optional

import attrs

RESOURCES = ("megacredits", "steel", "titanium", "plant", "energy", "heat")
NEUTRAL = -1  # the owner of the solo game's neutral cities and greeneries


def _zeroes() -> dict[str, int]:
    return {r: 0 for r in RESOURCES}


@attrs.define
class CardInPlay:
    name: str
    resources: int = 0
    used: bool = False           # its action was used this generation
    tile: Optional[str] = None   # the space of the tile this card placed (Capital, Commercial District)


@attrs.define
class Tile:
    kind: str                     # ocean | greenery | city | special
    owner: Optional[int]          # player index, None for oceans, NEUTRAL for solo neutral tiles
    name: Optional[str] = None    # the name a city or special tile was given by its card
    is_city: bool = False


@attrs.define
class PlayerState:
    name: str
    index: int
    corporation: Optional[str] = None
    tr: int = 20
    resources: dict[str, int] = attrs.field(factory=_zeroes)
    production: dict[str, int] = attrs.field(factory=_zeroes)
    starting_production: int = 1
    hand: list[str] = attrs.field(factory=list)
    played: list[CardInPlay] = attrs.field(factory=list)   # corporation first, then project cards in play
    events: list[str] = attrs.field(factory=list)
    passed: bool = False
    tr_raised_this_generation: int = 0
    next_card_modifiers: list = attrs.field(factory=list)  # compiled modifiers from `next card { }`
    first_action_done: bool = True
    actions_this_turn: int = 0

    def card(self, name: str) -> Optional[CardInPlay]:
        for card in self.played:
            if card.name == name:
                return card
        return None


@attrs.define
class GameState:
    board: str
    players: list[PlayerState]
    temperature: int = -30
    oxygen: int = 0
    oceans: int = 0
    tiles: dict[str, Tile] = attrs.field(factory=dict)
    claims: dict[str, int] = attrs.field(factory=dict)       # Land Claim markers: space -> player
    deck: list[str] = attrs.field(factory=list)
    discard: list[str] = attrs.field(factory=list)
    generation: int = 1
    first_player: int = 0
    phase: str = "setup"
    milestones: list[tuple[str, int]] = attrs.field(factory=list)
    awards: list[tuple[str, int]] = attrs.field(factory=list)
    neutral_tr: int = 0
    over: bool = False
