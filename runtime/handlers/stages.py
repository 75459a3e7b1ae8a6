"""Cards of a kind with stages: carrying out the card in the last stage, and moving the cards on (an effect handler).

A kind of card declared with `stages: distant, coming, current` keeps one card in each stage (`state.stages[kind]`,
first stage first, None for an empty one). `resolve KIND` carries out the `play:` of the card in the last stage (it
stays there); `advance KIND` discards that card (under the kind's pile), moves every other card one stage on, running
the `on STAGE:` effects of the stage it enters, and draws a card from the pile into the first stage, running its
`on reveal:` effects. Interface: `resolve`, `advance` (the handlers of fx.ResolveStage and fx.AdvanceStages).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tharsis.compiler import effects as fx

from ..core.flow import push, step
from ..rules.checks import Context
from . import effects  # as a module: effects imports this one (a staged card's effects are effects)

if TYPE_CHECKING:
    from ..core.table import Table

__all__ = ["advance", "resolve"]


def _stages(game: "Table", kind: str) -> list:
    """The kind's stages in this game, made empty the first time they are used."""
    stages = game.state.stages.get(kind)
    if stages is None:
        declared = game.elements.card_kinds.get(kind)
        stages = game.state.stages[kind] = [None] * (len(declared.stages) if declared is not None else 0)
    return stages


def resolve(game: "Table", e: fx.ResolveStage, ctx: Context) -> None:
    """The card in the last stage is carried out, by the player deciding (a rule's first player); nothing when the
    stage is empty."""
    stages = _stages(game, e.card_kind)
    name = stages[-1] if stages else None
    if name is None:
        return
    game.begin("resolve", None, name)
    effects.run_effects(game, game.library[name].play, 0, Context(ctx.player), None)


def advance(game: "Table", e: fx.AdvanceStages, ctx: Context) -> None:
    """Discard the card of the last stage, move the others on (each entering stage's effects, last stage first, as
    the cards move), then draw into the first stage (its `on reveal:`)."""
    kind = e.card_kind
    stages = _stages(game, kind)
    if not stages:
        return
    names = game.elements.card_kinds[kind].stages
    leaving = stages[-1]
    if leaving is not None:
        game.state.piles.setdefault(kind, []).insert(0, leaving)  # under its pile: back only when all others were
        game.log_event("stage_discard", None, leaving)
    stages[1:] = stages[:-1]
    stages[0] = None
    push(game, reveal_next, kind, ctx.player)
    for index in range(1, len(stages)):  # pushed last, run first: the card entering the last stage first
        if stages[index] is not None:
            push(game, enter_stage, kind, stages[index], names[index], ctx.player)


@step
def enter_stage(game: "Table", kind: str, name: str, stage: str, player: int) -> None:
    """A card entered a stage: its `on STAGE:` effects, as a cause of their own."""
    game.begin("stage", None, name, stage)
    on_entering = dict(game.library[name].on_stage).get(stage, ())
    effects.run_effects(game, on_entering, 0, Context(player), None)


@step
def reveal_next(game: "Table", kind: str, player: int) -> None:
    """A card from the kind's pile enters the first stage: its `on reveal:` effects (nothing when the pile is
    empty)."""
    pile = game.state.piles.get(kind)
    if not pile:
        return
    name = pile.pop()
    game.state.stages[kind][0] = name
    game.begin("stage_reveal", None, name)
    effects.run_effects(game, dict(game.library[name].on_stage).get("reveal", ()), 0, Context(player), None)
