"""Questions about a game that change nothing, for players of the public API: what a card or a standard project
would cost a player now, how much of something a player has or could count (`quantity` of a `Where`), whether a
global parameter is at its maximum and where it stands, whether Mars is terraformed, the final scores as if the
game ended now, which tile the pending decision places (`placing`, for a view that prices each space), the sites a
piece may be placed on or visit now (`placeable`, `visitable`) and what the pending choice of a site is for
(`site_choice`), what a step of TR costs a player in taxes now (`tax_rate`), and which maxed parameters leave a run
of effects with nothing to do (`void_by_maxed`: the ocean project after the last ocean), and whether the pending
decision is made for nobody (`for_nobody`: within a `neutral { }` block, such as a declared rule's), the cards of a
player's hand that `reveal X cards from hand` may show (`revealable_in_hand`), and whether the pending decision is a
pick among cards revealed for every player (`taking_revealed`).

They are the engine's own functions (runtime/rules/, and `placing`, `site_choice` and `taking_revealed`, which read the
flow where the handlers left it), re-exported as they are: a bot that prices a card here gets the price the game
charges. The bots (runtime/bots/) ask the rules nothing else; docs/api.md lists them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..handlers.sites import site_choice
from ..handlers.tiles import placing
from ..handlers.zones import taking_revealed
from ..rules.checks import EffectContext, revealable_in_hand, void_by_maxed
from ..rules.measures import Where, quantity
from ..rules.prices import card_cost, standard_cost
from ..rules.scoring import final_scores
from ..rules.sites import placeable, visitable
from ..rules.spaces import maxed, parameter_value, terraformed
from ..rules.taxes import tax_rate

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["Where", "card_cost", "final_scores", "for_nobody", "maxed", "parameter_value", "placeable", "placing",
           "quantity", "revealable_in_hand", "site_choice", "standard_cost", "taking_revealed", "tax_rate",
           "terraformed", "visitable", "void_by_maxed"]


def for_nobody(game: "Table") -> bool:
    """Whether the pending decision is made within a `neutral { }` block: its player only decides, and what it does
    is done for nobody (no TR, no bonuses). Read off the flow, where the handler that asks left its context."""
    asking = game.flow.asking
    return asking is not None and any(type(arg) is EffectContext and arg.neutral for arg in asking.args)
