"""`take N actions` (issue 30, trial 3's Head Start): N actions taken now from the action menu, with no pass and no
end of turn among them. It compiles, writes back, reads in English and Chinese, is a coded error where no player
acts (a trigger, a rule, a standard project); the random, greedy and search bots play whole games with it, and a
game saved at an extra action loads, replays and ends as the unsaved one. tests/scenarios/rules/extra-actions.yaml
plays its rules."""

import json

import attrs
import pytest

from tharsis.compiler import compile_text, effects as fx, rules_text, text
from tharsis.runtime.api.game import Game, GameOptions, load_library
from tharsis.runtime.bots import BOTS

CARDS = """
card "Head Start" {
  set: promo  type: prelude
  play: gain 2 steel; gain 2 megacredits per cards in hand; take 2 actions
}

corporation "Overtime Guild" {
  start: 50 megacredits
  play: take 1 action
  action: take 1 action
}
"""


def _compiled(source: str):
    result = compile_text('card kind "prelude" { deal: 4 keep 2 }\n' + source, "<extra>")
    assert [d.message for d in result.diagnostics] == []
    return result.library


def test_take_actions_compiles_to_a_count_and_writes_back_the_same():
    library = _compiled(CARDS)
    assert library.get("Head Start").play[-1] == fx.TakeActions(2)
    guild = library.get("Overtime Guild")
    assert guild.play == (fx.TakeActions(1),) and guild.actions[0].effects == (fx.TakeActions(1),)
    assert text.effect(fx.TakeActions(1)) == "take 1 action"
    written = compile_text(text.content(library.definitions, (), (), ()), "<again>")
    assert [d.message for d in written.diagnostics] == []
    again = written.library.definitions
    assert [attrs.evolve(d, source=None) for d in again] == [attrs.evolve(d, source=None) for d in library.definitions]


@pytest.mark.parametrize("language, expected", [
    ("en", ["Immediately take 2 actions (no pass among them).", "Immediately take 1 action (no pass)."]),
    ("zh", ["立即执行2个行动（其间不能跳过）。", "立即执行1个行动（不能跳过）。"]),
])
def test_take_actions_reads_as_rules_text(language, expected):
    library = _compiled(CARDS)
    read = "\n".join(rules_text.card(d, language) for d in library.definitions if d.kind in ("card", "corporation"))
    for phrase in expected:
        assert phrase in read, read


@pytest.mark.parametrize("source, code, wanted", [
    ('card "Bad" { type: active  cost: 1\n  effect: when you play space tag -> take 1 action }', "E307",
     "not in a trigger's effects"),
    ('standard project "Rush" { cost: 5\n  play: take 2 actions }', "E307", "not in a standard project"),
    ('rule "Bonus Turn" { at: end of generation\n  play: take 1 action }', "E307", "not in a rule's effects"),
    ('card "Bad" { type: event  cost: 1\n  play: take 0 actions }', "E302", "take at least 1 action"),
])
def test_take_actions_where_no_player_acts_is_a_coded_error(source, code, wanted):
    result = compile_text(source + "\n", "<bad>")
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == [code] and wanted in errors[0].message, [d.message for d in errors]


# two corporations that take an extra action as they start and as their action (each game's seats one each)
GUILDS = """
corporation "Overtime Guild" {
  start: 50 megacredits
  play: take 1 action
  action: take 1 action
}

corporation "Night Shift Guild" {
  start: 45 megacredits
  action: take 2 actions
}
"""


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    folder = tmp_path_factory.mktemp("extra")
    (folder / "guilds.mars").write_text(GUILDS)
    return load_library((str(folder),))


def _options(seed: int) -> GameOptions:
    return GameOptions(players=("ann", "bob"), seed=seed, corporations=("Overtime Guild", "Night Shift Guild"),
                       max_generations=3)


def _extra(decision) -> bool:
    return decision.kind == "action" and decision.prompt.startswith("extra action")


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts"])
def test_every_bot_plays_whole_games_with_extra_actions_and_never_passes_in_one(bot, library):
    game = Game(_options(7), library)
    seats = {0: BOTS[bot](1), 1: BOTS[bot](2)}
    extras = 0
    while not game.over:
        decision = game.pending()
        if _extra(decision):
            extras += 1
            assert not any(o.value in (("pass",), ("end",)) for o in decision.options)
        game.apply(seats[decision.player].choose(game, decision))
    assert extras >= 2 and game.result is not None


def test_a_game_saved_at_an_extra_action_loads_replays_and_ends_as_the_unsaved_one(library):
    seats = {0: BOTS["random"](3), 1: BOTS["random"](4)}
    game = Game(_options(11), library)
    while not _extra(game.pending()):
        decision = game.pending()
        game.apply(seats[decision.player].choose(game, decision))
    saved = game.to_json()
    loaded = Game.from_json(saved, library, verify=True)
    assert loaded.to_json() == saved and loaded.pending().prompt == game.pending().prompt
    data = json.loads(saved)
    del data["flow"]   # rebuilt by replaying the log
    assert Game.from_json(json.dumps(data), library).to_json() == saved
    for each in (game, loaded):
        players = {0: BOTS["greedy"](5), 1: BOTS["greedy"](6)}
        while not each.over:
            decision = each.pending()
            each.apply(players[decision.player].choose(each, decision))
    assert loaded.snapshot() == game.snapshot() and list(loaded.log) == list(game.log)
