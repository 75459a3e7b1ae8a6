"""What a player notices of Colonies and Turmoil in the terminal game, in English and Chinese: the sites and the
political board on the panel, the facts beside a site or a faction to choose, the menu's prices, and a whole game
told by cause (a trade and the bonuses it pays, a delegate placed, the phase at the end of each generation step by
step). Every word shown comes from the declarations (sites, pieces, factions, the role, the kind with stages)
through the names files: tests/test_expansions.py checks that the engine's Python names none of them.
"""

import re

import pytest

from tharsis.cli import main
from tharsis.runtime.api import Decision, Option
from tharsis.runtime.api.game import Game, GameOptions
from tharsis.terminal import prompts, view


def _at_the_first_action(seed: int = 5, expansions=("colonies", "turmoil")) -> Game:
    game = Game(GameOptions(players=("ann", "bob"), seed=seed, expansions=expansions))
    while game.state.phase != "action":
        game.apply(0)
    return game


@pytest.fixture(scope="module")
def game():
    return _at_the_first_action()


# ------------------------------------------------------------------ the panel

def test_each_site_shows_its_track_what_a_trade_gives_now_its_bonus_and_whose_colonies(game):
    site = next(s for s in game.state.sites if s.active)
    declared = game.elements.sites[site.name]
    site.pieces.append(1)   # bob's colony
    try:
        shown = view.sites(game)
    finally:
        site.pieces.pop()
    assert shown.startswith("sites (the marker's step in brackets):\n")
    line = shown[shown.index(f"  {site.name}: "):].split("\n")
    steps = " ".join(f"[{n}]" if n == site.marker else str(n) for n in range(len(declared.track)))
    assert line[0].startswith(f"  {site.name}: track {steps}; a trade fleet visiting now gets: ")
    from tharsis.compiler import rules_text

    assert line[0].endswith(rules_text.sentences(declared.track[site.marker]).rstrip("."))
    assert line[1].startswith(f"      colony bonus: {rules_text.sentences(declared.bonus).rstrip('.')}")
    assert line[1].endswith("; colonies: bob (1/3)")
    assert len(shown.splitlines()) == 1 + 2 * len(game.state.sites)
    assert view.sites(Game(GameOptions(players=("a", "b")))) == ""


def test_an_inactive_site_says_what_activates_it():
    game = _at_the_first_action(seed=2, expansions=("colonies",))
    inactive = [s for s in game.state.sites if not s.active]
    assert inactive, [s.name for s in game.state.sites]   # seed 2 deals a site that waits for a card holding animals
    shown = view.sites(game)
    site = inactive[0]
    assert re.search(rf"  {site.name} \(inactive\): track .*; a trade fleet visiting now gets: nothing while inactive\n"
                     r"      inactive until any player plays a card that holds animals; colony bonus: ", shown), shown


def test_the_sites_in_chinese(game):
    shown = view.sites(game, "zh")
    assert shown.startswith("站点（方括号内为标记所在的格）：\n")
    assert "；贸易船队现在访问获得：" in shown and "      殖民地奖励：" in shown and "；殖民地：无（0/3）" in shown


def test_the_political_board_is_complete(game):
    government = game.state.government
    shown = view.politics(game)
    lines = shown.splitlines()
    assert lines[0] == f"government: Greens rules, chairman: neutral, dominant: {government.dominant}"
    assert lines[1] == "  policy of Greens: When you place a greenery tile: Gain 4 MC."
    assert lines[2] == f"  delegates in reserve: ann 7, bob 7, neutral {government.neutral}"
    assert lines[3].startswith("  Mars First: ") and "  Greens: " in shown
    assert f"  {government.dominant}: neutral*" in shown and "(dominant)" in shown
    assert re.search(r"\n  Greens: [^\n]*\(ruling\)", shown)
    current, coming, distant = reversed(game.state.stages["global event"])
    assert lines[-1] == f"global event cards: current -, coming {coming}, distant {distant}"


def test_the_political_board_in_chinese(game):
    shown = view.politics(game, "zh")
    assert shown.startswith("政府：绿党执政，主席：中立，优势派系：")
    assert "  绿党的政策：当你放置绿化板块时：获得4 M€。" in shown and "  储备的代表：ann 7，bob 7，中立 " in shown
    assert "（执政）" in shown and "（优势）" in shown and "全球事件牌：当前无，即将「" in shown


def test_the_ruling_factions_actions_are_its_policy(game):
    government = game.state.government
    ruling = government.ruling
    government.ruling = "Scientists"
    try:
        shown = view.politics(game)
    finally:
        government.ruling = ruling
    assert "  policy of Scientists: Action: Pay 10 MC. -> Draw 3 cards." in shown


# ------------------------------------------------------------------ what a choice gives or changes

def test_a_site_to_trade_with_shows_what_it_gives_now_and_whose_colonies_are_there(game):
    site = next(s for s in game.state.sites if s.active)
    options = (Option(f"site {site.name}", site.name),)
    decision = Decision(0, "site", "Which site does your trade fleet visit?", options)
    from tharsis.compiler import rules_text

    gives = rules_text.sentences(game.elements.sites[site.name].track[site.marker]).rstrip(".")
    assert prompts.option_text(game, decision, decision.options[0]) == \
        f"site {site.name} (step {site.marker}: {gives}; colonies: none (0/3))"
    placing = Decision(0, "site", "On which site do you place a colony?", decision.options)
    build = rules_text.sentences(game.elements.sites[site.name].build).rstrip(".")
    shown = prompts.option_text(game, placing, placing.options[0])
    assert shown.startswith(f"site {site.name} (placing one: {build}; ")
    chinese = prompts.option_text(game, decision, decision.options[0], "zh")
    assert chinese.startswith("站点「") and f"（第{site.marker}格：" in chinese and "殖民地：无（0/3）" in chinese


def test_a_faction_to_place_a_delegate_in_says_who_would_lead_and_what_would_dominate(game):
    government = game.state.government
    empty = next(f.name for f in government.factions if not f.pieces and f.name != government.ruling)
    dominant = government.dominant
    options = tuple(Option(f"faction {name}", name) for name in (empty, dominant))
    decision = Decision(0, "faction", "In which faction do you place 1 delegate?", options)
    assert prompts.option_text(game, decision, options[0]) == \
        f"faction {empty} (delegates: none, you would lead it)"
    assert prompts.option_text(game, decision, options[1]).startswith(f"faction {dominant} (delegates: neutral*")
    assert prompts.option_text(game, decision, options[1]).endswith(", dominant)")
    assert prompts.question(game, decision, "zh") == "你要将1个代表放入哪个派系？"
    assert "（代表：无，你将成为领袖）" in prompts.option_text(game, decision, options[0], "zh")


def test_a_piece_to_remove_is_said_with_its_faction_and_owner_in_chinese(game):
    options = (Option("faction Mars First neutral", ("Mars First", -1)), Option("faction Reds bob", ("Reds", 1)))
    decision = Decision(0, "faction", "Which piece do you remove?", options)
    assert prompts.question(game, decision, "zh") == "你要移除哪个棋子？"
    assert [prompts.option_text(game, decision, o, "zh") for o in decision.options] == \
        ["「火星优先」中中立的棋子", "「红党」中bob的棋子"]


def test_the_menu_prices_every_way_to_trade_and_a_free_lobby(game):
    trade = Option("convert Trade", ("convert", "Trade"))
    assert prompts.menu_price(game, 0, trade) == prompts.Price(None, "9 MC or 3 energy or 3 titanium")
    assert prompts.menu_price(game, 0, trade, "zh").text == "9 M€ 或 3点电力 或 3点钛"
    menu = prompts.numbered(game, game.pending())
    assert re.search(r"convert Lobby +free  Place a delegate from your reserve in one faction\.", menu), menu
    assert re.search(r"标准行动「游说」 +免费", prompts.numbered(game, game.pending(), "zh"))


# ------------------------------------------------------------------ a game told by cause

@pytest.fixture(scope="module")
def told(tmp_path_factory):
    import contextlib
    import io

    said = {}
    for language in ("en", "zh"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["play", "--seat", "a=greedy", "--seat", "b=greedy", "--expansion", "colonies",
                         "--expansion", "turmoil", "--seed", "3", "--no-log", "--lang", language]) == 0
        said[language] = out.getvalue()
    return said


def test_a_trade_is_told_as_a_standard_action_with_the_fleet_and_the_colony_bonuses(told):
    out = told["en"]
    assert "converts" not in out and "chooses site" not in out
    trade = re.search(r"» (\w) uses standard action Trade\n(?:  \(.*\)\n)?  \1: -(\d+ MC|\d+ titanium|\d+ energy)\n"
                      r"  › \1 sends a trade fleet to (\w+)\n", out)
    assert trade, out[:3000]
    bonus = re.search(r"    › (\w)'s colony bonus from (\w+)\n      \1: \+\d+ \w+", out)
    assert bonus, "no colony bonus told"


def test_a_delegate_placed_is_told_with_its_faction(told):
    out = told["en"]
    assert "chooses faction" not in out
    assert re.search(r"» (\w) uses standard action Lobby\n  › \1's delegate enters (Mars First|Scientists|Unity|"
                     r"Greens|Reds|Kelvinists)\n", out)
    assert "› a neutral delegate enters " in out


def test_the_phase_at_the_end_of_a_generation_is_told_step_by_step(told):
    out = told["en"]
    phase = out[out.index("» rule: Turmoil phase\n", out.index("=== Generation 2 ===")):]
    phase = phase[:phase.index("\n\n")]
    steps = [line.strip() for line in phase.splitlines()]
    assert steps[1:3] == ["a: TR 19→18", "b: TR 19→18"]
    assert re.match(r"› global event War on Earth is carried out$", steps[3])
    order = ["is carried out", "comes to power", "delegates go back to their reserves: ", "takes the role of chairman",
             "is discarded", "enters the current stage", "enters the coming stage", "is revealed"]
    at = [next(i for i, line in enumerate(steps) if step in line) for step in order]
    assert at == sorted(at), phase
    assert "› ruling bonus of " in out   # a bonus that paid something is told under its own cause
    # a choice a player makes within the phase (an event's option) goes on under the phase, told again
    assert re.search(r"\n» rule: Turmoil phase \(continued\)\n  › b chooses [^\n]+\n    b: ", out)


def test_the_game_told_in_chinese(told):
    out = told["zh"]
    for said in ("» a 使用标准行动「贸易」", "派出1个贸易船队访问「", "的殖民地奖励", "的代表进入「",
                 "› 中立的代表进入「", "» 规则：动乱阶段", "上台执政", "› 代表回到各自的储备：", "的执政奖励",
                 "担任主席", "› 执行全球事件「地球战争」", "进入当前阶段", "› 揭示全球事件「"):
        assert said in out, said
