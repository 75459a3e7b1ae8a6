"""The greedy bot: a one-step heuristic player, simple enough to read in a minute.

It values everything in megacredit-equivalents and takes the best option:
- an action is worth its estimated value minus its price; claiming a milestone always wins, funding an award only
  when the bot leads that award; converting plants or heat is always worth it; it passes when nothing is worth
  more than keeping the money;
- a card's value: 5 per VP, 5 + the generations left per TR step (temperature, oxygen, ocean, greenery, TR: a
  point plus its income), production weighted by resource and by the generations left, 3 per card drawn, 6 per
  lasting effect or action;
- it buys a card when its value exceeds the price by a margin it can afford; it keeps the best cards, and takes the
  best of cards revealed for every player; a shared reveal is worth the cards it will take, a reveal from hand its
  block with X the cards in hand that may be shown;
- it pays with steel, titanium and heat before money; it places tiles where the printed bonus plus adjacent
  oceans pay most (greeneries next to its cities, cities next to its greeneries); it targets the leading opponent;
- a piece placed on a site is worth the site's build effects, its bonus at every visit still to come (the visiting
  pieces in play shared among the sites, at most a visit a generation) and the VP of its cards that count such
  pieces; a visit, what the marker's step gives plus the bonus of its own pieces there, less the cheapest of the
  visit's prices; a marker raised where a visit gives it most, lowered where it gives it least;
- a piece placed in a faction is worth a little influence, the government's points for leading the faction when
  it then leads it, and the role's reward and points when the faction is or becomes the dominant one; a TR step is
  worth its VP and income less the tax in force on it (in the research phase, the ruling faction's policy).
"""

from __future__ import annotations

from tharsis.compiler import effects as fx
from tharsis.compiler.vocabulary import CITY_TILES, GREENERY_TILES, OCEAN_TILES, TILE_RAISES

from ..api import ACTION, Decision, Option
from ..api.queries import (
    Where,
    card_cost,
    maxed,
    placeable,
    quantity,
    revealable_in_hand,
    site_choice,
    standard_cost,
    taking_revealed,
    tax_rate,
    visitable,
    void_by_maxed,
)
from .driver import decision_rng

WEIGHT = {"megacredits": 1.0, "steel": 2.0, "titanium": 3.0, "plant": 2.0, "energy": 1.5, "heat": 1.0}
VP = 5.0
CARD = 3.0
LASTING = 6.0
PIECE = 4.0    # a neutral piece replaced (half of it) or one removed in a faction; one placed: faction_worth


def progress(game) -> float:
    """How far terraforming is, 0 to 1: the mean fraction of each parameter that ends the game, on its declared
    scale (the printed three, and every declared one that `ends game: yes`, or `solo` in a solo game)."""
    state, ending = game.state, game.elements.ending
    if len(ending) == 3:  # the printed three alone, fields of the state: read without a loop (asked thousands of times)
        (_, t_low, t_span, _), (_, o_low, o_span, _), (_, n_low, n_span, _) = ending
        return ((state.temperature - t_low) / t_span + (state.oxygen - o_low) / o_span +
                (state.oceans - n_low) / n_span) / 3
    total = 0.0
    for name, low, span, printed in ending:
        fraction = ((getattr(state, name) if printed else state.parameters[name]) - low) / span
        total += 0.0 if fraction < 0.0 else 1.0 if fraction > 1.0 else fraction
    return total / len(ending)


def generations_left(game) -> float:
    """A solo game lasts the generations its expansions declare; any other, about 10 generations of terraforming."""
    if game.options.solo:
        return max(1.0, game.elements.solo_generations - game.state.generation)
    return max(1.0, 10 * (1 - progress(game)))


def terraform_value(game) -> float:
    """A TR step: a victory point now, plus a megacredit of income for every generation left."""
    return VP + generations_left(game)


def effects_value(game, effects, player: int, card=None) -> float:
    total = 0.0
    left = generations_left(game)
    for e in effects:
        add = VALUES.get(type(e))
        total = add(total, game, e, player, card, left) if add is not None else total + OTHER_EFFECT
    return total


def _gain(total, game, e, player, card, left):
    return total + WEIGHT[e.resource] * _amount(game, e.amount, player, card)


def _lose(total, game, e, player, card, left):
    return total - WEIGHT[e.resource] * _amount(game, e.amount, player, card)


def _pay(total, game, e, player, card, left):
    return total - _amount(game, e.amount, player, card)


def _production(total, game, e, player, card, left):
    for change in e.changes:
        weight = WEIGHT.get(change.resource, 1.5)
        total += weight * _amount(game, change.amount, player, card) * left
    return total


def tax(game, player: int) -> float:
    """What a TR step the player raises will cost in taxes: those in force in the action phase; in another phase,
    when cards are bought and kept for it, the tax of the ruling faction's policy (0 without taxes in the game)."""
    if not game.elements.taxed:
        return 0
    if game.state.phase == ACTION:
        return tax_rate(game, player)
    government = game.state.government
    ruling = game.elements.factions.get(government.ruling) if government is not None else None
    return sum(p.amount for p in ruling.passives if type(p) is fx.Tax) if ruling is not None else 0


def _parameter(total, game, e, player, card, left):
    steps = _amount(game, e.amount, player, card)
    if e.parameter == "tr" or not maxed(game, e.parameter):
        # a step gained costs the taxes in force (the ruling party's); one lost is not refunded
        total += (terraform_value(game) - (tax(game, player) if steps > 0 else 0)) * steps
    return total


def _place(total, game, e, player, card, left):
    tr = terraform_value(game) - tax(game, player)
    if e.tile in OCEAN_TILES:
        per_tile = 0 if maxed(game, TILE_RAISES[e.tile]) else tr + 2
    else:
        per_tile = tr + VP if e.tile in GREENERY_TILES else 10.0 if e.tile in CITY_TILES else 4.0
    return total + per_tile * e.count


def _best_option(total, game, e, player, card, left):
    return total + max((effects_value(game, o, player, card) for o in e.options), default=0.0)


def _fixed(value: float):
    return lambda total, game, e, player, card, left: total + value


def _per_unit(value: float):
    return lambda total, game, e, player, card, left: total + value * _amount(game, e.amount, player, card)


def _add_resources(total, game, e, player, card, left):
    """Card resources added, 2 each; `to each of K different cards` adds the amount K times."""
    return total + 2.0 * max(e.cards, 1) * _amount(game, e.amount, player, card)


def _shared_reveal(total, game, e, player, card, left):
    """The cards the player will take of a shared reveal, each worth a card drawn (it picks the best first)."""
    if not e.until_none_left:
        return total + CARD * e.take
    players = len(game.state.players)
    return total + CARD * -(-int(quantity(game, e.count, Where(player, card))) // players)


def _reveal_from_hand(total, game, e, player, card, left):
    """The block with X the cards of the player's hand that may be shown now (the card itself aside): the estimate
    of a block counts X as 2 (`_amount`), so it is scaled to that many."""
    shown = sum(1 for name in revealable_in_hand(game, e, player) if name != card)
    return total + effects_value(game, e.body, player, card) * shown / 2


# What each verb adds to the value of a run of effects, `(total so far, game, effect, player, card, generations
# left) -> total`; a verb not here (claim space, fund award, a new one) adds OTHER_EFFECT, declared, not assumed.
VALUES = {
    fx.Gain: _gain, fx.Lose: _lose, fx.Spend: _lose, fx.Pay: _pay, fx.Production: _production,
    fx.AnyProduction: _fixed(2.0), fx.ChangeParameter: _parameter, fx.PlaceTile: _place,
    fx.Draw: _per_unit(CARD), fx.LookKeep: lambda total, game, e, player, card, left: total + CARD * e.keep,
    fx.AddResources: _add_resources, fx.RemoveResources: _fixed(1.0), fx.Steal: _fixed(1.0),
    fx.Choice: _best_option,
    fx.Conditional: lambda total, game, e, player, card, left: total + effects_value(game, e.then, player, card),
    fx.ChooseX: _fixed(3.0), fx.May: _fixed(3.0),
    fx.IfYouCan: lambda total, game, e, player, card, left: total + effects_value(game, e.body, player, card),
    fx.PlaceInFaction: lambda total, game, e, player, card, left: total + _faction_piece(game, e, player),
    fx.ReplaceNeutral: _fixed(PIECE / 2), fx.RemoveFromFaction: _fixed(PIECE / 2),
    fx.TakeRole: lambda total, game, e, player, card, left: total + VP + terraform_value(game) - tax(game, player),
    fx.PlacePiece: lambda total, game, e, player, card, left: total + _site_piece(game, e, player, left),
    fx.SendPiece: lambda total, game, e, player, card, left: total + max(
        (visit_worth(game, s, player) for s in visitable(game, e.piece)), default=0.0),
    fx.GainPieces: lambda total, game, e, player, card, left: total + _pieces_gained(game, e, player, card, left),
    fx.SharedReveal: _shared_reveal, fx.RevealFromHand: _reveal_from_hand,
    # the cards drawn face up, each kept or played (at least what a card drawn is worth)
    fx.RevealEach: lambda total, game, e, player, card, left: total + CARD * int(
        quantity(game, e.count, Where(player, card))),
    # an extra action: about what a card drawn is worth (the bot will spend it on its best action then)
    fx.TakeActions: lambda total, game, e, player, card, left: total + CARD * e.count,
    # the block's effects are the player's, whoever decides (an opponent deciding may make them worth less)
    fx.DecidedBy: lambda total, game, e, player, card, left: total + effects_value(game, e.body, player, card),
}
OTHER_EFFECT = 0.0


def _amount(game, amount: fx.Amount, player: int, card) -> float:
    value = float(amount.coefficient)
    if amount.variable:
        value *= 2
    if amount.per is not None:
        value *= quantity(game, amount.per, Where(player, card)) // amount.divisor
    return value


# ------------------------------------------------------------------ pieces on sites

def _site_piece(game, e: fx.PlacePiece, player: int, left: float) -> float:
    """A piece placed on a site: what the best site it may go on is worth (`site_worth`), once per piece."""
    sites = placeable(game, player, e.piece, e.also_own)
    return e.count * max(site_worth(game, s, player, e.piece, left) for s in sites) if sites else 0.0


def site_worth(game, site, player: int, piece: str, left: float) -> float:
    """One more piece of the player's on a site: its build effects now, its bonus at every visit still to come
    (`visits_per_generation` for `left` generations), and the VP of the player's cards that count such pieces."""
    declared = game.elements.sites[site.name]
    value = effects_value(game, declared.build, player)
    if declared.bonus and declared.visitor is not None:
        value += effects_value(game, declared.bonus, player) * visits_per_generation(game, declared.visitor) * left
    return value + VP * _points_per_piece(game, player, piece)


def visits_per_generation(game, visitor: str) -> float:
    """How often a site is visited in a generation, taken alike for every site: the visiting pieces in play (on
    sites and in supplies), shared among the active sites they may visit, at most one visit (a visitor stays)."""
    sites, players = game.elements.sites, game.state.players
    visited = [s for s in game.state.sites if s.active and sites[s.name].visitor == visitor]
    if not visited:
        return 0.0
    pieces = sum(p.pieces.get(visitor, 0) for p in players) + sum(1 for s in visited if s.visitor is not None)
    return min(1.0, pieces / len(visited))


def _points_per_piece(game, player: int, piece: str) -> float:
    """The VP a piece of this kind adds to the player's cards in play that score per such piece."""
    points = 0.0
    library = game.library
    for in_play in game.state.players[player].played:
        vp = library[in_play.name].vp
        if vp is not None and vp.per is not None and any(t.kind == "pieces" and t.piece == piece
                                                         for t in vp.per.terms):
            points += vp.points / vp.divisor
    return points


def visit_worth(game, site, player: int) -> float:
    """A visit to a site now: the effects of the marker's step, and the site's bonus for each piece of the
    player's there."""
    declared = game.elements.sites[site.name]
    value = effects_value(game, declared.track[site.marker], player)
    own = site.pieces.count(player)
    return value + own * effects_value(game, declared.bonus, player) if own else value


def _pieces_gained(game, e: fx.GainPieces, player: int, card, left: float) -> float:
    """More visiting pieces: one more visit every generation left, each worth a little more than its price (2 MC);
    pieces of a kind that visits no site are worth nothing here."""
    if not any(s.visitor == e.piece for s in game.elements.sites.values()):
        return 0.0
    return 2.0 * left * _amount(game, e.amount, player, card)


def cheapest_price(game, player: int, definition) -> float:
    """The cheapest of a standard action's or project's prices the player can pay, in megacredits (each resource at
    its WEIGHT): the money price with its discounts, or an alternative the player has enough of."""
    best = float(standard_cost(game, player, definition))
    stock = game.state.players[player].resources
    for amount, resource in definition.alternatives:
        if stock.get(resource, 0) >= amount:
            best = min(best, WEIGHT.get(resource, 1.0) * amount)
    return best


# ------------------------------------------------------------------ pieces in factions

def _faction_piece(game, e: fx.PlaceInFaction, player: int) -> float:
    """Pieces placed in a faction: what the best faction for them is worth (a neutral one helps nobody)."""
    government = game.state.government
    if e.neutral or government is None:
        return 0.0
    if e.faction is not None:
        faction = government.faction(e.faction)
        return e.count * faction_worth(game, faction, player) if faction is not None else 0.0
    return e.count * max((faction_worth(game, f, player) for f in government.factions), default=0.0)


def faction_worth(game, faction, player: int) -> float:
    """One more piece of the player's in a faction: a little influence; when it then leads the faction, the
    government's points for a faction led; when it leads the faction that is or then becomes dominant, the role
    (its reward and points) at the change of government."""
    government, declared = game.state.government, game.elements.government
    mine = faction.count(player) + 1
    others = max((faction.pieces.count(o) for o in set(faction.pieces) if o != player), default=0)
    value = 1.0
    if faction.leader != player and mine <= others:
        return value
    lead_points, role_points = _government_points(declared)
    dominant = government.faction(government.dominant)
    dominates = dominant is None or faction is dominant or len(faction.pieces) + 1 > len(dominant.pieces)
    if faction.leader != player:
        value += VP * lead_points
        if dominates:
            value += VP * role_points + effects_value(game, declared.role_reward, player)
    elif dominates:
        value += 1.0   # a lead kept where it counts
    return value


def _government_points(declared) -> tuple[float, float]:
    """The government's end-of-game VP for each faction led and for holding the role, from its declared `vp:`."""
    vp = declared.vp if declared is not None else None
    if vp is None or vp.per is None:
        return 0.0, 0.0
    each = vp.points / vp.divisor
    kinds = {t.kind for t in vp.per.terms}
    return (each if "factions_led" in kinds else 0.0), (each if "role" in kinds else 0.0)


def card_value(game, name: str, player: int) -> float:
    card = game.library[name]
    value = effects_value(game, card.play, player, name)
    if card.vp is not None and card.vp.scorers is None:   # points for every player are no gain of the owner's
        value += VP * (card.vp.points if card.vp.per is None and card.vp.condition is None else 1.5)
    value += LASTING * (len(card.passives) + (1 if card.actions else 0))
    return value


def buys_nothing(game, action) -> bool:
    """Whether an action is a standard project that would do nothing now (the ocean project after the last ocean):
    legal, as the rules let a player pay for nothing, but never a move a bot makes."""
    return (isinstance(action, tuple) and len(action) == 2 and action[0] == "project"
            and bool(void_by_maxed(game, game.standard_projects[action[1]].play)))


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def choose(self, game, decision: Decision) -> Option:
        if decision.for_player is not None:
            return self._for_another(game, decision)
        handler = getattr(self, "_" + decision.kind, None)
        if handler is None:
            return decision.options[0]
        return handler(game, decision)

    def _for_another(self, game, decision: Decision) -> Option:
        """A choice made for another player (`decided by first player { place ocean }`): the space worst for them,
        the bot's own interest being theirs least; any other choice as they would make it (valued from their side:
        the options are about their cards and stock)."""
        owner = decision.for_player
        if decision.kind == "space":
            value = self._space_value(game, owner)
            return min(decision.options, key=value)
        as_theirs = Decision(owner, decision.kind, decision.prompt, decision.options)
        handler = getattr(self, "_" + decision.kind, None)
        return decision.options[0] if handler is None else handler(game, as_theirs)

    # ------------------------------------------------------------------ actions

    def _action(self, game, decision: Decision) -> Option:
        best, best_value = None, 0.5
        for option in decision.options:
            value = self.action_value(game, decision.player, option.value)
            if value > best_value:
                best, best_value = option, value
        if best is None:
            best = self._terraform_anyway(game, decision)
        if best is None:
            stop = next((o for o in decision.options if o.value in (("pass",), ("end",), ("first_action",))), None)
            # an extra action (`take N actions`) cannot be skipped: the least bad of the legal actions
            return stop if stop is not None else max(
                decision.options, key=lambda o: self.action_value(game, decision.player, o.value))
        return best

    def _terraform_anyway(self, game, decision: Decision):
        """With nothing better to do, spend spare money on the standard project that terraforms most per MC
        (so games between greedy bots always end)."""
        best, best_ratio = None, 0.0
        for option in decision.options:
            if option.value[0] != "project":
                continue
            if buys_nothing(game, option.value):
                continue
            project = game.standard_projects[option.value[1]]
            cost = max(1, standard_cost(game, decision.player, project))
            ratio = effects_value(game, project.play, decision.player) / cost
            if ratio > best_ratio:
                best, best_ratio = option, ratio
        return best

    def action_value(self, game, player: int, action: tuple) -> float:
        kind = action[0]
        if kind == "first_action":
            return 1000.0
        if kind in ("pass", "end"):
            return 0.0
        if kind == "milestone":
            return 100.0
        if kind == "convert":
            conversion = game.standard_actions[action[1]]
            sends = [e for e in conversion.play if type(e) is fx.SendPiece]
            if sends:  # a visit: the best site's worth now, less the cheapest price
                best = max((visit_worth(game, s, player) for s in visitable(game, sends[0].piece)), default=0.0)
                return best - cheapest_price(game, player, conversion) + 1.0
            if conversion.cost_resource != "megacredits" or conversion.alternatives:
                return 60.0   # plants to greenery, heat to temperature: always
            return effects_value(game, conversion.play, player) + 1.0 - standard_cost(game, player, conversion)
        if kind == "award":
            return 40.0 if self._leads(game, player, action[1]) else -1.0
        if kind == "play":
            return card_value(game, action[1], player) - card_cost(game, player, action[1])
        if kind == "card_action":
            definition = game.library[action[1]]
            return max(effects_value(game, o.effects, player, action[1])
                       + effects_value(game, o.cost, player, action[1]) for o in definition.actions) + 1.0
        if kind == "project":
            project = game.standard_projects[action[1]]
            if buys_nothing(game, action):
                return -1.0  # legal (the rules let a player pay for nothing), never worth it
            if not any(isinstance(e, (fx.PlaceTile, fx.ChangeParameter, fx.Production, fx.PlacePiece))
                       for e in project.play):
                return -1.0  # Sell Patents and the like: only worth it when broke, never chosen greedily
            value = effects_value(game, project.play, player)
            return value - standard_cost(game, player, project) + 2.0
        return 0.0

    def _leads(self, game, player: int, name: str) -> bool:
        measure = game.awards[name].measure
        mine = quantity(game, measure, Where(player))
        return all(mine > quantity(game, measure, Where(i)) for i in range(len(game.state.players)) if i != player)

    # ------------------------------------------------------------------ other decisions

    def _pay(self, game, decision: Decision) -> Option:
        return min(decision.options, key=lambda o: o.value.get("megacredits", 0))

    def _buy(self, game, decision: Decision) -> Option:
        buy = decision.options[0]
        name = buy.label[len("buy "):]
        stock = game.state.players[decision.player].resources["megacredits"]
        if card_value(game, name, decision.player) - game.library[name].cost > -8 and stock >= 10:
            return buy
        return decision.options[-1]

    def _best_card(self, game, decision: Decision) -> Option:
        return max(decision.options, key=lambda o: card_value(game, o.value, decision.player)
                   if o.value in game.library else 0)

    _keep = _best_card
    _draft = _best_card

    def _corporation(self, game, decision: Decision) -> Option:
        def value(option):
            corporation = game.library[option.value]
            return corporation.starting_megacredits + effects_value(game, corporation.play, decision.player) \
                + LASTING * len(corporation.passives)
        return max(decision.options, key=value)

    def _discard(self, game, decision: Decision) -> Option:
        return min(decision.options, key=lambda o: card_value(game, o.value, decision.player))

    def _space(self, game, decision: Decision) -> Option:
        return max(decision.options, key=self._space_value(game, decision.player))

    def _space_value(self, game, player: int):
        """What a space is worth to `player` for a tile of theirs: its bonuses, oceans and their own tiles next to it
        (a tie broken at random, the same way for the same game)."""
        board, tiles = game.board, game.state.tiles
        tie_break = decision_rng(self.seed, game)

        def value(option):
            sid = option.value
            space = board.spaces[sid]
            score = sum(WEIGHT.get(b, CARD) * n for b, n in space.bonuses)
            for n in board.neighbours.get(sid, ()):
                tile = tiles.get(n)
                if tile is None:
                    continue
                if tile.kind in OCEAN_TILES:
                    score += 2
                if tile.owner == player and tile.is_city:
                    score += 3
                if tile.owner == player and tile.kind in GREENERY_TILES:
                    score += 2
            return score + tie_break.random() * 0.01
        return value

    def _faction(self, game, decision: Decision) -> Option:
        """Where to place (or replace): the faction where a piece of the bot's is worth most (`faction_worth`);
        what to remove: an opponent's piece from the dominant faction, else the first offered."""
        government, player = game.state.government, decision.player

        def place_value(option):
            if not isinstance(option.value, str):
                return 0
            return faction_worth(game, government.faction(option.value), player)

        def remove_value(option):
            name, owner = option.value
            return (owner != player) * 2 + (name == government.dominant)

        if isinstance(decision.options[0].value, tuple):
            return max(decision.options, key=remove_value)
        return max(decision.options, key=place_value)

    def _site(self, game, decision: Decision) -> Option:
        """A site to place a piece on: the one worth most (`site_worth`); to visit: the best visit now; a marker
        to raise: where a visit would give the bot most; to lower: where it would give it least."""
        purpose, player, state = site_choice(game), decision.player, game.state
        if purpose is None:
            return decision.options[0]
        kind, what = purpose
        if kind == "place":
            left = generations_left(game)
            return max(decision.options, key=lambda o: site_worth(game, state.site(o.value), player, what, left))
        if kind == "marker" and what < 0:
            return min(decision.options, key=lambda o: visit_worth(game, state.site(o.value), player))
        return max(decision.options, key=lambda o: visit_worth(game, state.site(o.value), player))

    def _player(self, game, decision: Decision) -> Option:
        players = game.state.players
        targets = [o for o in decision.options if isinstance(o.value, int) and o.value != decision.player]
        if not targets:
            return decision.options[0]
        return max(targets, key=lambda o: players[o.value].tr)

    def _x(self, game, decision: Decision) -> Option:
        return decision.options[-1]  # the largest X (the options are ascending; there may be millions)

    def _option(self, game, decision: Decision) -> Option:
        for option in decision.options:
            if option.value is True:
                return option
        return decision.options[0]

    def _order(self, game, decision: Decision) -> Option:
        return decision.options[0]  # the order the card is written in

    _trigger_order = _order

    def _final(self, game, decision: Decision) -> Option:
        return decision.options[0]

    def _card(self, game, decision: Decision) -> Option:
        if taking_revealed(game):   # a pick among cards revealed for every player: the card it would keep
            return self._best_card(game, decision)
        own = [o for o in decision.options if not (isinstance(o.value, tuple) and o.value[0] == decision.player)]
        return (own or list(decision.options))[0]
