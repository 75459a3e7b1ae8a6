"""Compiled effects: the typed, frozen objects the runtime executes, and the one registry of effect verbs.

Pipeline place: checker.py builds these from the AST; runtime/ imports this module (never the parser) and
dispatches on the class. Each verb is one attrs class registered with `@immediate(...)` (an effect carried out
once: `gain`, `place`, `choose { }`) or `@passive(...)` (a lasting one: `when ...`, `discount`), which records:

- `name`, `category`, `syntax`, `example` (a line that must compile) and `summary`: the reference in
  docs/language.md is generated from them;
- `rule`: the grammar rule that writes it (the name unless said), which the checker dispatches on;
- `impossible` (immediate verbs): when it cannot be carried out, in a few words, or `NEVER`: the runtime's check
  (runtime/rules/checks.py `_POSSIBLE`) must exist exactly for the verbs that say when;
- its parameters, the attrs fields with their types. A field of type `Amount` is an amount the design lints
  check for zero (`gain 0 plants` does nothing; `amounts=` names other fields if ever needed), and a tuple field
  holding effects, or runs of them, is a body that `walk` and `child_effects` find with no edit.

The other pieces of a verb are registered in their own modules, keyed by this class: how its rule is checked
(compiler/check_effects.py `@compiles`), its canonical text (compiler/text.py `@text_of`), its rules text
(compiler/rules_text.py `@sentence_of`, with its phrase keys in templates/phrases/), and its handler
(runtime/handlers/effects.py `@handles` or `PICK_ONE`). tests/test_effect_verbs.py names every piece a verb
lacks; docs/language.md "Adding an effect verb" is the recipe. All objects are frozen: hashable, and shared by
every game of a simulation.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Optional

import attrs

REGISTRY: dict[str, type] = {}   # verb name -> class, in the order declared
RULES: dict[str, type] = {}      # grammar rule -> the class it compiles to
NEVER = None                     # `impossible=NEVER`: the effect can always be carried out (it may do nothing)


def immediate(name: str, *, category: str, syntax: str, example: str, summary: str, impossible: Optional[str],
              rule: Optional[str] = None, amounts: Optional[tuple[str, ...]] = None, shares: Optional[type] = None,
              event_only: bool = False):
    """Register an effect carried out once (in `play:`, an action, a trigger's effects, a block), with its
    documentation and when it cannot be carried out (`impossible`, a required word: NEVER or a few words).
    `shares`: the verb whose grammar rule writes this one too (`place outpost` is written as `place city` is: the
    checker of that rule tells them apart by the declared vocabulary, a declared piece or a tile). `event_only`: it
    is written only in an event's `play:` (its example is an event's)."""
    return _register(name, rule, category=category, syntax=syntax, example=example, summary=summary,
                     immediate=True, impossible=impossible, amounts=amounts, shares=shares, event_only=event_only)


def passive(name: str, *, category: str, syntax: str, example: str, summary: str, rule: Optional[str] = None):
    """Register a lasting effect (an `effect:` line, or a modifier of `next card { }`), with its documentation."""
    return _register(name, rule, category=category, syntax=syntax, example=example, summary=summary,
                     immediate=False, impossible=NEVER, amounts=None, shares=None, event_only=False)


def _register(name: str, rule: Optional[str], *, amounts: Optional[tuple[str, ...]], shares: Optional[type] = None,
              **declared):
    def register(cls):
        written = shares.rule if shares is not None else rule or name
        for table, key in ((REGISTRY, name),) + (() if shares is not None else ((RULES, written),)):
            if key in table and table[key] is not cls:
                raise ValueError(f"two effect verbs are registered as '{key}': {table[key].__name__} and "
                                 f"{cls.__name__}")
        cls.kind_name = name
        cls.rule = written
        for key, value in declared.items():
            setattr(cls, key, value)
        fields = attrs.fields(cls)
        # its `Amount` fields (written `Amount` or `fx.Amount`), and the fields that may hold a body (tuples)
        cls.amounts = amounts if amounts is not None else \
            tuple(f.name for f in fields if f.type is Amount or str(f.type).rpartition(".")[2] == "Amount")
        cls.body_fields = tuple(f.name for f in fields if "tuple" in str(f.type))
        cls.shares = shares
        REGISTRY[name] = cls
        if shares is None:   # a rule is dispatched to the verb that owns it; one that shares it is its checker's
            RULES[written] = cls
        return cls

    return register


def is_effect(value) -> bool:
    """Whether `value` is a compiled effect of a registered verb (not a measure, a filter or a number)."""
    return getattr(type(value), "kind_name", None) is not None


def child_effects(e) -> Iterator:
    """The effects written inside `e`, in field order: a block's, each option's of a `choose { }`, a trigger's,
    the modifiers of `next card { }` (Jinja's `iter_child_nodes`). They are found by their values, not by field
    names: any tuple field holding effects, or runs of them, so a new verb with a body is walked with no edit."""
    for name in type(e).body_fields:
        value = getattr(e, name)
        if value.__class__ is tuple:
            for item in value:
                if item.__class__ is tuple:
                    yield from (inner for inner in item if is_effect(inner))
                elif is_effect(item):
                    yield item


def walk(effects: Iterable) -> Iterator:
    """Every effect of `effects` and every effect written inside them, depth first, each before its contents."""
    for e in effects:
        yield e
        yield from walk(child_effects(e))


def _frozen(cls):
    return attrs.frozen(cls, slots=True)


ADDED = "added"   # attrs metadata key: a field a verb gained after games were saved (see `added`)


def added(default):
    """A field a verb gained after saves and logs recorded its cards: while it holds its default it is left out of
    what a definition means (tharsis/games/recorded_cards.py hashes that), so cards that do not use it keep their
    recorded hash and games saved before it load and replay. Give every new field of an existing verb this form."""
    return attrs.field(default=default, metadata={ADDED: True})


# ------------------------------------------------------------------------------------------- quantities

@_frozen
class CardFilter:
    """Which cards: one set of filters for every place where cards are counted or chosen (the `cards` quantity, a
    `play card` trigger, the card verbs), each empty field leaving that side open. Checked by one matcher
    (runtime/rules/card_filters.py), so a filter means the same wherever it is written."""

    types: tuple[str, ...] = ()             # automated | active | event | a declared kind: one of these
    tag: Optional[str] = None               # `with TAG tag` (or the tag before `card`): has it
    lacks: Optional[str] = None             # `with no TAG tag`: has none of it
    no_tags: bool = False                   # `with no tags`
    requirements: Optional[str] = None      # `with requirements` (any) | `with global requirements` (global)
    #                                         | `with faction requirements` (faction: one names a faction)
    min_cost: Optional[int] = None          # `costing N or more` / `with cost >= N`
    max_cost: Optional[int] = None          # `costing N or less` / `with cost <= N`
    with_vp: bool = False                   # `with vp`: printed victory points above 0
    holds: Optional[str] = None             # `holding RESOURCE`
    special_tile: bool = False              # `with special tile`: its play places a special tile
    any_tag: tuple[str, ...] = added(())    # `with earth or jovian tag`: has at least one of these
    # `with no requirements` / `with no global requirements` / `with no vp` / `with no special tile`: the card
    # lacks that property (the words `requirements`, `global requirements`, `vp`, `special tile`)
    lacking: tuple[str, ...] = added(())
    # the second and further `with TAG tag` (a card with all of them) and `with no TAG tag` (with none of them:
    # `with no jovian tag with no earth tag`, `with no jovian or earth tag`); the first of each is `tag` / `lacks`,
    # as it was when one was all a filter could hold, so that the cards written then keep their meaning and hash
    more_tags: tuple[str, ...] = added(())
    more_lacks: tuple[str, ...] = added(())
    # `with tags >= 2` / `with tags == 1`: how many tags the card bears, an event's event tag counted (as
    # the reference engine counts them); a bound left None is open
    min_tags: Optional[int] = added(None)
    max_tags: Optional[int] = added(None)

    @property
    def tags_needed(self) -> tuple[str, ...]:
        """Every tag the card must have (`with TAG tag`, each written)."""
        return ((self.tag,) if self.tag is not None else ()) + self.more_tags

    @property
    def tags_lacked(self) -> tuple[str, ...]:
        """Every tag the card must not have (`with no TAG tag`, each written)."""
        return ((self.lacks,) if self.lacks is not None else ()) + self.more_lacks


def filter_tag(fields: dict, tag: str, lacking: bool) -> None:
    """Add a `with TAG tag` (or, `lacking`, a `with no TAG tag`) to the fields of a CardFilter being built: the
    first into `tag` / `lacks`, the others after it, a tag written twice once."""
    first, more = ("lacks", "more_lacks") if lacking else ("tag", "more_tags")
    if fields.get(first) is None:
        fields[first] = tag
    elif tag != fields[first] and tag not in fields.get(more, ()):
        fields[more] = fields.get(more, ()) + (tag,)


@_frozen
class Measure:
    """One countable thing in the game. `kind` selects the counter; the other fields parametrise it.

    Kinds (see compiler/quantities.py for the phrases that produce them):
    tags, distinct_tags, resource_here, card_resources, tiles, adjacent_tiles, stock, production,
    highest_production, raised_productions, tr, tr_raised, removed (resources removed from other players this
    generation), cards_in_hand, events_played, cards, parameter, constant, pieces (a declared piece: those on
    sites and, for a kind with a supply, in it), players, passed (the players, or opponents, who have passed this
    generation), placed_tiles (in a placement trigger: the tiles next to
    the tile just placed, `your tiles next to it`), adjacent_empty (the spaces with no tile next to this card's tile:
    `adjacent empty spaces`).
    """

    kind: str
    scope: str = "you"                       # you | all | opponents | this (a card or its tile)
    name: Optional[str] = None               # tag, resource, tile or parameter name
    names: tuple[str, ...] = ()              # card types for `cards`
    on_mars: bool = False
    rows: Optional[tuple[int, int]] = None
    next_to: Optional[str] = None            # tiles next to an ocean, ...
    with_requirements: bool = False
    min_cost: Optional[int] = None
    value: int = 0                           # constant
    wild_tags: tuple[str, ...] = ()          # tags: the tags declared `as any tag`, counted as this one too;
    #                                          distinct_tags: those left out (a staged card counts printed tags)
    no_tags: bool = False                    # cards: only cards without tags
    cap: Optional[int] = None                # `jovian tags max 5`: this term counts at most `cap`
    subtract: bool = False                   # `- influence`: this term is taken away (the sum is floored at 0)
    piece: Optional[str] = None              # pieces: the declared kind of piece counted
    faction: Optional[str] = None            # pieces_in, leader, ruling: the faction named (`"Blue Party"`)
    which: Optional[str] = None              # pieces_in, leader: the ruling or the dominant faction instead
    besides_leader: bool = False             # pieces_in: not counting a piece that leads the faction
    in_play: bool = False                    # cards: every card of the play area (corporation, kinds of card), no event
    cards: Optional[CardFilter] = None       # cards: the filters beyond the types and those above
    mark: Optional[str] = added(None)        # tiles: only those with this declared mark (`cities with cathedral`)
    # `earth tags max jovian tags`: this term counts at most what another measure counts (the smaller of the two); a
    # wild tag counted by both goes to one side only, where it makes the smaller larger
    cap_by: Optional["Measure"] = added(None)
    # `cities off mars` (Interplanetary Transport's "offworld city tiles"): only tiles on spaces off Mars (Phobos Space
    # Haven's, any off-board or reserved space off the map)
    off_mars: bool = added(False)


@_frozen
class Quantity:
    """A sum of measures, e.g. `steel + titanium`; a term may be capped (`jovian tags max 5`) or subtracted
    (`- influence`), and a quantity with a subtraction is never below 0."""

    terms: tuple[Measure, ...]


@_frozen
class Amount:
    """A number in an effect: `coefficient` x (X if variable) x (quantity // divisor if per).

    `gain 3 plants` is Amount(3); `production(heat -X)` is Amount(-1, variable=True);
    `production(energy +1 per 2 power tags)` is Amount(1, per=<power tags>, divisor=2).
    """

    coefficient: int
    variable: bool = False
    per: Optional[Quantity] = None
    divisor: int = 1


@_frozen
class Comparison:
    quantity: Quantity
    operator: str  # >= <= == > <
    value: int
    unit: str = ""  # a global parameter's unit ("%", "C"), so that text written back reads as the card did

    @property
    def global_parameter(self) -> Optional[str]:
        """The global parameter compared, if this is a global requirement (subject to leeway)."""
        terms = self.quantity.terms
        if len(terms) == 1 and terms[0].kind == "parameter":
            return terms[0].name
        return None


@_frozen
class Condition:
    """Comparisons that must all hold, or else (`or`) all those of one of the `alternatives`: `a and b or c` is
    comparisons (a, b) and alternatives ((c,),)."""

    comparisons: tuple[Comparison, ...]
    alternatives: tuple[tuple[Comparison, ...], ...] = ()

    @property
    def groups(self) -> tuple[tuple[Comparison, ...], ...]:
        """Every group of comparisons joined by `and`, in the order written."""
        return (self.comparisons,) + self.alternatives


@_frozen
class SpaceFilter:
    """Where a tile may go. kind: land | ocean | volcanic | mars | reserved | bonus | no_bonus (a space with no
    printed placement bonus) | next_to | not_next_to (`next to no [your | opponent] TILE`: no such tile on a
    neighbouring space, as `next_to` counts them) | isolated |
    ignoring_adjacency (the placement rules about neighbouring tiles, a city's, are lifted) | claim (`on your
    claim`: a space with the player's `claim space` marker; of a tile placed, the space had it) | next_to_marker
    (`next to marker "NAME"`: a space next to the one that marker stands on; `marker` names it) | next_to_placed
    (`next to it`: next to the tile the same effects placed just before) | next_to_space (what the engine makes of
    `next to it` once that tile is down: `space` is its space; never compiled) | on_tile (`on top of [your |
    opponent] TILE`: a space holding such a tile, which the tile placed covers; `tile`, `own`, `opponent` say which;
    a `place`'s only)."""

    kind: str
    reserved: Optional[str] = None
    bonuses: tuple[str, ...] = ()
    count: int = 1
    own: bool = False
    tile: Optional[str] = None
    reserved_span: Optional[object] = attrs.field(default=None, eq=False, repr=False)
    marker: Optional[str] = added(None)
    opponent: bool = added(False)    # next_to: only other players' tiles (`next to opponent tile`; `own` is False)
    space: Optional[str] = added(None)


# ------------------------------------------------------------------------------------------- immediate effects

@immediate("gain", category="resources", syntax="gain N RESOURCE [per QUANTITY]", example="gain 1 plant per city",
           summary="Add standard resources to your stock.",
           impossible=NEVER)
@_frozen
class Gain:
    resource: str
    amount: Amount


@immediate("gain_space_bonus", category="triggers", syntax="gain N more space bonus",
           example="when you place tile on mars -> gain 1 more space bonus",
           summary="In a `when ... places TILE tile` trigger: N more of one kind the space of the tile just placed "
                   "gives as its printed bonus (steel, titanium, plants, heat, MC, a card drawn, a card resource), "
                   "the player's pick where it gives several; nothing on a space with no such bonus, or for a tile "
                   "put on top of another (as the reference engine's Geological Expedition).",
           impossible=NEVER)
@_frozen
class GainSpaceBonus:
    amount: int


@immediate("lose", category="resources", syntax="lose [up to] N RESOURCE [per QUANTITY]", example="lose 2 plants",
           summary="Remove resources from your own stock; you must have them, unless `up to`: then as many as you "
           "have, up to N. One meaning everywhere: a card or an action that loses what you do not have cannot be "
           "played or taken, and a `choose` option, a `may`, an `each player`, a `repeat` or a rank's place is "
           "skipped; where nothing checks the effects first (a rule, a trigger, a track bonus, a stage, a site, a "
           "corporation's start) a loss must say `up to` (E307).",
           impossible="when you have fewer of the resource than it loses (never with `up to`)")
@_frozen
class Lose:
    resource: str
    amount: Amount
    up_to: bool = False


@immediate("spend", category="resources", syntax="spend N RESOURCE", example="spend 4 energy",
           summary="Pay non-money resources, usually as an action's cost; like `lose`, it must be possible, so it "
           "goes only where the effects are checked first (E307 elsewhere: write `lose up to N`).",
           impossible="when you have fewer of the resource than it spends")
@_frozen
class Spend:
    resource: str
    amount: Amount


@immediate("pay", category="resources", syntax="pay N megacredits [using steel, titanium, heat]",
           example="pay 12 megacredits using titanium",
           summary="Pay money; `using` lists resources that may stand in at their current value.",
           impossible="when you cannot pay it, with the resources `using` allows")
@_frozen
class Pay:
    amount: Amount
    using: tuple[str, ...] = ()


@_frozen
class ProductionChange:
    resource: str
    amount: Amount

    @property
    def floor(self) -> Optional[int]:
        """N of `RESOURCE at least N` (the amount `+1 per N - RESOURCE production`), else None."""
        a = self.amount
        terms = a.per.terms if a.per is not None else ()
        if a.coefficient == 1 and not a.variable and a.divisor == 1 and len(terms) == 2 and \
                terms[0].kind == "constant" and terms[0].cap is None and not terms[0].subtract and \
                terms[1] == Measure("production", name=self.resource, subtract=True):
            return terms[0].value
        return None


def at_least(resource: str, floor: int) -> Amount:
    """`production(RESOURCE at least N)`: as many steps as take the production up to N (none when it is there), the
    quantity `N - RESOURCE production`, which is never below 0."""
    return Amount(1, per=Quantity((Measure("constant", value=floor), Measure("production", name=resource,
                                                                              subtract=True))))


@immediate("production", category="production", syntax="production(RESOURCE +N, RESOURCE -N [per QUANTITY], ...)",
           example="production(energy -1, megacredits +3)",
           summary="Change your own production; decreases must be possible (MC may go down to -5, others to 0).",
           impossible="when a decrease would take a production below its least (-5 megacredits, 0 of the others)")
@_frozen
class Production:
    changes: tuple[ProductionChange, ...]


@immediate("any_production", category="production", syntax="any production(RESOURCE -N)",
           example="any production(heat -1)",
           summary="Decrease one player's production (red border): any player who has enough, yourself included.",
           impossible="when no player has that much production to lose")
@_frozen
class AnyProduction:
    changes: tuple[ProductionChange, ...]


@immediate("parameter", rule="parameter_change", category="global",
           syntax="(temperature | oxygen | PARAMETER | tr) +N [per QUANTITY]",
           example="temperature +2",
           summary="Raise (or lower) a global parameter (a declared one too), with TR for each step raised, or change "
                   "your TR directly.",
           impossible=NEVER)
@_frozen
class ChangeParameter:
    parameter: str  # temperature | oxygen | tr
    amount: Amount


@immediate("place", category="tiles", syntax='place [N] TILE ["name"] [FILTER ...]',
           example='place special "Lava Vent" on volcanic',
           summary="Place tiles: ocean, greenery, city or a special (named) tile, where the filters allow.",
           impossible="when no space may take the tile (no ocean left to place, or the filters leave none)")
@_frozen
class PlaceTile:
    tile: str                 # ocean | greenery | city | special
    count: int = 1
    name: Optional[str] = None
    filters: tuple[SpaceFilter, ...] = ()


@immediate("claim", category="tiles", syntax="claim space [FILTER ...] [collecting [space] bonus]",
           example="claim space on land",
           summary="Put your marker on a free space: from now on only you may place a tile there. `collecting "
                   "bonus`: you collect what a tile placed there would give you (the space's printed bonus and the "
                   "adjacent oceans' money), though no tile is placed and nothing is triggered; `collecting space "
                   "bonus`: the space's printed bonus only (Survey Mission's \"gain all placement bonuses\").",
           impossible="when no free space meets the filters")
@_frozen
class ClaimSpace:
    filters: tuple[SpaceFilter, ...] = ()
    collect: bool = added(False)      # `collecting [space] bonus`
    space_only: bool = added(False)   # `collecting space bonus`: the space's printed bonus, no adjacent oceans' money


@immediate("place_marker", category="tiles", syntax='place marker "NAME" [blocking tiles] [FILTER ...]',
           example='place marker "Nomad" blocking tiles on land',
           summary="Put the named marker (one in the game, yours) on a free space the filters allow (land unless they "
                   "say otherwise; never a reserved space, a tile's, another player's claim or a blocking marker's); "
                   "`blocking tiles`: no tile may be placed on its space while it stands there. A marker already on "
                   "the board moves there instead.",
           impossible="when no free space meets the filters")
@_frozen
class PlaceMarker:
    name: str
    blocks: bool = False
    filters: tuple[SpaceFilter, ...] = ()


@immediate("move_marker", category="tiles",
           syntax='move marker "NAME" [next to it] [FILTER ...] [collecting [space] bonus]',
           example='move marker "Nomad" next to it collecting bonus',
           summary="Move the named marker to another free space the filters allow (`next to it`: next to the space it "
                   "stands on); `collecting bonus`: you collect what a tile placed there would give you (the space's "
                   "printed bonus and the adjacent oceans' money), though no tile is placed and nothing is triggered; "
                   "`collecting space bonus`: the space's printed bonus only, without the oceans' money (the printed "
                   "\"gather any bonus on that space, but no bonuses from adjacent spaces\").",
           impossible="when the marker is not on the board, or no other free space meets the filters")
@_frozen
class MoveMarker:
    name: str
    filters: tuple[SpaceFilter, ...] = ()
    collect: bool = False
    space_only: bool = added(False)   # `collecting space bonus`: the space's printed bonus, no adjacent oceans' money


@immediate("draw", category="cards", syntax="draw N [per QUANTITY]", example="draw 2",  # N may be X
           summary="Draw project cards into your hand.",
           impossible=NEVER)
@_frozen
class Draw:
    amount: Amount


@immediate("look_keep", category="cards", syntax="look N keep K", example="look 4 keep 2",
           summary="Look at the top N cards (N may be X), keep K in hand for free, discard the rest.",
           impossible=NEVER)
@_frozen
class LookKeep:
    look: int
    keep: int
    variable: bool = False   # `look X keep 1`: `look` is a multiple of X


@immediate("look_discard", shares=LookKeep, category="cards", syntax="look N keep K from discard",
           example="look 4 keep 2 from discard",
           summary="Take the top N cards of the discard pile (the last discarded), keep K of them in hand, and "
                   "discard the rest again (Return to Abandoned Technology of Pathfinders); fewer when the pile holds "
                   "fewer.",
           impossible="when the discard pile is empty")
@_frozen
class LookDiscard:
    look: int
    keep: int
    variable: bool = False   # `look X keep 1 from discard`


@immediate("look_buy", category="cards", syntax="look N buy", example="look 1 buy",
           summary="Look at the top N cards; buy any of them for the card price (3 MC), discard the rest.",
           impossible=NEVER)
@_frozen
class LookBuy:
    look: int
    variable: bool = False   # `look X buy`


@immediate("discard", category="cards", syntax="discard [up to] N", example="discard 1",
           summary="Discard cards of your choice from your hand (`up to`: as many as you have, up to N).",
           impossible="when the hand holds fewer cards than it discards (never with `up to`)")
@_frozen
class Discard:
    amount: Amount
    up_to: bool = False


@immediate("add", category="card resources",
           syntax="add N RESOURCE [except RESOURCE [or RESOURCE ...]] [per QUANTITY] (here | to another [TAG] card "
           "| to any [TAG] card [with resources] "
           "| to any [TAG] cards | to each [TAG] card [with resources] | to each of N different [TAG] cards "
           "| to that card)",
           example="add 1 animal per 2 plant tags to any animal card",
           summary="Add resources to a card that holds that type: this card, another of yours, any of yours, "
           "or the card that fired a trigger; `TAG`: only a card of yours with that tag; `with resources`: a "
           "card already holding at least one; `to any cards`: split among your cards as you choose, one at a "
           "time; `to each card`: to every card of yours that holds it; `to each of N different cards`: to N cards of "
           "yours that hold it, each chosen once (to every one when there are N or fewer). `resource` means any "
           "type the target holds, and `resource except science` any type but science. A card type or declared "
           "kind where `TAG` goes (`to any active card`) takes only cards of that type.",
           impossible=NEVER)
@_frozen
class AddResources:
    resource: str        # a card resource, or "resource" for any type
    amount: Amount
    target: str          # here | another_card | any_card | any_card_with_resources | any_cards | that_card
    #                      | each_card | each_card_with_resources | different_cards
    tag: Optional[str] = None   # another_card, any_card...: only a card with this tag
    cards: int = added(0)       # different_cards: how many different cards get the amount each
    # `to any active card` (Elon Labs): only a card of this type or declared kind (written where a tag goes)
    card_type: Optional[str] = added(None)
    # `add 1 resource except science`: of any type the card holds but these (Elon Labs' "a non-science resource")
    excluded: tuple = added(())


@immediate("remove", category="card resources",
           syntax="remove [up to] N RESOURCE (here | from your card | from any card | from any player [next to it] | "
                  "from each opponent)",
           example="remove up to 3 plants from any player",
           summary="Remove resources. `here` and `from your card` (one of your cards holding that type, your choice) "
                   "are costs you must pay; `up to` makes a removal optional and partial. `from each opponent`: "
                   "from the stock of every other player, what each has up to N, each an attack by you (their "
                   "protections hold, a harm trigger fires for each).",
           impossible="when a removal that is not `up to` (`here`, `from your card`, `from any card`) finds too "
                      "few resources")
@_frozen
class RemoveResources:
    resource: str
    amount: Amount
    source: str          # here | your_card | any_card | any_player | each_opponent
    up_to: bool = False
    next_to_placed: bool = False
    player_tag: Optional[str] = None   # any_player: only players with this tag in play


@immediate("steal", category="resources",
           syntax="steal [up to] N RESOURCE from any player [who harmed you this generation]",
           example="steal up to 2 steel from any player",
           summary="Remove standard resources from another player and gain what was removed: `up to` takes what the "
                   "player has (or nothing); without it, exactly N from a player who has them, and the effect is "
                   "possible only when one has (solo: the neutral opponent always has). `who harmed you this "
                   "generation`: only from a player who removed your resources or decreased your production this "
                   "generation (the neutral opponent harms nobody).",
           impossible="without `up to`, when no opponent (no opponent who harmed you) has the amount (never in a solo "
                      "game, unless only who harmed you may be stolen from)")
@_frozen
class Steal:
    resource: str
    amount: Amount
    up_to: bool = True
    harmed: bool = added(False)   # `who harmed you this generation`: only from those players


@immediate("choose", rule="choice", category="control", syntax="choose { EFFECTS | EFFECTS ... }",
           example="choose { gain 4 plants | add 2 animals to another card }",
           summary="The player picks exactly one option they can carry out.",
           impossible="when no option can be carried out")
@_frozen
class Choice:
    options: tuple[tuple, ...]


@immediate("if", rule="conditional", category="control", syntax="if CONDITION { EFFECTS } [else { EFFECTS }]",
           example="if plant tags >= 3 { production(plants +4) } else { production(plants +1) }",
           summary="Carry out the first block when the condition holds, the else block otherwise.",
           impossible="when the block the condition picks cannot be carried out")
@_frozen
class Conditional:
    condition: Condition
    then: tuple
    otherwise: tuple = ()


@immediate("choose_x", category="control", syntax="choose X [from N] up to QUANTITY { EFFECTS using X }",
           example="choose X up to heat production { production(heat -X, megacredits +X) }",
           summary="The player picks a number X in the range, then the block runs with that X.",
           impossible="when no X in the range lets the block be carried out")
@_frozen
class ChooseX:
    minimum: int
    maximum: Quantity
    body: tuple


@immediate("may", category="control", syntax="may { EFFECTS }", example="may { discard 1; draw 1 }",
           summary="Optional: the player may carry out the whole block, or skip it.",
           impossible=NEVER)
@_frozen
class May:
    body: tuple


@immediate("if_you_can", category="control", syntax="if you can { EFFECTS }",
           example="if you can { play active card holding microbe from hand; add 2 microbes to that card }",
           summary="Carried out when its effects can all be carried out (judged as a card's are), skipped otherwise, "
                   "with nothing asked: the printed \"if you can\", where `may { }` would let the player decline.",
           impossible=NEVER)
@_frozen
class IfYouCan:
    body: tuple


@immediate("copy_production", category="production",
           syntax="copy production of (TAG card | N different TAG cards)",
           example="copy production of 2 different building cards",
           summary="Carry out again the whole production box (its any-player decreases too) of one of your other "
                   "played cards with that tag, if it can be carried out; `N different TAG cards`: of N such cards, "
                   "each picked once, one after another.",
           impossible="when fewer cards of yours with the tag (one, or N) have a production box that can be "
                      "carried out")
@_frozen
class CopyProduction:
    tag: str
    count: int = added(1)   # `copy production of 2 different building cards`: so many cards, none twice


@immediate("reveal", category="cards", syntax="reveal top card if TAG tag { EFFECTS }",
           example="reveal top card if microbe tag { add 1 science here }",
           summary="Reveal the top card of the deck; if it has the tag, carry out the block; then discard it.",
           impossible="when the deck and the discard pile are both empty")
@_frozen
class Reveal:
    tag: str
    then: tuple


@immediate("require", category="control", syntax="require CONDITION", example="require tr raised this generation >= 1",
           summary="Nothing happens, but the effect (and so the card or action) is possible only when this holds.",
           impossible="when the condition does not hold")
@_frozen
class Require:
    condition: Condition


@immediate("next_card", category="modifiers", syntax="next card { MODIFIER; ... }",
           example="next card { discount 8 on cards }",
           summary="Modifiers that apply to the next card you play this generation only: a discount on cards, a "
                   "requirement leeway, `use steel | titanium as megacredits`.",
           impossible=NEVER)
@_frozen
class NextCard:
    modifiers: tuple


@immediate("reveal_until", category="cards",
           syntax="reveal cards until N (with TAG tag | holding RESOURCE | with RESOURCE icon | FILTER) ...",
           example="reveal cards until 2 with space tag",
           summary="Reveal cards from the deck until N of them pass the filters (a tag, a card resource held, "
                   "`with RESOURCE icon`: a card that names that card resource anywhere, or any card filter: "
                   "`with requirements`, `with no tags`, `with cost >= 20`...); take those into your hand and discard "
                   "the rest (the printed \"draw 2 cards with requirements\").",
           impossible=NEVER)
@_frozen
class RevealUntil:
    count: int
    tag: Optional[str] = None
    holds: Optional[str] = None
    icon: Optional[str] = None   # a card resource the card names anywhere (holds, adds, removes or counts it)
    cards: Optional[CardFilter] = added(None)   # the other card filters (`with requirements`, `with cost >= 20`...)


@immediate("reveal_from_hand", category="cards",
           syntax="reveal X cards from hand [FILTER ...] { EFFECTS using X }",
           example="reveal X cards from hand with building tag { gain 2X megacredits }",
           summary="Reveal any number of cards from your hand that pass the card filters (they stay in hand), then "
                   "carry out the block with X the number revealed; the player picks X, up to the cards that pass "
                   "and the largest X the block can be carried out with, then which cards (the log names them).",
           impossible="when the block cannot be carried out with no card revealed")
@_frozen
class RevealFromHand:
    cards: Optional[CardFilter]   # only cards in hand that pass these filters (None: any card)
    body: tuple


@immediate("shared_reveal", category="cards",
           syntax="reveal QUANTITY cards, each player takes K [until none left]",
           example="reveal players + 1 cards, each player takes 1",
           summary="Reveal cards from the deck (as many as the quantity counts: `players + 1`); the players, in turn "
                   "order starting with you, each take K of them into hand, their own pick, and the rest are "
                   "discarded; `until none left`: the picks go round until every card is taken.",
           impossible=NEVER)
@_frozen
class SharedReveal:
    count: Quantity
    take: int                    # cards each player takes at a turn of picks
    until_none_left: bool = False


@immediate("play_from_hand", category="cards",
           syntax="play [TYPE | TAG] card|event [FILTER ...] from (hand | events) [with discount N] [ignoring global "
                  "requirements] [then discard]",
           example="play card from hand with discount 25",
           summary="Play a card from your hand (or, `from events`, one of your played events again) now, paying its "
                   "cost (less the discount) and meeting its requirements as a card from hand does, its global "
                   "requirements ignored if said; possible only when some card there can be played so; the card "
                   "filters (`play event with requirements from hand`, `with cost <= 16`: the printed cost) limit "
                   "the cards offered. `then discard`: once played, the card goes to the discard pile instead of "
                   "back into your events (Odyssey's `play event with cost <= 16 from events then discard`).",
           impossible="when no card there can be played so")
@_frozen
class PlayFromHand:
    modifiers: tuple   # the discount and leeway that apply to that card, as `next card { }` modifiers
    cards: Optional[CardFilter] = None   # only a card in hand that passes these filters
    source: str = added("hand")   # hand | events: the zone the card is played from
    discard: bool = added(False)  # `then discard`: the card played goes to the discard pile


@immediate("reveal_each", category="cards",
           syntax="reveal QUANTITY cards one by one { FILTER ... -> EFFECTS | ... }",
           example="reveal 2 cards one by one { with science or microbe tag -> play it for free ignoring "
                   "requirements | with space tag -> production(energy +3) }",
           summary="Draw cards from the deck face up into your hand (as many as the quantity counts), then look at "
                   "them in the order drawn: the first that passes the card filters of a case has that case's "
                   "effects carried out, `it` (and `that card`) being that card, and no card after it is looked "
                   "at; the cases are tried in written order for each card. The cards not played stay in your hand "
                   "(Oumuamua Type Object Survey: \"draw 2 cards face up; if the first has a science or microbe tag, "
                   "play it outright ...; if it has none, apply the check to the second card\").",
           impossible=NEVER)
@_frozen
class RevealEach:
    count: Quantity
    filters: tuple   # one CardFilter per case, in written order
    cases: tuple     # the effects of each case (runs of effects), beside its filters


@immediate("play_it", category="cards", syntax="play it [for free] [ignoring requirements]",
           example="reveal 1 cards one by one { with event type -> play it for free }",
           summary="Inside a case of `reveal N cards one by one { }`: play the card that case looked at, from your "
                   "hand, paying its cost as a card from hand is (`for free`: paying nothing) and meeting its "
                   "requirements (`ignoring requirements`: all of them ignored); a card that cannot be played so "
                   "(its cost not payable, its effects impossible) stays in your hand.",
           impossible=NEVER)
@_frozen
class PlayIt:
    free: bool = False       # `for free`: its cost is not paid
    ignoring: bool = False   # `ignoring requirements`: every requirement of the card is ignored


@immediate("move_card", category="cards",
           syntax="move [TYPE | TAG] card|event [FILTER ...] from (play | events | hand) to (hand | discard | another "
                  "player | here [with N resources])",
           example="move active card with vp from play to discard",
           summary="Move one of your cards that passes the filters (your choice) from your play area (never the "
                   "corporation), your played events or your hand: to your hand, to the discard pile (a card of a "
                   "declared kind goes under its pile), into another player's play area (from your hand too, never "
                   "an event; your choice of player), or from your hand onto this card (`to here`: kept face up on "
                   "it, public, with N resources on it). A card leaving play takes its resources with it and its "
                   "lasting effects end; its tile stays. Filters: `with TAG tag`, `with no TAG tag`, `with no "
                   "tags`, `with [no] requirements`, `with [no] global requirements`, `with [no] faction "
                   "requirements`, `with cost >= N` (`<=`, `==`), `with [no] vp`, `holding RESOURCE`, `with [no] "
                   "special tile`.",
           impossible="when no card of yours in that zone passes the filters (or may go where it is sent)")
@_frozen
class MoveCard:
    cards: CardFilter
    source: str          # play | events | hand
    destination: str     # hand | discard | another_player | here (kept on this card)
    resources: int = added(0)   # `to here with N resources`: put on the card kept


@immediate("double_kept", category="cards", syntax="double resources on a card here",
           example="double resources on a card here",
           summary="Double the resources on one of the cards kept on this card (`move ... from hand to here`), your "
                   "choice; possible only when a card is kept here.",
           impossible="when no card is kept on this card")
@_frozen
class DoubleKept:
    pass


@immediate("move_this", category="cards", syntax="move this card to that player's events",
           example="steal 3 megacredits from any player who harmed you this generation; move this card to that "
                   "player's events",
           summary="In an event's `play:` effects, after an effect that targets another player (`steal ... from "
                   "any player`, `remove ... from any player`, `any production(...)`): the event goes "
                   "into that player's played events instead of yours, its VP and its tags theirs. When the earlier "
                   "effect targeted nobody (`steal up to` took nothing, the neutral opponent of a solo game), the "
                   "event stays yours.",
           impossible=NEVER, event_only=True)
@_frozen
class MoveThisCard:
    destination: str = "that_players_events"   # the one destination so far


def targets_player(effect) -> bool:
    """Whether an effect chooses another player as its target, "that player" of a later `move this card to that
    player's events` in the same effects (the checker and the order of a card's effects both ask)."""
    return type(effect) in (Steal, AnyProduction) or (type(effect) is RemoveResources and
                                                        effect.source == "any_player")


@immediate("copy_play", category="cards", syntax="copy play of another [TYPE | TAG] card [FILTER ...]",
           example="copy play of another active card with vp",
           summary="Carry out again the `play:` effects of another card in your play area that passes the filters "
                   "(your choice), as if it were played now (its tile effects, its `here` meaning that card); only "
                   "a card whose effects can be carried out is offered.",
           impossible="when no other card of yours in play passes the filters with `play:` effects that can be "
                      "carried out")
@_frozen
class CopyPlay:
    cards: CardFilter


@immediate("gain_raised", category="triggers", syntax="gain that production",
           example="when you raise production -> gain that production",
           summary="In a `when you raise production` trigger: gain as many units of the resource as its production "
                   "just rose.",
           impossible=NEVER)
@_frozen
class GainRaised:
    pass


@immediate("each_opponent", category="control", syntax="each opponent [with CONDITION] [must] { EFFECTS }",
           example="each opponent { draw 1 }",
           summary="Every other player, in turn order, carries out the effects as their own (their choices, their "
                   "resources); one who cannot is skipped; `with CONDITION`: only those for whom it holds (from "
                   "their side: `each opponent with cards in hand >= 5`), all judged before the first one acts; "
                   "`must`: every one of them must be able to (judged before the first one acts), or the card or "
                   "action cannot be used (`each opponent must { production(megacredits -1) }`).",
           impossible="with `must`, when one of the players it names cannot carry out the effects from their side")
@_frozen
class EachOpponent:
    body: tuple
    condition: Optional[Condition] = None
    must: bool = added(False)   # `must`: every kept player must be able to, or the block cannot be carried out


@immediate("each_player", category="control", syntax="each player [with CONDITION] [must] { EFFECTS }",
           example="each player with tr raised this generation >= 1 { gain 2 MC }",
           summary="Every player, in turn order (the first player first), carries out the effects as their own (their "
           "choices, their resources); one who cannot is skipped; `with CONDITION`: only the players for whom it "
           "holds (from their side), all judged before the first one acts; `must`: every one of them must be able "
           "to (judged before the first one acts), or the card or action cannot be used.",
           impossible="with `must`, when one of the players it names cannot carry out the effects from their side")
@_frozen
class EachPlayer:
    body: tuple
    condition: Optional[Condition] = None
    must: bool = added(False)   # `must`: every kept player must be able to, or the block cannot be carried out


@immediate("that_player", category="triggers", syntax="that player { EFFECTS }",
           example="when any player plays microbe tag -> that player { gain 2 MC }; gain 2 MC",
           summary="In a `when any player ...` or `when another player ...` trigger: the player who set the trigger "
                   "off carries out the effects as their own (their choices, their resources; `that card` is the "
                   "card they played), while the trigger's other effects stay its owner's; skipped when they cannot "
                   "carry them out, or when nobody set the trigger off (a neutral placement).",
           impossible=NEVER)
@_frozen
class ThatPlayer:
    body: tuple


@immediate("give", category="triggers", syntax="give [up to] N RESOURCE to (the victim | that player)",
           example="when any player harms another player -> give up to 3 megacredits to the victim",
           summary="Hand resources from your own stock to another player: `the victim`, in a `when ... harms ...` "
                   "trigger, the player whose resources were removed or production lowered; `that player`, in a "
                   "`when any player ...` or `when another player ...` trigger, the player who set it off. Nothing "
                   "happens when that player is you, or when there is none (the neutral opponent). Like `lose`, "
                   "you must have them unless `up to` (then as many as you have, up to N); a trigger's effects "
                   "are checked by nobody, so there it must say `up to` (E307).",
           impossible="when you have fewer of the resource than it gives (never with `up to`)")
@_frozen
class Give:
    resource: str
    amount: Amount
    up_to: bool
    to: str   # victim | that_player


@immediate("face_down", category="cards", syntax="turn this card face down",
           example="turn this card face down; tr +3",
           summary="This card (a project card, a card of a declared kind or a corporation) leaves its owner's play "
                   "area into their events pile, face down: its resources are gone, and its tags, lasting effects, "
                   "actions and VP no longer count; nothing counts it as an event either (face down, it has no type "
                   "nor tags). Its tile stays; the effects written after it still happen (`turn this card face down; "
                   "tr +3`).",
           impossible="when the card is not in its owner's play area")
@_frozen
class FaceDown:
    pass


@immediate("remove_tile", category="tiles", syntax="remove [N] ocean tile", example="remove ocean tile",
           summary="Take ocean tiles off Mars (the player chooses which): the ocean count goes down, the spaces are "
           "free again, and nobody's TR changes. Nothing happens when there is none.",
           impossible=NEVER)
@_frozen
class RemoveTile:
    tile: str
    count: int = 1


@immediate("put_mark", category="tiles", syntax="put [N] MARK on [your | opponent] TILE [FILTER ...] [max N] "
           "[{ EFFECTS }]", example="put cathedral on city max 1 { that player { may { pay 2 MC; draw 1 } } }",
           summary="Put a declared mark (`mark cathedral`) on a tile the player picks: of that kind (`tile`: any), "
           "any player's unless `your` or `opponent` says (an ocean is nobody's), on a space the placement filters "
           "allow as a placement trigger reads them, with fewer than `max N` of the mark already. The mark stays on "
           "the tile (counted: `cities with cathedral`) and goes with it. The block, if any, runs next, with `that "
           "player` the tile's owner (their choices, their resources; skipped when nobody owns it).",
           impossible="when no tile it may go on has room for the mark")
@_frozen
class PutMark:
    mark: str
    tile: str                 # ocean | greenery | city | special | tile (any)
    count: int = 1
    own: bool = False         # only the player's tiles (`your city`)
    opponent: bool = False    # only other players' tiles (`opponent city`)
    filters: tuple[SpaceFilter, ...] = ()
    most: Optional[int] = None   # `max N`: at most N of the mark on one tile
    body: tuple = ()          # run after, `that player` the marked tile's owner


@immediate("replace_tile", category="tiles", syntax='replace your TILE [FILTER ...] with TILE ["name"]',
           example="replace your greenery tile with city",
           summary="One of your tiles on Mars of that kind (`tile`: any) that the filters allow, your choice, gives "
           "way to a tile of another kind on the same space (greenery, city or a special tile), placed there as a "
           "placement is but regardless of the placement rules: it is yours, gives the space's bonuses and its "
           "adjacent oceans' money, raises what it raises (a greenery: oxygen) and fires the triggers of a "
           "placement; nothing the old tile raised goes down, and the old tile no longer counts (a city less, a "
           "greenery less).",
           impossible="when you have no such tile whose space can take the new one (it costs what you cannot pay)")
@_frozen
class ReplaceTile:
    old: str                  # greenery | city | special | tile (any of the player's)
    new: str                  # greenery | city | special
    name: Optional[str] = None
    filters: tuple[SpaceFilter, ...] = ()


@immediate("repeat", category="control", syntax="repeat QUANTITY times { EFFECTS }",
           example="repeat cards in hand times { gain 1 MC }",
           summary="Carry out the effects as many times as the quantity counts (counted once, before the first time; "
           "a plain number too: `repeat 3 times { }`); a time that cannot be carried out is skipped.",
           impossible=NEVER)
@_frozen
class Repeat:
    times: Quantity
    body: tuple


@immediate("rank", category="control",
           syntax="rank players by [lowest] QUANTITY [at least N] { first: EFFECTS | second: EFFECTS ... }",
           example="rank players by building tags { first: tr +2 | second: tr +1 }",
           summary="Every player's score is counted first (only those scoring at least N take part); a player's place "
           "is 1 + the players with a higher score (`lowest`: a lower one), so tied players share a place and "
           "the next place is skipped. Each place's effects go to its players, in turn order.",
           impossible=NEVER)
@_frozen
class Rank:
    score: Quantity
    places: tuple[tuple, ...]          # the effects of the first place, the second...
    lowest: bool = False
    minimum: Optional[int] = None


@immediate("resolve_stage", category="cards", syntax="resolve KIND", example="resolve mission",
           summary="The card of a kind with stages that stands in the last stage is carried out (its `play:`, by the "
           "player deciding); it stays there until the cards advance.",
           impossible=NEVER)
@_frozen
class ResolveStage:
    card_kind: str


@immediate("advance_stages", category="cards", syntax="advance KIND", example="advance missions",
           summary="Cards of a kind with stages move on: the card in the last stage is discarded (under the kind's "
           "pile), every other card moves one stage on (its `on STAGE:` effects run), and a card drawn from the "
           "pile enters the first stage (its `on reveal:` effects run).",
           impossible=NEVER)
@_frozen
class AdvanceStages:
    card_kind: str


@immediate("place_in_faction", category="factions",
           syntax='place [N] [neutral] PIECE in (a faction | "FACTION")', example='place 2 envoys in a faction',
           summary="Put pieces from your reserve (`neutral`: from the neutral reserve) into one faction, yours to "
           "choose or the one named; the first piece in an empty faction leads it, and a leader is replaced only by an "
           "owner with more pieces there. Possible only with the pieces in reserve.",
           impossible="when the reserve holds fewer pieces than it places")
@_frozen
class PlaceInFaction:
    piece: str
    count: int = 1
    faction: Optional[str] = None    # None: the player chooses
    neutral: bool = False


@immediate("remove_from_faction", rule="remove_piece", category="factions", syntax="remove a PIECE from a faction",
           example="remove an envoy from a faction",
           summary="Take one piece that leads no faction (anyone's, a neutral one too) out of a faction, back to its "
           "owner's reserve; possible only when there is one.",
           impossible="when no faction holds a piece that leads nothing")
@_frozen
class RemoveFromFaction:
    piece: str


@immediate("replace_neutral", rule="replace_piece", category="factions", syntax="replace a neutral PIECE",
           example="replace a neutral envoy",
           summary="A neutral piece that leads no faction goes back to the neutral reserve and one of yours from your "
           "reserve takes its place; possible only when there is one and you have a piece in reserve.",
           impossible="when no faction holds a neutral piece that leads nothing, or your reserve is empty")
@_frozen
class ReplaceNeutral:
    piece: str


@immediate("take_role", category="factions", syntax="take role", example="take role",
           summary="The government's role, held by nobody (a neutral piece), becomes yours: that piece goes back to "
           "the neutral reserve, one of your reserve pieces takes the role, and you gain what the role gives. Possible "
           "only then.",
           impossible="when a player holds the role, or your reserve is empty")
@_frozen
class TakeRole:
    pass


@immediate("change_government", category="factions", syntax="change government", example="change government",
           summary="The dominant faction comes to power: its leader's owner takes the role, the pieces in it go back, "
           "its bonus is carried out, its policy is in force, and a new dominant faction is found among the rest "
           "(docs/language.md says each step).",
           impossible=NEVER)
@_frozen
class ChangeGovernment:
    pass


@immediate("fund_award", category="actions", syntax="fund award for free", example="fund award for free",
           summary="Fund one of the game's awards that is not funded yet, paying nothing; it counts toward the awards "
           "that may be funded. Nothing happens when none is left (or in a solo game).",
           impossible=NEVER)
@_frozen
class FundAward:
    pass


@immediate("look_play", category="cards", syntax="look N KIND cards play [up to] K [{ PRICE }]",
           example="look 1 mission cards play up to 1 { pay 12 megacredits }",
           summary="Take the top N cards of a declared kind's pile; play K of them for free (one that cannot be "
                   "played is discarded for its kind's `unplayable` effects); the others go under the pile. "
                   "`corporation` for KIND: the corporations not dealt at set-up; each one played starts (its "
                   "starting megacredits, its start effects, its first action waiting) and the others are "
                   "discarded. "
                   "`up to K`: the player sees them and may play fewer, none at all; `{ PRICE }` (with `up to` "
                   "only): effects carried out before each card is played, offered only while they can be.",
           impossible=NEVER)
@_frozen
class LookPlay:
    look: int
    card_kind: str
    play: int
    up_to: bool = added(False)   # `play up to K`: the player may play fewer, none at all
    price: tuple = added(())     # `{ pay 12 megacredits; ... }`: carried out before each card played


@immediate("reuse_action", category="actions", syntax="repeat used action of another card",
           example="repeat used action of another card",
           summary="Carry out again the action of another of your cards that was already used this generation "
                   "(its cost included).",
           impossible="when no other card of yours has a used action that can be carried out again")
@_frozen
class ReuseAction:
    pass


@immediate("use_project", category="actions", syntax='use standard project ["NAME"] [else { EFFECTS }]',
           example='use standard project else { lose up to 10 megacredits }',
           summary="Pay for and carry out a standard project as the turn's standard project is (its price after the "
                   "player's discounts, its `when you use standard project` triggers): the one named, else one the "
                   "player picks among those they can pay and carry out; when there is none, the else block.",
           impossible="when no such standard project can be paid and carried out, and there is no else block")
@_frozen
class UseProject:
    name: Optional[str] = None
    otherwise: Optional[tuple] = None


@immediate("take_actions", category="actions", syntax="take N actions", example="take 2 actions",
           summary="Take N actions now, one after another, each chosen from the action menu as a turn's is (play a "
                   "card, a card's action, a standard project or action, a milestone, an award); none can be skipped "
                   "(no pass, no end of turn), the corporation's first action not yet taken comes first, and when the "
                   "player can do nothing, or has passed (a card played among them that says `pass`), the actions "
                   "left are lost. Only in a card's or a corporation's `play:`, `action:` or `first action:`, never in "
                   "a trigger.",
           impossible=NEVER)
@_frozen
class TakeActions:
    count: int


@immediate("pass_turn", category="actions", syntax="pass", example="pass",
           summary="The player passes, as the turn's pass does: no more turns this generation (the effects after it "
                   "are still carried out). Only in a card's `play:` or `action:`, never in a trigger. With "
                   "`requires: opponents passed == 0`, Red Appeasement's \"no other player has passed; this counts as "
                   "passing\".",
           impossible=NEVER)
@_frozen
class PassTurn:
    pass


@immediate("neutral", category="control", syntax="neutral { EFFECTS }",
           example="neutral { choose { temperature +1 | oxygen +1 } }",
           summary="Carried out for nobody (a rule of the game acting, not a player): raised parameters give no TR "
                   "and no track bonus beyond further raises, a tile placed gives no placement bonus and belongs to "
                   "nobody, and only `any player` triggers fire; the deciding player makes the choices.",
           impossible="when the block cannot be carried out")
@_frozen
class Neutral:
    body: tuple


# Who a `decided by DECIDER { }` block asks, as written: the first player of the generation, the player after or before
# you in seat order (play passes to the left: the next seat), or an opponent you name first
DECIDERS = ("first player", "player to your left", "player to your right", "opponent of your choice")


@immediate("decided_by", category="control", syntax="decided by DECIDER { EFFECTS }",
           example="decided by first player { place ocean }",
           summary="The block's questions (where a tile goes, which option, which target, X, ...) are asked of another "
                   "player, its effects still carried out for you (your tile, your bonuses, your triggers): the `first "
                   "player` of the generation, the `player to your left` (the next in turn order) or `to your right` "
                   "(the one before), or an `opponent of your choice` (you name them first); when that player is you "
                   "(the first player playing the card, a solo game) you decide, as without the block.",
           impossible="when the block cannot be carried out")
@_frozen
class DecidedBy:
    decider: str = attrs.field(validator=attrs.validators.in_(DECIDERS))
    body: tuple


# ------------------------------------------------------------------------------------------- pieces and sites

@immediate("place_piece", shares=PlaceTile, category="sites",
           syntax="place PIECE [also where you have one] [building twice]", example="place outpost",
           summary="Place one of your pieces of a declared kind on an active site that holds that kind and has room "
                   "(not one that holds yours already when it allows one per player, unless `also where you have "
                   "one`): you carry out the site's `build` effects (`building twice`: twice, the printed "
                   "\"receive the placement bonus twice\"), and its marker moves up to the first free step.",
           impossible="when no active site that holds this kind has room for one of the player's")
@_frozen
class PlacePiece:
    piece: str
    count: int = 1
    also_own: bool = False   # `also where you have one`: the site's per-player limit is lifted
    builds: int = added(1)   # `building twice`: the site's `build` effects carried out this many times


@immediate("send", category="sites", syntax="send PIECE [reusing one] [to any site] [taking every bonus]",
           example="send shuttle",
           summary="Visit a site with a piece of yours from your supply: an active site that this kind visits and no "
                   "piece visits now. You may first raise its marker by your `PIECE marker +N` modifiers; you carry "
                   "out the effects of the marker's step, every piece on the site gives its owner the site's `bonus` "
                   "(yours too), your piece stays there until its kind returns, and the marker goes back to the first "
                   "free step. Possible only with a piece in your supply and a site to visit. `reusing one`: the "
                   "piece may instead be one of yours now visiting a site, taken back from it (that site is left "
                   "free, and is not the one visited: the reference engine's Huygens Observatory). `to any site`: "
                   "a site another piece visits now may be visited too (the piece joins its visitors). `taking every "
                   "bonus`: the visitor takes the site's `bonus` once for every piece on it, whoever's, and their "
                   "owners get none; the marker is not raised first (the reference engine's selfish trade, "
                   "Coordinated Raid).",
           impossible="without a piece of this kind in the supply (or, `reusing one`, on a site), or a site it may "
                      "visit now")
@_frozen
class SendPiece:
    piece: str
    # `send shuttle reusing one`: a piece of the player's visiting a site may be taken back and sent instead
    reusing: bool = added(False)
    any_site: bool = added(False)      # `to any site`: a site already visited may be visited too
    every_bonus: bool = added(False)   # `taking every bonus`: every piece's bonus to the visitor, none to the owners


@immediate("gain_pieces", shares=Gain, category="sites", syntax="gain N PIECE", example="gain 1 shuttle",
           summary="More pieces of a declared kind in your supply (never beyond the kind's `limit`).",
           impossible=NEVER)
@_frozen
class GainPieces:
    piece: str
    amount: Amount


@immediate("marker", rule="marker_move", category="sites",
           syntax="marker +N on (a | each) site [; marker -N on another site]",
           example="marker +1 on a site; marker -1 on another site",
           summary="Move the markers of active sites, each within its first free step and its last step: of one site "
                   "the player chooses, then of another (`another site`), or of every site (`each site`). Possible "
                   "only when such sites can move.",
           impossible="when no active site's marker can move so (two different sites, for `another site`)")
@_frozen
class MoveMarkers:
    steps: tuple[int, ...]   # the move of each site chosen in turn (`a site`, then `another site`)
    each: bool = False       # `each site`: every active site moves steps[0]


@immediate("collect_bonus", category="sites", syntax="collect bonus per PIECE", example="collect bonus per outpost",
           summary="Carry out the `bonus` of the site under each of your pieces of that kind, once per piece.",
           impossible=NEVER)
@_frozen
class CollectBonus:
    piece: str


@immediate("site_into_play", category="sites", syntax="site into play", example="site into play",
           summary="Put one of the game's set-aside sites (of the sets in play) into play, the player's choice.",
           impossible=NEVER)
@_frozen
class SiteIntoPlay:
    pass


@immediate("site_out_of_play", category="sites", syntax="site out of play", example="site out of play",
           summary="Set aside one site in play that holds no piece, the player's choice.", impossible=NEVER)
@_frozen
class SiteOutOfPlay:
    pass


@immediate("nothing", category="control", syntax="nothing", example="nothing",
           summary="Nothing happens (a step of a site's track that gives nothing).", impossible=NEVER)
@_frozen
class Nothing:
    pass


# ------------------------------------------------------------------------------------------- passive effects

@_frozen
class TriggerEvent:
    """What fires a trigger. kind: play_tag | play_card | place | standard_project | raise | production |
    production_raise | add_resource | send | place_piece | new_tag | harm | harm_you | become_leader."""

    kind: str
    tags: tuple[str, ...] = ()
    tag: Optional[str] = None                # play_card: card tag filter
    card_kind: Optional[str] = None          # play_card: card | event
    tile: Optional[str] = None               # place
    filters: tuple[SpaceFilter, ...] = ()    # place
    min_cost: Optional[int] = None
    max_cost: Optional[int] = None
    excluded: tuple[str, ...] = ()           # standard_project names that don't fire it
    excluded_spans: tuple = attrs.field(default=(), eq=False, repr=False)
    parameter: Optional[str] = None          # raise
    with_vp: bool = False                    # play_card: only cards with victory points
    no_tags: bool = False                    # play_card: only cards without tags
    resource: Optional[str] = None           # add_resource: the card resource added ("resource": any)
    piece: Optional[str] = None              # send, place_piece: the declared kind of piece
    holds: Optional[str] = None              # play_card: only cards that hold this card resource
    cards: Optional[CardFilter] = None       # play_card: the other filters (a type, requirements, a tag lacked)
    here: bool = added(False)                # add_resource: only resources added to the trigger's own card


@passive("when", rule="trigger", category="triggers",
         syntax="when (you | any player | another player) EVENT [including this] -> EFFECTS",
         example="when any player places ocean tile -> gain 2 plants",
         summary="Each time the event happens, the card's owner carries out the effects: the owner's own events "
                 "(`you`), everyone's (`any player`) or only the other players' (`another player`). Events: "
                 "`play TAG [or TAG] tag` (once per matching tag), `play [TAG] card|event [with cost >= N]`, "
                 "`place TILE tile [FILTER]`, `use standard project [with cost >= N] [except \"name\"]`, "
                 "`raise PARAMETER` (temperature, oxygen, oceans, or tr: any TR step), `raise production` (each time "
                 "one of your productions rises), `add RESOURCE [here]` (card resources added to a card of the "
                 "player's, or with `here` to this card only, once per effect; `RESOURCE added` counts them), "
                 "`produce` (at the start of the production phase), "
                 "`send PIECE` (a visit to a "
                 "site), `place PIECE` (a piece placed on a site), `gain a new tag` (a card of yours in play, not an "
                 "event, brings a kind of tag you had none of), `harm another player` (removes resources of another "
                 "player's, theirs or on their cards, or lowers their production: once per removal and per "
                 "production lowered; `give ... to the victim`), `harm you` (another player harms the card's owner), "
                 "`become leader of a faction` (a piece of the player's becomes a faction's leader, where another's or "
                 "none led it); "
                 "card filters (a type before `card` too, or several: `automated or active card`): "
                 "`with cost >= N`, `with tags >= N`, `with [no] vp`, `with no tags`, `holding RESOURCE`, "
                 "`with TAG tag`, "
                 "`with no TAG tag`, `with [no] requirements`, `with [no] global requirements`, "
                 "`with [no] faction requirements`, "
                 "`with [no] special tile`. "
                 "Written `once per action when ...`, the trigger fires at most once in one action (a card "
                 "played, a project, a card's action, a kept card at set-up, the production phase), however "
                 "many times its event happens in it.")
@_frozen
class Trigger:
    subject: str            # you | any | another (a player other than the owner)
    event: TriggerEvent
    effects: tuple
    including_this: bool = False
    once_per_action: bool = added(False)   # `once per action when ...`: fires at most once in one action


@_frozen
class DiscountTarget:
    """kind: cards | standard_project | standard_projects | standard_action | action | starting_cards | milestones |
    awards (`action`: the action of the card, corporation or faction `name`)."""

    kind: str
    tag: Optional[str] = None
    name: Optional[str] = None
    # where `name` is written, for reference errors; not part of the value (equal targets compare equal)
    name_span: Optional[object] = attrs.field(default=None, eq=False, repr=False)
    # cards: the card filters after `cards` (`discount 2 on cards with requirements`), read by the one matcher
    cards: Optional["CardFilter"] = added(None)


@passive("discount", category="modifiers", syntax="discount N [RESOURCE] on ([TAG] cards [FILTER ...] "
         "| standard project \"name\" | standard projects | standard action \"name\" | action of \"name\" | starting "
         "cards | milestones | awards) [per QUANTITY]",
         example="discount 1 on standard project \"Power Plant\" per 2 microbes here",
         summary="Lower a price. Without a resource the discount is in megacredits (and lowers each price of a "
                 "standard action with several); with one, only the price in it. The card filters (`with "
                 "requirements`, `with no earth tag`, `with cost >= 20`, ...) limit the cards discounted. `per TAG "
                 "tag` on cards: N off for each such tag of the card played (none off a card without one); any other "
                 "`per QUANTITY`: N off for each (or each `per 2`) of what the owner counts now (`per 2 orbitals "
                 "here`: 1 off for every 2 orbitals on the card). `on action of \"NAME\"`: what the `pay` of the "
                 "action of that card, corporation or faction asks (`discount 3 on action of \"Guild Hall\"`: its "
                 "policy action).")
@_frozen
class Discount:
    amount: int
    resource: str
    target: DiscountTarget
    per_tag: Optional[str] = None   # cards: the amount is taken off once per tag of this kind on the card
    # `per 2 orbitals here`: the amount is taken off once per `divisor` of this quantity, counted for the owner (and
    # `here` being the card the discount is on) whenever a price is asked, so such prices are never cached
    per: Optional[Quantity] = added(None)
    divisor: int = added(1)
    # `discount 1 megacredits on standard action "Trade"`: the resource written, so only the price in it is lowered
    # (without one, a discount in megacredits lowers every price of a standard action with several)
    resource_written: bool = added(False)


@passive("resource_value", category="modifiers", syntax="RESOURCE value +N", example="titanium value +1",
         summary="Steel or titanium is worth N more megacredits when you pay with it.")
@_frozen
class ResourceValue:
    resource: str
    delta: int


@passive("leeway", category="modifiers", syntax="(global | PARAMETER) requirements +-N",
         example="global requirements +-2",
         summary="Your cards' global requirements (every global parameter, or only the one named) are N steps easier "
                 "either way.")
@_frozen
class RequirementLeeway:
    steps: int
    parameter: Optional[str] = None   # None: every global parameter


@passive("protect", category="modifiers", syntax="protect [half] RESOURCE, ... (here | from opponents)",
         example="protect animals here",
         summary="Resources that cannot be removed: from this card by anyone, or yours by opponents; `production` "
                 "(`protect production from opponents`): an opponent's `any production(...)` cannot lower yours. "
                 "`half` (from opponents, resources of your stock): an opponent's removal or theft takes only half "
                 "of what it would, rounded up.")
@_frozen
class Protect:
    resources: tuple[str, ...]   # resources, or "production" (your productions, from opponents)
    scope: str   # here | opponents
    # `protect half plants from opponents` (Botanical Experience): an opponent removes or steals half of what they
    # would, rounded up (the reference engine's Math.ceil), instead of none
    half: bool = added(False)


@passive("tax", category="modifiers", syntax="tax N megacredits per tr step", example="tax 3 megacredits per tr step",
         summary="Each step of TR you gain during the action phase costs N MC (paid as money is: heat for a player "
         "who may use it); "
         "what you cannot pay for with the price of a card, project or action is not offered, and a step you "
         "cannot pay for (a triggered one) moves its parameter but gives no TR.")
@_frozen
class Tax:
    amount: int
    resource: str = "megacredits"


@passive("tile_ban", category="modifiers", syntax="no TILE next to this tile",
         example="no greenery next to this tile",
         summary="While the card is in play, no player may place a tile of that kind (`tile`: any) on a space next "
                 "to the tile this card placed (Red City: \"no greenery may be placed next to this tile\"); a tile "
                 "already there stays.")
@_frozen
class TileBan:
    tile: str


@passive("keep_energy", category="modifiers", syntax="keep energy during production",
         example="keep energy during production",
         summary="Converting energy to heat during the production phase is optional for you: before producing, you "
                 "choose how much of your energy becomes heat (0 to all of it); the rest stays energy.")
@_frozen
class KeepEnergy:
    pass


@passive("tag_counts_as", category="modifiers", syntax="TAG tags count as TAG tags",
         example="jovian tags count as science tags",
         summary="Your tags of the first kind also count as tags of the second wherever your tags of that kind are "
                 "counted (requirements, `per science tag`, milestones, awards, VP) and in a card you play (`when you "
                 "play science tag` fires for each of its Mars tags too); the total of your tags is unchanged.")
@_frozen
class TagCountsAs:
    tag: str       # the printed tag
    as_tag: str    # the tag it also counts as


@passive("skip_tr", category="modifiers", syntax="skip first N tr steps each generation",
         example="skip first 1 tr step each generation",
         summary="The first N steps of TR you would gain in each generation's action phase are not gained (the "
                 "reference engine's Preservation Program): no TR, no tax on them, no `when you raise tr` for them; "
                 "the parameter raised still moves. Steps gained in the production phase, between generations or at "
                 "set-up (a card played before the first generation's actions) are never skipped.")
@_frozen
class SkipTr:
    steps: int


@passive("research_deal", category="modifiers", syntax="research N cards [buy up to M] | research buy up to M",
         example="research 5 cards buy up to 4",
         summary="Your research phase: N cards dealt to you instead of 4 (several such cards: the most they say), "
                 "and at most M of them bought (several: the fewest), the rest discarded as declined ones are. In the "
                 "draft variant your pack has N cards and the limit holds for the cards you end with.")
@_frozen
class ResearchDeal:
    cards: Optional[int] = None   # dealt to the player in the research phase (None: the rules' 4)
    most: Optional[int] = None    # bought at most (None: any of them)


@passive("influence_bonus", category="modifiers", syntax="influence +N", example="influence +1",
         summary="You have N more influence than the government counts.")
@_frozen
class InfluenceBonus:
    amount: int


@passive("ocean_bonus", category="modifiers", syntax="ocean bonus +N megacredits", example="ocean bonus +1 megacredits",
         summary="Each ocean next to a tile you place gives you N MC more than the rules' 2 MC.")
@_frozen
class OceanBonus:
    amount: int
    tile: str                   # the kind of tile whose neighbours pay (the oceans of compiler/vocabulary.py)
    resource: str = "megacredits"


@passive("substitute", category="modifiers",
         syntax='use RESOURCE [here] as [N] (megacredits | heat) [for TAG cards | for standard project "NAME" [or '
                '"NAME" ...]]',
         example="use heat as megacredits",
         summary="You may pay with this resource wherever you pay megacredits, one for one or N each; `here`: the "
                 "card resources on this card (which may also stand in for heat wherever heat is spent: `use "
                 "fighters here as 2 heat`); `for TAG cards`: only towards cards with that tag (a resource of "
                 "your stock pays at a value of its own only so: `use plants as 3 megacredits for building "
                 "cards`; without them it pays one for one for any card: `use plants as megacredits`; steel and "
                 "titanium have their own: `steel value +1`); `for standard project \"NAME\" or \"NAME\"`: the "
                 "card resources here, or the resource of your stock (steel and titanium at their value, any "
                 "other 1 MC each), pay only towards those standard projects.")
@_frozen
class Substitute:
    resource: str
    instead_of: str
    value: int = 1
    here: bool = False
    tag: Optional[str] = None
    projects: tuple[str, ...] = added(())   # `for standard project "Aquifer" or "Asteroid"`: towards those only
    project_spans: tuple = attrs.field(default=(), eq=False, repr=False)


@passive("marker_offset", category="modifiers", syntax="PIECE marker +N", example="shuttle marker +1",
         summary="When you send a piece of that kind, you may first raise the site's marker N steps (several such "
                 "modifiers add up; never past the last step).")
@_frozen
class MarkerOffset:
    piece: str
    steps: int


@passive("card_price", category="modifiers", syntax="buy cards for N megacredits [less | more]",
         example="buy cards for 1 megacredits less",
         summary="Buying a card to your hand (research, starting cards, `look N buy`) costs N megacredits instead "
                 "of 3 (several such prices: the lowest); `less` / `more`: N less or more than the price otherwise "
                 "paid, the 3 MC or that lowest price (Polyphemos's 5 and 1 less: 4), never below 0.")
@_frozen
class CardPrice:
    amount: int
    change: Optional[str] = added(None)   # `less` | `more`: relative to the price otherwise paid


@passive("kept_playable", category="modifiers",
         syntax="cards here may be played as if from hand [for N MC less per resource on them]",
         example="cards here may be played as if from hand for 1 MC less per resource on them",
         summary="The cards kept on this card (`move ... from hand to here`) are offered as the cards in your hand "
                 "are, and played alike (paid, required, its effects), their cost N MC less for each resource on "
                 "them; the resources on it are used up as it is played.")
@_frozen
class KeptPlayable:
    discount: int = 0   # MC off for each resource on the card kept


@passive("events_tags", category="modifiers", syntax="your events' tags count", example="your events' tags count",
         summary="The tags of your played events count as the tags of your cards in play do (Odyssey: \"your event "
                 "cards stay face up, and their tags are in use as if those were automated cards\"): in your tag "
                 "counts, requirements and `per TAG tag`, milestones and awards, and `distinct tags` (where the "
                 "event tag counts too once you have played an event), as the reference engine counts them.")
@_frozen
class EventsTags:
    pass


# the verbs by what they are, in the order declared (tests that register a verb of their own read REGISTRY)
IMMEDIATE = tuple(cls for cls in REGISTRY.values() if cls.immediate)
PASSIVE = tuple(cls for cls in REGISTRY.values() if not cls.immediate)
