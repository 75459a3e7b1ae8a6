"""Whether compiled effects can be carried out now, and what they could target (the rules checks of effects).

Interface: `EffectContext` (who carries out an effect, for which card, with which X, after placing where), `value_of`
(an amount in a context), `possible`, `possible_in_some_order`, `possible_with_a_payment`, `x_range`,
`unconditional`, `commutes`, `effect_steps`, and the target finders the effect handlers offer as options
(`production_targets`, `claimable`, `resource_cards`, `cards_to_remove_from`, `own_cards_to_remove_from`,
`protected`, `owns_tile_next_to`, `copyable`, `copyable_plays`, `movable_cards`, `bonus_resources`).

Why a module of its own: "may this card/action be used now?" is asked far more often than anything is done, and
never changes the state (RULES.md 4A: every effect must be possible except raising a maxed parameter, adding a
resource nobody can hold, and optional removals). Earlier effects' certain changes to the player's own stock and
production are applied provisionally and undone while later ones are checked. Each verb that can be impossible
(compiler/effects.py `impossible=`) has one condition in `_POSSIBLE`, and no other verb has one (checked at import);
the handlers that carry effects out are runtime/handlers/effects.py's.
"""

from __future__ import annotations

from itertools import permutations, product
from typing import TYPE_CHECKING, Optional

import attrs

from tharsis.compiler import effects as fx
from tharsis.compiler.memo import per_list
from tharsis.compiler.vocabulary import CLAIM, OCEAN_TILES, SPECIAL, TILE_RAISES

from ..core.decisions import Decision, decider_argument
from ..core.state import MAX_PLAYERS, NEUTRAL, BoardMarker
from .card_filters import bears_tag, filter_tags
from .measures import Where, card_matches, holds, quantity
from .passives import passives, triggers_on
from .politics import can_place_pieces, can_take_role, removable, replaceable
from .prices import can_pay, can_spend, payment_options, payments
from .sites import can_move, has_free, movable, placeable, visitable, visiting
from .spaces import can_place, legal_spaces, markable_tiles, marker_spaces, maxed, replaceable_tiles

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["MINIMUM_PRODUCTION", "PLAYER_CONTEXTS", "EffectContext", "bonus_filter", "bonus_resources",
           "card_context", "cards_to_remove_from", "claimable", "commutes", "copyable", "each_kept", "effect_steps",
           "first_impossible", "marker_destinations", "names_that_player", "own_cards_to_remove_from",
           "owns_tile_next_to",
           "payment_blind", "possible", "possible_in_some_order", "possible_with_a_payment", "production_box",
           "production_targets", "halved", "protected", "resource_cards", "stealable", "stock_blind", "unconditional",
           "value_of", "void_by_maxed", "x_range"]


MINIMUM_PRODUCTION = {"megacredits": -5}
_new = object.__new__


@attrs.define(unsafe_hash=True)  # immutable by convention: a frozen class costs 3x more to make
class EffectContext:
    """Who carries out an effect, for which card, with which X, after placing on which space."""

    player: int
    card: Optional[str] = None        # the card "here" means
    playing: Optional[str] = None     # a card being played (its event tags count)
    x: int = 0
    placed: Optional[str] = None      # the space of the last tile placed by this effect list
    placed_bonuses: tuple = ()        # the `on bonus ...` resources that placement was restricted to
    that_card: Optional[str] = None   # the card that fired the trigger being resolved
    neutral: bool = False             # inside `neutral { }`: carried out for nobody, `player` only decides
    raised: Optional[tuple] = None    # in a `raise production` trigger: (resource, steps it rose)
    added: int = 0                    # in a `when ... add RESOURCE` trigger: the resources its effect added
    # inside `decided by ... { }`: the player asked the block's questions, the effects still `player`'s (None: `player`)
    decider: Optional[int] = None
    actor: Optional[int] = None       # in a trigger whose effects say `that player { }`: the player who set it off
    victim: Optional[int] = None      # in a `when ... harms ...` trigger: the player harmed (`give ... to the victim`)

    # The three variants below are made with `object.__new__` and the fields stored directly: the class's `__init__`
    # is a Python call of its own, and the checks make a context for every X they try (a few hundred a game;
    # docs/benchmarks.md, issue 36). Every field is stored, as `__init__` would.

    def with_x(self, x: int) -> "EffectContext":
        new = _new(EffectContext)
        new.player, new.card, new.playing, new.x, new.placed, new.placed_bonuses, new.that_card, new.neutral, \
            new.raised, new.added, new.decider, new.actor, new.victim = \
            self.player, self.card, self.playing, x, self.placed, self.placed_bonuses, self.that_card, self.neutral, \
            self.raised, self.added, self.decider, self.actor, self.victim
        return new

    def with_placed(self, placed: Optional[str], bonuses: tuple) -> "EffectContext":
        """The context of the effects after a placement (`attrs.evolve` is slow on this hot path)."""
        new = _new(EffectContext)
        new.player, new.card, new.playing, new.x, new.placed, new.placed_bonuses, new.that_card, new.neutral, \
            new.raised, new.added, new.decider, new.actor, new.victim = \
            self.player, self.card, self.playing, self.x, placed, bonuses, self.that_card, self.neutral, \
            self.raised, self.added, self.decider, self.actor, self.victim
        return new

    def as_neutral(self) -> "EffectContext":
        """The context inside `neutral { }` (`attrs.evolve` is slow: checks ask it at every card that has one)."""
        new = _new(EffectContext)
        new.player, new.card, new.playing, new.x, new.placed, new.placed_bonuses, new.that_card, new.neutral, \
            new.raised, new.added, new.decider, new.actor, new.victim = \
            self.player, self.card, self.playing, self.x, self.placed, self.placed_bonuses, self.that_card, True, \
            self.raised, self.added, self.decider, self.actor, self.victim
        return new

    def decided_by(self, decider: int) -> "EffectContext":
        """The context inside `decided by ... { }`: `decider` is asked (none when it is the player themselves)."""
        return attrs.evolve(self, decider=None if decider == self.player else decider)

    @property
    def asked(self) -> int:
        """The player asked the questions of these effects: the decider of a `decided by` block, else the player."""
        return self.player if self.decider is None else self.decider

    @property
    def for_player(self) -> Optional[int]:
        """The player a question is asked for when another decides (a `Decision`'s `for_player`), else None."""
        return None if self.decider is None else self.player

    @property
    def decided(self) -> tuple:
        """The decider as a step's trailing argument (`decider_argument`): nothing when the player decides."""
        return decider_argument(self.decider)

    def question(self, kind: str, prompt: str, options) -> Decision:
        """A question of these effects, put to the player `asked`, and for `player` when another decides."""
        if self.decider is None:
            return Decision(self.player, kind, prompt, options)
        return Decision(self.decider, kind, prompt, options, self.player)

    @property
    def where(self) -> Where:
        """The point of view of its measures, one per process for each player, card, card played and count added
        (shared: a `Where` is never changed, and making one costs about five calls)."""
        key = (self.player, self.card, self.playing, self.added, self.placed)
        where = _WHERES.get(key)
        if where is None:
            where = _WHERES[key] = Where(self.player, self.card, self.playing, self.added, self.placed)
        return where


_WHERES: dict[tuple, Where] = {}


# Contexts are never changed, so the most common are made once and shared: making one costs about six calls, and
# the menu and the actions ask a player's own context, or a card's, at every turn (docs/benchmarks.md, issue 36).
PLAYER_CONTEXTS = tuple(EffectContext(player) for player in range(MAX_PLAYERS))   # `EffectContext(player)`
_CARD_CONTEXTS: dict[tuple, EffectContext] = {}


def card_context(player: int, card: Optional[str], playing: Optional[str] = None) -> EffectContext:
    """`EffectContext(player, card, playing)`, one per process for each (at most the seats times the cards)."""
    key = (player, card, playing)
    ctx = _CARD_CONTEXTS.get(key)
    if ctx is None:
        ctx = _CARD_CONTEXTS[key] = EffectContext(player, card, playing)
    return ctx


def value_of(game: "Table", a: fx.Amount, ctx: EffectContext) -> int:
    number = a.coefficient * (ctx.x if a.variable else 1)
    if a.per is not None:
        number *= quantity(game, a.per, ctx.where) // a.divisor
    return number


# ------------------------------------------------------------------ can it be done?

def possible(game: "Table", effects: tuple, ctx: EffectContext, paid: Optional[dict] = None) -> bool:
    """All effects can be carried out in order: the player's own stock and production changes of earlier
    effects (and the `paid` payment, which may use what an effect needs) are applied provisionally, and
    undone, while the later ones are checked."""
    if not paid and len(effects) == 1:  # most lists: one effect, nothing applied provisionally, nothing to undo
        check = _POSSIBLE.get(type(effects[0]))
        return check is None or check(game, effects[0], ctx)
    undo: list[tuple[dict, str, int]] = []
    try:
        if paid:
            _apply_payment(game, ctx, paid, undo)
        return _check_and_apply(game, effects, ctx, undo)
    finally:
        if undo:
            _rollback(undo, 0)


def possible_in_some_order(game: "Table", effects: tuple, ctx: EffectContext, paid: Optional[dict] = None,
                           first: Optional[tuple] = None, triggered: Optional[tuple] = None) -> bool:
    """A played card's effects can be carried out in an order the player may choose (RULES.md 4A, seed 000: the
    card's effects and the effects it triggers, in the order its player chooses), `first` (one of its steps)
    first when given. `triggered`: the player's own triggers the card sets off, as steps `(CARD, effect, ...)`
    (`own_play_steps`; found here when None and the context is a card being played): they may come anywhere and
    help (Viral Enhancers' plant before Nitrophilic Moss loses 2), but one that cannot be carried out is skipped,
    never a reason to refuse the card. The order as written is tried first, then tiles first, then every order of
    up to ORDER_SEARCH_LIMIT steps (beyond that, triggers first): bounded work."""
    if first is None:
        if possible(game, effects, ctx, paid):  # the steps as written are the effects as written
            return True
        placing_first = _placing_first(effects)
        if placing_first is not None and possible(game, placing_first, ctx, paid):
            return True
    steps = effect_steps(effects)
    if triggered is None:
        triggered = own_play_steps(game, ctx.player, ctx.playing) if ctx.playing is not None else ()
    steps += list(triggered)
    if first is not None:
        steps.remove(first)
        return steps_possible(game, [first] + steps, ctx, paid, fixed=1)
    # another order can only help when some step adds something a later one may need (a gain, an increase, a
    # trigger): otherwise the orders tried above decide (the check of every unplayable card in hand stays cheap)
    return len(steps) > 1 and any(map(_may_help, steps)) and steps_possible(game, steps, ctx, paid)


ORDER_SEARCH_LIMIT = 5  # steps whose every order is tried (120 orders at most); longer lists try a few


def steps_possible(game: "Table", steps: list, ctx: EffectContext, paid: Optional[dict] = None, fixed: int = 0) -> bool:
    """Some order of `steps` (the first `fixed` of them staying first) carries out every step of the card's own
    (a triggered step, `(CARD, ...)`, is skipped when it cannot be carried out)."""
    for chosen in _choices_made(steps):  # a trigger's `choose { }`: each option as the player may pick it
        head, rest = chosen[:fixed], chosen[fixed:]
        if len(rest) <= ORDER_SEARCH_LIMIT:
            orders = (head + list(order) for order in permutations(rest))
        else:
            triggers_first = sorted(rest, key=lambda step: not _is_triggered(step))
            tiles_first = sorted(rest, key=lambda step: not any(isinstance(e, fx.PlaceTile) for e in step))
            orders = (head + rest, head + triggers_first, head + tiles_first)
        if any(_order_possible(game, order, ctx, paid) for order in orders):
            return True
    return False


CHOICE_VARIANTS_LIMIT = 8  # combinations of the triggers' options tried at most


def _choices_made(steps: list):
    """The steps with each triggered step's top-level `choose { }` replaced by one of its options, every
    combination up to CHOICE_VARIANTS_LIMIT (a plant from Viral Enhancers is one of its options); the steps as
    they are first."""
    yield steps
    alternatives = []
    for step in steps:
        options = [step]
        if _is_triggered(step) and any(type(e) is fx.Choice for e in step):
            options = [step[:1]]
            for e in step[1:]:
                if type(e) is fx.Choice:
                    options = [before + option for before in options for option in e.options]
                else:
                    options = [before + (e,) for before in options]
        alternatives.append(options)
    if all(len(options) == 1 for options in alternatives):
        return
    for count, combination in enumerate(product(*alternatives)):
        if count >= CHOICE_VARIANTS_LIMIT:
            return
        yield list(combination)


def _may_help(step: tuple) -> bool:
    """Whether a step may give what another step needs: a trigger's effects, a gain, a production increase (and
    what its raise triggers give), a raise of a global parameter (what its raise triggers give)."""
    if _is_triggered(step):
        return True
    for e in step:
        if type(e) is fx.Gain or (type(e) is fx.Production and any(c.amount.coefficient > 0 for c in e.changes)):
            return True
        if type(e) is fx.ChangeParameter and e.parameter != "tr" and e.amount.coefficient > 0:
            return True
    return False


def _is_triggered(step: tuple) -> bool:
    return bool(step) and step[0].__class__ is str


def triggered_context(step: tuple, ctx: EffectContext) -> EffectContext:
    """The context of a triggered step `(CARD, ...)`: its owner, the trigger's card, the card that set it off (and
    the owner as the player who did, when the step says `that player { }`)."""
    if names_that_player(step[1:]):
        return EffectContext(ctx.player, card=step[0], that_card=ctx.card or ctx.playing, actor=ctx.player)
    return EffectContext(ctx.player, card=step[0], that_card=ctx.card or ctx.playing)


_THAT_PLAYER: dict = {}   # a trigger's effects -> whether they hold `that player { }` (the effects are shared, frozen)


def names_that_player(fired: tuple) -> bool:
    """Whether a trigger's effects hold `that player { }`: only then does its context carry the player who set it
    off (and its steps that player and the card they played), so that other triggers' saves stay as they were."""
    known = _THAT_PLAYER.get(fired)
    if known is None:
        known = _THAT_PLAYER[fired] = any(type(e) is fx.ThatPlayer for e in fx.walk(fired))
    return known


_COUNTS_PLACED: dict = {}   # a trigger's effects -> whether they count `TILES next to it` (shared, frozen)


def counts_placed(fired: tuple) -> bool:
    """Whether a trigger's effects count the tiles next to the tile that set it off (`your tiles next to it`): only
    then do its steps carry that tile's space, so that other triggers' saves stay as they were."""
    known = _COUNTS_PLACED.get(fired)
    if known is None:
        known = _COUNTS_PLACED[fired] = _mentions_placed(fired)
    return known


def _mentions_placed(value) -> bool:
    if isinstance(value, fx.Measure):
        return value.kind == "placed_tiles"
    if isinstance(value, fx.GainSpaceBonus):   # `gain 1 more space bonus`: of the space of the tile placed
        return True
    if isinstance(value, (tuple, list)):
        return any(_mentions_placed(v) for v in value)
    if attrs.has(type(value)):
        return any(_mentions_placed(getattr(value, a.name)) for a in attrs.fields(type(value)))
    return False


def _order_possible(game: "Table", order: list, ctx: EffectContext, paid: Optional[dict]) -> bool:
    undo: list = []
    try:
        if paid:
            _apply_payment(game, ctx, paid, undo)
        for step in order:
            if _is_triggered(step):
                mark = len(undo)
                if not _check_and_apply(game, step[1:], triggered_context(step, ctx), undo, apply_last=True):
                    _rollback(undo, mark)  # a trigger that cannot be carried out is skipped
            elif not _check_and_apply(game, step, ctx, undo, apply_last=True):
                return False
        return True
    finally:
        if undo:
            _rollback(undo, 0)


def play_matches(game: "Table", ev: fx.TriggerEvent, definition, player: Optional[int] = None) -> int:
    """How many times a `play` trigger fires for a card played (a tag trigger once per matching tag). `player`: who
    plays it, whose `mars tags count as science tags` makes its Mars tags science tags too."""
    if ev.kind == "play_tag":
        fired = sum(1 for tag in definition.tags if tag in ev.tags)
        if player is not None and definition.tags:
            for counted in passives(game, player, fx.TagCountsAs):
                if counted.as_tag in ev.tags and counted.tag not in ev.tags:
                    fired += definition.tags.count(counted.tag)
        return fired
    if ev.kind != "play_card":
        return 0
    if ev.card_kind == "event" and definition.type != "event":
        return 0
    if ev.tag is not None and not bears_tag(definition, ev.tag) and not _counts_as(game, player, definition, ev.tag):
        return 0
    if ev.with_vp and (definition.vp is None or definition.vp.points <= 0):
        return 0
    if ev.no_tags and filter_tags(definition):
        return 0
    if ev.holds is not None and definition.holds != ev.holds:  # `play card holding microbe`
        return 0
    if ev.cards is not None and not card_matches(definition, ev.cards) and \
            not _matches_counted_as(game, player, definition, ev.cards):
        return 0
    return int(cost_ok(ev, definition.cost))


def _counts_as(game: "Table", player: Optional[int], definition, tag: str) -> bool:
    """Whether a card played bears a tag that counts as `tag` for the player who plays it."""
    if player is None:
        return False
    for counted in passives(game, player, fx.TagCountsAs):
        if counted.as_tag == tag and counted.tag in definition.tags:
            return True
    return False


def _matches_counted_as(game: "Table", player: Optional[int], definition, cards: fx.CardFilter) -> bool:
    """Whether a card played passes a trigger's card filters once its tags that count as others for the player who
    plays it (`mars tags count as science tags`) are read as those too (`when you play card with science tag`)."""
    if player is None:
        return False
    extra = []
    for counted in passives(game, player, fx.TagCountsAs):
        extra += [counted.as_tag] * definition.tags.count(counted.tag)
    return bool(extra) and card_matches(attrs.evolve(definition, tags=definition.tags + tuple(extra)), cards)


def cost_ok(ev: fx.TriggerEvent, cost: int) -> bool:
    if ev.min_cost is not None and cost < ev.min_cost:
        return False
    return ev.max_cost is None or cost <= ev.max_cost


def own_play_steps(game: "Table", player: int, name: str) -> tuple:
    """The player's own triggers that playing card `name` sets off, as steps `(TRIGGER CARD, effect, ...)`, once
    per time each fires: they resolve in the order the player chooses, among the card's own effects. The card's
    own `including this` triggers count, whether it is in play yet or still in hand."""
    definition = game.library[name]
    found = [(card, trigger) for card, trigger in triggers_on(game, player, "play")
             if trigger.subject != "another" and (card != name or trigger.including_this)]
    if game.state.players[player].card(name) is None:  # in hand: its own `including this` triggers
        found += [(name, p) for p in definition.passives if isinstance(p, fx.Trigger) and p.including_this
                  and p.subject != "another" and p.event.kind in ("play_tag", "play_card")]
    steps = []
    for card, trigger in found:
        steps += [(card,) + trigger.effects] * play_matches(game, trigger.event, definition, player)
    return tuple(steps)


def possible_with_a_payment(game: "Table", effects: tuple, ctx: EffectContext, cost: int, using: tuple) -> bool:
    """A card's effects can be carried out in some order after some payment of `cost` (RULES.md 4A). When
    no check of the effects reads the player's stock, every payment gives the same answer: one is tried."""
    ways = payments(game, ctx.player, cost, using)
    if payment_blind(game, effects):
        first = next(ways, None)
        return first is not None and possible_in_some_order(game, effects, ctx, paid=first)
    return any(possible_in_some_order(game, effects, ctx, paid=p) for p in ways)


def _apply_payment(game: "Table", ctx: EffectContext, paid: Optional[dict], undo: list) -> None:
    player = game.state.players[ctx.player]
    stock = player.resources
    for resource, amount in (paid or {}).items():
        if resource[0] == "@":  # resources on a card ("@CARD"): they leave it too, before the card's effects
            table, resource = _OnCard(player.card(resource[1:])), "resources"
        else:
            table = stock
        table[resource] -= amount
        undo.append((table, resource, -amount))


class _OnCard:
    """A card in play's resources as a one-entry table, so that a provisional payment with them is undone like
    one with the stock."""

    __slots__ = ("card",)

    def __init__(self, card):
        self.card = card

    def __getitem__(self, key: str) -> int:
        return self.card.resources

    def __setitem__(self, key: str, value: int) -> None:
        self.card.resources = value


def _check_and_apply(game: "Table", effects: tuple, ctx: EffectContext, undo: list, apply_last: bool = False) -> bool:
    """Check effects in order, applying each one's certain changes (recorded in `undo`) before the next.
    Only the kinds in `_CHANGING` have certain changes; the others skip the two look-ups (a hot loop)."""
    last = len(effects) - 1
    for index, e in enumerate(effects):
        kind = type(e)
        check = _POSSIBLE.get(kind)
        if check is not None and not check(game, e, ctx):
            return False
        if kind not in _CHANGING or (index == last and not apply_last):  # nothing left to affect
            continue
        if kind is fx.PlacePiece:  # the rest must hold after the `build` of some site it may go to
            return _after_some_site(game, e, effects[index + 1:], ctx, undo, apply_last)
        if kind is fx.PlaceMarker:  # `place marker "X"; move marker "X"`: the move needs the marker placed
            if _moved_later(e.name, effects, index):
                return _after_marker_placed(game, e, effects[index + 1:], ctx, undo, apply_last)
            continue
        if kind is fx.ClaimSpace:  # `claim space; claim space next to your claim`: the second needs the first
            if _claims_read_later(effects, index):
                return _after_space_claimed(game, e, effects[index + 1:], ctx, undo, apply_last)
            continue
        changes = _certain_changes(game, e, ctx)
        if kind is fx.PlaceTile:  # the kinds whose triggers `_triggered_changes` looks at
            changes = changes + _triggered_changes(game, e, ctx)
        elif kind is fx.Production:
            changes = changes + _raise_triggered_changes(game, e, ctx)
        elif kind is fx.ChangeParameter:
            changes = changes + _parameter_triggered_changes(game, e, ctx)
        for table, resource, delta in changes:
            table[resource] += delta
            undo.append((table, resource, delta))
    return True


def _after_some_site(game: "Table", e: fx.PlacePiece, rest: tuple, ctx: EffectContext, undo: list,
                     apply_last: bool) -> bool:
    """Whether the effects after a placement of a piece hold after the `build` effects of some site it may go to
    (a production lost after it, possible once one site's build has raised it): each site's certain changes are applied
    in turn and undone unless they work."""
    declared = game.elements.sites
    for site in placeable(game, ctx.player, e.piece, e.also_own):
        mark = len(undo)
        for effect in declared[site.name].build * e.builds:   # `building twice`: its changes twice
            for table, resource, delta in _certain_changes(game, effect, ctx):
                table[resource] += delta
                undo.append((table, resource, delta))
        if _check_and_apply(game, rest, ctx, undo, apply_last):
            return True
        _rollback(undo, mark)
    return False


def _moved_later(name: str, effects: tuple, index: int) -> bool:
    """Whether an effect after `effects[index]` moves the marker `name` (a `move marker` that needs it placed)."""
    for later in effects[index + 1:]:
        if type(later) is fx.MoveMarker and later.name == name:
            return True
    return False


def _after_marker_placed(game: "Table", e: fx.PlaceMarker, rest: tuple, ctx: EffectContext, undo: list,
                         apply_last: bool) -> bool:
    """Whether the effects after `place marker "X"` hold with the marker on some space it may go to: a later `move
    marker "X"` needs it on the board, which the state before the card does not show (Martian Nature Wonders'
    place-then-move). The marker is put on each such space in turn and taken back (the state's markers as they were)."""
    markers = game.state.markers
    before = markers.get(e.name)
    try:
        for space in marker_destinations(game, ctx.player, e):
            markers[e.name] = BoardMarker(space, ctx.player, e.blocks)
            mark = len(undo)
            if _check_and_apply(game, rest, ctx, undo, apply_last):
                return True
            _rollback(undo, mark)
        return False
    finally:
        if before is None:
            markers.pop(e.name, None)
        else:
            markers[e.name] = before


def _claims_read_later(effects: tuple, index: int) -> bool:
    """Whether an effect after `effects[index]` (a `claim space`) depends on the claims on the board: another
    `claim space` (a claimed space is no longer free), or a space filter reading claims (`next to [N] [your] claim`,
    `on your claim`)."""
    for later in effects[index + 1:]:
        if type(later) is fx.ClaimSpace:
            return True
        for f in getattr(later, "filters", ()):
            if type(f) is fx.SpaceFilter and (f.kind == "claim" or f.tile == CLAIM):
                return True
    return False


def _after_space_claimed(game: "Table", e: fx.ClaimSpace, rest: tuple, ctx: EffectContext, undo: list,
                         apply_last: bool) -> bool:
    """Whether the effects after `claim space` hold with the player's marker on some space it may claim: a later
    claim next to it (Survey Mission's triangle) needs it on the board, which the state before the card does not
    show. Each such space is claimed in turn and given back (the state's claims as they were), as
    `_after_marker_placed` does for a marker."""
    claims = game.state.claims
    for space in claimable(game, ctx.player, e.filters):
        claims[space] = ctx.player
        try:
            mark = len(undo)
            if _check_and_apply(game, rest, ctx, undo, apply_last):
                return True
            _rollback(undo, mark)
        finally:
            del claims[space]
    return False


def first_impossible(game: "Table", effects: tuple, ctx: EffectContext) -> Optional[tuple]:
    """The first of `effects`, in written order, that cannot be carried out once the certain changes of those
    before it are made, with what it lacks then: `(effect, needed, had)` for a loss or a spend of a resource (the
    amount it takes and the stock it finds), `(effect, None, None)` otherwise; None when they all can. What a
    refusal names (legality.py `playable`); only asks, every change is undone."""
    undo: list[tuple[dict, str, int]] = []
    player = game.state.players[ctx.player]
    try:
        for e in effects:
            kind = type(e)
            check = _POSSIBLE.get(kind)
            if check is not None and not check(game, e, ctx):
                if kind in (fx.Lose, fx.Spend):
                    return e, value_of(game, e.amount, ctx), player.resources[e.resource]
                return e, None, None
            if kind in _CERTAIN:
                for table, resource, delta in _certain_changes(game, e, ctx):
                    table[resource] += delta
                    undo.append((table, resource, delta))
        return None
    finally:
        if undo:
            _rollback(undo, 0)


def _certain_changes(game: "Table", e, ctx: EffectContext) -> list:
    """Changes to the player's own stock and production that an effect surely makes."""
    certain = _CERTAIN.get(type(e))
    return certain(game, e, ctx, game.state.players[ctx.player]) if certain is not None else []


def _gained(game: "Table", e, ctx: EffectContext, player) -> list:
    return [(player.resources, e.resource, value_of(game, e.amount, ctx))]


def _lost(game: "Table", e, ctx: EffectContext, player) -> list:
    lost = value_of(game, e.amount, ctx)
    if e.__class__ is fx.Lose and e.up_to:  # `lose up to`: what the stock holds
        lost = max(0, min(lost, player.resources[e.resource]))
    return [(player.resources, e.resource, -lost)]


def _produced(game: "Table", e, ctx: EffectContext, player) -> list:
    return [(player.production, c.resource, value_of(game, c.amount, ctx)) for c in e.changes
            if c.resource not in ("bonus", "lowest")]


def _paid(game: "Table", e, ctx: EffectContext, player) -> list:
    """A later payment must be checked against what this one leaves."""
    ways = payment_options(game, ctx.player, value_of(game, e.amount, ctx), e.using)
    return [(player.resources, r, -amount) for r, amount in ways[0].items()] if ways else []


def _corporations_started(game: "Table", e, ctx: EffectContext, player) -> list:
    """`look N corporation cards play K`: the starting megacredits of the corporations played, at least those of the
    K poorest of the N on top of the pile (Merger's 42 MC may be paid from them, as the reference engine allows)."""
    if e.card_kind != "corporation":
        return []
    pile = game.state.piles.get("corporation", ())
    seen = sorted(game.library[name].starting_megacredits for name in pile[len(pile) - e.look:])
    return [(player.resources, "megacredits", sum(seen[:e.play]))] if seen else []


# the verbs that surely change their player's own stock or production, and how (the later effects of a card are
# checked with those changes made); a verb left out is checked without them, which may refuse an order that works
_CERTAIN = {fx.Gain: _gained, fx.Lose: _lost, fx.Spend: _lost, fx.Production: _produced, fx.Pay: _paid,
            fx.LookPlay: _corporations_started}


def _own_triggers(game: "Table", ctx: EffectContext, kind: str):
    """(card name, trigger) for each of the player's own triggers on `kind` events that their own action fires:
    their played cards' and, when a card is checked from hand, its `including this` ones (it will be in play)."""
    names = [card.name for card in game.state.players[ctx.player].played]
    if ctx.playing is not None and ctx.playing not in names:
        names.append(ctx.playing)
    for name in names:
        for trigger in game.library[name].passives:
            if not isinstance(trigger, fx.Trigger) or trigger.event.kind != kind or trigger.subject == "another":
                continue   # `another` triggers: the player's own action does not fire them
            if name == ctx.playing and not trigger.including_this:
                continue
            if trigger.once_per_action:  # it may have fired already in this action: not certain, not counted
                continue
            yield name, trigger


def _triggered_changes(game: "Table", e, ctx: EffectContext) -> list:
    """The certain changes of the player's own triggers that placing this effect's tile fires, so that a
    card whose own trigger pays for its effects (a city first, then the production it raised is spent) is
    possible in the order the player may choose (RULES.md 4A). A trigger with space filters counts when the tile
    certainly meets them: `on mars` when it cannot go off the board (Tharsis Republic's city on Mars)."""
    if not isinstance(e, fx.PlaceTile) or (e.tile in OCEAN_TILES and maxed(game, TILE_RAISES[e.tile])):
        return []
    changes = []
    for name, trigger in _own_triggers(game, ctx, "place"):
        if trigger.event.filters and not _surely_met(game, trigger.event.filters, e):
            continue
        if trigger.event.tile not in ("tile", e.tile):
            continue
        placed = min(e.count, len(game.board.mars))  # never more tiles than Mars has spaces
        for effect in trigger.effects:
            changes.extend((table, resource, delta * placed) for table, resource, delta in
                           _certain_changes(game, effect, EffectContext(ctx.player, card=name)))
    return changes


def _raise_triggered_changes(game: "Table", e: fx.Production, ctx: EffectContext) -> list:
    """The certain changes of the player's own `when you raise production` triggers that this production change
    fires, once per production it raises (`gain that production`: as many of that resource as it rose), so that a
    step raising a production may pay for a later one (Manutech's plants before a card spends 2 plants; RULES.md
    4A: the effects a card triggers join its order)."""
    if "production_raise" not in game._trigger_events:
        return []
    raised = [(c.resource, value_of(game, c.amount, ctx)) for c in e.changes if c.resource not in ("bonus", "lowest")]
    raised = [(resource, steps) for resource, steps in raised if steps > 0]
    if not raised:
        return []
    player = game.state.players[ctx.player]
    changes = []
    for name, trigger in _own_triggers(game, ctx, "production_raise"):
        for resource, steps in raised:
            for effect in trigger.effects:
                if type(effect) is fx.GainRaised:
                    changes.append((player.resources, resource, steps))
                else:
                    changes.extend(_certain_changes(game, effect, EffectContext(ctx.player, card=name)))
    return changes


def _parameter_triggered_changes(game: "Table", e: fx.ChangeParameter, ctx: EffectContext) -> list:
    """The certain changes of the player's own triggers on a raise of this global parameter (`when any player
    raises oxygen -> gain 2 megacredits`), counted once: a raise of a parameter not at its maximum surely makes one
    step (later steps may be cut off at the maximum, so they are not counted: the check stays on the safe side)."""
    if "raise" not in game._trigger_events or e.parameter == "tr" or ctx.neutral or \
            value_of(game, e.amount, ctx) <= 0 or maxed(game, e.parameter):
        return []
    changes = []
    for name, trigger in _own_triggers(game, ctx, "raise"):
        if trigger.event.parameter == e.parameter:
            for effect in trigger.effects:
                changes.extend(_certain_changes(game, effect, EffectContext(ctx.player, card=name)))
    return changes


def _surely_met(game: "Table", filters, e: fx.PlaceTile) -> bool:
    """Whether every space the tile of `e` may go to meets a trigger's space filters (as triggers.py matches
    them). Only `on mars` can be known before the space is chosen: a tile goes on Mars unless its own filters name a
    reserved space off the board (a reserved name this board lacks leaves the tile to the ordinary spaces)."""
    if any(f.kind != "mars" for f in filters):
        return False
    reserved = next((f.reserved for f in e.filters if f.kind == "reserved"), None)
    space = game.board.reserved_names.get(reserved) if reserved else None
    return space is None or game.board.spaces[space].on_mars


# ------------------------------------------------------------------ targets (no decisions)

def x_range(game: "Table", e: fx.ChooseX, ctx: EffectContext) -> tuple[int, int]:
    """The values X may take: from the minimum up to the largest X the body can be carried out with."""
    return _working_range(game, e.body, e.minimum, quantity(game, e.maximum, ctx.where), ctx)


def revealable_in_hand(game: "Table", e: fx.RevealFromHand, player: int) -> list[str]:
    """The cards in the player's hand that `reveal X cards from hand FILTER ...` may reveal, in hand order."""
    return [name for name in game.state.players[player].hand
            if e.cards is None or card_matches(game.library[name], e.cards)]


def reveal_range(game: "Table", e: fx.RevealFromHand, ctx: EffectContext) -> tuple[int, int]:
    """How many cards may be revealed: none up to the cards that pass, as far as the block can be carried out."""
    return _working_range(game, e.body, 0, len(revealable_in_hand(game, e, ctx.player)), ctx)


def _working_range(game: "Table", body: tuple, minimum: int, maximum: int, ctx: EffectContext) -> tuple[int, int]:
    """The values X may take in a block bound to X, from `minimum` up to `maximum` and the largest X the body can be
    carried out with. Every effect that uses X needs more of something as X grows (spend, discard, production -X)
    or nothing at all, so the possible values are a range found in O(log X) checks, however large the quantity.
    (Each check written out, not a closure made at every call: every `choose X` asks this.)"""
    low, high = minimum, maximum
    if low > high or not possible(game, body, ctx.with_x(low)):
        return low, low - 1
    if possible(game, body, ctx.with_x(high)):  # often the whole range (sell up to every card in hand)
        return minimum, high
    high -= 1
    while low < high:  # invariant: the body works with X = low, not with X = high + 1
        middle = (low + high + 1) // 2
        if possible(game, body, ctx.with_x(middle)):
            low = middle
        else:
            high = middle - 1
    return minimum, low


def bonus_resources(game: "Table", ctx: EffectContext) -> list[str]:
    """The productions `production(bonus ...)` may raise: the resources printed on the space just placed."""
    if ctx.placed is None:
        return []
    allowed = ctx.placed_bonuses or ("steel", "titanium", "plant", "energy", "heat", "megacredits")
    printed = [b for b, _ in game.board.spaces[ctx.placed].bonuses if b in allowed]
    return list(dict.fromkeys(printed))


def names_resource(definition, resource: str) -> bool:
    """Whether a card shows a card resource's icon: it holds it, or some effect, requirement or VP of it adds,
    removes or counts it (the compiled objects are walked; a `resource` field or a measure's `name`)."""
    if definition.holds == resource:
        return True
    stack = [definition.play, definition.actions, definition.passives, definition.vp, definition.requirements]
    while stack:
        item = stack.pop()
        if item is None or isinstance(item, (str, int, bool)):
            continue
        if isinstance(item, tuple):
            stack.extend(item)
            continue
        if getattr(item, "resource", None) == resource or \
                (isinstance(item, fx.Measure) and item.name == resource):
            return True
        if attrs.has(type(item)):
            stack.extend(getattr(item, f.name) for f in attrs.fields(type(item)))
    return False


def adds_to_no_card(game: "Table", effects: tuple, ctx: EffectContext) -> bool:
    """Whether every effect adds card resources to another card (or to the card that fired the trigger), and no
    card could take them: effects that would do nothing."""
    if not effects:
        return False
    for e in effects:
        if type(e) is not fx.AddResources or e.target == "here":
            return False
        if e.target == "that_card":
            if ctx.that_card in resource_cards(game, ctx.player, e.resource, excluded=e.excluded):
                return False
            continue
        exclude = ctx.card if e.target == "another_card" else None
        if resource_cards(game, ctx.player, e.resource, exclude=exclude, with_resources=e.target ==
                          "any_card_with_resources", tag=e.tag, card_type=e.card_type, excluded=e.excluded):
            return False
    return True


def raises_only_maxed(game: "Table", effects: tuple) -> bool:
    """Whether the effects do nothing but raise global parameters that are at their maximum (a choice's option
    that would change nothing)."""
    raises = [e for e in effects if type(e) is not fx.Require]
    return bool(raises) and all(type(e) is fx.ChangeParameter and e.parameter != "tr" and e.amount.coefficient > 0
                                and maxed(game, e.parameter) for e in raises)


def void_by_maxed(game: "Table", effects: tuple) -> tuple[str, ...]:
    """The global parameters at their maximum that leave every one of these effects with nothing to do, when each
    is a raise of one or the placement of a tile that raises one (an ocean after the last: none is left to place);
    empty when any effect would still do something. The rules let a player pay for a standard project that then
    does nothing, so it stays legal: the menu warns (tharsis/terminal/prompts.py) and the bots never buy it."""
    parameters = []
    for e in effects:
        if type(e) is fx.Require:
            continue
        if type(e) is fx.ChangeParameter and e.parameter != "tr" and e.amount.coefficient > 0 \
                and maxed(game, e.parameter):
            parameters.append(e.parameter)
        elif type(e) is fx.PlaceTile and e.tile in OCEAN_TILES and maxed(game, TILE_RAISES[e.tile]):
            parameters.append(TILE_RAISES[e.tile])
        else:
            return ()
    return tuple(dict.fromkeys(parameters))


def lowest_productions(game: "Table", player: int) -> list[str]:
    """The productions `production(lowest +N)` may raise: those at the player's lowest level (MC included)."""
    production = game.state.players[player].production
    low = min(production.values())
    return [r for r, level in production.items() if level == low]


def cards_playable_from_hand(game: "Table", player: int, modifiers: tuple, cards: Optional[fx.CardFilter] = None,
                             playing: Optional[str] = None, source: str = "hand") -> list[str]:
    """The cards in hand (or, `source` "events", among the player's played events) that `play card from ...` could
    play with these modifiers (a discount, requirements ignored), passing its filters (`cards`): the modifiers are
    added for the question and taken away again. The card being played is not one of them, nor a card that would
    itself play from hand (no chain of such cards is sought)."""
    from .legality import playable  # legality asks these checks in turn: imported when first needed

    state = game.state.players[player]
    kinds, library = game.elements.card_kinds, game.library
    zone = state.events if source == "events" else state.hand
    before = state.next_card_modifiers
    state.next_card_modifiers = before + list(modifiers)  # read afresh by the prices, never cached
    try:
        return [name for name in dict.fromkeys(zone)
                if name != playing and library[name].type not in kinds
                and (cards is None or card_matches(library[name], cards))
                and not any(type(e) is fx.PlayFromHand for e in library[name].play)
                and playable(game, player, name)[0]]
    finally:
        state.next_card_modifiers = before


def fundable_awards(game: "Table") -> list[str]:
    """The game's awards not funded yet, while fewer than the most that may be funded are."""
    from .legality import AWARD_COSTS  # legality asks these checks in turn: imported when first needed

    funded = {name for name, _ in game.state.awards}
    if len(funded) >= len(AWARD_COSTS):
        return []
    return [name for name in game.awards if name not in funded]


def _usable_projects(game: "Table", player: int, name: Optional[str]) -> bool:
    """Whether a `use standard project` finds a standard project the player can pay and carry out."""
    from .legality import usable_projects  # legality asks these checks in turn: imported when first needed

    return bool(usable_projects(game, player, name))


def reusable_actions(game: "Table", player: int, this: Optional[str]) -> list[str]:
    """Another of the player's cards whose action was used this generation and can be carried out again."""
    from .legality import card_action_options

    return [card.name for card in game.state.players[player].played
            if card.used and card.name != this and game.library[card.name].actions
            and card_action_options(game, player, card.name)]


def production_targets(game: "Table", e, ctx) -> list[int]:
    def can_lose(index):
        production = game.state.players[index].production
        return all(production[c.resource] + value_of(game, c.amount, ctx) >= MINIMUM_PRODUCTION.get(c.resource, 0)
                   for c in e.changes)

    if game.options.solo:
        return [NEUTRAL]  # the neutral opponent takes every "any player" attack (RULES.md 7, solo)
    # RULES.md 4A: any player who has enough, yourself included, at the player's choice; not an opponent whose
    # production is protected from opponents (`protect production from opponents`)
    return [i for i in range(len(game.state.players)) if can_lose(i) and
            (i == ctx.player or not _production_protected(game, i))]


def _production_protected(game: "Table", owner: int) -> bool:
    """Whether the player's productions are protected from opponents (`protect production from opponents`)."""
    return any(p.scope == "opponents" and "production" in p.resources for p in passives(game, owner, fx.Protect))


def marker_destinations(game: "Table", player: int, e) -> list[str]:
    """Where `place marker` (`move marker`: only once the marker is on the board) may put its marker."""
    if isinstance(e, fx.MoveMarker) and e.name not in game.state.markers:
        return []
    return marker_spaces(game, player, e.filters)


def claimable(game: "Table", player: int, filters) -> list[str]:
    return [s for s in legal_spaces(game, player, SPECIAL, filters) if s not in game.state.claims]  # any land tile


def resource_cards(game: "Table", player: int, resource: str, exclude: Optional[str] = None,
                   with_resources: bool = False, tag: Optional[str] = None, card_type: Optional[str] = None,
                   excluded: tuple = ()) -> list[str]:
    """The player's cards in play that can hold `resource` ("resource": any type), leaving out `exclude`;
    `with_resources`: only those holding at least one already; `tag`: only those with that tag; `card_type`: only
    those of that type (`to any active card`); `excluded`: not those holding these types (`resource except
    science`)."""
    result = []
    for card in game.state.players[player].played:
        definition = game.library[card.name]
        holds_type = definition.holds
        if holds_type is None or card.name == exclude:
            continue
        if resource != "resource" and holds_type != resource:
            continue
        if with_resources and card.resources == 0:
            continue
        if tag is not None and tag not in definition.tags:
            continue
        if (card_type is not None and getattr(definition, "type", None) != card_type) or holds_type in excluded:
            continue
        result.append(card.name)
    return result


def own_cards_to_remove_from(game: "Table", e, ctx) -> list[str]:
    """`remove N RES from your card`: the player's cards holding that type with enough of it (one, for `up to`),
    leaving out those whose resources are protected."""
    needed = 1 if e.up_to else value_of(game, e.amount, ctx)
    return [name for name in resource_cards(game, ctx.player, e.resource)
            if game.state.players[ctx.player].card(name).resources >= max(needed, 1)
            and not protected(game, ctx.player, ctx.player, game.library[name].holds, name)]


def protected(game: "Table", owner: int, remover: int, resource: str, card: Optional[str] = None) -> bool:
    """Whether `remover` can take none of the owner's `resource` (from `card`, or the stock); a protection by half
    (`protect half plants from opponents`) is `halved`'s, not this."""
    for passive_card in game.state.players[owner].played:
        for p in game.library[passive_card.name].passives:
            if not isinstance(p, fx.Protect) or p.half or \
                    (resource not in p.resources and "resource" not in p.resources):
                continue
            if p.scope == "here" and card == passive_card.name:
                return True
            if p.scope == "opponents" and remover != owner:
                return True
    return False


def halved(game: "Table", owner: int, remover: Optional[int], resource: str) -> bool:
    """Whether an opponent's removal or theft of the owner's `resource` takes only half of it, rounded up (`protect
    half plants from opponents`, Botanical Experience); never the owner's own removal (a cost)."""
    if remover is None or remover == owner:
        return False
    for passive_card in game.state.players[owner].played:
        for p in game.library[passive_card.name].passives:
            if isinstance(p, fx.Protect) and p.half and resource in p.resources:
                return True
    return False


def cards_to_remove_from(game: "Table", e, ctx) -> list[tuple[int, str]]:
    needed = 1 if e.up_to else value_of(game, e.amount, ctx)
    result = []
    for index, other in enumerate(game.state.players):
        for card in other.played:
            held = game.library[card.name].holds
            if held is None or (e.resource != "resource" and held != e.resource) or card.resources < needed:
                continue
            if protected(game, index, ctx.player, held, card.name):
                continue
            result.append((index, card.name))
    return result


def stealable(game: "Table", e, ctx) -> list[int]:
    """`steal N RESOURCE from any player` (without `up to`): the opponents who have N and whose resource may be
    taken."""
    amount = value_of(game, e.amount, ctx)
    players = game.state.players
    return [i for i in steal_targets(game, e, ctx)
            if players[i].resources[e.resource] >= max(amount, 1) and not protected(game, i, ctx.player, e.resource)]


def steal_targets(game: "Table", e, ctx) -> list[int]:
    """The players a `steal` may take from before what they have is judged: every opponent, or with `who harmed you
    this generation` those who removed the player's resources or decreased their production this generation (the
    neutral opponent of a solo game harms nobody)."""
    if e.harmed:
        return sorted(game.state.players[ctx.player].harmed_by_this_generation)
    return [i for i in range(len(game.state.players)) if i != ctx.player]


def owns_tile_next_to(game: "Table", index: int, space: Optional[str]) -> bool:
    if space is None:
        return False
    return any(game.state.tiles.get(n) is not None and game.state.tiles[n].owner == index
               for n in game.board.neighbours[space])


def copyable(game: "Table", e, ctx) -> list[str]:
    result = []
    for card in game.state.players[ctx.player].played:
        definition = game.library[card.name]
        if e.tag not in definition.tags or card.name == ctx.card:
            continue
        boxes = production_box(definition)
        if boxes and possible(game, boxes, attrs.evolve(ctx, card=card.name)):
            result.append(card.name)
    return result


def movable_cards(game: "Table", e: fx.MoveCard, ctx) -> list[str]:
    """The cards of the player's zone that `move ... from ZONE` may pick: those passing its filters; from the play
    area never the corporation (nor a card of another kind of definition), nor the card whose effect this is; into
    another player's play area never an event."""
    state, library = game.state.players[ctx.player], game.library
    if e.destination == "another_player" and len(game.state.players) < 2:
        return []
    if e.source == "hand":
        names = list(dict.fromkeys(state.hand))
    elif e.source == "events":
        names = list(dict.fromkeys(state.events))
    else:
        names = [c.name for c in state.played if library[c.name].kind == "card" and c.name != ctx.card]
    giving = e.destination == "another_player"   # an event never enters a play area
    return [name for name in names if card_matches(library[name], e.cards)
            and not (giving and library[name].type == "event")]


def copyable_plays(game: "Table", e: fx.CopyPlay, ctx) -> list[str]:
    """The other cards of the player's play area whose `play:` effects `copy play of another card` may carry out
    again: passing its filters, with effects that can be carried out now (`here` meaning that card)."""
    result = []
    for card in game.state.players[ctx.player].played:
        definition = game.library[card.name]
        if definition.kind != "card" or card.name in (ctx.card, ctx.playing) or not definition.play:
            continue
        if card_matches(definition, e.cards) and possible(game, definition.play, attrs.evolve(ctx, card=card.name)):
            result.append(card.name)
    return result


# ------------------------------------------------------------------ the condition of each kind of effect
# `_check_and_apply` looks the check up by the effect's exact type (effect classes never subclass one another, so
# this is what `isinstance` would decide, without walking a chain of tests on the hottest path of the engine).

def _can_lose(game: "Table", e, ctx: EffectContext) -> bool:
    return game.state.players[ctx.player].resources[e.resource] >= value_of(game, e.amount, ctx)


def _can_lose_some(game: "Table", e, ctx: EffectContext) -> bool:
    """`lose up to`: always (as many as there are); otherwise the whole amount must be there."""
    return e.up_to or _can_lose(game, e, ctx)


def _can_pay(game: "Table", e: fx.Pay, ctx: EffectContext) -> bool:
    return can_pay(game, ctx.player, value_of(game, e.amount, ctx), e.using)


def _can_change_production(game: "Table", e: fx.Production, ctx: EffectContext) -> bool:
    production = game.state.players[ctx.player].production
    for change in e.changes:
        delta = value_of(game, change.amount, ctx)
        if change.resource not in ("bonus", "lowest") and delta < 0 and production[change.resource] + delta < \
                MINIMUM_PRODUCTION.get(change.resource, 0):
            return False
    return True


def _can_remove(game: "Table", e: fx.RemoveResources, ctx: EffectContext) -> bool:
    if e.up_to or e.source == "any_player" or e.source == "each_opponent":   # an attack takes what there is
        return True
    if e.source == "here":
        card = game.state.players[ctx.player].card(ctx.card)
        return card is not None and card.resources >= value_of(game, e.amount, ctx)
    if e.source == "your_card":  # removing none (`X` chosen 0) needs no card
        return value_of(game, e.amount, ctx) <= 0 or bool(own_cards_to_remove_from(game, e, ctx))
    # solo: the neutral opponent always has the resource to give (RULES.md 7)
    return game.options.solo or bool(cards_to_remove_from(game, e, ctx))


def _can_choose_x(game: "Table", e: fx.ChooseX, ctx: EffectContext) -> bool:
    # some X works: the smallest does (see x_range), no need to find the largest
    return quantity(game, e.maximum, ctx.where) >= e.minimum and possible(game, e.body, ctx.with_x(e.minimum))


def _can_reveal_from_hand(game: "Table", e: fx.RevealFromHand, ctx: EffectContext) -> bool:
    # revealing none is always allowed, so the block must work with X = 0 (see reveal_range)
    return possible(game, e.body, ctx.with_x(0))


def each_kept(game: "Table", e, player: int) -> list:
    """The players an `each opponent { }` (the others, in turn order from the one after `player`) or an `each player
    { }` (all, the first player first) names, those its `with CONDITION` keeps, all judged before any acts: the
    handler's order and the `must` check's players are one list."""
    order = game.turn_order()
    if type(e) is fx.EachOpponent:
        start = order.index(player) if player in order else 0
        order = order[start + 1:] + order[:start]
    if e.condition is None:
        return order
    return [index for index in order if holds(game, e.condition, Where(index))]


def _every_one_can(game: "Table", e, ctx: EffectContext) -> bool:
    """`each opponent must { }` (`each player must`): every player it keeps can carry out the block from their own
    side, each judged on the state as it is before the first acts (no one's effects applied for the next)."""
    return not e.must or all(possible(game, e.body, EffectContext(index)) for index in each_kept(game, e, ctx.player))


def _can_take_branch(game: "Table", e: fx.Conditional, ctx: EffectContext) -> bool:
    return possible(game, e.then if holds(game, e.condition, ctx.where) else e.otherwise, ctx)


def _cards_to_discard(game: "Table", ctx: EffectContext) -> int:
    """The cards in hand a `discard` could take: not the card being played, which leaves the hand first."""
    hand = game.state.players[ctx.player].hand
    return len(hand) - (1 if ctx.playing is not None and ctx.playing in hand else 0)


_POSSIBLE = {
    fx.Lose: _can_lose_some,
    fx.Spend: lambda game, e, ctx: can_spend(game, ctx.player, e.resource, value_of(game, e.amount, ctx)),
    fx.Pay: _can_pay,
    fx.Production: _can_change_production,
    fx.AnyProduction: lambda game, e, ctx: bool(production_targets(game, e, ctx)),
    fx.PlaceTile: lambda game, e, ctx: can_place(game, ctx.player, e),
    fx.ClaimSpace: lambda game, e, ctx: bool(claimable(game, ctx.player, e.filters)),
    fx.PlaceMarker: lambda game, e, ctx: bool(marker_destinations(game, ctx.player, e)),
    fx.MoveMarker: lambda game, e, ctx: bool(marker_destinations(game, ctx.player, e)),
    fx.ReplaceTile: lambda game, e, ctx: bool(replaceable_tiles(game, ctx.player, e)),
    fx.PutMark: lambda game, e, ctx: bool(markable_tiles(game, ctx.player, e)),
    fx.LookDiscard: lambda game, e, ctx: bool(game.state.discard),
    fx.RemoveResources: _can_remove,
    fx.Discard: lambda game, e, ctx: e.up_to or _cards_to_discard(game, ctx) >= value_of(game, e.amount, ctx),
    fx.Choice: lambda game, e, ctx: any(possible(game, option, ctx) for option in e.options),
    fx.Conditional: _can_take_branch,
    fx.ChooseX: _can_choose_x,
    fx.RevealFromHand: _can_reveal_from_hand,
    fx.Require: lambda game, e, ctx: holds(game, e.condition, ctx.where),
    fx.CopyProduction: lambda game, e, ctx: len(copyable(game, e, ctx)) >= e.count,
    fx.MoveCard: lambda game, e, ctx: bool(movable_cards(game, e, ctx)),
    fx.Give: lambda game, e, ctx: e.up_to or can_spend(game, ctx.player, e.resource, value_of(game, e.amount, ctx)),
    fx.FaceDown: lambda game, e, ctx: game.state.players[ctx.player].card(ctx.card) is not None,
    fx.DoubleKept: lambda game, e, ctx: bool(getattr(game.state.players[ctx.player].card(ctx.card), "kept", None)),
    fx.CopyPlay: lambda game, e, ctx: bool(copyable_plays(game, e, ctx)),
    # nothing left to reveal: the action cannot be taken
    fx.Reveal: lambda game, e, ctx: bool(game.state.deck or game.state.discard),
    fx.Neutral: lambda game, e, ctx: possible(game, e.body, ctx.as_neutral()),
    fx.DecidedBy: lambda game, e, ctx: possible(game, e.body, ctx),   # who is asked changes nothing that is possible
    fx.EachOpponent: _every_one_can,
    fx.EachPlayer: _every_one_can,
    fx.PlayFromHand: lambda game, e, ctx: bool(cards_playable_from_hand(game, ctx.player, e.modifiers, e.cards,
                                                                         ctx.playing, e.source)),
    # a steal without `up to` takes exactly its amount from an opponent who has it (solo: the neutral opponent has)
    fx.Steal: lambda game, e, ctx: (e.up_to or (game.options.solo and not e.harmed) or bool(stealable(game, e, ctx))),
    fx.ReuseAction: lambda game, e, ctx: bool(reusable_actions(game, ctx.player, ctx.card)),
    fx.UseProject: lambda game, e, ctx: e.otherwise is not None and possible(game, e.otherwise, ctx)
    or _usable_projects(game, ctx.player, e.name),
    # factions (runtime/rules/politics.py): pieces to place, a piece to remove or replace, the role to take
    fx.PlaceInFaction: lambda game, e, ctx: can_place_pieces(game, ctx.player, e.count, e.neutral),
    fx.RemoveFromFaction: lambda game, e, ctx: bool(removable(game)),
    fx.ReplaceNeutral: lambda game, e, ctx: bool(replaceable(game, ctx.player)),
    fx.TakeRole: lambda game, e, ctx: can_take_role(game, ctx.player),
    # pieces and sites (runtime/rules/sites.py)
    fx.PlacePiece: lambda game, e, ctx: bool(placeable(game, ctx.player, e.piece, e.also_own)),
    fx.SendPiece: lambda game, e, ctx: (has_free(game, ctx.player, e.piece) or
                                        (e.reusing and bool(visiting(game, ctx.player, e.piece)))) and
    bool(visitable(game, e.piece, e.any_site)),
    fx.MoveMarkers: lambda game, e, ctx: any(can_move(game, s, e.steps[0]) for s in game.state.sites) if e.each
    else bool(movable(game, e.steps)),
}


# the kinds `_certain_changes`/`_triggered_changes` find changes for (`possible` skips both for the others)
_CHANGING = frozenset(_CERTAIN) | {fx.PlaceTile, fx.PlacePiece, fx.PlaceMarker, fx.ClaimSpace, fx.ChangeParameter}


def _check_every_verb_says_when_it_is_impossible() -> None:
    """`_POSSIBLE` has a condition for exactly the verbs that declare when they cannot be carried out
    (compiler/effects.py `impossible=`): no verb is "always possible" by omission."""
    for kind in fx.IMMEDIATE:
        if (kind in _POSSIBLE) != (kind.impossible is not fx.NEVER):
            raise TypeError(f"effect verb '{kind.kind_name}' ({kind.__name__}) says it is impossible "
                            f"{kind.impossible or 'never'}, but runtime/rules/checks.py _POSSIBLE "
                            f"{'has a condition' if kind in _POSSIBLE else 'has no condition'} for it")


_check_every_verb_says_when_it_is_impossible()


@per_list
def unconditional(effects: tuple) -> bool:
    """Whether effects can always be carried out: none has a condition in `_POSSIBLE`, or it only raises
    productions by fixed amounts (the menu checks such standard projects first: their check is cheap and holds)."""
    return all(_unchecked(e) or (type(e) is fx.Production and all(
        c.resource == "bonus" or (not c.amount.variable and c.amount.per is None and c.amount.coefficient >= 0)
        for c in e.changes)) for e in effects)


# the kinds whose check reads only productions, the hand or the deck, never the player's stock of resources (a
# speed-up: a verb left out is assumed to read the stock, which is always right, only slower)
_STOCK_BLIND_CHECKS = frozenset({fx.Production, fx.AnyProduction, fx.Discard, fx.CopyProduction, fx.Reveal,
                                 fx.PlacePiece, fx.SendPiece, fx.MoveMarkers, fx.Steal})


@per_list
def stock_blind(effects: tuple) -> bool:
    """Whether no check of these effects reads the player's stock (so how a card is paid cannot matter to them)."""
    return all(_unchecked(e) or (type(e) in _STOCK_BLIND_CHECKS and not _counts_anything(e)) for e in effects)


def _unchecked(e) -> bool:
    """Whether an effect's check always holds: no condition in `_POSSIBLE`, or an `each` block without `must`."""
    kind = type(e)
    return kind not in _POSSIBLE or (kind in (fx.EachOpponent, fx.EachPlayer) and not e.must)


@per_list
def _stock_blind_but_tiles(effects: tuple) -> bool:
    """`stock_blind`, with the placements of tiles counted as blind too (see `payment_blind`)."""
    return all(_unchecked(e) or ((type(e) in _STOCK_BLIND_CHECKS or type(e) is fx.PlaceTile) and
                                 not _counts_anything(e)) for e in effects)


def payment_blind(game: "Table", effects: tuple) -> bool:
    """Whether how these effects are paid for cannot change whether they can be carried out: no check reads the
    stock (`stock_blind`), or only placements of tiles do and no space of the board costs extra (a placement's check
    reads the stock only to price such a space). Then one payment answers for all, and a card with a tile is not
    checked once for each way to pay it (docs/benchmarks.md, issue 36)."""
    return stock_blind(effects) or (not game.board.has_costs and _stock_blind_but_tiles(effects))


def _counts_anything(e) -> bool:
    """Whether an effect has an amount `per` some quantity (which might be a stock)."""
    amounts = [c.amount for c in getattr(e, "changes", ())] + [getattr(e, "amount", None)]
    return any(a is not None and a.per is not None for a in amounts)


def _rollback(undo: list, mark: int) -> None:
    """Undo the provisional changes recorded after `mark`, newest first."""
    while len(undo) > mark:
        table, resource, delta = undo.pop()
        table[resource] -= delta


def effect_steps(effects: tuple) -> list[tuple]:
    """A card's effects as the steps its player may order: an effect about the tile just placed stays with its
    placement, `add ... to that card` with the `play card from hand` that plays that card."""
    steps: list[tuple] = []
    played = None   # the step of the last `play card from hand`
    for e in effects:
        if type(e) is fx.PlayFromHand:
            played = len(steps)
        elif played is not None and type(e) is fx.AddResources and e.target == "that_card":
            steps[played] = steps[played] + (e,)
            continue
        about_placement = (isinstance(e, fx.Production) and any(c.resource == "bonus" for c in e.changes)) or \
            (isinstance(e, fx.RemoveResources) and e.next_to_placed) or \
            (type(e) is fx.PlaceTile and any(f.kind == "next_to_placed" for f in e.filters))
        if about_placement and steps:
            steps[-1] = steps[-1] + (e,)
        elif type(e) is fx.MoveThisCard:   # with the effect that chose "that player" (the checker wants one before)
            at = next((i for i in range(len(steps) - 1, -1, -1) if any(fx.targets_player(f) for f in steps[i])), None)
            if at is None:
                steps.append((e,))
            else:
                steps[at] = steps[at] + (e,)
        else:
            steps.append((e,))
    return steps


@per_list
def _placing_first(effects: tuple) -> Optional[tuple]:
    """The effects with the steps that place tiles moved first, or None when that is the order written."""
    steps = effect_steps(effects)
    reordered = sorted(steps, key=lambda step: not any(isinstance(e, fx.PlaceTile) for e in step))
    return None if reordered == steps else sum(reordered, ())


def commutes(effects: tuple) -> bool:
    """Effects whose order against other such effects cannot matter: plain gains and increases (a space's bonus
    once more too: a stock, or a card drawn, which no other such effect reads)."""
    for e in effects:
        if isinstance(e, (fx.Gain, fx.AddResources)) and not e.amount.variable:
            continue
        if isinstance(e, fx.GainSpaceBonus):
            continue
        if isinstance(e, fx.Production) and all(c.amount.coefficient > 0 and c.resource not in ("bonus", "lowest")
                                                for c in e.changes):
            continue
        return False
    return True


def production_box(definition) -> tuple:
    """A card's production box: its own production changes and its decreases of any player's production."""
    return tuple(e for e in definition.play if isinstance(e, (fx.Production, fx.AnyProduction)))


def bonus_filter(effect: fx.PlaceTile) -> tuple:
    return next((f.bonuses for f in effect.filters if f.kind == "bonus"), ())
