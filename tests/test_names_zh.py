"""Names in Chinese: the bundled names file holds every name the Chinese rule sources give (and no other), and a
designer's names file is checked like card text: a misspelt name, a wrong kind, a bad line, a name given twice are
errors with file:line:col, a caret and a did-you-mean, never a silent English name.

The base game's names come from the rule seeds; the Colonies and Turmoil names from the Chinese locale of the
open-source app (COLONIES_NAMES and TURMOIL_NAMES below say which, name the two Colonies cards it lacks and
translate the global events, which it does not name).
"""

from pathlib import Path

import pytest

from tharsis.cli import main
from tharsis.compiler import compile_paths, compile_text, rules_text
from tharsis.compiler.diagnostics import render_text
from tharsis.compiler.names import display_name

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "rules" / "seeds"

# (kind, name in the card text, the Chinese name), with the seed that gives it
SEED_NAMES = [
    # seed 000, the Chinese rulebook of the base game: the six standard projects ("B)使用一个标准项目")
    ("standard_project", "Sell Patents", "贩卖专利"),
    ("standard_project", "Power Plant", "发电"),
    ("standard_project", "Asteroid", "升温"),
    ("standard_project", "Aquifer", "蓄水"),
    ("standard_project", "Greenery", "绿化"),
    ("standard_project", "City", "建造城市"),
    # and its seven actions as its contents name them ("七种行动(...植物换绿化/热能升温)"): the two standard actions
    ("standard_action", "Greenery", "植物换绿化"),
    ("standard_action", "Heat to temperature", "热能升温"),
    # its board ("火星塔尔西斯区域"), milestones and awards
    ("board", "Tharsis", "塔尔西斯"),
    ("milestone", "Terraformer", "改造者"),
    ("milestone", "Mayor", "市长"),
    ("milestone", "Gardener", "园丁"),
    ("milestone", "Builder", "建造者"),
    ("milestone", "Planner", "规划者"),
    ("award", "Landlord", "地产大亨"),
    ("award", "Banker", "银行家"),
    ("award", "Scientist", "科学家"),
    ("award", "Thermalist", "热能大亨"),
    ("award", "Miner", "钢铁大亨"),
    # its cards: the example cards A-E, the example turns, the set-up's corporation, the tiles it explains
    ("corporation", "Beginner Corporation", "新手公司"),
    ("card", "Asteroid Mining Consortium", "小行星矿物共同体"),
    ("card", "Cupola City", "岩钟城"),
    ("card", "Asteroid", "小行星"),
    ("card", "Livestock", "畜牧"),
    ("card", "Shuttles", "穿梭机"),
    ("card", "Electro Catapult", "电镀弹射器"),
    ("card", "Asteroid Mining", "小行星采矿"),
    ("card", "Geothermal Power", "地热能"),
    ("card", "Capital", "首都"),
    ("card", "Noctis City", "诺提斯城"),
    # seed 001, the BGA rules summary: Elysium's and Hellas' milestones and awards it names in Chinese
    ("milestone", "Generalist", "多面手"),
    ("milestone", "Specialist", "专家"),
    ("milestone", "Ecologist", "生态学家"),
    ("milestone", "Tycoon", "大亨"),
    ("award", "Cultivator", "耕耘者"),
    ("award", "Space Baron", "太空男爵"),
    ("award", "Celebrity", "名人"),
    ("award", "Industrialist", "实业家"),
    ("award", "Desert Settler", "沙漠定居者"),
]


# Colonies: the names of the open-source Terraforming Mars app's Chinese locale (terraforming-mars/terraforming-mars,
# src/locales/cn/colonies.json), in simplified characters (its 波呂斐摩斯 and 波塞頓 are traditional) and with
# 漂浮物租贷 read as 漂浮物租赁; "ours" marks the two cards the locale does not name, translated here. A card still
# waiting for a construct (cards/colonies/waiting.txt) is not compiled, so its name is expected only once it is.
COLONIES_NAMES = [
    ("card", "Airliners", "航空公司"), ("card", "Air Raid", "空袭"), ("card", "Atmo Collectors", "大气收藏家"),
    ("card", "Community Services", "社区服务"), ("card", "Conscription", "征兵"),
    ("card", "Corona Extractor", "日冕提取器"), ("card", "Cryo Sleep", "低温睡眠"),
    ("card", "Earth Elevator", "地球太空梯"), ("card", "Ecology Research", "生态学研究"),
    ("card", "Floater Leasing", "漂浮物租赁"), ("card", "Floater Prototypes", "造云原型机"),
    ("card", "Floater Technology", "漂浮物科技"), ("card", "Galilean Waystation", "伽利略中转站"),
    ("card", "Heavy Taxation", "重税"), ("card", "Ice Moon Colony", "冰月殖民地"),
    ("card", "Impactor Swarm", "冲击虫群"),
    ("card", "Interplanetary Colony Ship", "行星际殖民船"),  # ours
    ("card", "Jovian Lanterns", "木星灯"), ("card", "Jupiter Floating Station", "木星浮动站"),
    ("card", "Luna Governor", "月球政府"), ("card", "Lunar Exports", "月球出口"), ("card", "Lunar Mining", "月球挖掘"),
    ("card", "Market Manipulation", "操控市场"), ("card", "Martian Zoo", "火星动物园"),
    ("card", "Mining Colony", "采矿殖民地"), ("card", "Minority Refuge", "少数民族难民"),
    ("card", "Molecular Printing", "分子打印"), ("card", "Nitrogen from Titan", "土卫六氮气"),
    ("card", "Pioneer Settlement", "定居点"), ("card", "Productive Outpost", "生产前哨站"),
    ("card", "Quantum Communications", "量子通信"), ("card", "Red Spot Observatory", "红斑实验室"),
    ("card", "Refugee Camps", "难民营"), ("card", "Research Colony", "研究殖民地"),
    ("card", "Rim Freighters", "里姆货船"),
    ("card", "Sky Docks", "天空船坞"),  # ours
    ("card", "Solar Probe", "太阳探测器"), ("card", "Solar Reflectors", "太阳反射器"), ("card", "Space Port", "太空港"),
    ("card", "Space Port Colony", "太空港殖民地"), ("card", "Spin-off Department", "副产品部门"),
    ("card", "Sub-zero Salt Fish", "零下咸鱼"), ("card", "Titan Air-scrapping", "处理泰坦空气"),
    ("card", "Titan Floating Launch-pad", "泰坦漂浮物起飞平台"), ("card", "Titan Shuttles", "泰坦穿梭机"),
    ("card", "Trade Envoys", "贸易特使"), ("card", "Trading Colony", "交易殖民地"),
    ("card", "Urban Decomposers", "都市分解者"), ("card", "Warp Drive", "曲率引擎"),
    ("corporation", "Poseidon", "波塞顿"), ("corporation", "Arklight", "弧光"),
    ("corporation", "Polyphemos", "波吕斐摩斯"), ("corporation", "Aridor", "阿里多尔"),
    ("corporation", "Stormcraft Incorporated", "暴风舰公司"),
]


def _compiled_colonies_names(library) -> set:
    """The COLONIES_NAMES whose definition is compiled (the others wait in cards/colonies/waiting.txt)."""
    compiled = {(d.kind, d.name) for d in library.definitions}
    return {entry for entry in COLONIES_NAMES if entry[:2] in compiled}


# Turmoil: the names of the open-source Terraforming Mars app's Chinese locale (terraforming-mars/terraforming-mars,
# src/locales/cn/turmoil_cards.json, turmoil_corporations.json; its keys spell "Vote Of No Confidence" and "Septem
# Tribus"), with its 莫霍计划赞助 read as 莫霍计划资助: 资助 is the rules text's one word for funding (赞助 is gone from
# it, tests/test_rules_text.py). The locale names no global event: "ours" marks those, translated here.
TURMOIL_NAMES = [
    ("card", "Aerial Lenses", "对空透镜"), ("card", "Banned Delegate", "违法代表"),
    ("card", "Cultural Metropolis", "多元化都市"), ("card", "Diaspora Movement", "大流散运动"),
    ("card", "Event Analysts", "事件分析"), ("card", "GMO Contract", "转基因生物合约"),
    ("card", "Martian Media Center", "火星媒体中心"), ("card", "Parliament Hall", "议会大厅"),
    ("card", "PR Office", "公关办公室"), ("card", "Public Celebrations", "公开庆典"), ("card", "Recruitment", "雇佣"),
    ("card", "Red Tourism Wave", "红色旅游风潮"), ("card", "Sponsored Mohole", "莫霍计划资助"),
    ("card", "Supported Research", "受扶持的研究"), ("card", "Wildlife Dome", "野生生物穹顶"),
    ("card", "Vote of No Confidence", "不信任票"),
    ("corporation", "Pristar", "革命制度党明星"), ("corporation", "Terralabs Research", "地球化实验室"),
    ("corporation", "Septum Tribus", "七族落"), ("corporation", "Utopia Invest", "乌托邦投资计划"),
    ("corporation", "Lakefront Resorts", "湖畔度假区"),
]
# ours: the 36 global events (Asteroid Mining and Sabotage share their names with a base and a Corporate Era card)
TURMOIL_EVENT_NAMES = [
    ("card", "Aquifer Released by Public Council", "公共议会开放含水层"), ("card", "Asteroid Mining", "小行星采矿"),
    ("card", "Celebrity Leaders", "名人领袖"), ("card", "Cloud Societies", "云端社会"),
    ("card", "Corrosive Rain", "腐蚀性降雨"), ("card", "Diversity", "多样性"), ("card", "Dry Deserts", "干旱沙漠"),
    ("card", "Eco Sabotage", "生态破坏"), ("card", "Election", "选举"), ("card", "Generous Funding", "慷慨资助"),
    ("card", "Global Dust Storm", "全球沙尘暴"), ("card", "Homeworld Support", "母星支援"),
    ("card", "Improved Energy Templates", "改良能源模板"), ("card", "Interplanetary Trade", "星际贸易"),
    ("card", "Jovian Tax Rights", "木星征税权"), ("card", "Microgravity Health Problems", "微重力健康问题"),
    ("card", "Miners on Strike", "矿工罢工"), ("card", "Mud Slides", "泥石流"), ("card", "Pandemic", "大流行病"),
    ("card", "Paradigm Breakdown", "范式崩溃"), ("card", "Productivity", "生产力"),
    ("card", "Red Influence", "红色影响"),
    ("card", "Revolution", "革命"), ("card", "Riots", "暴乱"), ("card", "Sabotage", "蓄意破坏"),
    ("card", "Scientific Community", "科学界"), ("card", "Snow Cover", "积雪覆盖"), ("card", "Solar Flare", "太阳耀斑"),
    ("card", "Solarnet Shutdown", "太阳网关闭"), ("card", "Spin-off Products", "衍生产品"),
    ("card", "Sponsored Projects", "资助项目"), ("card", "Strong Society", "强大社会"),
    ("card", "Successful Organisms", "成功的生物"), ("card", "Venus Infrastructure", "金星基础设施"),
    ("card", "Volcanic Eruptions", "火山喷发"), ("card", "War on Earth", "地球战争"),
]


def _compiled_turmoil_names(library) -> set:
    """The TURMOIL_NAMES and TURMOIL_EVENT_NAMES whose definition is compiled (the others wait in
    cards/turmoil/waiting*.txt)."""
    turmoil = {(d.kind, d.name) for d in library.definitions
               if getattr(d, "set", None) == "turmoil" or getattr(d, "type", None) == "global event"}
    return {entry for entry in TURMOIL_NAMES + TURMOIL_EVENT_NAMES if entry[:2] in turmoil}


@pytest.mark.parametrize("kind, name, chinese", SEED_NAMES, ids=[f"{k}:{n}" for k, n, _ in SEED_NAMES])
def test_every_chinese_name_the_seeds_give_is_in_the_bundled_names(bundled, kind, name, chinese):
    assert bundled.library.names.get(kind, name, "zh") == chinese


# the declarations of Colonies and Turmoil: the sites in Chinese astronomy's names, the rest the app's locale words
DECLARED_NAMES = [
    ("piece", "colony", "殖民地"), ("piece", "trade fleet", "贸易船队"), ("site", "Callisto", "木卫四"),
    ("site", "Ceres", "谷神星"), ("site", "Enceladus", "土卫二"), ("site", "Europa", "木卫二"),
    ("site", "Ganymede", "木卫三"), ("site", "Io", "木卫一"), ("site", "Luna", "月球"), ("site", "Miranda", "天卫五"),
    ("site", "Pluto", "冥王星"), ("site", "Titan", "土卫六"), ("site", "Triton", "海卫一"),
    ("standard_action", "Trade", "贸易"), ("standard_project", "Build Colony", "建造殖民地"),
    ("piece", "delegate", "代表"), ("faction", "Mars First", "火星优先"), ("faction", "Scientists", "科学家"),
    ("faction", "Unity", "团结"), ("faction", "Greens", "绿党"), ("faction", "Reds", "红党"),
    ("faction", "Kelvinists", "开尔文派"), ("role", "chairman", "主席"), ("card_kind", "global event", "全球事件"),
    ("stage", "distant", "远期"), ("stage", "coming", "即将"), ("stage", "current", "当前"),
    ("standard_action", "Lobby", "游说"), ("standard_action", "Send Delegate", "派遣代表"),
    # the rules the expansions declare, told by name in the Chinese game (规则：动乱阶段), after the sets' names
    ("rule", "Colony Tracks", "殖民地轨道"), ("rule", "Colonies Solo Set-up", "殖民地单人设置"),
    ("rule", "Turmoil set-up", "动乱设置"), ("rule", "Turmoil phase", "动乱阶段"),
]


def test_the_bundled_names_are_the_seeds_names_and_no_invented_one(bundled):
    assert {(kind, name, chinese) for _, kind, name, chinese in bundled.library.names.entries} == \
        set(SEED_NAMES) | _compiled_colonies_names(bundled.library) | _compiled_turmoil_names(bundled.library) | \
        set(DECLARED_NAMES)
    assert bundled.errors == []


def test_a_global_event_reads_in_chinese_with_its_parties_stages_and_kind(bundled):
    from tharsis.compiler import rules_text

    event = next(d for d in bundled.library.definitions if d.name == "Aquifer Released by Public Council")
    words = rules_text.card(event, "zh", bundled.library.names)
    assert "全球事件牌" in words and "揭示时：从中立储备中将1个代表放入火星优先。" in words
    assert "进入当前阶段时：从中立储备中将1个代表放入绿党。" in words


def test_every_colonies_card_and_corporation_has_its_chinese_name(bundled):
    library = bundled.library
    colonies = {(d.kind, d.name) for d in library.definitions
                if d.kind in ("card", "corporation") and d.set == "colonies"}
    assert colonies == {entry[:2] for entry in _compiled_colonies_names(library)}
    assert len(COLONIES_NAMES) == 54
    for kind, name, chinese in _compiled_colonies_names(library):
        assert library.names.get(kind, name, "zh") == chinese


def test_every_turmoil_card_corporation_and_global_event_has_its_chinese_name(bundled):
    library = bundled.library
    turmoil = {(d.kind, d.name) for d in library.definitions
               if d.kind in ("card", "corporation") and
               (getattr(d, "set", None) == "turmoil" or getattr(d, "type", None) == "global event")}
    assert turmoil == {entry[:2] for entry in _compiled_turmoil_names(library)}
    assert (len(TURMOIL_NAMES), len(TURMOIL_EVENT_NAMES)) == (21, 36)
    for kind, name, chinese in _compiled_turmoil_names(library):
        assert library.names.get(kind, name, "zh") == chinese


def test_every_chinese_name_is_printed_in_a_seed():
    if not SEEDS.is_dir():
        pytest.skip(f"the rule seeds are not at {SEEDS}")
    seeds = "\n".join(path.read_text("utf-8") for path in sorted(SEEDS.glob("*.txt")))
    assert [chinese for _, _, chinese in SEED_NAMES if chinese not in seeds] == []


def test_a_name_of_two_kinds_has_the_name_of_each(bundled):
    """The card Asteroid is 小行星, the standard project Asteroid 升温: the kind decides."""
    library = bundled.library
    card = next(d for d in library.cards if d.name == "Asteroid")
    project = next(d for d in library.of_kind("standard_project") if d.name == "Asteroid")
    assert display_name(card, "zh", library.names) == "小行星"
    assert display_name(project, "zh", library.names) == "升温"
    assert display_name("Asteroid", "zh", library.names, kind="standard_project") == "升温"
    assert display_name("Power Plant", "zh", library.names) == "Power Plant"      # the card has no Chinese name
    assert display_name(card, "en", library.names) == "Asteroid"
    assert display_name(card, "zh") == "Asteroid"                                   # no names given
    words = rules_text.phrases("zh", library.names)
    assert (words.name(project), words.tag("jovian"), words.noun("plant"), words.parameter("oxygen"),
            words.noun("city_tile"), words.name("Mayor", "milestone"), words.area("Noctis City")) == \
        ("升温", "木星", "植物", "氧气浓度", "城市板块", "市长", "诺提斯城")


def test_names_come_with_the_bundled_content_wherever_it_is_compiled():
    result = compile_text('card "Example" #EX1 {\n  type: event  cost: 1\n  play: gain 1 plant\n}\n', "<example>",
                          with_bundled=True)
    assert result.errors == [] and result.library.names.get("milestone", "Mayor", "zh") == "市长"


def _check(tmp_path, names: str, name: str = "zh.names"):
    (tmp_path / "farm.mars").write_text('card "Spore Farm" #SF1 {\n  type: automated  cost: 5\n  play: gain 1 plant\n'
                                        '}\n', "utf-8")
    (tmp_path / name).write_text(names, "utf-8")
    result = compile_paths([tmp_path], with_bundled=True)
    return result, render_text(result.errors, result.sources)


def test_a_misspelt_name_is_an_error_with_a_caret_and_a_did_you_mean(tmp_path):
    result, text = _check(tmp_path, '// my names\ncard "Spore Farn" = "孢子农场"\n')
    assert [d.code for d in result.errors] == ["E162"]
    assert text.splitlines()[:4] == [
        f"{tmp_path / 'zh.names'}:2:6: error[E162]: no card named 'Spore Farn' is loaded",
        '   2 | card "Spore Farn" = "孢子农场"',
        "     |      ^^^^^^^^^^^^",
        "     = hint: did you mean 'Spore Farm'?"]


def test_a_name_of_another_kind_says_which_kind_it_is(tmp_path):
    result, _ = _check(tmp_path, 'card "Tharsis Republic" = "塔尔西斯共和国"\n')
    assert [(d.code, d.hint) for d in result.errors] == [
        ("E162", 'it is a corporation: corporation "Tharsis Republic" = ...')]


def test_bad_lines_unknown_kinds_empty_and_repeated_names_are_errors(tmp_path):
    result, _ = _check(tmp_path, 'crad "Spore Farm" = "孢子农场"\nSpore Farm = 孢子农场\ncard "Spore Farm" = ""\n'
                                 'card "Spore Farm" = "孢子农场"\ncard  "Spore Farm"="孢子工厂" // again\n')
    assert [(d.code, d.span.line, d.span.column, d.hint) for d in result.errors] == [
        ("E161", 1, 1, "did you mean 'card'?"),
        ("E161", 2, 1, 'write it as: card "Spore Farm" = "孢子农场" (names in double quotes; // starts a comment)'),
        ("E164", 3, 21, "write its name, or remove the line: a name no file gives stays as the card text has it"),
        ("E163", 5, 7, f"first named at {tmp_path / 'zh.names'}:4; keep one")]


def test_a_names_file_must_be_named_for_a_language_of_the_rules_text(tmp_path):
    result, _ = _check(tmp_path, 'card "Spore Farm" = "Ferme"\n', name="fr.names")
    assert [(d.code, d.hint) for d in result.errors] == [
        ("E160", "name the file zh.names (or anything.zh.names); the card text itself is the English")]


def test_a_designers_name_replaces_a_bundled_one(tmp_path):
    result, _ = _check(tmp_path, 'standard project "Power Plant" = "发电厂"\ncard "Spore Farm" = "孢子农场"\n',
                       name="mine.zh.names")
    assert result.errors == []
    assert result.library.names.get("standard_project", "Power Plant", "zh") == "发电厂"
    assert result.library.names.get("card", "Spore Farm", "zh") == "孢子农场"


def test_check_reports_a_names_file_like_card_text(tmp_path, capsys):
    _check(tmp_path, 'milestone "Mayer" = "市长"\n')
    assert main(["check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"{tmp_path / 'zh.names'}:1:11: error[E162]: no milestone named 'Mayer' is loaded" in out
    assert "did you mean 'Mayor'?" in out


def test_cards_command_prints_a_designers_chinese_names(tmp_path, capsys):
    _check(tmp_path, 'card "Spore Farm" = "孢子农场"\n')
    assert main(["cards", str(tmp_path), "--format", "rules", "--lang", "zh"]) == 0
    assert capsys.readouterr().out.startswith("孢子农场（Spore Farm，#SF1） — 自动化牌，5 M€\n  打出时：获得1点植物。")
