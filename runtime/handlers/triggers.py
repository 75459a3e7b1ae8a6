"""Triggers: `when ... -> ...` effects of cards in play, fired by events the engine announces (an effect handler).

Interface: `fire(game, event, actor, ...)` finds the triggers an event fires and pushes them as steps;
`triggers_of` and `triggers_on` list a player's triggers (cached with the passives, runtime/rules/passives.py).
Events: `play` (a card was played: fires play_card once and play_tag once per matching tag), `place` (a tile),
`standard_project`, `raise` (a parameter or TR), `production`. A card's own triggers stay silent while that card is
being played unless written `including this` (Decomposers counts its own microbe tag; Immigrant City its own city).
Triggers resolve in seat order starting with the player who caused the event. When several of one player's
triggers fire at once and their order can matter (anything beyond plain gains), that player chooses the order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from tharsis.compiler import effects as fx, text
from tharsis.compiler.vocabulary import ANY_TILE, CITY_TILES

from ..core.decisions import Decision, Option
from ..core.flow import ask, push, step
from ..rules.checks import EffectContext, commutes, cost_ok, counts_placed, names_that_player, play_matches
from ..rules.measures import tag_counts
from ..rules.passives import EVENT_KINDS, passive_cache, triggers_of, triggers_on
from ..rules.spaces import placed_meets
from . import effects  # as a module: it imports this one (see runtime/handlers/effects.py)

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["fire", "new_action", "new_tags", "triggers_of", "triggers_on"]


def new_action(game: "Table") -> None:
    """An action starts (a turn's action, a kept card played at set-up, a corporation's start, the production
    phase): every `once per action` trigger may fire again."""
    if game.state.fired_this_action:
        game.state.fired_this_action = []


def fire(game: "Table", event: str, actor: int, *, card: Optional[str] = None, tile: Optional[str] = None,
         space: Optional[str] = None, is_city: bool = False, parameter: Optional[str] = None,
         project=None, raised: Optional[tuple] = None, except_owner: Optional[int] = None,
         piece: Optional[str] = None, times: int = 1, added: int = 0, victim: Optional[int] = None) -> None:
    """Announce an event: the triggers it fires are found now and resolve next (pushed as steps). `times`: how
    many such events at once (`new_tag`: one per new kind of tag). `added`: the card resources an `add_resource`
    event added, which its triggers may count (`gain 1 MC per microbe added`). `victim`: the player a `harm`
    event harmed (`actor` harmed them), whom `give ... to the victim` names."""
    if event not in game._trigger_events:  # no card of the game's content has a trigger this event could fire
        return
    if event in game.elements.wakes:  # an inactive site may become active (runtime/handlers/sites.py)
        from .sites import activate
        activate(game, event, actor, card)
    players = game.state.players
    count = len(players)
    playing = game.flow.playing
    batches = []
    for offset in range(count):
        owner = (actor + offset) % count
        if owner == except_owner:  # resolved already, among the effects of the card that set them off
            continue
        # `triggers_on`, read where it is cached (a game fires hundreds of events, each asked of every player)
        triggers = passive_cache(game, owner)[2].get(("triggers", event))
        if triggers is None:
            triggers = triggers_on(game, owner, event)
        if not triggers:
            continue
        pending: list[tuple[str, tuple]] = []
        for name, trigger in triggers:
            if trigger.subject == "you" and owner != actor:
                continue
            if trigger.subject == "another" and (owner == actor or actor < 0):  # not the owner's, not nobody's
                continue
            if playing is not None and playing == (owner, name) and not trigger.including_this:
                continue
            fired = _matches(game, trigger.event, event, owner, card=card, tile=tile, space=space,
                             is_city=is_city, parameter=parameter, project=project, piece=piece, victim=victim,
                             name=name, actor=actor)
            if fired and trigger.once_per_action:
                fired = _first_this_action(game, owner, name, trigger)
            else:
                fired *= times
            pending.extend([(name, trigger.effects)] * fired)
        if pending:
            batches.append((owner, tuple(pending)))
    for owner, pending in reversed(batches):
        if event == "harm":   # who harmed whom: `that player { }`, `give ... to the victim` / `to that player`
            push(game, resolve_triggers, owner, pending, None, None, 0, actor, None, victim)
        elif event == "place" and any(counts_placed(fired) for _, fired in pending):   # `your tiles next to it`
            push(game, resolve_triggers, owner, pending, card if owner == actor else None, *_raised(
                None, 0, actor if any(names_that_player(fired) for _, fired in pending) else None, space))
        elif any(names_that_player(fired) for _, fired in pending):  # `that player { }`: who set it off, and the card
            push(game, resolve_triggers, owner, pending, card, raised, added, actor)
        elif added:  # `add RESOURCE`: the effects may count what was added (`per microbe added`)
            push(game, resolve_triggers, owner, pending, card if owner == actor else None, None, added)
        elif raised is None:
            push(game, resolve_triggers, owner, pending, card if owner == actor else None)
        else:  # `raise production`: the effects may gain what rose (`gain that production`)
            push(game, resolve_triggers, owner, pending, None, raised)


def _first_this_action(game: "Table", owner: int, name: str, trigger: fx.Trigger) -> int:
    """1 when this `once per action` trigger has not fired yet in the action under way (and it is marked fired),
    else 0. A trigger is known by its owner, its card (or ruling faction) and its place among that one's passives."""
    source = game.library[name] if name in game.library else game.elements.factions[name]
    key = [owner, name, source.passives.index(trigger)]
    if key in game.state.fired_this_action:
        return 0
    game.state.fired_this_action.append(key)
    return 1


def new_tags(game: "Table", player: int, name: str) -> int:
    """How many kinds of tag the card `name`, about to enter the player's play area, brings that the player has
    none of in play (`when you gain a new tag`): none for an event, or when no trigger of the game listens."""
    if "new_tag" not in game._trigger_events:
        return 0
    definition = game.library[name]
    if definition.type == "event":
        return 0
    counts = tag_counts(game, player)
    return len({tag for tag in definition.tags if tag not in counts})


def _matches(game: "Table", ev: fx.TriggerEvent, event: str, owner: int, *, card, tile, space, is_city, parameter,
             project, piece=None, victim=None, name=None, actor=None) -> int:
    """How many times the trigger of `owner`, on its card `name`, fires for this event (a tag trigger fires once per
    matching tag)."""
    if event == "play":
        return play_matches(game, ev, game.library[card], actor if actor is not None and actor >= 0 else None)
    if event == "place" and ev.kind == "place":
        if ev.tile != ANY_TILE and ev.tile != tile and not (ev.tile in CITY_TILES and is_city):
            return 0
        return int(not ev.filters or placed_meets(game, owner, space, ev.filters))
    if event == "standard_project" and ev.kind == "standard_project":
        if project.name in ev.excluded:
            return 0
        return int(cost_ok(ev, project.cost))
    if event == "raise" and ev.kind == "raise":
        return int(ev.parameter == parameter)
    if event == "production" and ev.kind == "production":
        return 1
    if event == "production_raise" and ev.kind == "production_raise":
        return 1
    if event == "add_resource" and ev.kind == "add_resource":
        if ev.here and card != name:   # `add microbe here`: only what is added to the trigger's own card
            return 0
        return int(ev.resource in ("resource", game.library[card].holds))
    if event in ("send", "place_piece") and ev.kind == event:
        return int(ev.piece == piece)
    if event == "new_tag" and ev.kind == "new_tag":
        return 1
    if event == "harm":   # `harm another player`: every harm; `harm you`: of the trigger's owner
        return int(ev.kind == "harm" or victim == owner)
    if event == "become_leader" and ev.kind == "become_leader":
        return 1
    return 0




def events_with_triggers(definitions) -> frozenset:
    """The events of `fire` that some trigger of these cards and corporations may answer (a table of the game)."""
    event_of = {kind: event for event, kinds in EVENT_KINDS.items() for kind in kinds}
    return frozenset(event_of.get(p.event.kind, p.event.kind) for d in definitions for p in d.passives
                     if isinstance(p, fx.Trigger))


@step
def resolve_triggers(game: "Table", owner: int, pending: tuple, that_card: Optional[str],
                     raised: Optional[tuple] = None, added: int = 0, actor: Optional[int] = None,
                     placed: Optional[str] = None, victim: Optional[int] = None) -> None:
    """One player's fired triggers; that player orders them when the order can matter. `actor`: the player who set
    them off, given only when one of them says `that player { }` or a harm set them off; `placed`: the space of the
    tile that set them off, given only when one of them counts the tiles next to it; `victim`: the player a harm
    harmed."""
    if len(set(pending)) > 1 and not all(commutes(fired) for _, fired in pending):
        ask(game, Decision(owner, "trigger_order", "Several effects trigger: which resolves first?",
                           tuple(Option(f"{name}: {text.effects(fired)}", i)
                                 for i, (name, fired) in enumerate(pending))),
            trigger_chosen, owner, pending, that_card, *_raised(raised, added, actor, placed, victim))
        return
    trigger_chosen(game, 0, owner, pending, that_card, raised, added, actor, placed, victim)


@step
def trigger_chosen(game: "Table", index: int, owner: int, pending: tuple, that_card: Optional[str],
                   raised: Optional[tuple] = None, added: int = 0, actor: Optional[int] = None,
                   placed: Optional[str] = None, victim: Optional[int] = None) -> None:
    name, fired = pending[index]
    rest = pending[:index] + pending[index + 1:]
    if rest:
        push(game, resolve_triggers, owner, rest, that_card, *_raised(raised, added, actor, placed, victim))
    if victim is not None:   # a harm: who did it (`that player`) and to whom (`the victim`)
        ctx = EffectContext(owner, card=name, actor=actor, victim=victim)
    elif placed is not None:   # `your tiles next to it`: the tile that set the trigger off
        ctx = EffectContext(owner, card=name, that_card=that_card, placed=placed, actor=actor)
    elif actor is not None:   # `that player { }`: the card set it off is theirs, not necessarily the owner's
        ctx = EffectContext(owner, card=name, that_card=that_card, raised=raised, added=added, actor=actor)
    elif raised is None and not added:
        ctx = EffectContext(owner, card=name, that_card=that_card)
    else:
        ctx = EffectContext(owner, card=name, that_card=that_card, raised=raised, added=added)
    game.begin("trigger", owner, name)
    effects.run_effects(game, fired, 0, ctx, None)


def _raised(raised: Optional[tuple], added: int = 0, actor: Optional[int] = None,
            placed: Optional[str] = None, victim: Optional[int] = None) -> tuple:
    """The optional last arguments of the two steps above: left out when no production rose, no card resource
    was added, no `that player { }` needs who set the triggers off, nothing counts the tiles next to the tile
    placed and no harm set them off (saves stay as they were)."""
    if victim is not None:
        return (raised, added, actor, placed, victim)
    if placed is not None:
        return (raised, added, actor, placed)
    if actor is not None:
        return (raised, added, actor)
    if added:
        return (raised, added)
    return () if raised is None else (raised,)
