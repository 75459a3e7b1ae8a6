"""The order question of a played card ("Which effect of the card first?", RULES.md 4A) is asked only when one step
can change what another can do or gives (runtime/rules/ordering.py): not for a production change and a TR raise or
a draw, whose every order ends the same; still for a trigger's plant that a later step spends, or a city placed
before a count of cities."""

import pytest

from tharsis.designer.scenarios import Outcome, Runner

NO_QUESTION = {
    "a production change, a TR raise and a gain": ("Nitrogen Shipment", {}),
    "a production change and a draw": ("Biolab", {}),
    "a production change and a draw, a wild tag in play": ("Research Network", {}),
}


def _asked(card: str, player: dict, globals_: dict = None, steps: list = None) -> list:
    spec = {"name": card, "options": {"expansions": ["prelude"], "corporate_era": True, "players": ["alice", "bob"]},
            "setup": {"globals": globals_ or {}, "players": {"alice": {"hand": [card], **player}}},
            "steps": steps or [{"play": card}],
            "expect": {"players": {"alice": {"played": player.get("played", []) + [card]}}}}
    outcome = Outcome(card, "<test>")
    runner = Runner(spec, outcome, None)
    runner.run()
    assert outcome.passed, outcome.failures
    return [decision.kind for decision in runner.asked]


@pytest.mark.parametrize("case", sorted(NO_QUESTION))
def test_no_order_is_asked_when_every_order_ends_the_same(case):
    card, player = NO_QUESTION[case]
    assert "order" not in _asked(card, {"resources": {}, **player})


def test_the_order_is_asked_when_a_trigger_gives_what_a_later_step_spends():
    # Viral Enhancers' plant and Nitrophilic Moss's "lose 2 plants": with 3 plants, either may come first
    asked = _asked("Nitrophilic Moss", {"resources": {"megacredits": 8, "plants": 3}, "played": ["Viral Enhancers"]},
                   {"oceans": 3})
    assert "order" in asked
