"""The closed vocabularies of the language: resources, tags, tiles, spaces, parameters, card types.

The grammar accepts any word where a name goes; the checker looks words up here, normalising plurals and
aliases ("plants" -> "plant", "MC" -> "megacredits"), and offers a did-you-mean when a word is unknown.
Designers extend card resources and tags with top-level `resource` and `tag` declarations.

This is also the one home of the tile kinds and space kinds for the engine and the tools: they read the names and
the roles here (tests/test_vocabularies.py finds any other module that spells a tile's name).
"""

from __future__ import annotations

from typing import Optional

STANDARD_RESOURCES = ("megacredits", "steel", "titanium", "plant", "energy", "heat")
CARD_RESOURCES = ("animal", "microbe", "science", "fighter")
TAGS = ("building", "space", "power", "science", "jovian", "earth", "plant", "microbe", "animal", "city", "event")
SPACE_KINDS = ("land", "ocean", "volcanic")
LAND, OCEAN_SPACE, VOLCANIC = SPACE_KINDS

# The kinds of tile, and the roles the rules ask about, as the TS engine keeps CITY_TILES and OCEAN_TILES beside its
# TileType: a rule asks "is this a city tile?" (`kind in CITY_TILES`) and never compares a kind's name, so a new
# kind of tile costs its name here, its roles, and the rules that are its own (where it may go, what it scores,
# what it raises), nothing else. A kind in no role is placed on land by anyone and owned, like a special tile.
TILES = ("city", "greenery", "ocean", "special")
CITY, GREENERY, OCEAN, SPECIAL = TILES
ANY_TILE = "tile"                       # a tile of any kind: `next to 2 tiles`, `adjacent tile`, `places a tile`
TILE_WORDS = TILES + (ANY_TILE,)        # what a space filter, a count of tiles or a trigger may name
CLAIM = "claim"                         # `next to [your] claim`: a space filter's neighbours may be claim markers
CITY_TILES = frozenset({CITY})          # never next to another city; 1 VP per adjacent greenery at the end
GREENERY_TILES = frozenset({GREENERY})  # next to the owner's tiles when possible; 1 VP at the end
OCEAN_TILES = frozenset({OCEAN})        # on ocean spaces, owned by nobody, counted by the `oceans` parameter;
                                        # 2 MC to whoever places a tile next to one
NAMED_TILES = frozenset({SPECIAL})      # named by their card: `place special "Lava Vent"`
NAMED = "named"                         # `named tiles` (a count): every tile with a name, special or a named city
TILE_RAISES = {GREENERY: "oxygen", OCEAN: "oceans"}   # the global parameter placing one raises a step
CARD_TYPES = ("automated", "active", "event")
VARIANTS = ("solo", "solo_tr63", "corporate_era", "draft", "beginner")
BOARD_BONUSES = STANDARD_RESOURCES + ("card", OCEAN)   # an ocean bonus places an ocean tile
MIN_PLAYERS, MAX_PLAYERS = 1, 5   # seats at one game (runtime/core/state.py hands them on to the engine)

# Every global parameter: (minimum, maximum, step, unit). Oceans count tiles.
GLOBAL_RANGES = {
    "temperature": (-30, 8, 2, "C"),
    "oxygen": (0, 14, 1, "%"),
    "oceans": (0, 9, 1, ""),
}

_ALIASES = {
    "mc": "megacredits", "megacredit": "megacredits", "m€": "megacredits", "money": "megacredits",
    "plants": "plant", "animals": "animal", "microbes": "microbe", "fighters": "fighter",
    "cities": CITY, "greeneries": GREENERY, "oceans": OCEAN, "cards": "card",
    "tags": "tag", "tiles": "tile", "resources": "resource", "events": "event",
    "spaces": "space",
}


def normalize(word: str) -> str:
    """Lower-case and singular: the form every vocabulary stores."""
    lowered = word.lower()
    return _ALIASES.get(lowered, lowered)


def singular(word: str) -> str:
    lowered = word.lower()
    if lowered in _ALIASES:
        return _ALIASES[lowered]
    if lowered.endswith("ies"):
        return lowered[:-3] + "y"
    if lowered.endswith("s") and not lowered.endswith(("ss", "us")):  # `status`, `fungus` are singular already
        return lowered[:-1]
    return lowered


def lookup(word: str, names) -> Optional[str]:
    """The name among `names` that `word` means, or None. Names are stored as written, lower-cased (a declared
    `tag mars` is `mars`, not the singular of a plural); a word means a name when it is the name, when its
    singular is, or when it is the name with an English plural ending (`statuses` for `status`)."""
    lowered = word.lower()
    for form in (lowered, singular(lowered)):
        if form in names:
            return form
    if lowered.endswith("s") and lowered[:-1] in names:
        return lowered[:-1]
    # "es" only after the endings that take it, so a built-in name keeps refusing typos such as `plantes`
    if lowered.endswith("es") and lowered[:-2].endswith(("s", "x", "z", "ch", "sh")) and lowered[:-2] in names:
        return lowered[:-2]
    return None


# English nouns that have no plural of their own: a declared card resource named so (`resource data`, Pathfinders'
# data) keeps its name wherever it is counted, in card text as in rules text (never `3 datas`)
MASS_NOUNS = frozenset({"data", "science", "research", "equipment", "information", "intel", "biomass", "media",
                        "fauna", "flora", "cargo", "ore", "ice", "water", "fuel", "gas"})


def plural(word: str, count: int = 2) -> str:
    """English plural for rules text: 'plant' -> 'plants', 'megacredits' stays."""
    if count == 1 or word in ("megacredits", "steel", "titanium", "energy", "heat") or word in MASS_NOUNS:
        return word
    if word == CITY:
        return "cities"
    if word == GREENERY:
        return "greeneries"
    return word + ("es" if word.endswith("s") else "s")


def piece_name(written: str) -> str:
    """A declared piece's name as the vocabulary stores it: lower-case, words one space apart (`cargo ship`)."""
    return " ".join(written.lower().split())


def is_piece_name(name: str) -> bool:
    """Whether a declared piece's name can be written bare in effects: words of letters, digits and `_`."""
    return bool(name) and all(word.isidentifier() for word in name.split())


def lookup_piece(words, pieces) -> Optional[str]:
    """The declared piece that a run of written words means (`outposts`, `cargo ships`, `Cargo Ship`), or None:
    the words as written, or with the last (or every) word in the singular."""
    lowered = [w.lower() for w in words]
    if not lowered:
        return None
    for form in (lowered, lowered[:-1] + [singular(lowered[-1])], [singular(w) for w in lowered]):
        name = " ".join(form)
        if name in pieces:
            return name
    return None


def plural_noun(name: str, count: int = 2) -> str:
    """The English plural of a declared name of one or more words (`outpost` -> `outposts`, `cargo ship` ->
    `cargo ships`): its last word takes the ending."""
    if count == 1:
        return name
    head, _, last = name.rpartition(" ")
    if last in MASS_NOUNS:
        return name
    if last.endswith("y") and len(last) > 1 and last[-2] not in "aeiou":
        last = last[:-1] + "ies"
    elif last.endswith(("s", "x", "z", "ch", "sh")):
        last += "es"
    else:
        last += "s"
    return f"{head} {last}" if head else last
