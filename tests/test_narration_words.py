"""The narration speaks players' words, never card syntax: a choice among effects is told as the prompt showed it
(rules text, spoken of the player), the order of a card's effects as `first`, `then`, a choice made within a
`neutral { }` block (World Government Terraforming) as made for nobody, a declared parameter's change with its
declared unit (`venus 2→4%`, as oxygen's `0→1%`), a card's action by its rules text, and a tile placed off Mars on
the area's name, which no map shows. In English and in Chinese, from the declarations alone.
"""

import contextlib
import io
import re

import pytest

from tharsis.cli import main
from tharsis.runtime.api.game import Game, GameOptions
from tharsis.terminal import prompts


def _told(seed: int, language: str = "en") -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["play", "--seat", "ann=greedy", "--seat", "bob=random", "--expansion", "venus", "--seed",
                     str(seed), "--no-log", "--lang", language]) == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def told():
    # seed 1: bob's Luna Metropolis (a city off Mars); seed 4: Venus Soils' order of effects, Local Shading's action
    return {(seed, language): _told(seed, language) for seed, language in ((1, "en"), (4, "en"), (1, "zh"))}


@pytest.fixture(scope="module")
def venus_game():
    return Game(GameOptions(players=("ann", "bob"), expansions=("venus",)))


def test_no_choice_is_told_in_card_syntax(told, venus_game):
    for seed in (1, 4):
        for chosen in re.findall(r"\b(?:chooses|then to) ([^,\n]+?)(?:,|\)?\n)", told[seed, "en"]):
            # card syntax: `production(...)`, `venus +1`, `add 1 floater here`; rules text reads otherwise
            found = prompts.said(venus_game, chosen)
            assert found is None or chosen.startswith("to "), chosen
            assert not re.search(r"\w\(|\w [+-]\d| here\b|->", chosen), chosen


def test_a_choice_among_effects_is_said_as_the_player_doing_it(told):
    out = told[4, "en"]
    assert ("(ann chooses to raise Venus 1 step first, then to increase their plant production 1 step, then to add 2 "
            "microbes to another of their cards)") in out


def test_world_government_terraforming_is_told_as_done_for_nobody(told):
    for seed in (1, 4):
        wgt = re.findall(r"» rule: World Government Terraforming(?: \(continued\))?\n  [›(] ?(\w+ chooses [^\n]+)",
                         told[seed, "en"])
        assert wgt, told[seed, "en"][:2000]
        for line in wgt:
            assert re.fullmatch(r"\w+ chooses to (raise (temperature|oxygen|Venus) 1 step|place an ocean tile), for "
                                r"nobody \(no TR, no bonuses, only any-player effects trigger\)\)?", line), line


def test_a_declared_parameter_changes_with_its_declared_unit(told):
    changes = re.findall(r"\n +venus (\d+)→(\d+)(%?)\n", told[1, "en"])
    assert changes and all(unit == "%" for _, _, unit in changes), changes
    assert re.search(r"\n +金星 \d+→\d+%\n", told[1, "zh"])


def test_a_cards_action_is_told_once_in_rules_text(told):
    out = told[4, "en"]
    assert "» ann uses Local Shading: Add 1 floater to this card\n" in out
    assert "chooses add 1 floater here" not in out and "Local Shading: add 1 floater here" not in out


def test_a_tile_placed_off_mars_is_placed_on_the_areas_name(told, venus_game):
    assert "› bob places city on Luna Metropolis (64)\n" in told[1, "en"]
    assert "› bob 在 Luna Metropolis（64） 放置城市板块\n" in told[1, "zh"]
    off_mars = {space.id for space in venus_game.board.offboard()}
    for seed in (1, 4):
        assert not off_mars & set(re.findall(r" places \w+ on (\d+)\n", told[seed, "en"]))


def test_chinese_choices_are_rules_text_with_the_same_notes(told):
    out = told[1, "zh"]
    assert "不为任何玩家执行（不提升改造度、不获得奖励，只触发“任一玩家”的效果）" in out
    assert "venus +1" not in out and "temperature +1" not in out
