"""Rules text in English and Chinese comes from one renderer and one phrase table per language.

A Chinese-reading designer must get every bundled card in Chinese, with no English left but the names (of cards,
tiles, standard projects and board areas); both languages must say the same thing for the golden cards below.
"""

import re

import pytest
import yaml

from tharsis.cli import main
from tharsis.compiler import compile_text, rules_text
from tharsis.compiler import vocabulary as v


@pytest.fixture(scope="module")
def cards(bundled):
    return bundled.library.cards + bundled.library.corporations


def _table(repo, language):
    return yaml.safe_load((repo / "compiler" / "templates" / "phrases" / f"{language}.yaml").read_text("utf-8"))


def test_every_language_has_the_same_phrases_nouns_and_tags(repo):
    english = _table(repo, "en")
    for language in rules_text.LANGUAGES:
        table = _table(repo, language)
        for part in ("patterns", "nouns", "tags", "joins", "articles"):
            assert set(table[part]) == set(english[part]), (language, part)
        assert "default" in table["units"]


def test_every_word_of_the_closed_vocabularies_has_a_translation():
    for language in rules_text.LANGUAGES:
        t = rules_text.phrases(language)
        for word in v.STANDARD_RESOURCES + v.CARD_RESOURCES + v.TILES + tuple(v.GLOBAL_RANGES):
            assert word in t.nouns or f"{word}_tile" in t.nouns, (language, word)
        for card_type in v.CARD_TYPES:
            assert f"type_{card_type}" in t.nouns, (language, card_type)
        assert set(v.TAGS) <= set(t.tags), language


def _names(library):
    names = {d.name for d in library.definitions}
    for board in library.of_kind("board"):
        names |= {space.reserved for space in board.spaces if getattr(space, "reserved", None)}
    return sorted(names, key=len, reverse=True)


def test_every_bundled_card_reads_in_chinese_with_no_english_left_but_names(bundled, cards):
    names = _names(bundled.library)
    leftovers = {}
    for card in cards:
        words = rules_text.card(card, "zh")
        assert words.startswith(card.name)
        assert "{" not in words and "}" not in words, words
        for name in names:
            words = words.replace(name, "")
        for word in re.findall(r"[A-Za-z][A-Za-z_]+", words):
            leftovers.setdefault(word, card.name)
    assert leftovers == {}


def test_livestock_in_both_languages(bundled):
    livestock = bundled.library.get("Livestock")
    assert rules_text.card(livestock, "en") == (
        "Livestock (#184) — active card, 13 MC, tags: animal\n"
        "  Requires oxygen at least 9%.\n"
        "  Holds animal resources.\n"
        "  When played: Decrease your plant production 1 step, increase your MC production 2 steps.\n"
        "  Action: Add 1 animal to this card.\n"
        "  1 VP per animal here.")
    assert rules_text.card(livestock, "zh") == (
        "Livestock（#184） — 行动牌，13 M€，标志：动物\n"
        "  需求：氧气浓度至少9%。\n"
        "  可存放动物资源。\n"
        "  打出时：植物产量减少1点，M€产量增加2点。\n"
        "  行动：在本卡上增加1个动物。\n"
        "  每个本卡上的动物得1分。")


def test_a_corporation_with_triggers_in_both_languages(bundled):
    republic = bundled.library.get("Tharsis Republic")
    assert rules_text.card(republic, "en") == (
        "Tharsis Republic (#R31) — corporation, starts with 40 MC, tags: building\n"
        "  First action: Place a city tile.\n"
        "  Effect: When any player places a city tile on Mars: Increase your MC production 1 step.\n"
        "  Effect: When you place a city tile: Gain 3 MC.")
    assert rules_text.card(republic, "zh") == (
        "Tharsis Republic（#R31） — 公司，起始资金 40 M€，标志：建筑\n"
        "  第一个行动：放置1个城市板块。\n"
        "  效果：当任一玩家放置城市板块（放在火星上）时：M€产量增加1点。\n"
        "  效果：当你放置城市板块时：获得3 M€。")


def test_choices_conditions_and_per_clauses_in_both_languages(bundled):
    asteroid = bundled.library.get("Nitrogen-Rich Asteroid")
    assert "If plant tags at least 3: Increase your plant production 4 steps. " \
           "Otherwise: Increase your plant production 1 step." in rules_text.card(asteroid, "en")
    assert "若植物标志至少3：植物产量增加4点。否则：植物产量增加1点。" in rules_text.card(asteroid, "zh")
    hydrogen = rules_text.card(bundled.library.get("Imported Hydrogen"), "zh")
    assert "选择一项：获得3点植物。或：在你的另一张牌上增加3个微生物。或：在你的另一张牌上增加2个动物。" in hydrogen
    rails = bundled.library.get("Martian Rails")
    assert "Action: Spend 1 energy. -> Gain 1 MC per city on mars." in rules_text.card(rails, "en")
    assert "行动：花费1点电力。 → 每个火星上的城市板块，获得1 M€。" in rules_text.card(rails, "zh")


def test_a_designers_own_resource_and_tag_keep_their_names():
    result = compile_text('resource spore\ntag mushroom\n'
                          'card "Spore Farm" {\n  type: active  cost: 5  tags: mushroom\n  holds: spore\n'
                          '  action: add 1 spore here\n  vp: 1 per 2 spores here\n}\n', "<spore>")
    assert result.errors == []
    words = rules_text.card(result.library.get("Spore Farm"), "zh")
    assert "标志：mushroom" in words and "在本卡上增加1个spore。" in words
    assert "1 VP per 2 spores here." in rules_text.card(result.library.get("Spore Farm"), "en")


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="en, zh"):
        rules_text.phrases("fr")


def test_cards_command_prints_chinese_rules_text(capsys):
    assert main(["cards", "--format", "rules", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "Livestock（#184） — 行动牌，13 M€，标志：动物" in out
    assert "When played" not in out


def test_cards_command_refuses_an_unknown_language(capsys):
    assert main(["cards", "--format", "rules", "--lang", "fr"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "tharsis: error[E709]: argument --lang: invalid choice: 'fr' (choose from 'en', 'zh')",
        "     = hint: one of: en, zh"]


QUANTITY_PHRASES = ("jovian tags", "tags", "distinct tags", "animals here", "resources on cards", "cities on mars",
                    "your greeneries", "special tiles", "tiles in rows 1 to 3", "cities next to oceans", "plants",
                    "heat production", "highest production", "raised productions", "tr", "tr raised this generation",
                    "cards in hand", "all events played", "automated or active cards with requirements",
                    "cards costing 20 or more", "oxygen", "opponent plant tags", "opponent cities",
                    "steel + titanium")


def _leftover_english(words: str, names=("Example",)) -> list[str]:
    """English words left in Chinese rules text once the names are taken out (named tiles are quoted 「…」)."""
    words = re.sub("「[^」]*」", "", words)
    for name in names:
        words = words.replace(name, "")
    return re.findall(r"[A-Za-z][A-Za-z_]+", words)


@pytest.mark.parametrize("phrase", QUANTITY_PHRASES)
def test_every_kind_of_quantity_reads_in_both_languages(phrase):
    card = compile_text(f'card "Example" #1 {{\n  type: active  cost: 1\n  holds: animal\n'
                        f'  play: gain 1 plant per {phrase}\n  vp: 1 per 2 {phrase}\n}}\n', "<quantity>")
    assert card.errors == []
    definition = card.library.cards[0]
    assert "1 VP per 2 " in rules_text.card(definition, "en")
    chinese = rules_text.card(definition, "zh")
    assert _leftover_english(chinese) == [] and "每2" in chinese and "得1分" in chinese


def test_every_effect_kind_reads_in_both_languages():
    from tharsis.compiler.effects import REGISTRY

    for name, cls in sorted(REGISTRY.items()):  # the same cards as test_docs' effect examples
        line = cls.example
        field = "effect" if cls.category in ("triggers", "modifiers") and name != "next_card" else "play"
        held = next((r for r in ("animal", "microbe", "science") if r + "s here" in line or r + " here" in line),
                    "science")
        body = line if "X" not in line or name == "choose_x" else f"choose X up to heat {{ {line} }}"
        result = compile_text(f'card "Example" #1 {{\n  type: active  cost: 1\n  holds: {held}\n'
                              f'  {field}: {body}\n}}\n', f"<{name}>", with_bundled=True)
        definition = result.library.get("Example")
        names = tuple(sorted((d.name for d in result.library.definitions), key=len, reverse=True))
        english = rules_text.card(definition, "en")
        chinese = rules_text.card(definition, "zh")
        assert "{" not in english + chinese, name
        assert _leftover_english(chinese, names) == [], (name, chinese)


def test_standard_projects_milestones_and_awards_read_in_both_languages(bundled):
    """What `tharsis play` and the language server show besides cards: the parts have the same two languages."""
    library = bundled.library
    names = _names(library)
    for project in library.of_kind("standard_project") + library.of_kind("standard_action"):
        assert rules_text.sentences(project.play)[:1].isupper()
        assert _leftover_english(rules_text.sentences(project.play, "zh"), names) == [], project.name
    for milestone in library.of_kind("milestone"):
        assert _leftover_english(rules_text.condition(milestone.requirement, "zh"), names) == [], milestone.name
    for award in library.of_kind("award"):
        assert _leftover_english(rules_text.quantity(award.measure, "zh"), names) == [], award.name
    sell = rules_text.sentences(library.get("Sell Patents").play)
    assert sell == "Choose X from 1 to cards in hand: Discard X cards from your hand. Gain X MC."
    assert rules_text.sentences(library.get("Sell Patents").play, "zh") == "选择X（1至手牌）：从手牌中弃掉X张牌。获得X M€。"


def test_play_shows_the_cards_rules_text_in_the_chosen_language(tmp_path):
    import io

    from tharsis.play import GameLog, Seat, Session
    from tharsis.runtime.game import Game, GameOptions

    out = io.StringIO()
    session = Session(Game(GameOptions(players=("ann",), seed=4)), [Seat("ann", "human")], GameLog(None),
                      stdin=io.StringIO("card Livestock\nprojects\nmilestones\nquit\n"), stdout=out,
                      autosave=tmp_path / "solo.json", language="zh")
    session.run()
    text = out.getvalue()
    assert "Livestock（#184） — 行动牌，13 M€，标志：动物" in text and "打出时：植物产量减少1点" in text
    assert "电力产量增加1点。" in text            # the Power Plant standard project
    assert "Livestock (#184)" not in text


def test_play_lang_flag_is_offered_and_checked(capsys):
    assert main(["play", "--lang", "fr"]) == 2
    assert "error[E709]: argument --lang: invalid choice: 'fr'" in capsys.readouterr().err


def test_rules_text_on_an_ascii_only_output_is_a_clear_error_not_a_crash():
    import os
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "tharsis", "cards", "--format", "rules", "--lang", "zh"],
                         capture_output=True, env=dict(os.environ, PYTHONIOENCODING="ascii"))
    assert run.returncode == 2 and run.stdout == b""
    assert run.stderr.decode().splitlines() == [
        "tharsis: error[E733]: the output's encoding (ascii) cannot show the rules text",
        "     = hint: use a UTF-8 terminal, or set PYTHONIOENCODING=utf-8"]
