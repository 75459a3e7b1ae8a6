"""What a Colonies card does where a scenario cannot reach (the scenarios of every card are in
tests/scenarios/cards/colonies-*.yaml): Polyphemos's price of a card also holds for the starting hand, bought at
set-up before any scenario step could run."""

from tharsis.runtime.api.game import Game, GameOptions


def _starting_offers(corporation: str) -> tuple[list[str], int]:
    """The prompts of the first seat's starting-card purchases, buying all ten, and the MC left after them."""
    game = Game(GameOptions(players=("ann", "bob"), seed=3, expansions=("colonies",),
                            corporations=(corporation, "Ecoline")))
    prompts = []
    while game.pending().player == 0 and game.pending().kind == "buy":
        prompts.append(game.pending().prompt)
        game.apply(0)  # buy
    return prompts, game.state.players[0].resources["megacredits"]


def test_polyphemos_pays_5_mc_for_each_card_of_its_starting_hand():
    prompts, left = _starting_offers("Polyphemos")
    assert len(prompts) == 10 and all(prompt.endswith("for 5 MC?") for prompt in prompts)
    assert left == 50 - 10 * 5


def test_another_corporation_pays_3_mc_a_starting_card():
    prompts, left = _starting_offers("Poseidon")
    assert len(prompts) == 10 and all(prompt.endswith("for 3 MC?") for prompt in prompts)
    assert left == 45 - 10 * 3
