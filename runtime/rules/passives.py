"""The cards in play's passive effects, per player, and the values derived from them: a cache over the state.

Interface: `passives(game, player, kind)` (the player's passive effects of one kind) and `passive_cache(game,
player)` (the entry behind it, whose third item is a table of derived values that the rules checks fill: prices,
leeway, triggers, tag counts). Why a module of its own: the prices, the measures and the triggers all read it, and
it must stay below all of them. The cache lives on the game (`game._passives`, copied by `Game.clone`) and is
renewed when a card joins a player's play area (cards never leave it) or the policy in force changes (the ruling
faction of a declared government has its passives counted as every player's during the action phase only). A player
with a discount scaled by a quantity (`discount 1 on cards per 2 orbitals here`) has prices that any move may change,
so their derived values are never kept: each look-up starts an empty table (their passives by kind are kept).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tharsis.compiler import effects as fx

from ..core.state import ACTION

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["passive_cache", "passives", "sourced", "triggers_of", "triggers_on"]

# the trigger kinds (compiler/effects.py `TriggerEvent.kind`) that each event of `triggers.fire` may match
EVENT_KINDS = {"play": ("play_tag", "play_card"), "harm": ("harm", "harm_you")}


def passives(game: "Table", player: int, kind: type) -> list:
    """The player's active passive effects of one kind, from their corporation and cards in play.
    Cards never leave play, so the list is cached per player and rebuilt when a card is added."""
    return passive_cache(game, player)[1].get(kind, [])


def passive_cache(game: "Table", player: int) -> tuple:
    """(cards in play, passives by kind, derived values, policy in force): the cache behind `passives`. The derived
    values (standard costs, substitutes for money, triggers with their cards) depend on nothing but the cards in play,
    so they live and die with them: a new card in play starts an empty table, or, when it brings no passive effect,
    the table of before without its tag counts. Clones share an entry until one of them plays a card."""
    state = game.state
    try:   # the common case, asked thousands of times a game, checked first (an entry there, so no `get` and no
        cache = game._passives[player]   # test of None): no card joined, no government or its policy unchanged
    except KeyError:
        return _renewed(game, player)
    if cache[0] == len(state.players[player].played):
        government = state.government
        if government is None:
            if cache[3] is None:
                return cache
        elif cache[3] == (government.ruling if state.phase == ACTION else None):
            return cache
    return _renewed(game, player)


def _renewed(game: "Table", player: int) -> tuple:
    """A new entry of `passive_cache` for the player's cards in play and the policy in force now. An entry whose
    prices may change with any move (a scaled discount) is stored with the count of cards in play as `~count`, which
    the look-up's fast path never matches: it is renewed here at every look-up, keeping its passives by kind."""
    state = game.state
    played = state.players[player].played
    government = state.government
    policy = government.ruling if government is not None and state.phase == ACTION else None
    previous = game._passives.get(player)
    if previous is not None and previous[0] == ~len(played) and previous[3] == policy:
        cache = game._passives[player] = (previous[0], previous[1], {}, policy)
        return cache
    by_kind: dict[type, list] = {}
    for card in played:
        for passive in game.library[card.name].passives:
            by_kind.setdefault(type(passive), []).append(passive)
    if policy is not None:
        for passive in game.elements.factions[policy].passives:
            by_kind.setdefault(type(passive), []).append(passive)
    derived = {}
    if _volatile(by_kind):
        cache = game._passives[player] = (~len(played), by_kind, derived, policy)
        return cache
    if previous is not None and previous[3] == policy and previous[1] == by_kind:
        # the cards that joined brought no passive effect (most cards): every derived value but the tag counts
        # still holds, so the prices, the standard projects' table and the triggers are not worked out anew after
        # each card played (a game renews its entries dozens of times; docs/benchmarks.md, issue 36)
        derived = {key: value for key, value in previous[2].items() if key != "tags"}
    cache = game._passives[player] = (len(played), by_kind, derived, policy)
    return cache


def _volatile(by_kind: dict) -> bool:
    """Whether some discount is scaled by a quantity (`per 2 orbitals here`), which any move may change."""
    for discount in by_kind.get(fx.Discount, ()):
        if discount.per is not None:
            return True
    return False


def sourced(game: "Table", player: int, kind: type) -> list:
    """(card name, passive) of the player's passives of one kind, the ruling faction's named by the faction: for a
    passive that counts something `here` (a scaled discount), which needs the card it is on. Not cached: asked only
    of players who have such a passive."""
    found = [(card.name, p) for card in game.state.players[player].played
             for p in game.library[card.name].passives if isinstance(p, kind)]
    policy = passive_cache(game, player)[3]
    if policy is not None:
        found += [(policy, p) for p in game.elements.factions[policy].passives if isinstance(p, kind)]
    return found


def triggers_of(game: "Table", owner: int) -> list:
    """(card name, trigger) of every trigger in a player's play area; cached with the passives, so until a card
    joins it. (A read of the cards in play: the rules checks ask it too, for a card's own triggers.)"""
    cache = passive_cache(game, owner)
    derived = cache[2]
    found = derived.get("triggers")
    if found is None:
        found = derived["triggers"] = [(card.name, p) for card in game.state.players[owner].played
                                       for p in game.library[card.name].passives if isinstance(p, fx.Trigger)]
        policy = cache[3]
        if policy is not None:  # the ruling faction's triggers, named by the faction
            found += [(policy, p) for p in game.elements.factions[policy].passives if isinstance(p, fx.Trigger)]
    return found


def triggers_on(game: "Table", owner: int, event: str) -> list:
    """The player's triggers that an event of this kind may fire (`fire` looks at no other), cached alike."""
    derived = passive_cache(game, owner)[2]
    key = ("triggers", event)
    found = derived.get(key)
    if found is None:
        kinds = EVENT_KINDS.get(event, (event,))
        found = derived[key] = [(name, t) for name, t in triggers_of(game, owner) if t.event.kind in kinds]
    return found
