"""Expansions declared in card text, chosen per game: Prelude's set-up, Venus' scale and World Government
Terraforming, saves and replays with them on, and the compiler's errors for the declarations themselves."""

import json
import random
import re

import pytest

from tharsis.compiler import compile_text
from tharsis.runtime.api.game import Game, GameOptions
from tharsis.runtime.bots import RandomBot, play_out

BOTH = ("prelude", "venus")


def finished(options: GameOptions, seed: int = 0) -> Game:
    game = Game(options)
    play_out(game, {i: RandomBot(seed * 10 + i) for i in range(len(game.state.players))})
    return game


def _codes(text: str) -> list[str]:
    return [d.code for d in compile_text(text).diagnostics]


# ------------------------------------------------------------------ chosen per game

def test_without_the_expansion_its_cards_parameter_and_rules_are_out_of_the_game():
    game = Game(GameOptions(players=("a", "b"), seed=3))
    assert game.state.parameters == {} and game.state.piles == {}
    assert not any(game.library[n].set in BOTH for n in game.state.deck)
    assert "Air Scrapping" not in game.standard_projects
    assert game.elements.rules == {}


def test_with_venus_the_scale_starts_at_zero_and_its_project_cards_are_in_the_deck():
    game = Game(GameOptions(players=("a", "b"), seed=3, expansions=("venus",)))
    assert game.state.parameters == {"venus": 0}
    assert any(game.library[n].set == "venus" for n in game.state.deck)
    assert "Air Scrapping" in game.standard_projects
    assert "Venuphile" in game.awards
    reserved = {s.reserved for s in game.board.offboard()}
    assert {"Stratopolis", "Dawn City", "Luna Metropolis", "Maxwell Base"} <= reserved


def test_an_unknown_expansion_is_refused_with_a_suggestion():
    with pytest.raises(ValueError, match="unknown expansion 'venuss'.*did you mean 'venus'"):
        Game(GameOptions(players=("a", "b"), expansions=("venuss",)))


def test_prelude_deals_four_preludes_of_which_each_player_keeps_two_and_plays_them_before_generation_one():
    game = Game(GameOptions(players=("a", "b"), seed=5, expansions=("prelude",)))
    decision = game.pending()
    while decision.kind != "keep":
        game.apply(0)
        decision = game.pending()
    assert len(decision.options) == 4 and decision.prompt == "Which prelude card do you keep?"
    while game.pending().kind != "action":
        game.apply(0)
    assert game.state.generation == 1
    preludes = [[c.name for c in p.played if game.library[c.name].type == "prelude"] for p in game.state.players]
    fizzled = [e for e in game.events if e[1] == "unplayable"]   # (generation, kind, player, card)
    assert all(len(names) + sum(1 for e in fizzled if e[2] == p.index) == 2
               for names, p in zip(preludes, game.state.players))
    assert not any(game.library[n].type == "prelude" for n in game.state.deck + game.state.discard)


def test_world_government_terraforming_raises_one_parameter_at_the_end_of_each_generation_for_nobody():
    game = Game(GameOptions(players=("a", "b"), seed=8, expansions=("venus",)))
    bots = {0: RandomBot(1), 1: RandomBot(2)}
    while game.state.generation == 1:
        decision = game.pending()
        game.apply(bots[decision.player].choose(game, decision))
    before = sum(1 for e in game.events if e[:2] == (1, "rule") and e[3] == "World Government Terraforming")
    assert before == 1
    state = game.state
    raised = (state.temperature + 30) // 2 + state.oxygen + state.oceans + state.parameters["venus"] // 2
    assert raised >= 1


def test_the_solo_game_with_prelude_lasts_twelve_generations():
    game = finished(GameOptions(players=("ann",), seed=2, expansions=BOTH))
    assert game.state.generation == 12


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_whole_games_with_both_expansions_end_and_score(players):
    names = ("ann", "bob", "cy", "dee", "eve")[:players]
    game = finished(GameOptions(players=names, seed=players, corporate_era=True, expansions=BOTH), seed=players)
    assert game.over and [row["name"] for row in game.result["players"]] == list(names)


# ------------------------------------------------------------------ saves and replays

def test_saving_at_random_points_with_both_expansions_and_continuing_reaches_the_same_game():
    options = GameOptions(players=("a", "b"), seed=41, corporate_era=True, expansions=BOTH)
    reference = finished(options, seed=41)
    points = sorted(random.Random(5).sample(range(len(reference.log)), 40))
    game = Game(options)
    for index, label in enumerate(reference.log):
        if index in points:
            saved = game.to_json()
            assert json.loads(saved)["options"]["expansions"] == list(BOTH)
            game = Game.from_json(saved, verify=index in points[:3])
        game.apply(label)
    assert game.snapshot() == reference.snapshot() and game.result == reference.result


def test_replaying_the_log_of_a_game_with_expansions_reaches_the_same_final_state():
    game = finished(GameOptions(players=("a", "b", "c"), seed=9, board="Hellas", expansions=BOTH), seed=9)
    replayed = Game.replay(game.options, game.log)
    assert replayed.snapshot() == game.snapshot() and replayed.result == game.result
    assert game.snapshot()["parameters"]["venus"] == replayed.state.parameters["venus"]


def test_a_game_without_expansions_saves_exactly_as_before():
    data = json.loads(Game(GameOptions(players=("a", "b"), seed=1)).to_json())
    assert "expansions" not in data["options"]
    assert not {"parameters", "kept", "piles"} & set(data["state"])


# ------------------------------------------------------------------ the declarations' errors

def test_a_neutral_block_may_not_reward_a_player():
    assert "E308" in _codes('rule "Gift" { at: end of generation  play: neutral { gain 3 plants } }')


def test_a_scale_must_run_upwards_in_whole_steps():
    assert "E302" in _codes('parameter "glow" { scale: 0 to 5 step 2 }')


def test_a_parameter_may_not_take_a_printed_parameters_name():
    assert "E301" in _codes('parameter "oxygen" { scale: 0% to 14% step 1% }')


def test_an_undeclared_parameter_says_how_to_declare_one():
    result = compile_text('card "X" #X9 { type: event  cost: 1  requires: glow >= 4 }')
    [diagnostic] = result.errors
    assert diagnostic.code == "E104" and 'parameter "glow"' in diagnostic.hint


def test_a_declared_parameters_requirement_needs_its_unit_and_a_value_on_its_scale():
    declared = 'parameter "glow" { scale: 0% to 30% step 2%  ends game: no }\n'  # nothing raises it: W114 aside
    assert "E303" in _codes(declared + 'card "X" #X9 { type: event  cost: 1  requires: glow >= 4 }')
    assert "E302" in _codes(declared + 'card "X" #X9 { type: event  cost: 1  requires: glow >= 5% }')
    assert _codes(declared + 'card "X" #X9 { type: event  cost: 1  requires: glow >= 4% }') == []


def test_a_card_of_a_declared_kind_has_no_cost_but_may_have_lasting_effects():
    """It stays in its player's play area, as a blue card does (issue 30: Prelude 2's preludes with actions)."""
    kind = 'card kind "opening" { deal: 2 keep 1 }\n'
    assert _codes(kind + 'card "O" #O1 { type: opening  play: gain 1 heat }') == []
    assert "E202" in _codes(kind + 'card "O" #O1 { type: opening  cost: 3  play: gain 1 heat }')
    assert _codes(kind + 'card "O" #O1 { type: opening  effect: discount 1 on cards }') == []


def test_keeping_more_cards_than_are_dealt_is_an_error():
    assert "E302" in _codes('card kind "opening" { deal: 2 keep 3 }')


def test_a_rule_at_an_unknown_moment_gets_a_suggestion():
    result = compile_text('rule "R" { at: end of generaton  play: neutral { temperature +1 } }')
    [diagnostic] = result.errors
    assert diagnostic.code == "E110" and "end of generation" in diagnostic.hint


def test_an_expansion_naming_an_undefined_milestone_is_an_error():
    assert "E109" in _codes('expansion "x" { milestones: "Nobody" }')


COLONY_TILES = ("Callisto", "Ceres", "Enceladus", "Europa", "Ganymede", "Io", "Luna", "Miranda", "Pluto", "Titan",
                "Triton")
# Turmoil's words (issue 29): its pieces, office, phase and kind of card, in any case as parts of words too; the
# parties as whole words in any case (`reds`, not `hundreds`; `unity`, not `community`)
TURMOIL_WORDS = ("delegate", "chairman", "turmoil", "global event", "globalevent", "lobby")
PARTIES = re.compile(r"\b(mars first|scientists|unity|greens|reds|kelvinists)\b", re.IGNORECASE)


def test_no_expansions_words_are_in_the_engine_or_the_compiler(repo):
    """The expansions are card text: the Python of compiler/ and runtime/ never names one of their elements. Words
    are looked for in any case; the names of the colony tiles as the proper names they are, whole words with their
    capital (`Io`, not the `io` module; `Titan`, not titanium)."""
    words = ("venus", "prelude", "floater", "world government", "aphrodite", "hoverlord", "venuphile",
             "dirigible", "psychrophile", "air scrapping", "stratopolis", "colony", "colonies", "trade fleet",
             "fleet") + TURMOIL_WORDS
    tiles = re.compile(r"\b(" + "|".join(COLONY_TILES) + r")\b")
    found = []
    for folder in ("compiler", "runtime"):
        for path in sorted((repo / folder).rglob("*.py")):
            written = path.read_text(encoding="utf-8")
            text = written.lower()
            found += [f"{path.name}: {word}" for word in words if word in text]
            found += [f"{path.name}: {name}" for name in tiles.findall(written)]
            found += [f"{path.name}: {name}" for name in PARTIES.findall(written)]
    assert found == []


@pytest.mark.parametrize("bot", ["greedy", "mcts"])
def test_the_greedy_and_search_bots_play_whole_games_with_both_expansions(bot):
    from tharsis.runtime.bots import BOTS

    game = Game(GameOptions(players=("a", "b"), seed=7, corporate_era=True, expansions=BOTH,
                            max_generations=6 if bot == "mcts" else None))
    bots = {0: BOTS[bot](70), 1: BOTS["random"](71)}
    while not game.over:
        decision = game.pending()
        game.apply(bots[decision.player].choose(game, decision))
    assert game.result["winner"] in ("a", "b")


def test_simulate_and_replay_take_the_expansions_from_the_command_line(tmp_path, capsys):
    from tharsis.cli import main

    out = tmp_path / "results.jsonl"
    assert main(["simulate", "--games", "2", "--quiet", "--expansion", "prelude", "--expansion", "venus",
                 "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(row["options"]["expansions"] == ["prelude", "venus"] for row in rows)
    log = tmp_path / "game.jsonl"
    assert main(["play", "--seat", "a=random", "--seat", "b=random", "--seed", "3", "--expansion", "venus",
                 "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    assert "verified" in capsys.readouterr().out
    assert main(["simulate", "--games", "1", "--expansion", "venuss", "--out", str(out)]) == 2
    assert "did you mean 'venus'" in capsys.readouterr().err


def test_cards_and_the_gallery_show_the_content_of_the_expansions_chosen(tmp_path, capsys):
    from tharsis.cli import main

    assert main(["cards", "--format", "json", "--expansion", "venus"]) == 0
    rows = json.loads(capsys.readouterr().out)
    sets = {row.get("set") for row in rows}
    assert "venus" in sets and "prelude" not in sets
    assert main(["cards", "--format", "json"]) == 0
    assert {"venus", "prelude"} <= {row.get("set") for row in json.loads(capsys.readouterr().out)}
    assert main(["gallery", str(tmp_path / "site"), "--expansion", "prelude"]) == 0
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'data-name="Allied Bank"' in page and 'data-name="Dirigibles"' not in page
    assert main(["gallery", str(tmp_path / "site"), "--expansion", "prelud"]) == 2
    assert "did you mean 'prelude'" in capsys.readouterr().err


# ------------------------------------------------------------------ a definition changing another set's parameter

AMBIENT = """corporation "Ambient Test" {
  set: pathfinders  tags: venus
  start: 38 megacredits
  first action: venus +2
}
"""


def test_a_corporation_raising_venus_without_needing_it_is_warned_with_the_needs_field():
    found = [d for d in compile_text(AMBIENT, with_bundled=True).diagnostics if d.code == "W115"]
    assert len(found) == 1 and "changes venus" in found[0].message and found[0].hint.startswith("add 'needs: venus'")
    needing = AMBIENT.replace("tags: venus", "tags: venus\n  needs: venus")
    assert not [d for d in compile_text(needing, with_bundled=True).diagnostics if d.code == "W115"]


def test_a_condition_on_a_parameter_not_in_play_is_no_warning_as_it_never_holds_there():
    text = ('card "Floyd Test" {\n  set: promo  type: active  cost: 4\n'
            '  action: if venus >= 30% { gain 3 megacredits }\n}\n')
    assert not compile_text(text, with_bundled=True).diagnostics


def test_a_corporation_that_needs_venus_is_dealt_only_with_venus(tmp_path):
    (tmp_path / "ambient.mars").write_text(AMBIENT.replace("tags: venus", "tags: venus\n  needs: venus"))
    dealt = set()
    for expansions in ((), ("venus",)):
        for seed in range(12):
            game = Game(GameOptions(players=("a", "b"), seed=seed, card_paths=(str(tmp_path),), expansions=expansions))
            dealt |= {(expansions, str(option)) for option in game.pending().options if "Ambient Test" in str(option)}
    assert {e for e, _ in dealt} == {("venus",)}


def test_raising_a_parameter_not_in_the_game_does_nothing_instead_of_failing(tmp_path):
    (tmp_path / "ambient.mars").write_text(AMBIENT)
    game = Game(GameOptions(players=("a", "b"), seed=1, card_paths=(str(tmp_path),),
                            corporations=("Ambient Test", "")))
    play_out(game, {i: RandomBot(i) for i in range(2)})
    assert game.over and game.state.players[0].corporations == ["Ambient Test"] and game.state.parameters == {}


ADVISOR = """
card "Advisor Test" #LAB61 { set: lab  type: active  cost: 0
                             action: neutral { choose { temperature +1 | oxygen +1 | venus +1 } } }
"""


def _advisor_run(expansions: list, answer: str, tr: int):
    from tharsis.designer.scenarios import run
    return run({"name": "advisor", "cards": ADVISOR, "options": {"expansions": expansions},
                "setup": {"players": {"alice": {"played": ["Advisor Test"]}}},
                "steps": [{"action": "Advisor Test", "choose": [answer]}],
                "expect": {"players": {"alice": {"tr": tr}}}})


def test_a_choose_option_on_a_parameter_not_in_the_game_is_not_offered():
    """Trial 7 bug 2 (World Government Advisor): in a game without Venus a `venus +1` option of a `choose` is left
    out, as the reference engine offers only the parameters in play (and is no E699); with Venus it is offered."""
    without = _advisor_run(["prelude"], "venus +1", 20)
    assert without.error is not None and "'venus +1' is not an option" in without.error and "E699" not in without.error
    assert "temperature +1; oxygen +1" in without.error
    chosen = _advisor_run(["prelude"], "oxygen +1", 20)
    assert chosen.error is None and not chosen.failures
    offered = _advisor_run(["venus"], "venus +1", 20)
    assert offered.error is None and not offered.failures
