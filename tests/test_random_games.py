"""Whole random games in every variant, with the rules' invariants checked after every decision.

Random bots answer every decision of complete games (setup to final scoring) for 1-5 players, solo and its TR-63
goal, Corporate Era, the draft and the initial draft, the beginner corporation and the three boards. After every
decision: never a 10th ocean, the global parameters inside their ranges, no negative resource, production or card
resource (MC production down to -5), and whenever a player is about to choose an action (no card is then in
anyone's hands but the players'), every project card of the game exactly once in the deck, the discard pile, a
hand, in play or in an event pile. A handful of seeds per variant keeps the whole file well under a minute.
"""

from collections import Counter

import pytest

from tharsis.compiler.vocabulary import GLOBAL_RANGES
from tharsis.runtime.api.game import Game, GameOptions, load_library
from tharsis.runtime.bots import RandomBot
from tharsis.runtime.core.state import NEUTRAL
from tharsis.runtime.rules.spaces import terraformed

LIBRARY = load_library()
SEEDS = (1, 2, 3)
MAX_DECISIONS = 5_000   # a random game takes a few hundred; more means the game does not end

VARIANTS = {
    "solo": dict(players=("ann",)),
    "solo-tr63-hellas": dict(players=("ann",), solo_tr63=True, board="Hellas"),
    "2p-base-tharsis": dict(players=("ann", "bob")),
    "2p-corporate-era-hellas": dict(players=("ann", "bob"), corporate_era=True, board="Hellas"),
    "2p-initial-draft-and-draft-elysium": dict(players=("ann", "bob"), draft=True, initial_draft=True,
                                               board="Elysium"),
    "3p-corporate-era-draft-elysium": dict(players=("ann", "bob", "cy"), corporate_era=True, draft=True,
                                           board="Elysium"),
    "4p-beginner-tharsis": dict(players=("ann", "bob", "cy", "dee"), beginner=True),
    "5p-corporate-era-hellas": dict(players=("ann", "bob", "cy", "dee", "eve"), corporate_era=True, board="Hellas"),
    "solo-prelude-venus": dict(players=("ann",), expansions=("prelude", "venus")),
    "2p-prelude-venus-corporate-era-tharsis": dict(players=("ann", "bob"), corporate_era=True,
                                                   expansions=("prelude", "venus")),
    "3p-venus-draft-hellas": dict(players=("ann", "bob", "cy"), draft=True, expansions=("venus",), board="Hellas"),
    "4p-prelude-elysium": dict(players=("ann", "bob", "cy", "dee"), expansions=("prelude",), board="Elysium"),
    "5p-prelude-venus-corporate-era-tharsis": dict(players=("ann", "bob", "cy", "dee", "eve"), corporate_era=True,
                                                   expansions=("prelude", "venus")),
}


def _project_cards(game: Game) -> Counter:
    """Every card of the game: the project cards and the cards of declared kinds (preludes)."""
    sets = game.sets_in_play()
    return Counter(d.name for d in game.library.values() if d.kind == "card" and d.set in sets)


def _cards_held(game: Game) -> Counter:
    """Where the cards are: deck, discard pile, hands, event piles, play areas, and the declared kinds' piles and
    kept cards (a prelude never joins the project cards)."""
    state = game.state
    held = Counter(state.deck) + Counter(state.discard)
    for pile in state.piles.values():
        held += Counter(pile)
    for kept in state.kept:
        held += Counter(kept)
    for player in state.players:
        held += Counter(player.hand) + Counter(player.events)
        held += Counter(c.name for c in player.played if game.library[c.name].kind == "card")
    kinds = game.elements.card_kinds
    assert not any(game.library[n].type in kinds for n in state.deck + state.discard), "a prelude among projects"
    return held


def _check_invariants(game: Game, deck: Counter) -> None:
    state = game.state
    low, high, step, _ = GLOBAL_RANGES["temperature"]
    assert low <= state.temperature <= high and (state.temperature - low) % step == 0, state.temperature
    assert 0 <= state.oxygen <= GLOBAL_RANGES["oxygen"][1], state.oxygen
    for name, value in state.parameters.items():  # declared parameters (Venus) stay on their scale
        low, high, step, _ = game.elements.scales[name]
        assert low <= value <= high and (value - low) % step == 0, (name, value)
    ocean_tiles = sum(1 for t in state.tiles.values() if t.kind == "ocean")
    assert state.oceans == ocean_tiles <= GLOBAL_RANGES["oceans"][1], (state.oceans, ocean_tiles)
    for player in state.players:
        assert all(amount >= 0 for amount in player.resources.values()), (player.name, player.resources)
        assert player.production["megacredits"] >= -5, (player.name, player.production)
        assert all(v >= 0 for r, v in player.production.items() if r != "megacredits"), player.production
        assert all(card.resources >= 0 for card in player.played), player.played
    decision = game.pending()
    if decision is not None and decision.kind == "action":
        assert _cards_held(game) == deck, "a project card was lost or duplicated"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_random_game_keeps_the_rules_invariants_after_every_decision(variant, seed):
    game = Game(GameOptions(seed=seed, max_generations=30, **VARIANTS[variant]), LIBRARY)
    deck = _project_cards(game)
    bots = {i: RandomBot(seed * 10 + i) for i in range(len(game.state.players))}
    for _ in range(MAX_DECISIONS):
        if game.over:
            break
        decision = game.pending()
        assert decision.options, "a pending decision always offers at least one option"
        game.apply(bots[decision.player].choose(game, decision))
        _check_invariants(game, deck)
    assert game.over, f"the game did not end within {MAX_DECISIONS} decisions"
    names = [p.name for p in game.state.players]
    assert [row["name"] for row in game.result["players"]] == names
    if game.options.solo:  # exactly 14 generations (12 with Prelude); won only by reaching the goal
        assert game.state.generation == (12 if "prelude" in game.options.expansions else 14)
        assert game.result["winner"] in (None, "ann")
        neutral = [t for t in game.state.tiles.values() if t.owner == NEUTRAL]
        assert sorted(t.kind for t in neutral) == ["city", "city", "greenery", "greenery"]
    else:
        assert terraformed(game) or game.state.generation == 30
        assert game.result["winner"] in names
