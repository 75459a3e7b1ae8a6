"""Taxes on TR steps (`effect: tax 3 megacredits per tr step`): what a player's TR steps cost now, and how many
steps a card, project or action will give (a rules check: nothing here changes the state).

A tax in force (a passive of the player's, from a card or from the policy of the ruling faction) charges its amount
for each step of TR the player gains during the action phase. Playability counts it: `with_tax` adds to the effects
of a card, standard project or action a payment of the tax on the steps they will surely give, so the checks that
ask whether they can be carried out (runtime/rules/checks.py, after the card's own payment) also ask whether the tax
can be paid, as the reference engine does (`canAfford` with the ruling party's tax: money and its substitutes, never
steel or titanium). The steps are counted on a copy of the parameters as the effects would leave them: a maxed parameter
gives none, and a track bonus on the way (oxygen 8 % raising temperature, temperature 0 C placing an ocean, a
declared parameter's `tr +1`) gives its own. Interface: `tax_rate`, `tr_steps`, `with_tax`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tharsis.compiler import effects as fx
from tharsis.compiler.vocabulary import OCEAN_TILES, TILE_RAISES

from ..core.state import ACTION
from .checks import EffectContext, possible, value_of
from .measures import holds
from .passives import passives
from .spaces import parameter_value

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["skippable_steps", "tax_rate", "tr_steps", "with_tax"]


def tax_rate(game: "Table", player: int) -> int:
    """What one step of TR costs the player now: the taxes in force, during the action phase only (a TR step in
    production, in the rules between generations or in the final greenery phase is never taxed)."""
    if not game.elements.taxed or game.state.phase != ACTION:
        return 0
    return sum(t.amount for t in passives(game, player, fx.Tax))


def with_tax(game: "Table", effects: tuple, ctx: EffectContext) -> tuple:
    """The effects, followed by the payment of the tax on the TR steps they will give (unchanged without one)."""
    if not game.elements.taxed:
        return effects
    rate = tax_rate(game, ctx.player)
    if not rate:
        return effects
    steps = tr_steps(game, effects, ctx)
    if steps and game.elements.tr_skipped:   # the steps to be skipped are not taxed (Preservation Program)
        steps = max(0, steps - skippable_steps(game, ctx.player))
    return effects + (fx.Pay(fx.Amount(rate * steps)),) if steps else effects


def skippable_steps(game: "Table", player: int) -> int:
    """How many more TR steps the player would not gain in this generation's action phase, under their `skip first N
    tr steps each generation`: N less those already skipped (0 outside the action phase)."""
    if game.state.phase != ACTION:
        return 0
    total = sum(s.steps for s in passives(game, player, fx.SkipTr))
    left = total - game.state.players[player].tr_skipped_this_generation
    return left if left > 0 else 0


def tr_steps(game: "Table", effects: tuple, ctx: EffectContext) -> int:
    """The steps of TR the player will surely gain by carrying out the effects now: raises of TR and of parameters
    that are not maxed, tiles that raise one, the track bonuses they reach; of a choice the option giving fewest;
    nothing for what is optional, for nobody (`neutral`) or for other players."""
    return _Steps(game).of(effects, ctx)


class _Steps:
    """Counts TR steps on a copy of the parameters, which the counted raises move on."""

    def __init__(self, game: "Table"):
        self.game = game
        self.values: dict[str, int] = {}

    def value(self, parameter: str) -> int:
        if parameter not in self.values:
            self.values[parameter] = parameter_value(self.game, parameter)
        return self.values[parameter]

    def of(self, effects: tuple, ctx: EffectContext) -> int:
        total = 0
        for e in effects:
            kind = type(e)
            if kind is fx.ChangeParameter and not ctx.neutral:
                steps = value_of(self.game, e.amount, ctx)
                if e.parameter == "tr":
                    total += max(0, steps)
                elif steps > 0:
                    total += self.raised(e.parameter, steps, ctx)
            elif kind is fx.PlaceTile and not ctx.neutral and e.tile in TILE_RAISES:
                if e.tile in OCEAN_TILES or not self.game.flow.no_oxygen:  # solo's last greeneries raise nothing
                    total += self.raised(TILE_RAISES[e.tile], e.count, ctx)
            elif kind is fx.ReplaceTile and e.new in TILE_RAISES:   # a greenery replacing a tile raises oxygen
                total += self.raised(TILE_RAISES[e.new], 1, ctx)
            elif kind is fx.Choice:
                total += self.fewest(e.options, ctx)
            elif kind is fx.Conditional:
                total += self.of(e.then if holds(self.game, e.condition, ctx.where) else e.otherwise, ctx)
            elif kind is fx.ChooseX:
                total += self.of(e.body, ctx.with_x(e.minimum))
            elif kind is fx.TakeRole and self.game.elements.government is not None:  # what the role gives
                total += self.of(self.game.elements.government.role_reward, ctx)
        return total

    def fewest(self, options: tuple, ctx: EffectContext) -> int:
        """Of a choice, the option that can be carried out and gives fewest steps (its raises then count on)."""
        best, best_values = None, self.values
        for option in options:
            if not possible(self.game, option, ctx):
                continue
            trial = _Steps(self.game)
            trial.values = dict(self.values)
            steps = trial.of(option, ctx)
            if best is None or steps < best:
                best, best_values = steps, trial.values
        self.values = best_values
        return best or 0

    def raised(self, parameter: str, steps: int, ctx: EffectContext) -> int:
        """TR of raising a parameter `steps` steps: one per step below its maximum, and its track bonuses."""
        low, high, size, _ = self.game.elements.scales[parameter]
        total = 0
        for _ in range(steps):
            value = self.value(parameter)
            if value >= high:
                break
            value = self.values[parameter] = value + size
            total += 1
            for track in self.game.board.board.tracks:
                if track.parameter == parameter and track.value == value:
                    total += self.of(track.effects, ctx)
        return total
