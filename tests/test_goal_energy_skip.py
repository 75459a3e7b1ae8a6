"""Trial 5's modifiers (issue 30): `discount N on milestones | awards` (Nirgal Enterprises), `keep energy during
production` (Supercapacitors) and `skip first N tr steps each generation` (Preservation Program) compile, write back
the same and read in English and Chinese; the count of TR steps skipped lives in the player's state, so a clone, a
save and an older save without it agree. tests/scenarios/rules/goal-prices.yaml, energy-kept.yaml and skip-tr.yaml
play them."""

import json

import attrs

from tharsis.compiler import compile_text, effects as fx, rules_text, text
from tharsis.runtime.api.game import Game, GameOptions, load_library

CARDS = """
corporation "Goal Office" {
  set: promo  start: 40 megacredits
  effect: discount 8 on milestones
  effect: discount 20 on awards
}

card "Battery Bank" {
  set: promo  type: active  cost: 4
  effect: keep energy during production
}

card "Slow Start" {
  set: promo  type: active  cost: 4
  effect: skip first 2 tr steps each generation
}
"""


def _compiled(source: str):
    result = compile_text(source, "<trial5>")
    assert [d.message for d in result.diagnostics] == []
    return result.library


def test_the_three_modifiers_compile_and_write_back_the_same():
    library = _compiled(CARDS)
    assert library.get("Goal Office").passives == (
        fx.Discount(8, "megacredits", fx.DiscountTarget("milestones")),
        fx.Discount(20, "megacredits", fx.DiscountTarget("awards")))
    assert library.get("Battery Bank").passives == (fx.KeepEnergy(),)
    assert library.get("Slow Start").passives == (fx.SkipTr(2),)
    again = _compiled(text.content(library.definitions, (), (), ())).definitions
    assert [attrs.evolve(d, source=None) for d in again] == [attrs.evolve(d, source=None) for d in library.definitions]


def test_the_three_modifiers_read_in_english_and_chinese():
    library = _compiled(CARDS)
    office, bank, slow = (library.get(name) for name in ("Goal Office", "Battery Bank", "Slow Start"))
    assert "Claiming a milestone costs you 8 MC less." in rules_text.card(office, "en")
    assert "Funding an award costs you 20 MC less." in rules_text.card(office, "en")
    assert "你宣告达成里程碑时，少支付8 M€。" in rules_text.card(office, "zh")
    assert "你资助奖励时，少支付20 M€。" in rules_text.card(office, "zh")
    assert "Converting energy to heat during production is optional for you" in rules_text.card(bank, "en")
    assert "生产阶段中，你可以选择不将电力转换为热能" in rules_text.card(bank, "zh")
    assert "Skip the first 2 TR steps you gain in each generation's action phase." in rules_text.card(slow, "en")
    assert "每个时代的行动阶段中，你获得的前2点改造度不计入。" in rules_text.card(slow, "zh")


def test_the_steps_skipped_are_cloned_saved_and_loaded_and_older_saves_load_without_them():
    game = Game(GameOptions(players=("ann", "bob"), seed=4), load_library())
    fresh = json.loads(game.to_json())
    assert all("tr_skipped_this_generation" not in p for p in fresh["state"]["players"])   # saves as before
    loaded = Game.from_json(json.dumps(fresh), load_library())
    assert [p.tr_skipped_this_generation for p in loaded.state.players] == [0, 0]
    game.state.players[1].tr_skipped_this_generation = 2
    clone = game.clone()
    assert [p.tr_skipped_this_generation for p in clone.state.players] == [0, 2]
    clone.state.players[1].tr_skipped_this_generation = 0
    assert game.state.players[1].tr_skipped_this_generation == 2   # not shared with the clone
    data = json.loads(game.to_json())
    assert [p.get("tr_skipped_this_generation") for p in data["state"]["players"]] == [None, 2]
    assert Game.from_json(json.dumps(data), load_library()).state.players[1].tr_skipped_this_generation == 2
