"""Trial 5's modifiers (issue 30): `discount N on milestones | awards` (Nirgal Enterprises), `keep energy during
production` (Supercapacitors) and `skip first N tr steps each generation` (Preservation Program) compile, write back
the same and read in English and Chinese; the count of TR steps skipped lives in the player's state, so a clone, a
save and an older save without it agree. tests/scenarios/rules/goal-prices.yaml, energy-kept.yaml and skip-tr.yaml
play them."""

import json

import attrs

from tharsis.compiler import compile_text, effects as fx, rules_text, text
from tharsis.runtime.api.game import Game, GameOptions, load_library
from tharsis.runtime.core.state import ACTION

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


SEATS = """
corporation "Battery Union" {
  set: promo  start: 45 megacredits
  play: production(energy +2)
  effect: keep energy during production
}

corporation "Early Sleepers" {
  set: promo  start: 45 megacredits
  action: gain 1 megacredits; pass
}
"""


def _game(tmp_path, seed: int):
    (tmp_path / "seats.mars").write_text(SEATS)
    library = load_library((str(tmp_path),))
    return Game(GameOptions(players=("ann", "bob"), seed=seed, corporations=("Battery Union", "Early Sleepers"),
                            max_generations=3), library), library


def test_bots_play_whole_games_with_the_energy_question_and_a_passing_action(tmp_path):
    """The random and greedy bots answer the production's energy question as any X; the corporation whose action
    passes ends its player's generation at once: no second action is asked of them after it."""
    from tharsis.runtime.bots import BOTS

    for bot in ("random", "greedy"):
        game, _ = _game(tmp_path, 5)
        seats = {0: BOTS[bot](1), 1: BOTS[bot](2)}
        asked, passed_by_action = 0, 0
        while not game.over:
            decision = game.pending()
            if decision.prompt.startswith("How much of your"):
                asked += 1
                assert decision.player == 0 and [o.label for o in decision.options][0] == "X=0"
            choice = seats[decision.player].choose(game, decision)
            game.apply(choice)
            if decision.kind == "action" and choice.value == ("card_action", "Early Sleepers"):
                passed_by_action += 1
                assert game.state.players[1].passed
                after = game.pending()
                # ann's turns, or the next phase: never bob's second action
                assert game.over or after.player != 1 or game.state.phase != ACTION, after.prompt
        assert asked >= 1 and passed_by_action >= 1 and game.result is not None


def test_a_game_saved_at_the_energy_question_loads_replays_and_ends_as_the_unsaved_one(tmp_path):
    from tharsis.runtime.bots import BOTS

    game, library = _game(tmp_path, 8)
    seats = {0: BOTS["random"](3), 1: BOTS["random"](4)}
    while not game.pending().prompt.startswith("How much of your"):
        decision = game.pending()
        game.apply(seats[decision.player].choose(game, decision))
    saved = game.to_json()
    loaded = Game.from_json(saved, library, verify=True)
    assert loaded.to_json() == saved and loaded.pending().prompt == game.pending().prompt
    for each in (game, loaded):
        players = {0: BOTS["greedy"](5), 1: BOTS["greedy"](6)}
        while not each.over:
            decision = each.pending()
            each.apply(players[decision.player].choose(each, decision))
    assert loaded.snapshot() == game.snapshot() and list(loaded.log) == list(game.log)


def test_the_terminals_milestone_and_award_views_show_the_price_the_asking_player_would_pay(tmp_path):
    """The `milestones` and `awards` views of `tharsis play` give the price after the asking player's `discount N on
    milestones | awards`: 8 - 8 = 0 and 8 - 20 (never below 0) for Goal Office's player, the printed 8 for the other."""
    from tharsis.terminal import view

    (tmp_path / "office.mars").write_text(CARDS)
    library = load_library((str(tmp_path),))
    game = Game(GameOptions(players=("ann", "bob"), seed=3, corporations=("Goal Office", "Tharsis Republic")),
                library)
    assert "milestones: 0 MC to claim" in view.milestones(game, 0)
    assert "milestones: 8 MC to claim" in view.milestones(game, 1)
    assert "next costs 0 MC" in view.awards(game, 0) and "next costs 8 MC" in view.awards(game, 1)
