"""What each word of the language means, for the editor's hover and completion.

Built from the compiler's own closed vocabularies (compiler/vocabulary.py), its field table (checker.FIELDS), its
registry of effect kinds (effects.REGISTRY: syntax and summary) and its catalogue of quantity phrases
(quantities.CATALOGUE), so a word the compiler learns is a word the editor explains. Only the one-line meanings
of vocabulary classes and fields are written here (the tests check that every field has one).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

import attrs

from tharsis.compiler import vocabulary as v
from tharsis.compiler.checker import FIELDS
from tharsis.compiler.effects import REGISTRY
from tharsis.compiler.parser import DEFINITION_KEYWORDS
from tharsis.compiler.quantities import CATALOGUE

FIELD_MEANINGS = {
    "set": "the set a card belongs to: `base` (default), `corpera`, or a name of your own",
    "type": "the card's type: `automated` (green), `active` (blue) or `event` (red)",
    "cost": "the price in megacredits; a standard action names its resource (`cost: 8 plants`); a standard project or "
            "action may give alternatives, one of which is paid: `cost: 9 megacredits | 3 energy`",
    "tags": "the card's tags, comma-separated; a tag written twice counts twice",
    "holds": "the card resource that lives on this card (`animal`, `microbe`, `science`, `fighter`, or declared); on a "
             "site, the pieces it holds: `holds: 3 outposts, 1 per player`",
    "requires": "conditions to play the card (or claim the milestone), joined by `and`",
    "play": "immediate effects, separated by `;`",
    "action": "an action: `COST -> EFFECTS`, alternatives separated by `|`",
    "effect": "one trigger (`when ...`) or modifier (`discount ...`); repeat the field for several",
    "vp": "victory points: `2`, `1 per jovian tag`, `1 per 2 animals here`, `3 if science here >= 1`",
    "start": "a corporation's starting megacredits: `start: 42 megacredits`",
    "first action": "effects taken as the corporation's first action of the game",
    "measure": "the quantity an award compares at the end of the game",
    "variant": "only in that variant: " + ", ".join(f"`{name}`" for name in v.VARIANTS),
    "scale": "a declared parameter's range and step: `scale: 0% to 30% step 2%`",
    "track": "a bonus for whoever raises the parameter to a value: `track: 8% -> draw 1` (repeatable); on a site, the "
             "effects of each step: `track: nothing | gain 2 steel | gain 4 steel`",
    "ends game": "whether a declared parameter must be maxed for the game to end: `yes`, `no` or `solo`",
    "deal": "how many cards of a declared kind each player is dealt at set-up and keeps: `deal: 4 keep 2`",
    "unplayable": "what a player gets instead when a kept card of this kind cannot be played",
    "unplayable to": "where a kept card of this kind that cannot be played goes: `pile` (under its pile, the "
                     "default) or `discard` (out of the game)",
    "at": "when a rule runs: `at: end of generation` or `at: start of game`",
    "by": "who decides a rule's choices: `by: first player` (default) or `by: each player`",
    "offboard": "spaces off Mars that an expansion adds to every board, for `place city on reserved \"Name\"`",
    "milestones": "the milestones a board (or an expansion, added to every board) offers",
    "awards": "the awards a board (or an expansion, added to every board) offers",
    "solo generations": "how many generations a solo game lasts with this expansion (14 without)",
    "sites": "how many of the expansion's sites a game deals, by players: `sites: 1 player -> 2, 2 players -> 3, ...`",
    "visited by": "the piece that visits a site (one at a time): `visited by: shuttle`",
    "marker": "the step a site's marker starts on, from 0: `marker: 1`",
    "bonus": "what each piece on a site gives its owner when the site is visited",
    "build": "what placing a piece on a site gives its owner",
    "inactive until": "a site is inactive until this happens: `inactive until: any player plays card holding microbe`",
    "supply": "how many pieces of this kind each player starts with (without it: as many as needed)",
    "limit": "the most pieces of this kind a player may have",
    "returns": "when the pieces of this kind on sites come back to their owners: `returns: end of generation`",
    "repeatable action": "an action that may be taken again in the same generation (it needs a cost): "
                         "`repeatable action: pay 6 megacredits -> production(heat +1)`",
    "needs": "sets that must be in play too for the card to be: `needs: venus, colonies`",
    "stages": "the stages a kind's cards move through, first to last: `stages: far, near, now`",
    "once per generation": "each player may take this standard action once a generation",
    "after": "a rule runs after the rules of these sets at the same moment: `after: storms`",
    "neutral": "how many pieces of this kind belong to nobody (the neutral reserve)",
    "factions": "a government's factions, in board order: `factions: \"Blue Party\", \"Red Party\"`",
    "pieces": "the kind of piece players place into a government's factions: `pieces: envoy`",
    "ruling": "the faction that rules when the game starts: `ruling: \"Blue Party\"`",
    "role": "the role the new ruling faction's leader takes, and what it gives: `role: \"chair\" -> tr +1`",
    "influence": "a player's influence: `influence: chair + leader of dominant faction`",
}

RESOURCE_MEANINGS = {
    "megacredits": "money (MC): pays for cards, standard projects, milestones and awards",
    "steel": "pays for cards with a building tag, 2 MC each",
    "titanium": "pays for cards with a space tag, 3 MC each",
    "plant": "8 plants convert into a greenery tile (and an oxygen step)",
    "energy": "used by cards and actions; left-over energy becomes heat at production",
    "heat": "8 heat raise the temperature one step",
}

TILE_MEANINGS = {
    v.CITY: "a city tile: 1 VP per adjacent greenery at the end",
    v.GREENERY: "a greenery tile: raises oxygen one step and is worth 1 VP",
    v.OCEAN: "an ocean tile: raises the ocean count, gives 2 MC to whoever places a tile next to it",
    v.SPECIAL: 'a special (named) tile: `place special "Lava Vent" on volcanic`',
}

CARD_TYPE_MEANINGS = {
    "automated": "a green card: its effects happen when played",
    "active": "a blue card: actions and lasting effects",
    "event": "a red card: happens once, then lies face down (its tags count only while played)",
}


@attrs.frozen
class Word:
    """One entry of the glossary: a word, what kind of word it is, and what it means (Markdown)."""

    word: str
    category: str      # resource | card resource | tag | tile | parameter | field | effect | ...
    meaning: str
    syntax: str = ""   # for fields and effects: how it is written


def effect_keywords() -> dict[str, list]:
    """The first word of each effect kind's syntax (`gain`, `look`, `when`...), with the kinds it begins."""
    keywords: dict[str, list] = {}
    for cls in REGISTRY.values():
        first = cls.syntax.split()[0].split("(")[0]
        if first.islower():
            keywords.setdefault(first, []).append(cls)
    return keywords


def lookup(word: str, tags: Iterable[str] = (), card_resources: Iterable[str] = (), *, parameters=None,
           card_kinds: Iterable[str] = ()) -> list[Word]:
    """Every meaning of `word` (plurals and aliases too: `plants`, `MC`), for hover; [] if it means nothing.
    `parameters` (name -> (minimum, maximum, step, unit)) and `card_kinds` are the declared ones."""
    entries = _entries(frozenset(tags), frozenset(card_resources), _frozen(parameters), frozenset(card_kinds))
    exact = word.lower()
    found: list[Word] = []
    for form in dict.fromkeys((exact, v.normalize(word), v.singular(word))):
        # keywords are exact words: `tags` is the field, not the `tag` declaration; `requires` is not `require`
        found += [entry for entry in entries.get(form, ())
                  if entry not in found and (form == exact or entry.category not in ("effect", "definition"))]
    return found


def vocabulary(tags: Iterable[str] = (), card_resources: Iterable[str] = (), *, parameters=None,
               card_kinds: Iterable[str] = ()) -> list[Word]:
    """Every entry once, for completion."""
    seen, words = set(), []
    for group in _entries(frozenset(tags), frozenset(card_resources), _frozen(parameters),
                          frozenset(card_kinds)).values():
        for entry in group:
            if entry not in seen:
                seen.add(entry)
                words.append(entry)
    return words


def _frozen(parameters) -> frozenset:
    return frozenset((parameters or {}).items())


@lru_cache(maxsize=16)
def _entries(tags: frozenset, card_resources: frozenset, parameters: frozenset = frozenset(),
             card_kinds: frozenset = frozenset()) -> dict[str, tuple[Word, ...]]:
    entries: dict[str, list[Word]] = {}

    def add(word: str, category: str, meaning: str, syntax: str = "") -> None:
        entries.setdefault(word, []).append(Word(word, category, meaning, syntax))

    for name in v.STANDARD_RESOURCES:
        add(name, "resource", f"a standard resource, kept in stock with a production track: "
                              f"{RESOURCE_MEANINGS.get(name, '')}".rstrip(": "))
    for name in sorted(set(v.CARD_RESOURCES) | card_resources):
        declared = "" if name in v.CARD_RESOURCES else " (declared with `resource`)"
        add(name, "card resource", f"a card resource{declared}: it lives on cards that hold it (`holds: {name}`), "
                                   f"counted by `{v.plural(name)} here`")
    for name in sorted(_tags(tags)):
        declared = "" if name in v.TAGS else " (declared with `tag`)"
        add(name, "tag", f"a tag{declared}: printed on cards, counted by `{name} tags`, "
                         f"triggers `when you play {name} tag`")
    for name in v.TILES:
        add(name, "tile", TILE_MEANINGS.get(name, f"a {name} tile"))
    for name, (low, high, step, unit) in v.GLOBAL_RANGES.items():
        add(name, "global parameter", f"a global parameter, from {low}{unit} to {high}{unit} in steps of "
                                      f"{step}{unit}; each step raised gives 1 TR")
    for name, (low, high, step, unit) in sorted(parameters):
        if name not in v.GLOBAL_RANGES:
            add(name, "global parameter", f"a global parameter declared with `parameter`, from {low}{unit} to "
                                          f"{high}{unit} in steps of {step}{unit}; each step raised gives 1 TR "
                                          f"(`{name} +1`, `requires: {name} >= {low + step}{unit}`)")
    for name in sorted(card_kinds):
        add(name, "card type", f"a kind of card declared with `card kind`: `type: {name}`, no cost, dealt at "
                               "set-up and played for free before the first generation")
    add("tr", "terraform rating", "your terraform rating: 1 VP per step at the end, and your base income")
    for name in v.CARD_TYPES:
        add(name, "card type", CARD_TYPE_MEANINGS[name])
    for name in v.SPACE_KINDS:
        add(name, "space kind", f"a kind of board space, for tile filters: `place city on {name}`")
    for name in v.VARIANTS:
        add(name, "variant", f"a game variant: `variant: {name}` makes a definition apply only in it")
    for name in sorted(FIELDS.keys() | {f for fields, _ in FIELDS.values() for f in fields}):
        if name in FIELD_MEANINGS:
            kinds = sorted(kind.replace("_", " ") for kind, (fields, _) in FIELDS.items() if name in fields)
            add(name, "field", FIELD_MEANINGS[name] + (f" (in: {', '.join(kinds)})" if kinds else ""), f"{name}:")
    for keyword, kinds in effect_keywords().items():
        for cls in kinds:
            add(keyword, "effect", cls.summary, cls.syntax)
    for keyword in DEFINITION_KEYWORDS:
        add(keyword, "definition", f"begins a definition: `{keyword} ...`")
    return {word: tuple(group) for word, group in entries.items()}


def _tags(declared: Iterable[str]) -> set[str]:
    """The tags a designer writes: the printed ones and the declared ones; `event` is a card type, not written."""
    return (set(v.TAGS) | set(declared)) - {"event"}


def quantity_phrases(tags: Iterable[str] = (), card_resources: Iterable[str] = (),
                     parameters: Iterable[str] = ()) -> dict[str, str]:
    """Concrete phrases that count things (`jovian tags`, `animals here`, `energy production`), each with the
    meaning of its catalogue entry: what a designer writes after `per`, in `requires:`, `vp:` and `measure:`."""
    phrases: dict[str, str] = {}
    for tag in sorted(_tags(tags)):
        phrases[f"{tag} tags"] = CATALOGUE["TAG tags"]
    for resource in sorted(set(v.CARD_RESOURCES) | set(card_resources)):
        phrases[f"{v.plural(resource)} here"] = CATALOGUE["RESOURCE here"]
        phrases[f"{v.plural(resource)} on cards"] = CATALOGUE["RESOURCE on cards"]
    phrases["resources on cards"] = CATALOGUE["RESOURCE on cards"]
    removed = CATALOGUE["RESOURCE removed from opponents this generation"]
    for resource in v.STANDARD_RESOURCES:
        phrases[v.plural(resource)] = CATALOGUE["RESOURCE"]
        phrases[f"{resource} production"] = CATALOGUE["RESOURCE production"]
        phrases[f"{v.plural(resource)} removed from opponents this generation"] = removed
    for resource in sorted(set(v.CARD_RESOURCES) | set(card_resources)):
        phrases[f"{v.plural(resource)} removed from opponents this generation"] = removed
    phrases["resources removed from opponents this generation"] = removed
    tiles_entry = next(text for pattern, text in CATALOGUE.items() if pattern.startswith("cities"))
    for tiles in ("cities", "greeneries", "tiles", "special tiles"):
        phrases[tiles] = tiles_entry
        phrases[f"{tiles} on mars"] = tiles_entry
    adjacent_entry = next(text for pattern, text in CATALOGUE.items() if pattern.startswith("adjacent"))
    for tiles in ("oceans", "cities", "greeneries", "tiles"):
        phrases[f"adjacent {tiles}"] = adjacent_entry
    placed_entry = next(text for pattern, text in CATALOGUE.items() if pattern.endswith("next to it"))
    for tiles in ("cities", "greeneries", "oceans", "tiles", "special tiles"):
        for whose in ("",) if tiles == "oceans" else ("", "your ", "opponent "):   # an ocean is nobody's
            phrases[f"{whose}{tiles} next to it"] = placed_entry
    for pattern, text in CATALOGUE.items():  # the phrases written out whole in the catalogue
        if not any(mark in pattern for mark in "[|") and pattern.islower():
            phrases[pattern] = text
    parameter_entry = next(text for pattern, text in CATALOGUE.items() if pattern.startswith("temperature"))
    for name in list(v.GLOBAL_RANGES) + [p for p in parameters if p not in v.GLOBAL_RANGES]:  # declared too
        phrases[name] = parameter_entry
    return phrases
