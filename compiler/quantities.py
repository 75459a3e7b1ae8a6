"""Quantities: the phrases that count things ("jovian tags", "cities on mars", "2 animals here").

Pipeline place: called by checker.py for every `per ...`, requirement, milestone and award measure. The grammar
passes a quantity through as a run of words; this module matches the words against the phrase catalogue below
and returns a `Measure`, or explains what is wrong with a did-you-mean.

Scope words come first: `your`/`own` (you), `all`/`any` (every player), `opponent`/`opponents` (everyone else).
Defaults: tags, resources, production and cards count yours; tiles count everybody's (as printed on the cards).
"""

from __future__ import annotations

from typing import Callable, Optional

from . import vocabulary as v
from .diagnostics import Diagnostics, Fix, Span, did_you_mean, respelling, single_match
from .effects import CardFilter, Measure, filter_tag
from .syntax import Leaf

# Every phrase a designer can write, for the reference and for did-you-mean on an unknown phrase.
CATALOGUE = {
    "TAG tags": "your tags of that kind in play (events only while being played); `all`/`opponent` to widen",
    "tags": "all your tags in play",
    "distinct tags": "how many different tags you have in play",
    "distinct resources": "how many kinds of resource you have: standard resources in your stock and card resources "
                          "on your cards, one for each kind of which you have at least one",
    "RESOURCE here": "card resources of that type on this card (`resources here` for any type)",
    "RESOURCE on cards": "card resources of that type on your cards (`resources on cards` for every type; `all` "
                         "for every player's)",
    "RESOURCE added": "in a `when ... add RESOURCE` trigger: the card resources the effect that set it off added "
                      "(`when you add microbe -> gain 1 MC per microbe added`: 3 MC for 3 microbes at once)",
    "cities | greeneries | tiles | special tiles | named tiles [on mars | off mars] [in rows A to B] [next to oceans] "
    "[with MARK]":
        "tiles of every player (or `your ...`); `on mars` leaves out off-board cities, `off mars` counts only those "
        "(Phobos Space Haven's, a reserved off-board space's); `with MARK`: only those with a "
        "declared mark on them (`cities with cathedral`); a tile under another (`place city on top of ocean`) "
        "counts as its kind too; `special tiles`: the tiles placed `place special \"NAME\"`; `named tiles`: every "
        "tile with a name, the special tiles and the named cities (`place city \"Capital\"`), what the reference "
        "engine calls special tiles (Rare-Earth Elements)",
    "adjacent oceans | adjacent cities | adjacent greeneries | adjacent tiles": "tiles next to this card's tile",
    "[your | opponent] cities | greeneries | oceans | tiles | special tiles next to it":
        "in a `when ... places TILE tile` trigger: the tiles next to the tile just placed (`your`: the trigger "
        "owner's; `opponent`: another player's, never an ocean; `repeat your tiles next to it times { }`: once per "
        "adjacency)",
    "RESOURCE": "your stock of a standard resource (megacredits, steel, titanium, plants, energy, heat)",
    "RESOURCE production": "your production of a standard resource",
    "highest production": "your largest production",
    "raised productions": "how many of your productions are above their starting level",
    "tr": "your terraform rating",
    "tr raised this generation": "steps your TR rose this generation",
    "RESOURCE removed from opponents this generation":
        "resources of that kind you removed from other players this generation (`remove ... from any player`, "
        "`remove ... from any card`, `steal`; the solo game's neutral opponent counts as another player); `all`: "
        "removed by any player, `opponent`: by your opponents; `resources` for every kind",
    "cards in hand": "cards in your hand",
    "events played": "events in your event pile (`all events played` for every player)",
    "[TYPE or TYPE] cards [in play] [with [no] TAG tag] [with no tags] [with [no] [global | faction] requirements] "
    "[with [no] vp] [holding RESOURCE] [with [no] special tile] [costing N or more | less]":
        "your played project cards (events included); `in play`: every card of your play area, the corporation and "
        "cards of declared kinds too, never an event; TYPE: automated, active, event or a declared kind; the card "
        "filters (docs/language.md \"Card filters\") in any order",
    "temperature | oxygen | oceans | PARAMETER": "a global parameter (oceans: ocean tiles on Mars), or one declared "
                                                "with `parameter \"NAME\" { ... }`",
    "PIECE [in play]": "your pieces of a declared kind: on sites, and in your supply for a kind with one (`all` or "
                       "`in play`: every player's)",
    "players": "how many players the game has",
    "players passed | opponents passed": "how many players (your opponents) have passed this generation "
                                         "(`requires: opponents passed == 0`: nobody else has passed)",
    "generation | generations": "the number of the generation being played (1 in the first; `per 2 generations`)",
    "influence": "your influence: the government's count of it, and your `influence +N` modifiers",
    "ROLE": "1 if you hold the government's role (`chair`), else 0",
    "factions you lead": "the factions whose leader is one of your pieces",
    "leader of (\"FACTION\" | ruling faction | dominant faction)": "1 if you lead that faction, else 0",
    "PIECES in (\"FACTION\" | ruling faction | dominant faction) [besides leader]":
        "your pieces in that faction (`besides leader`: not counting one that leads it)",
    "factions with your PIECES": "the factions where you have a piece",
    "empty spaces next to your tiles": "the spaces of Mars with no tile next to at least one of your tiles (each once)",
    "adjacent empty spaces": "the spaces with no tile next to this card's tile (Red City's VP)",
    "\"NAME\" used this generation": "1 if you took that once-a-generation standard action (or policy action) this "
                                     "generation, else 0",
}

_SCOPES = {"your": "you", "own": "you", "you": "you", "all": "all", "any": "all",
           "opponent": "opponents", "opponents": "opponents", "opponent's": "opponents"}
_KEEP = {"mars", "this", "tr", "has", "plus", "less", "as", "is"}


def _word(text: str) -> str:
    lowered = text.lower()
    if lowered in _KEEP:
        return lowered
    return v.singular(lowered)


# `cards with no ...` in a quantity: the words after `no` (as normalised: singular), what CardFilter.lacking calls
# the property, and how many words it takes
_LACKING_WORDS = {("requirement",): ("requirements", 1), ("global", "requirement"): ("global requirements", 2),
                  ("faction", "requirement"): ("faction requirements", 2),
                  ("vp",): ("vp", 1), (v.SPECIAL, "tile"): ("special tile", 2)}


def _lacking(words: list) -> Optional[tuple[str, int]]:
    """What `with no WORDS` says a card lacks, and how many words that takes, or None (`with no earth tag`)."""
    return _LACKING_WORDS.get(tuple(words[:2])) or _LACKING_WORDS.get(tuple(words[:1]))


class QuantityCompiler:
    def __init__(self, diagnostics: Diagnostics, tags: set[str], card_resources: set[str],
                 parameters: Optional[dict] = None, pieces: tuple[str, ...] = (), factions: tuple[str, ...] = (),
                 roles: tuple[str, ...] = (), card_kinds: tuple[str, ...] = (), marks: tuple[str, ...] = ()):
        self.diagnostics = diagnostics
        self.marks = tuple(marks)   # declared marks on tiles (`cities with cathedral`)
        self.card_kinds = tuple(card_kinds)   # declared kinds of card, counted as types (`mission cards`)
        self.tags = tags
        self.card_resources = card_resources
        self.parameters = v.GLOBAL_RANGES if parameters is None else parameters
        self.pieces = tuple(pieces)
        self.factions = tuple(factions)
        self.roles = tuple(roles)

    def measure(self, leaves: list[Leaf], span: Span) -> Optional[Measure]:
        """One term (a run of words) -> Measure, or None after reporting why not."""
        words = [_word(leaf.text) for leaf in leaves]
        scope = None
        if words and words[0] in _SCOPES:
            scope = _SCOPES[words[0]]
            words, leaves = words[1:], leaves[1:]
        if not words:
            self.diagnostics.error("E104", "a quantity needs something to count after the scope word", span)
            return None
        span = Span(span.path, leaves[0].span.line, leaves[0].span.column, leaves[-1].span.end_line,
                    leaves[-1].span.end_column)
        for matcher in _MATCHERS:
            result = matcher(self, words, leaves, scope)
            if result is not None:
                return result if isinstance(result, Measure) else None
        phrase = " ".join(leaf.text for leaf in leaves)
        phrases = _EXAMPLES + [p for p in self.parameters if p not in _EXAMPLES] + \
            [v.plural_noun(p) for p in self.pieces] + ["players", "generation"] + list(self.roles)
        hint = did_you_mean(phrase, phrases)
        # a fix only to a phrase that names nothing of its own (`your tiles in rows 7 to 8` would change the rows)
        fixes = [fix for fix in respelling(span, phrase, phrases) if not any(ch.isdigit() for ch in fix.replacement)]
        if hint is None and len(leaves) == 1:  # one unknown word: perhaps a global parameter not yet declared
            hint = (f'a global parameter is declared before use: parameter "{phrase.lower()}" '
                    "{ scale: 0% to 30% step 2% } (see docs/language.md)")
        self.diagnostics.error("E104", f"unknown quantity '{phrase}'", span,
                               hint or "see 'Quantities' in docs/language.md for the phrases that count things",
                               fixes)
        return None

    # Each matcher returns a Measure, False (recognised but wrong: already reported) or None (not this shape).

    def _tags(self, words, leaves, scope):
        if words == ["tag"]:
            return Measure("tags", scope=scope or "you")
        if words == ["distinct", "tag"]:
            return Measure("distinct_tags", scope=scope or "you")
        if words == ["event", "tag"]:   # an event card bears the event tag: one per event played, as reveals read it
            return Measure("events_played", scope=scope or "you")
        if words == ["distinct", "resource"] and scope in (None, "you"):
            return Measure("distinct_resources")
        if len(words) == 2 and words[1] == "tag":
            tag = v.lookup(leaves[0].text, self.tags)  # a declared name is kept as written: `mars tags`
            if tag is None:
                self.diagnostics.error("E102", f"unknown tag '{leaves[0].text}'", leaves[0].span,
                                       did_you_mean(words[0], self.tags),
                                       respelling(leaves[0].span, words[0], self.tags, leaves[0].text))
                return False
            return Measure("tags", scope=scope or "you", name=tag)
        return None

    def _here(self, words, leaves, scope):
        # `microbes here`: on this card; `microbes added`: in a `when ... add RESOURCE` trigger, what its effect added
        # (compiler/checker.py refuses it elsewhere)
        if len(words) == 2 and (words[1] == "here" or (words[1] == "added" and scope is None)):
            resource = "resource" if words[0] == "resource" else v.lookup(leaves[0].text, self.card_resources)
            if resource is None:
                hint, fixes = respelt(leaves[0], words[0], self.card_resources)
                self.diagnostics.error("E101", f"'{leaves[0].text}' is not a card resource", leaves[0].span,
                                       hint or "card resources: " + ", ".join(sorted(self.card_resources)), fixes)
                return False
            kind = "resource_here" if words[1] == "here" else "added"
            return Measure(kind, scope="this", name=None if resource == "resource" else resource)
        if len(words) == 3 and words[1:] == ["on", "card"]:
            if words[0] == "resource":
                return Measure("card_resources", scope=scope or "you")
            resource = v.lookup(leaves[0].text, self.card_resources)
            if resource is None:
                standard = v.normalize(leaves[0].text) in v.STANDARD_RESOURCES
                hint, fixes = (None, ()) if standard else respelt(leaves[0], words[0], self.card_resources)
                self.diagnostics.error("E101", f"'{leaves[0].text}' is not a card resource", leaves[0].span,
                                       hint or "card resources: " + ", ".join(sorted(self.card_resources)), fixes)
                return False
            return Measure("card_resources", scope=scope or "you", name=resource)
        return None

    def _adjacent(self, words, leaves, scope):
        if len(words) == 2 and words[0] == "adjacent":
            tile = words[1]
            if tile not in v.TILE_WORDS:
                self.diagnostics.error("E103", f"unknown tile '{leaves[1].text}'", leaves[1].span,
                                       did_you_mean(tile, v.TILE_WORDS),
                                       respelling(leaves[1].span, tile, v.TILE_WORDS, leaves[1].text))
                return False
            return Measure("adjacent_tiles", scope="this", name=tile)
        return None

    def _tiles(self, words, leaves, scope):
        first = words[0]
        rest = words[1:]
        if first in v.TILES and rest[:1] == [v.ANY_TILE]:   # `city tiles`, `special tiles`
            rest = rest[1:]
        elif first == v.NAMED and rest[:1] == [v.ANY_TILE]:   # `named tiles`: special tiles and named cities
            rest = rest[1:]
        elif first not in v.TILE_WORDS:
            return None
        if first in v.OCEAN_TILES and not rest and scope is None:   # the oceans on Mars are the parameter's count
            return Measure("parameter", scope="all", name=v.TILE_RAISES[first])
        on_mars, off_mars, rows, next_to, mark = False, False, None, None, None
        i = 0
        while i < len(rest):
            if rest[i:i + 2] == ["on", "mar"] or rest[i:i + 2] == ["on", "mars"]:
                on_mars, i = True, i + 2
            elif rest[i:i + 2] == ["off", "mar"] or rest[i:i + 2] == ["off", "mars"]:
                off_mars, i = True, i + 2
            elif rest[i] == "with" and len(rest) > i + 1:   # `cities with cathedral`: a declared mark on the tile
                mark, i = rest[i + 1], i + 2
                if mark not in self.marks:
                    leaf = next(leaf for leaf in reversed(leaves) if _word(leaf.text) == mark)
                    self.diagnostics.error("E112", f"unknown mark '{leaf.text}'", leaf.span,
                                           did_you_mean(mark, self.marks) or "declare it: mark " + leaf.text.lower())
                    return False
            elif rest[i:i + 1] == ["in"] and len(rest) >= i + 5 and rest[i + 1] == "row" and rest[i + 3] == "to":
                try:
                    rows = (int(rest[i + 2]), int(rest[i + 4]))
                except ValueError:
                    return None
                if not (0 <= rows[0] <= rows[1] <= 8):
                    self.diagnostics.error("E302", f"rows must lie within 0 to 8, got {rows[0]} to {rows[1]}",
                                           leaves[min(i + 3, len(leaves) - 1)].span)
                    return False
                i += 5
            elif rest[i:] == ["next", "to", "it"] and i == 0:   # in a placement trigger: around the tile placed
                return Measure("placed_tiles", scope=scope or "all", name=first)
            elif rest[i:i + 2] == ["next", "to"] and len(rest) > i + 2:
                next_to, i = rest[i + 2], i + 3
                if next_to not in v.TILE_WORDS or next_to in v.NAMED_TILES:
                    return None
            else:
                return None
        if off_mars and (on_mars or rows or next_to):   # an off-board space is in no row and next to no tile
            what = "on mars" if on_mars else ("in rows" if rows else "next to")
            self.diagnostics.error("E301", f"'off mars' with '{what}' counts no tile: the spaces off Mars are in no "
                                   "row and next to no other space",
                                   Span(leaves[0].span.path, leaves[0].span.line, leaves[0].span.column,
                                        leaves[-1].span.end_line, leaves[-1].span.end_column),
                                   "keep 'off mars' alone: 'your cities off mars'")
            return False
        return Measure("tiles", scope=scope or "all", name=first, on_mars=on_mars, rows=rows, next_to=next_to,
                       mark=mark, off_mars=off_mars)

    def _resources(self, words, leaves, scope):
        if words == ["highest", "production"]:
            return Measure("highest_production", scope=scope or "you")
        if words == ["raised", "production"]:
            return Measure("raised_productions", scope=scope or "you")
        resource = v.normalize(words[0]) if words[0] not in v.STANDARD_RESOURCES else words[0]
        if resource not in v.STANDARD_RESOURCES:
            return None
        if len(words) == 1:
            return Measure("stock", scope=scope or "you", name=resource)
        if words[1:] == ["production"]:
            return Measure("production", scope=scope or "you", name=resource)
        return None

    def _player(self, words, leaves, scope):
        if words == ["tr"]:
            return Measure("tr", scope=scope or "you")
        if words == ["tr", "raised", "this", "generation"]:
            return Measure("tr_raised", scope=scope or "you")
        if len(words) == 6 and words[1:] == ["removed", "from", "opponent", "this", "generation"]:
            return self._removed(words[0], leaves[0], scope)
        if words == ["card", "in", "hand"]:
            return Measure("cards_in_hand", scope=scope or "you")
        if words == ["player", "passed"] and scope is None:   # `players passed`: every player who has passed
            return Measure("passed", scope="all")
        if words == ["passed"] and scope == "opponents":      # `opponents passed`: the others who have passed
            return Measure("passed", scope="opponents")
        if words == ["event", "played"]:
            return Measure("events_played", scope=scope or "you")
        if len(words) == 1 and leaves[0].text.lower() in self.parameters:  # a declared name is kept as written
            return Measure("parameter", scope="all", name=leaves[0].text.lower())
        if words[0] in self.parameters and len(words) == 1:
            return Measure("parameter", scope="all", name=words[0])
        if words == ["temperature"] or words == ["oxygen"]:
            return Measure("parameter", scope="all", name=words[0])
        return None

    def _removed(self, word: str, leaf: Leaf, scope):
        """`plants removed from opponents this generation`: a standard resource, a card resource or `resources`."""
        if word == "resource":
            return Measure("removed", scope=scope or "you")
        resource = v.normalize(word) if word not in v.STANDARD_RESOURCES else word
        if resource in v.STANDARD_RESOURCES or word in self.card_resources:
            return Measure("removed", scope=scope or "you", name=resource if resource in v.STANDARD_RESOURCES
                           else word)
        kinds = sorted(v.STANDARD_RESOURCES) + sorted(v.plural(r) for r in self.card_resources) + ["resources"]
        written = leaf.text.lower()
        self.diagnostics.error("E104", f"unknown resource '{leaf.text}' in a count of what was removed", leaf.span,
                               did_you_mean(written, kinds) or "a standard resource, a card resource or 'resources'",
                               respelling(leaf.span, written, kinds, leaf.text))
        return False

    def _pieces(self, words, leaves, scope):
        """`outposts`, `all outposts`, `outposts in play`, `cargo ships`: a declared kind of piece; `players`, and
        the game's `generation` (Flat Mars Theory: a production step for every generation played so far)."""
        if words == ["player"] and scope is None:
            return Measure("players", scope="all")
        if words == ["generation"] and scope is None:
            return Measure("generation", scope="all")
        if not self.pieces:
            return None
        written = [leaf.text for leaf in leaves]
        if written[-2:] and [w.lower() for w in written[-2:]] == ["in", "play"] and len(written) > 2:
            piece = v.lookup_piece(written[:-2], self.pieces)
            return Measure("pieces", scope="all", piece=piece) if piece else None
        piece = v.lookup_piece(written, self.pieces)
        return Measure("pieces", scope=scope or "you", piece=piece) if piece else None

    def _spaces(self, words, leaves, scope):
        """`empty spaces next to your tiles`: the spaces of Mars with no tile next to at least one of yours."""
        if words == ["empty", "space", "next", "to", "your", "tile"] and scope is None:
            return Measure("empty_spaces")
        if words == ["adjacent", "empty", "space"] and scope is None:   # around this card's tile (Red City)
            return Measure("adjacent_empty", scope="this")
        return None

    def _factions(self, words, leaves, scope):
        """`influence`, a role (`chair`), `factions you lead`, `leader of FACTION`, `PIECES in FACTION [besides
        leader]`, `factions with your PIECES`; FACTION is a quoted name, `ruling faction` or `dominant faction`."""
        raw = [leaf.text.lower() if leaf.type != "STRING" else leaf for leaf in leaves]
        texts = [w if isinstance(w, str) else "" for w in raw]
        if scope not in (None, "you"):
            return None
        if texts == ["influence"]:
            return Measure("influence")
        if len(raw) == 4 and not isinstance(raw[0], str) and texts[1:] == ["used", "this", "generation"]:
            return Measure("used", name=raw[0].value)  # `"Town Hall" used this generation`
        if all(texts) and " ".join(texts) in self.roles:
            return Measure("role", name=" ".join(texts))
        if texts in (["factions", "you", "lead"], ["faction", "you", "lead"]):
            return Measure("factions_led")
        if texts[:2] in (["factions", "with"], ["faction", "with"]) and texts[2:3] == ["your"] and len(texts) > 3:
            piece = v.lookup_piece(texts[3:], self.pieces)
            return Measure("factions_with", piece=piece) if piece else None
        if texts[:2] == ["leader", "of"]:
            faction = self._faction(raw[2:])
            return None if faction is None else False if faction is False else \
                Measure("leader", faction=faction[0], which=faction[1])
        if "in" in texts and texts.index("in") > 0:
            at = texts.index("in")
            piece = v.lookup_piece(texts[:at], self.pieces)
            if piece is None:
                return None
            rest = raw[at + 1:]
            besides = len(rest) > 2 and texts[-2:] == ["besides", "leader"]
            faction = self._faction(rest[:-2] if besides else rest)
            return None if faction is None else False if faction is False else \
                Measure("pieces_in", piece=piece, faction=faction[0], which=faction[1], besides_leader=besides)
        return None

    def _faction(self, words):
        """(name, None) for a quoted declared faction, (None, "ruling"|"dominant"), None when the words name no
        faction, False after reporting an unknown one."""
        if len(words) == 1 and not isinstance(words[0], str):
            leaf = words[0]
            if leaf.value in self.factions:
                return leaf.value, None
            self.diagnostics.error("E109", f"unknown faction '{leaf.value}'", leaf.span,
                                   did_you_mean(leaf.value, self.factions) or
                                   ("declared factions: " + ", ".join(self.factions) if self.factions else
                                    f'declare it with: faction "{leaf.value}" {{ }}'))
            return False
        if words in (["ruling", "faction"], ["dominant", "faction"]):
            return None, words[0]
        return None

    def _cards(self, words, leaves, scope):
        if "card" not in words:
            return None
        at = words.index("card")
        types = []
        for group in " ".join(words[:at]).split(" or "):   # `automated or active`, `deep mission` (a declared kind)
            if group and group != "project":
                types.append(group)
        for kind in types:
            if kind not in v.CARD_TYPES and kind not in self.card_kinds:
                return None
        rest, rest_leaves = words[at + 1:], leaves[at + 1:]
        with_requirements, min_cost, no_tags, in_play = False, None, False, False
        extra: dict = {}   # the filters beyond those of the first phrases: compiled into a CardFilter
        i = 0
        while i < len(rest):
            if rest[i:i + 2] == ["in", "play"] and i == 0:   # the play area: the corporation and kinds of card too
                in_play, i = True, i + 2
            elif rest[i:i + 2] == ["with", "requirement"]:
                with_requirements, i = True, i + 2
            elif rest[i:i + 3] in (["with", "global", "requirement"], ["with", "faction", "requirement"]):
                extra["requirements"], i = rest[i + 1], i + 3
            elif rest[i:i + 3] == ["with", "no", "tag"]:
                no_tags, i = True, i + 3
            elif rest[i:i + 2] == ["with", "vp"]:
                extra["with_vp"], i = True, i + 2
            elif rest[i:i + 3] == ["with", v.SPECIAL, "tile"]:
                extra["special_tile"], i = True, i + 3
            elif rest[i:i + 2] == ["with", "no"] and _lacking(rest[i + 2:i + 4]):
                # `with no requirements`, `with no vp`, `with no special tile`, `with no global requirements`
                lacking, length = _lacking(rest[i + 2:i + 4])
                extra["lacking"] = extra.get("lacking", ()) + (lacking,)
                i += 2 + length
            elif rest[i] == "with" and _tag_count(rest[i + 1:i + 5]):
                # `with 1 tag`, `with 2 or more tags`, `with 1 or less tag`: the card filter `with tags == 1`, ...
                bounds, length = _tag_count(rest[i + 1:i + 5])
                extra.update(bounds)
                i += 1 + length
            elif rest[i:i + 2] == ["with", "no"] and _tag_list_end(rest, i + 2) is not None:
                end = _tag_list_end(rest, i + 2)   # `with no jovian or earth tag`: none of them
                for leaf in rest_leaves[i + 2:end:2]:
                    tag = self._filter_tag(leaf)
                    if tag is None:
                        return False
                    filter_tag(extra, tag, lacking=True)
                i = end + 1
            elif rest[i] == "with" and rest[i + 2:i + 3] == ["tag"]:
                tag = self._filter_tag(rest_leaves[i + 1])
                if tag is None:
                    return False
                filter_tag(extra, tag, lacking=False)
                i += 3
            elif rest[i] == "holding" and len(rest) > i + 1:
                resource = v.lookup(rest_leaves[i + 1].text, self.card_resources)
                if resource is None:
                    self.diagnostics.error("E101", f"'{rest_leaves[i + 1].text}' is not a card resource",
                                           rest_leaves[i + 1].span,
                                           did_you_mean(rest[i + 1], self.card_resources) or
                                           "card resources: " + ", ".join(sorted(self.card_resources)))
                    return False
                extra["holds"], i = resource, i + 2
            elif rest[i] == "costing" and len(rest) >= i + 4 and \
                    rest[i + 2:i + 4] in (["or", "more"], ["or", "less"]):
                try:
                    value = int(rest[i + 1])
                except ValueError:
                    return None
                if rest[i + 3] == "more":
                    min_cost = value
                else:
                    extra["max_cost"] = value
                i += 4
            else:
                return None
        return Measure("cards", scope=scope or "you", names=tuple(types), with_requirements=with_requirements,
                       min_cost=min_cost, no_tags=no_tags, in_play=in_play,
                       cards=CardFilter(**extra) if extra else None)

    def _filter_tag(self, leaf: Leaf) -> Optional[str]:
        """The tag of a card filter (`with earth tag`, `with no earth tag`), or None after saying why not."""
        tag = v.lookup(leaf.text, self.tags)
        if tag is None:
            word = _word(leaf.text)
            self.diagnostics.error("E102", f"unknown tag '{leaf.text}'", leaf.span, did_you_mean(word, self.tags),
                                   respelling(leaf.span, word, self.tags, leaf.text))
        return tag


_MATCHERS: list[Callable] = [QuantityCompiler._tags, QuantityCompiler._here, QuantityCompiler._adjacent,
                             QuantityCompiler._tiles, QuantityCompiler._resources, QuantityCompiler._player,
                             QuantityCompiler._factions, QuantityCompiler._spaces, QuantityCompiler._pieces,
                             QuantityCompiler._cards]

_EXAMPLES = ["jovian tags", "tags", "distinct tags", "distinct resources", "animals here", "resources on cards",
             "animals on cards", "cities", "cities on mars",
             "greeneries", "tiles on mars", "your tiles in rows 7 to 8", "your tiles next to oceans",
             "adjacent oceans", "adjacent cities", "heat", "steel", "titanium", "plants", "megacredits",
             "energy production", "megacredits production", "heat production", "highest production",
             "raised productions", "tr", "tr raised this generation", "players passed", "opponents passed",
             "plants removed from opponents this generation", "cards in hand", "events played",
             "automated cards", "cards with requirements",
             "event cards with no earth tag", "cards with global requirements", "active cards with vp",
             "temperature", "oxygen", "oceans"]


def respelt(leaf: Leaf, word: str, vocabulary) -> tuple[Optional[str], tuple]:
    """The did-you-mean hint and the fix of a misspelt resource, in the number it was written in: `gain 2 plnts` ->
    'plants', the form `tharsis fmt` writes for more than one, not 'plant'; a typo that reads as a singular
    (`plnt`, `plantss`) gets the singular. Agreement with the amount stays `tharsis fmt`'s."""
    match = single_match(word, vocabulary)
    plural = v.singular(leaf.text) != leaf.text.lower()   # `plnts` reads as a plural, `plantss` does not
    if match is None or match == "mc" or not plural or match.endswith("s") or v.plural(match) == match:
        return did_you_mean(word, vocabulary), respelling(leaf.span, word, vocabulary, leaf.text)
    written = v.plural(match)
    return f"did you mean '{written}'?", (Fix(leaf.span, written),) if leaf.span is not None else ()


def _tag_count(words: list) -> Optional[tuple[dict, int]]:
    """`N tag` (exactly N), `N or more tag`, `N or less tag` (the words singular) after `with` in a quantity: the
    CardFilter bounds on a card's number of tags and how many words they took, or None when the words are not
    one of these (a comparison would end the quantity, so a quantity says `or more` as `costing N or more`)."""
    if not words or not words[0].isdigit():
        return None
    n = int(words[0])
    if words[1:2] == ["tag"]:
        return {"min_tags": n, "max_tags": n}, 2
    if words[1:2] == ["or"] and words[2:3] in (["more"], ["less"]) and words[3:4] == ["tag"]:
        return ({"min_tags": n} if words[2] == "more" else {"max_tags": n}), 4
    return None


def _tag_list_end(words: list, start: int):
    """Where `NAME (or NAME)* tag` starting at `start` has its `tag`, or None when the words are not such a list."""
    i = start
    while i + 1 < len(words):
        if words[i + 1] == "tag":
            return i + 1
        if words[i + 1] != "or":
            return None
        i += 2
    return None
