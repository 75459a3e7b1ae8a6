"""The engine's events in English: what each kind of event says, and a verb that agrees with the player who acts.

The engine logs events as data (`Game.log_event`): `(generation, kind, actor, *details)`, e.g. `(3, "play", 0,
CARD)`. Most are causes (`Game.begin`): a card played, a standard project, a placement, a trigger, a placement
bonus, the production phase; every change until the cause's `end` event is its effect, and causes nest. The
others are notes (`pass`, `reveal`, ...) that change nothing by themselves. `CAUSES` and `NOTES` list the kinds;
`sentence` tells one event; tharsis/terminal/moves.py measures and tells what each cause changed.

The human seat of `tharsis play` is called `you` by default, and "you plays" reads wrong, so every sentence takes
its verbs from `conjugate`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from tharsis.compiler.vocabulary import plural_noun

if TYPE_CHECKING:
    from .game import Game

__all__ = ["CAUSES", "END", "NOTES", "QUIET", "conjugate", "labels_told", "open_causes", "owner_of", "sentence",
           "space_named", "staged_kind"]

END = "end"

# kind -> how it reads ({who}: the actor's name; {0}, {1}...: the details); a verb is in braces with a `v:`
CAUSES = {
    "start": "{who} {v:start with} {0}",
    "first_action": "{who} {v:take} {0}'s first action",
    "play": "{who} {v:play} {0}",
    "unplayable": "{who} cannot play {0}: it is discarded",
    "action": "{who} {v:use} {0}: {action}",
    "project": "{who} {v:use} standard project {0}",
    "convert": "{who} {v:use} standard action {0}",
    "milestone": "{who} {v:claim} {0}",
    "award": "{who} {v:fund} {0}",
    "place": "{who} {v:place} {tile} on {0}",
    "place_nobody": "{1} placed on {0} for nobody",
    "neutral_city": "a neutral city is placed on {0}",
    "bonus": "placement bonus of {0}",
    "track": "{0} bonus at {value}",
    "trigger": "{whose} {0}",
    "rule": "rule: {0}",
    "production": "production phase of generation {generation}",
    "research": "research phase of generation {generation}",
    "starting_cards": "{whose} starting cards",
    "resolve": "{kind} {0} is carried out",
    "stage": "{kind} {0} enters the {1} stage",
    "stage_reveal": "{kind} {0} is revealed",
    "government": "{0} comes to power",
    "faction_bonus": "ruling bonus of {0}",
    "role": "{who} {v:take} the role of {0}",
    "visit": "{who} {v:send} {a_piece} to {0}",
    "build": "{who} {v:place} {a_piece} on {0}",
    "piece_back": "{who} {v:take} {a_piece} back from {0}",
    "site_bonus": "{whose} {piece} bonus from {0}",
}
NOTES = {
    "set_aside": "{who} {v:set aside} {0}",
    "pass": "{who} {v:pass}",
    "reveal": "{who} {v:reveal} {0}",
    "reveal_until": "{who} {v:reveal} {0} cards and {v:take} {found}",
    "reveal_from_hand": "{who} {v:reveal} from hand: {found}",
    "reveal_shared": "{who} {v:reveal} for every player: {found}",
    "take_revealed": "{who} {v:take} {0}",
    "kept": "{who} {v:reveal} {0} and {v:place} it on {1}",
    "kept_doubled": "the resources on {0} double to {1}",
    "discard_revealed": "the cards not taken are discarded: {found}",
    "award_free": "{who} {v:fund} {0} for free",
    "discard_kind": "{who} {v:discard} {0} {1} card{plural}",
    "neutral_production": "the neutral opponent's production decreases",
    "face_down": "{who} {v:turn} {0} face down into the events pile",
    "discard_event": "{who} {v:discard} {0} from the events pile",
    "stage_discard": "{kind} {0} is discarded",
    "faction_in": "{whose} {piece} enters {0}",
    "faction_out": "{whose} {piece} leaves {0}",
    "pieces_back": "{pieces} go back to their reserves: {owners}",
    "tile_removed": "the {1} tile on {0} is removed",
    "tax": "{who} {v:pay} {1} MC of tax for {0} TR step{plural}",
    "untaxed": "{who} cannot pay {1} MC of tax: no TR for {0} step{plural}",
    "tr_skipped": "{who} {v:skip} {0} TR step{plural}: not gained",
    "marker": "the marker of {0} moves to step {1}",
    "site_active": "{0} becomes active",
    "site_in": "{who} {v:bring} {0} into play",
    "site_out": "{who} {v:set} {0} aside",
    "marker_placed": "{who} {v:place} the {0} marker on {1}",
    "marker_moved": "{who} {v:move} the {0} marker to {1}",
    "mark_put": "{who} {v:put} {2} {1} on the tile on {0}",
    "actions_lost": "{who} can do nothing: {0} extra action{plural} lost",
}
# causes told only when they changed something: a trigger that found nothing to do is not news, nor a rule that
# applies to other games (a set-up for one player only)
QUIET = frozenset({"trigger", "bonus", "track", "research", "starting_cards", "site_bonus", "faction_bonus", "rule"})


@lru_cache(maxsize=4096)  # a few seats times a few dozen verbs: every event of a game asks
def conjugate(subject: str, verb: str) -> str:
    """`verb`, given in its plain form ("play", "pass", "set aside"), as it reads after `subject`: "plays" after
    a player's name, "play" after a seat named you (in any case)."""
    if subject.casefold() == "you":
        return verb
    first, space, rest = verb.partition(" ")
    if first == "have":
        first = "has"
    elif first.endswith(("s", "sh", "ch", "x", "z", "o")):
        first += "es"
    elif first.endswith("y") and first[-2:-1] not in ("a", "e", "i", "o", "u"):
        first = first[:-1] + "ies"
    else:
        first += "s"
    return first + space + rest


def open_causes(game: "Game") -> list:
    """The causes still open now, outermost first (the events that began them): what a pending decision is asked
    within, such as a declared rule's at the end of a generation (`rule: NAME`)."""
    stack: list = []
    for event in game.events.to_list():
        if isinstance(event, str):
            continue
        if event[1] == END:
            if stack:
                stack.pop()
        elif event[1] in CAUSES:
            stack.append(event)
    return stack


def owner_of(name: str) -> str:
    """"ann's", or "your" for a seat named you."""
    return "your" if name.casefold() == "you" else f"{name}'s"


def sentence(game: "Game", event) -> str:
    """What `event` says, as a sentence ("ann plays CARD", "bob's CARD" for a trigger, "production phase of
    generation 3"). Events read back from a save are lists: both read alike; a save written before events were data
    holds their sentences ("gen 3: ann passes")."""
    if isinstance(event, str):
        return event.partition(": ")[2] or event
    generation, kind, actor, *details = event
    template = CAUSES.get(kind) or NOTES.get(kind)
    if template is None:
        return kind if kind != END else ""
    players = game.state.players
    who = players[actor].name if actor is not None and 0 <= actor < len(players) else "nobody"
    fields = {"who": who, "whose": owner_of(who), "generation": generation}
    if kind == "place":
        tile, name = details[1], details[2] if len(details) > 2 else None
        fields["tile"] = f"{tile} {name!r}" if name else tile
    if kind in ("place", "place_nobody", "neutral_city"):
        details = [space_named(game, details[0]), *details[1:]]
    elif kind == "action":
        from tharsis.compiler import rules_text
        said = rules_text.parts(game.library[details[0]], "en", game.content.names)["actions"][details[1]]
        fields["action"] = said.removesuffix(".")
    elif kind == "track":
        unit = game.elements.scales.get(details[0], (0, 0, 0, ""))[3]
        fields["value"] = f"{details[1]:+d}°C" if unit == "C" else f"{details[1]}{unit}"
    elif kind == "reveal_until":
        fields["found"] = ", ".join(details[1]) or "none"
    elif kind in ("reveal_from_hand", "reveal_shared", "discard_revealed"):
        fields["found"] = ", ".join(details[0]) or "none"
    elif kind in ("faction_in", "faction_out"):
        government = game.elements.government
        fields["piece"] = government.piece if government is not None else "piece"
        if actor is None:
            fields["whose"] = "a neutral"
    elif kind == "pieces_back":
        government = game.elements.government
        fields["pieces"] = plural_noun(government.piece if government is not None else "piece", 2)
        fields["owners"] = ", ".join(f"{players[o].name if 0 <= o < len(players) else 'neutral'} {n}"
                                     for o, n in _counts(details[1]))
    elif kind == "site_bonus":
        site = game.elements.sites.get(details[0])
        fields["piece"] = site.piece if site is not None else "piece"
    elif kind in ("resolve", "stage", "stage_reveal", "stage_discard"):
        fields["kind"] = staged_kind(game, details[0])
    elif kind in ("discard_kind", "tax", "untaxed", "actions_lost", "tr_skipped"):
        fields["plural"] = "s" if details[0] > 1 else ""
    elif kind in ("visit", "build", "piece_back"):
        fields["a_piece"] = ("an " if details[1][:1] in "aeiou" else "a ") + details[1]
    return _fill(template, who, fields, details)


def space_named(game: "Game", space: str, area=None) -> str:
    """A space as narration names it: its board id on Mars (`31`), an area off Mars by its name and id (`Phobos Space
    Haven (02)`), which no map shows. `area`: how the name is said (another language's)."""
    found = game.board.spaces.get(space) if isinstance(space, str) else None
    if found is None or found.on_mars or not found.reserved:
        return str(space)
    return f"{area(found.reserved) if area is not None else found.reserved} ({space})"


def labels_told(game: "Game", event) -> tuple:
    """The option labels an event tells already: a card's action chosen among its options is told by the `action`
    event that follows (`ann uses Regolith Eaters: Add 1 microbe to this card`), so narration leaves its label out."""
    if isinstance(event, str) or event[1] != "action":
        return ()
    from ..handlers.actions import describe_action
    return (describe_action(game.library[event[3]].actions[event[4]]),)


def _counts(owners) -> list[tuple[int, int]]:
    """(owner, how many) in the order the owners first come."""
    counted: dict[int, int] = {}
    for owner in owners:
        counted[owner] = counted.get(owner, 0) + 1
    return list(counted.items())


def staged_kind(game: "Game", name: str) -> str:
    """The declared kind with stages that a card of that name belongs to (a name may also be a project card's)."""
    return next((kind for kind, cards in game.elements.staged_cards.items() if name in cards), "card")


def _fill(template: str, who: str, fields: dict, details) -> str:
    out, rest = [], template
    while "{" in rest:
        head, _, rest = rest.partition("{")
        key, _, rest = rest.partition("}")
        out.append(head)
        if key.startswith("v:"):
            out.append(conjugate(who, key[2:]))
        elif key.isdigit():
            out.append(str(details[int(key)]))
        else:
            out.append(str(fields[key]))
    out.append(rest)
    return "".join(out)
