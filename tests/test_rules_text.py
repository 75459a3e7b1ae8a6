"""Rules text in English and Chinese comes from one renderer and one phrase table per language.

A Chinese-reading designer must get every bundled card in Chinese, with no English left but the names (of cards,
tiles, standard projects and board areas) that no names file translates, in sentences that read as Chinese does
(the rulebook's word order and one term per concept), not as formulas; both languages must say the same thing for
the golden cards below. Every kind of definition, boards and milestones too, has rules text.
"""

import re

import pytest
import yaml

from tharsis.cli import main
from tharsis.compiler import compile_paths, compile_text, element_text, rules_text, vocabulary as v


@pytest.fixture(scope="module")
def cards(bundled):
    return bundled.library.cards + bundled.library.corporations


def _table(repo, language):
    return yaml.safe_load((repo / "compiler" / "templates" / "phrases" / f"{language}.yaml").read_text("utf-8"))


def test_every_language_has_the_same_phrases_nouns_and_tags(repo):
    english = _table(repo, "en")
    for language in rules_text.LANGUAGES:
        table = _table(repo, language)
        for part in ("patterns", "nouns", "tags", "joins", "articles", "variants"):
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
        words = rules_text.card(card, "zh", bundled.library.names)
        assert words.startswith(bundled.library.names.display_name(card, "zh"))
        assert "{" not in words and "}" not in words, words
        for name in names:
            words = words.replace(name, "")
        words = words.replace(f"#{card.number}", "")  # a card's number (#GE01) is no English either
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
    assert rules_text.card(livestock, "zh", bundled.library.names) == (
        "畜牧（Livestock，#184） — 行动牌，13 M€，标志：动物\n"
        "  需求：氧气浓度至少9%。\n"
        "  本卡可存放动物。\n"
        "  打出时：减少1点植物产量，增加2点M€产量。\n"
        "  行动：在本卡上增加1个动物。\n"
        "  本卡上每有1个动物，得1分。")
    # without the names files, the card text's own name
    assert rules_text.card(livestock, "zh").startswith("Livestock（#184） — 行动牌")


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
        "  效果：当任一玩家放置城市板块（放在火星上）时：增加1点M€产量。\n"
        "  效果：当你放置城市板块时：获得3 M€。")


def test_choices_conditions_and_per_clauses_in_both_languages(bundled):
    asteroid = bundled.library.get("Nitrogen-Rich Asteroid")
    assert "If plant tags at least 3: Increase your plant production 4 steps; " \
           "otherwise: increase your plant production 1 step." in rules_text.card(asteroid, "en")
    assert "若你至少有3个植物标志，增加4点植物产量；否则，增加1点植物产量。" in rules_text.card(asteroid, "zh")
    hydrogen = rules_text.card(bundled.library.get("Imported Hydrogen"), "zh")
    assert "选择一项：获得3点植物；或：在你的另一张牌上增加3个微生物；或：在你的另一张牌上增加2个动物。" in hydrogen
    rails = bundled.library.get("Martian Rails")
    assert "Action: Spend 1 energy. -> Gain 1 MC per city on mars." in rules_text.card(rails, "en")
    assert "行动：花费1点电力。 → 火星上每有1个城市板块，获得1 M€。" in rules_text.card(rails, "zh")


BLOCKS = """card "Blocks" {
  type: active  cost: 5  tags: microbe
  holds: microbe
  effect: when you play building tag -> choose { add 1 microbe here | remove 2 microbes here; production(plants +1) }
  effect: when you play microbe tag -> choose { gain 2 megacredits | add 1 microbe here }; gain 2 megacredits
  effect: when you play science tag -> if microbes here >= 1 { remove 1 microbe here; tr +1 }; gain 1 megacredits
  action: if plant tags >= 3 { production(plants +4) } else { production(plants +1); gain 1 plant }; gain 1 heat
  play: choose X from 1 up to heat { spend X heat; gain X megacredits }; gain 1 steel
}
card "More Blocks" {
  type: automated  cost: 5
  play: repeat cities times { gain 1 plant; gain 1 heat }; reveal top card if space tag { gain 1 steel; gain 1 heat };
        use standard project else { lose up to 10 megacredits; gain 1 plant }; gain 1 titanium
}
"""


@pytest.mark.parametrize("language, sentences", [
    ("en", ["Choose one: Add 1 microbe to this card; or: remove 2 microbes from this card; "
            "increase your plant production 1 step.",
            "Choose one: Gain 2 MC; or: add 1 microbe to this card. Gain 2 MC.",
            "If microbes here at least 1: Remove 1 microbe from this card; raise your TR 1 step. Gain 1 MC.",
            "If plant tags at least 3: Increase your plant production 4 steps; otherwise: increase your plant "
            "production 1 step; gain 1 plant. Gain 1 heat.",
            "Choose X from 1 to heat: Spend X heat; gain X MC. Gain 1 steel.",
            ": Gain 1 plant; gain 1 heat. Reveal", ": Gain 1 steel; gain 1 heat. Then",
            ": Lose up to 10 MC (as many as you have); gain 1 plant. Gain 1 titanium."]),
    ("zh", ["选择一项：在本卡上增加1个微生物；或：从本卡上移除2个微生物；增加1点植物产量。",
            "选择一项：获得2 M€；或：在本卡上增加1个微生物。获得2 M€。",
            "若本卡上至少有1个微生物，从本卡上移除1个微生物；提升1点你的改造度。获得1 M€。",
            "增加4点植物产量；否则，增加1点植物产量；获得1点植物。获得1点热能。",
            "选择X（X为1至你的热能）：花费X点热能；获得X M€。获得1点钢铁。",
            "获得1点植物；获得1点热能。翻开", "获得1点钢铁；获得1点热能。然后"]),
])
def test_where_an_if_block_a_choice_option_and_a_choose_x_block_end_is_plain(language, sentences):
    """The effects of one `if` branch, one `choose` option or one `choose X` body read as one sentence joined by
    `;`, and the options of a choice as one sentence, as a `may { }` block does: "Choose one: Gain 2 MC. Or: Add 1
    microbe to that card. Gain 2 MC." read as if the last 2 MC were the second option's (Splice, trial 4)."""
    result = compile_text(BLOCKS, "<blocks>")
    assert result.errors == []
    words = rules_text.card(result.library.get("Blocks"), language) + \
        rules_text.card(result.library.get("More Blocks"), language)
    for sentence in sentences:
        assert sentence in words, words


def test_a_designers_own_resource_and_tag_keep_their_names():
    result = compile_text('resource spore\ntag mushroom\n'
                          'card "Spore Farm" {\n  type: active  cost: 5  tags: mushroom\n  holds: spore\n'
                          '  action: add 1 spore here\n  vp: 1 per 2 spores here\n}\n', "<spore>")
    assert result.errors == []
    words = rules_text.card(result.library.get("Spore Farm"), "zh")
    assert "标志：mushroom" in words and "在本卡上增加1个spore。" in words and "本卡上每有2个spore，得1分。" in words
    assert "1 VP per 2 spores here." in rules_text.card(result.library.get("Spore Farm"), "en")


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="en, zh"):
        rules_text.phrases("fr")


def test_cards_command_prints_chinese_rules_text(capsys):
    assert main(["cards", "--format", "rules", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "畜牧（Livestock，#184） — 行动牌，13 M€，标志：动物" in out
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
    assert _leftover_english(chinese) == [] and "每有2" in chinese and "得1分" in chinese


def test_every_effect_kind_reads_in_both_languages():
    from tharsis.compiler.effects import REGISTRY

    for name, cls in sorted(REGISTRY.items()):  # the same cards as test_docs' effect examples
        line = cls.example
        field = "effect" if cls.category in ("triggers", "modifiers") and name != "next_card" else "play"
        held = next((r for r in ("animal", "microbe", "science") if r + "s here" in line or r + " here" in line),
                    "science")
        body = line if "X" not in line or name == "choose_x" else f"choose X up to heat {{ {line} }}"
        result = compile_text(f'card "Example" #1 {{\n  type: active  cost: 1\n  holds: {held}\n'
                              f'  {field}: {body}\n}}\n'
                              'piece "outpost" { }\npiece "shuttle" { supply: 1 }\n',  # the pieces examples name
                              f"<{name}>", with_bundled=True)
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
    assert sell == "Choose X from 1 to cards in hand: Discard X cards from your hand; gain X MC."
    assert rules_text.sentences(library.get("Sell Patents").play, "zh") == \
        "选择X（X为1至你的手牌数）：从手牌中弃掉X张牌；获得X M€。"


def test_play_shows_the_cards_rules_text_in_the_chosen_language(tmp_path):
    import io

    from tharsis.games.options import Seat
    from tharsis.runtime.api.game import Game, GameOptions
    from tharsis.terminal.play import GameLog, Session

    out = io.StringIO()
    session = Session(Game(GameOptions(players=("ann",), seed=4)), [Seat("ann", "human")], GameLog(None),
                      stdin=io.StringIO("card Livestock\nprojects\nmilestones\nquit\n"), stdout=out,
                      autosave=tmp_path / "solo.json", language="zh")
    session.run()
    text = out.getvalue()
    assert "畜牧（Livestock，#184） — 行动牌，13 M€，标志：动物" in text and "打出时：减少1点植物产量" in text
    assert "增加1点电力产量。" in text            # the Power Plant standard project
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


# ------------------------------------------------------------------------------------------- natural Chinese

def _zh(bundled, name):
    return rules_text.card(bundled.library.get(name), "zh", bundled.library.names)


@pytest.mark.parametrize("card, sentence", [
    # counted things say where they are, then how many (本卡上每1个动物值1分), never 每个本卡上的动物得1分
    ("Livestock", "本卡上每有1个动物，得1分。"),
    ("Tardigrades", "本卡上每有4个微生物，得1分。"),
    ("Io Mining Industries", "你每有1个木星标志，得1分。"),
    ("Immigration Shuttles", "全场每有3个城市板块，得1分。"),
    ("Search For Life", "若本卡上至少有1个科学资源，得3分。"),
    # Media Archives counts every player's events: not 每张所有玩家的已打出的事件牌
    ("Media Archives", "打出时：全场每有1张已打出的事件牌，获得1 M€。"),
    ("Toll Station", "打出时：对手每有1个太空标志，增加1点M€产量。"),
    ("Gyropolis", "打出时：减少2点电力产量，你的金星标志与地球标志合计每有1个，增加1点M€产量。放置1个城市板块。"),
    # the rulebook's order for productions, any player's too (减少1点电力产量; 减少任一玩家3点植物)
    ("Fish", "打出时：减少任一玩家1点植物产量。"),
    ("Asteroid Mining Consortium", "打出时：减少任一玩家1点钛产量。增加1点钛产量。"),
    # "remove up to" one way: 移除 ... 至多, from a player as from a card
    ("Asteroid", "打出时：获得2点钛。提升1格温度。移除任一玩家至多3点植物。"),
    ("Virus", "打出时：选择一项：从任一玩家的一张牌上移除至多2个动物；或：移除任一玩家至多5点植物。"),
    ("Flooding", "移除与该板块相邻的一个板块的拥有者至多4 M€。"),
    # a player's marker is 玩家指示物, as in the rulebook
    ("Land Claim", "打出时：在一个空闲区域放置你的玩家指示物（放在陆地区域）：只有你可以在那里放置板块。"),
    # requirements and conditions as sentences, one subject for several counts
    ("Nitrogen-Rich Asteroid", "若你至少有3个植物标志，增加4点植物产量；否则，增加1点植物产量。"),
    ("Advanced Ecosystems", "需求：你至少有1个植物标志，至少有1个动物标志，且至少有1个微生物标志。"),
    ("Asteroid Mining Consortium", "需求：你至少有1点钛产量。"),
    ("Rad-Suits", "需求：全场至少有2个城市板块。"),
    ("Aerosport Tournament", "需求：你的卡牌上至少有5个浮空器。"),
    ("United Nations Mars Initiative", "行动：仅当你本时代提升的改造度至少1点时，支付3 M€。 → 提升1点你的改造度。"),
    # triggers and discounts in the rulebook's words (当你打出一张有太空标志的卡牌时，少支付2点金钱)
    ("Decomposers",
     "效果：当你打出有植物、动物或微生物标志的牌（包括本卡；每个标志触发一次）时：在本卡上增加1个微生物。"),
    ("Shuttles", "效果：你打出有太空标志的牌时，少支付2 M€。"),
    ("Vitor", "效果：当你打出有胜利点数的牌时：获得3 M€。"),
    ("Protected Habitats", "效果：对手不能移除你的植物、动物或微生物。"),
    ("Comet for Venus", "移除任一玩家至多4 M€。只能选择场上有金星标志的玩家。"),
    # names the names files give, inside sentences too
    ("ThorGate", "效果：你使用标准项目「发电」时，少支付3 M€。"),
    ("Standard Technology", "效果：当你使用标准项目（「贩卖专利」除外）时：获得3 M€。"),
    ("Noctis City", "放置1个城市板块（放在诺提斯城的保留区）。"),
    ("Capital", "放置1个城市板块「首都」。"),
])
def test_chinese_rules_text_reads_as_the_rulebook_writes(bundled, card, sentence):
    assert sentence in _zh(bundled, card)


def test_the_chinese_rules_text_uses_one_term_per_concept(bundled, cards):
    """The formula-like and doubled wordings it replaced are gone from every bundled card."""
    every = "\n".join(_zh(bundled, card.name) for card in cards)
    for old in ("玩家标志", "每个本卡上", "（可选）", "减少任一玩家至多", "每张所有玩家", "标志至少", "赞助", "奖项"):
        assert old not in every, old


def test_a_designers_names_file_names_its_own_card_tag_and_resource(tmp_path):
    (tmp_path / "farm.mars").write_text('resource spore\ntag mushroom\ncard "Spore Farm" #SF1 {\n  type: active  '
                                        'cost: 5  tags: mushroom\n  holds: spore\n  action: add 1 spore here\n  '
                                        'vp: 1 per 2 spores here\n}\n', "utf-8")
    (tmp_path / "zh.names").write_text('card "Spore Farm" = "孢子农场"\ntag "mushroom" = "蘑菇"\n'
                                       'resource "spore" = "孢子"\n', "utf-8")
    result = compile_paths([tmp_path])
    assert result.errors == []
    assert rules_text.card(result.library.get("Spore Farm"), "zh", result.library.names) == (
        "孢子农场（Spore Farm，#SF1） — 行动牌，5 M€，标志：蘑菇\n"
        "  本卡可存放孢子。\n"
        "  行动：在本卡上增加1个孢子。\n"
        "  本卡上每有2个孢子，得1分。")
    assert rules_text.card(result.library.get("Spore Farm"), "en", result.library.names).startswith(
        "Spore Farm (#SF1) — active card")


# ------------------------------------------------------------------------------------------- other definitions

def test_standard_projects_milestones_awards_and_boards_have_rules_text_in_both_languages(bundled):
    library, names = bundled.library, bundled.library.names

    def text(kind, name, language):
        definition = next(d for d in library.of_kind(kind) if d.name == name)
        return element_text.definition(definition, language, names)

    assert text("standard_project", "Sell Patents", "en") == (
        "Sell Patents — standard project, 0 MC\n"
        "  Choose X from 1 to cards in hand: Discard X cards from your hand; gain X MC.")
    assert text("standard_project", "Sell Patents", "zh") == (
        "贩卖专利（Sell Patents） — 标准项目，0 M€\n"
        "  选择X（X为1至你的手牌数）：从手牌中弃掉X张牌；获得X M€。")
    assert text("standard_project", "Asteroid", "zh") == "升温（Asteroid） — 标准项目，14 M€\n  提升1格温度。"
    assert text("standard_project", "Buffer Gas", "zh") == \
        "Buffer Gas — 标准项目，16 M€，变体：单人TR63\n  提升1点你的改造度。"
    assert text("standard_action", "Greenery", "en") == "Greenery — standard action, 8 plants\n  Place a greenery tile."
    assert text("milestone", "Mayor", "en") == "Mayor — milestone\n  Requires your cities at least 3."
    assert text("milestone", "Mayor", "zh") == "市长（Mayor） — 里程碑\n  需求：你至少有3个城市板块。"
    assert text("milestone", "Terraformer", "zh") == "改造者（Terraformer） — 里程碑\n  需求：你的改造度至少35点。"
    assert text("award", "Miner", "en") == "Miner — award\n  Measures steel + titanium; the highest wins."
    assert text("award", "Miner", "zh") == "钢铁大亨（Miner） — 奖励\n  钢铁与钛最多的玩家获得此奖励。"
    assert text("award", "Landlord", "zh") == \
        "地产大亨（Landlord） — 奖励\n  板块最多的玩家获得此奖励。"  # not 你的板块
    assert text("board", "Tharsis", "en") == (
        "Tharsis — board\n"
        "  Milestones: Terraformer, Mayor, Gardener, Builder, Planner.\n"
        "  Awards: Landlord, Scientist, Banker, Thermalist, Miner.\n"
        "  61 areas on Mars: 48 land areas (4 volcanic), 12 reserved for oceans, 1 reserved for Noctis City.\n"
        "  Off Mars: Ganymede Colony, Phobos Space Haven.\n"
        "  Placement bonuses: 38 plants on 26 areas, 11 steel on 7 areas, 4 titanium on 3 areas, 6 cards on 5 areas.\n"
        "  At oxygen 8%: Raise temperature 1 step.\n"
        "  At temperature -24°C: Increase your heat production 1 step.\n"
        "  At temperature -20°C: Increase your heat production 1 step.\n"
        "  At temperature 0°C: Place an ocean tile.")
    assert text("board", "Tharsis", "zh") == (
        "塔尔西斯（Tharsis） — 版图\n"
        "  里程碑：改造者、市长、园丁、建造者、规划者。\n"
        "  奖励：地产大亨、科学家、银行家、热能大亨、钢铁大亨。\n"
        "  火星上有61个区域：48个陆地区域（其中4个火山区域），12个海洋保留区，1个为诺提斯城保留的区域。\n"
        "  火星之外：Ganymede Colony、Phobos Space Haven。\n"
        "  放置奖励：26个区域共38点植物、7个区域共11点钢铁、3个区域共4点钛、5个区域共6张牌。\n"
        "  氧气浓度达到8%时：提升1格温度。\n"
        "  温度达到-24℃时：增加1点热能产量。\n"
        "  温度达到-20℃时：增加1点热能产量。\n"
        "  温度达到0℃时：放置1个海洋板块。")
    hellas = text("board", "Hellas", "zh")
    assert "区域61：在此放置板块须多支付6 M€（仅当海洋至多8块时）。" in hellas and "（其中" not in hellas


def test_declared_parameters_kinds_rules_and_expansions_have_rules_text(bundled):
    library, names = bundled.library, bundled.library.names
    parameter = library.of_kind("parameter")[0]
    venus = element_text.definition(parameter, "en", names)
    assert venus.startswith("Venus (venus) — global parameter, 0% to 30% in steps of 2% [Venus Next]\n  At Venus 8%: "
                            "Draw 1 card.")
    assert "A solo game ends only when it is maxed" in venus
    assert element_text.definition(parameter, "zh", names).startswith(
        "金星（venus） — 星球参数，0%至30%，每格2%［金星扩展］\n  金星达到8%时：抽1张牌。")
    prelude = next(d for d in library.of_kind("card_kind") if d.name == "prelude")
    assert element_text.definition(prelude, "zh", names) == (
        "前序（prelude） — 卡牌种类［前序扩展］\n"
        "  游戏设置时每名玩家发4张、保留2张，在第一个时代的行动之前打出。\n"
        "  无法打出的保留牌须弃掉，其拥有者改为：获得15 M€。")
    rule = element_text.definition(library.get("World Government Terraforming"), "zh", names)
    assert rule.startswith("World Government Terraforming — 规则［金星扩展］\n"
                           "  除最后一个时代外，每个时代结束时（由起始玩家决定）")
    expansion = next(d for d in library.of_kind("expansion") if d.name == "venus")
    assert element_text.definition(expansion, "en", names) == (
        "Venus Next (venus) — expansion\n"
        "  Off Mars: Luna Metropolis, Dawn City, Stratopolis, Maxwell Base.\n"
        "  Milestones: Hoverlord.\n"
        "  Awards: Venuphile.")


@pytest.mark.parametrize("language", rules_text.LANGUAGES)
def test_cards_command_prints_rules_text_for_every_kind_of_definition(capsys, language):
    for kind, first in (("board", {"en": "Elysium — board", "zh": "Elysium — 版图"}),
                        ("milestone", {"en": "Generalist — milestone", "zh": "多面手（Generalist） — 里程碑"}),
                        ("award", {"en": "Celebrity — award", "zh": "名人（Celebrity） — 奖励"}),
                        ("standard_project", {"en": "Sell Patents — standard project, 0 MC",
                                              "zh": "贩卖专利（Sell Patents） — 标准项目，0 M€"})):
        assert main(["cards", "--format", "rules", "--lang", language, "--kind", kind]) == 0
        out = capsys.readouterr().out
        # definitions come in the order of the content's files: the one named is a block of its own among them
        assert ("\n\n" + first[language] + "\n") in ("\n\n" + out), (kind, out[:80])
        blocks = out.strip().split("\n\n")
        bundled_count = {"board": 3, "milestone": 16, "award": 16, "standard_project": 9}[kind]
        assert len(blocks) == bundled_count and all(block.count("\n") >= 1 for block in blocks)
    assert main(["cards", "--format", "rules", "--lang", language]) == 0
    assert "{" not in capsys.readouterr().out


def test_a_declared_mass_noun_keeps_its_name_in_card_text_and_rules_text():
    """`resource data` (Pathfinders): `remove up to 3 data`, never `3 datas` (issue 30, trial 2); a countable
    declared name still takes its plural."""
    from tharsis.compiler import text

    source = ('resource data\nresource spore\n\ncard "Storm" #MN1 {\n  type: active  cost: 1  holds: spore\n'
              '  play: remove up to 3 data from any card; add 2 spores here\n}\n')
    library = compile_text(source, "<mass>").library
    card = library.get("Storm")
    assert "remove up to 3 data from any card; add 2 spores here" in text.content([card], (), (), ())
    english = rules_text.card(card, "en")
    assert "Remove up to 3 data from any card" in english and "Add 2 spores to this card" in english


def test_trial_readings_per_ocean_per_colony_in_play_floors_one_look_and_a_require_before_the_arrow():
    """Issue 30, trials 5 and 6: "per oceans" (每有1点海洋), "per all colony", six "to 1 steps" clauses, "the top 1
    prelude cards ... the others", and a Chinese action cost ending on "仅当…时，" before its arrow."""
    source = '''card "Reading Test" {
  set: colonies  type: active  cost: 1  holds: floater
  play: gain 1 plant per oceans; production(energy +1 per colony in play);
        production(megacredits at least 1, steel at least 1, heat at least 1)
  action: require floaters here >= 1 -> look 1 prelude cards play 1
}
'''
    card = next(d for d in compile_text(source, with_bundled=True).library.definitions if d.name == "Reading Test")
    english, chinese = rules_text.card(card, "en"), rules_text.card(card, "zh")
    assert "Gain 1 plant per ocean." in english and "每有1个海洋板块，获得1点植物" in chinese
    assert "1 step per colony in play" in english
    assert "Raise each of your MC, steel and heat productions that is below 1 to 1." in english
    assert "将你的M€、钢铁与热能产量中低于1点的各提升至1点" in chinese
    assert "Look at the top prelude card and play it for free." in english
    assert "时 → " in chinese and "时， →" not in chinese
