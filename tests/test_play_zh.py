"""`tharsis play --lang zh`: the whole terminal game in Chinese, as a Chinese-reading player meets it.

Whole games are played through the CLI with a scripted player who answers in Chinese (numbers, 买 1 3, 全部, the
Chinese commands, the words an option shows), and every line printed is searched for English. What may stay in
Latin letters, and why (`english_words` applies exactly this):

- the name of a card, corporation, prelude, standard project or action, milestone, award, board, rule or reserved
  area that the names files do not translate: names are never invented (cards/zh.names has only the names the
  Chinese rule sources print), so such a name is the card text's, wherever it appears (in the rules text too: a
  special tile is named after its card); a parameter, a tag, a kind of card or an expansion always has its Chinese
  word in the phrase table, so none of those is allowed in English;
- a translated card's own name beside its Chinese one in a card's title, 畜牧（Livestock，#184）, kept to find the
  card by;
- the seats' names, which the players chose (ann, bob);
- numbers, board ids and single letters: the map's marks and their keys in the legend (p 植物, A=ann), X of a chosen
  number, the M of M€ (the rulebook's unit), a corporation's number (#R08);
- the lines of the hex grid, whose cells are two marks (pp: 2 plants, gA: ann's greenery) that the legend under the
  grid explains (a Chinese character is two columns wide: a cell cannot hold two of them);
- shell commands the game prints to resume or replay it (tharsis play --load FILE) and the names of files;
- what the player typed, echoed after `> ` (the scripted player types Chinese or numbers anyway).

Anything else in Latin letters is a word the Chinese game forgot to translate, and fails the test with its line.
"""

import io
import random
import re

import pytest
from test_play_terminal import Terminal, pty  # the pseudo-terminal harness of the English game

from tharsis.cli import main
from tharsis.runtime.api.game import Game, GameOptions
from tharsis.terminal import engine_zh, messages, style, widths
from tharsis.terminal.play import ALIASES, Session

# ------------------------------------------------------------------ what may stay in Latin letters

NAMED_KINDS = ("card", "corporation", "standard_project", "standard_action", "milestone", "award", "board", "rule",
               "site")
GRID_LINE = re.compile(r"(?:\s|≈≈|·|~[a-z]?|\^|\[\w+\]|[A-Za-z]{1,2})+")
COMMAND = re.compile(r"tharsis (?:play|replay)(?: --(?:seed|load) )?\S*|\S+\.jsonl?\b|(?<!\w)--[a-z]+(?:-[a-z]+)*")
WORD = re.compile(r"[A-Za-z]{2,}")


def untranslated_names(content) -> list[str]:
    """Every name of a definition (and a reserved area) that no names file gives in Chinese, longest first (so
    `Noctis City` goes before `City`)."""
    names = content.names
    found = {d.name for d in content.definitions if d.kind in NAMED_KINDS and names.get(d.kind, d.name, "zh") is None}
    for board in content.of_kind("board"):
        found.update(s.reserved for s in board.spaces if s.reserved and names.area(s.reserved, "zh") == s.reserved)
    for expansion in content.of_kind("expansion"):
        found.update(a for a in getattr(expansion, "offboard", ()) if names.area(a, "zh") == a)
    return sorted(found, key=len, reverse=True)


def english_words(text: str, content, seats) -> list[tuple[str, str]]:
    """(word, line) for every word of `text` in Latin letters that the rules above do not allow."""
    names = untranslated_names(content)
    titles = [f"（{d.name}{sep}" for d in content.definitions if content.names.get(d.kind, d.name, "zh")
              for sep in ("，#", "）")]
    found = []
    for line in text.splitlines():
        if line.startswith("> ") or GRID_LINE.fullmatch(line):
            continue
        rest = COMMAND.sub(" ", line)
        for piece in titles + names:
            if piece in rest:
                rest = rest.replace(piece, " ")
        found += [(word, line) for word in WORD.findall(rest) if word not in seats]
    return found


def test_the_allowed_words_are_only_those_the_rules_name():
    """The checker itself: a translated term in English is caught, the allowed kinds of Latin text are not."""
    content = Game(GameOptions(players=("ann", "bob"), seed=1)).content
    allowed = ("» ann 打出「Birds」\n  bob：-1 M€\n畜牧（Livestock，#184） — 行动牌\n> help\n"
               "   pt  p   p  [28] gA \n继续游戏：tharsis play --load tharsis-save-1.json\n放置奖励：s 钢铁  X=3\n"
               "CrediCor（#R08） — 公司\n火星之外：Ganymede Colony：空闲\n» 规则：World Government Terraforming\n")
    assert english_words(allowed, content, {"ann", "bob"}) == []
    caught = english_words("ann：TR 20→21\n第1时代（action）\n海洋 venus\nLivestock 2", content, {"ann"})
    assert [word for word, _ in caught] == ["TR", "action", "venus", "Livestock"]


# ------------------------------------------------------------------ the catalogue

def test_both_languages_have_every_message_with_the_slots_the_code_fills():
    assert set(messages.EN) == set(messages.ZH)
    for key, english in messages.EN.items():
        # the code fills the English entry's slots; the Chinese may leave some out and use the count `n` instead
        assert messages.slots(messages.ZH[key]) <= messages.slots(english) | {"n"}, key
    for pattern, chinese in engine_zh.ZH_QUESTIONS + engine_zh.ZH_LABELS:
        assert set(re.findall(r"{(\w+)}", chinese)) <= set(re.compile(pattern).groupindex), pattern


def test_the_chinese_messages_are_chinese():
    """Every Chinese entry, with its slots filled by numbers, is free of English words (outside the shell commands
    and file names it quotes: tharsis play --load FILE)."""
    for key, entry in messages.ZH.items():
        forms = entry if isinstance(entry, tuple) else (entry,)
        for form in forms:
            text = COMMAND.sub(" ", re.sub(r"{\w+(?:!r)?}", "1", form))
            assert WORD.findall(text) == [], (key, form)
    for table in (engine_zh.ZH_EVENTS, engine_zh.ZH_CHOICES, engine_zh.ZH_HEADS, engine_zh.ZH_PHASES):
        for form in table.values():
            assert WORD.findall(re.sub(r"{\w+}", "1", form)) == [], form
    for reason, hint in engine_zh.ZH_PATH_REASONS.values():
        assert WORD.findall(reason + (hint or "")) == [], reason


def test_a_save_the_system_refuses_is_said_in_chinese(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    long_name = "档" * 100   # 300 bytes: over the 255 a file name may hold
    monkeypatch.setattr("sys.stdin", io.StringIO(f"保存 missing/x.json\n保存 {long_name}\n保存 牌局一\n退出\n"))
    assert main(["play", "--lang", "zh", "--seed", "4", "--no-log"]) == 0
    out = capsys.readouterr().out
    assert "无法保存到 missing/x.json：没有这个文件或文件夹" in out
    assert "：文件名太长；文件或文件夹的名称最多255字节，整个路径约4096字节" in out
    assert "已保存到 牌局一；继续游戏：tharsis play --load 牌局一" in out
    assert "游戏已保存到 牌局一。继续游戏：tharsis play --load 牌局一" in out   # leaving saves to the last save


# ------------------------------------------------------------------ whole games

class ChinesePlayer(io.TextIOBase):
    """A player at the keyboard who reads Chinese: legal answers by number, a space by its id, cards bought as
    买 1 3 / 全部 / 不买, sometimes the words an option shows (蓄水), and now and then a Chinese command."""

    COMMANDS = ("查看", "版图", "手牌", "选项", "对手", "历史", "项目", "里程碑", "奖励", "卡牌 畜牧", "卡牌穿梭",
                "玩家 bob", "帮助", "help", "撤销", "卡牌", "没有这个选项")

    def __init__(self, seed: int):
        self.random = random.Random(seed)
        self.session = None
        self.calls = 0

    def readline(self, size=-1):
        self.calls += 1
        assert self.calls < 8000, "the game does not end"
        pick = self.random
        if pick.random() < 0.08:
            return pick.choice(self.COMMANDS) + "\n"
        decision = self.session.game.pending()
        if decision.kind == "space":
            return f"{pick.choice(decision.options).value}\n"
        if decision.kind == "buy":
            return pick.choice(["买 1 3", "全部", "不买", "1", "2-3", "买 1"]) + "\n"
        if decision.kind == "action" and pick.random() < 0.2:  # the entry's Chinese words (标准项目「蓄水」)
            from tharsis.terminal.prompts import label_text

            return label_text(self.session.game, decision, pick.choice(decision.options).label,
                              self.session.words) + "\n"
        return f"{pick.randint(1, len(decision.options))}\n"


def play_in_chinese(monkeypatch, tmp_path, capsys, seed: int, *flags: str) -> str:
    monkeypatch.chdir(tmp_path)
    player = ChinesePlayer(seed)
    original = Session.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        if self.stdin is player:
            player.session = self

    monkeypatch.setattr(Session, "__init__", init)
    monkeypatch.setattr("sys.stdin", player)
    assert main(["play", "--lang", "zh", *flags]) == 0
    return capsys.readouterr().out


GAMES = {
    "two players": ("--seat", "ann=human", "--seat", "bob=greedy", "--seed", "11"),
    "three players, corporate era, Elysium": ("--seat", "ann=human", "--seat", "bob=greedy", "--seat", "cy=random",
                                              "--seed", "23", "--corporate-era", "--board", "elysium"),
    "venus, prelude, draft, Hellas": ("--seat", "ann=human", "--seat", "bob=greedy", "--seed", "26", "--expansion",
                                      "venus", "--expansion", "prelude", "--draft", "--board", "hellas"),
    "solo": ("--seat", "ann=human", "--solo", "--seed", "27"),
    "colonies": ("--seat", "ann=human", "--seat", "bob=greedy", "--seed", "29", "--expansion", "colonies"),
    "colonies and turmoil": ("--seat", "ann=human", "--seat", "bob=greedy", "--seed", "31", "--expansion", "colonies",
                             "--expansion", "turmoil"),
}


@pytest.mark.parametrize("flags", GAMES.values(), ids=GAMES.keys())
def test_a_whole_game_in_chinese_has_no_english_word_but_untranslated_names(monkeypatch, tmp_path, capsys, flags):
    out = play_in_chinese(monkeypatch, tmp_path, capsys, 7, *flags, "--log", "game.jsonl")
    assert "获胜者：" in out or "单人游戏：" in out                      # played to the final table
    assert "卡牌分数：" in out and "=== 第2时代 ===" in out and "你要把" in out
    from tharsis.games import saves

    options = saves.read(tmp_path / "game.jsonl").options
    content = Game(options).content
    leftovers = english_words(out, content, set(options.players))
    assert leftovers == [], "\n".join(sorted({f"{word}: {line}" for word, line in leftovers})[:60])
    # the same game told again by `replay --lang zh`, to the end and stopped after generation 1
    assert main(["replay", "game.jsonl", "--lang", "zh", "--generations"]) == 0
    told = capsys.readouterr().out
    assert told.startswith("重放 game.jsonl：种子") and "已核对：重放得到记录的结果" in told and "卡牌分数：" in told
    assert main(["replay", "game.jsonl", "--lang", "zh", "--until", "1"]) == 0
    stopped = capsys.readouterr().out
    assert "--- 第1时代结束后：" in stopped and "（游戏还在继续" in stopped
    leftovers = english_words(told + stopped, content, set(options.players))
    assert leftovers == [], "\n".join(f"{word}: {line}" for word, line in leftovers[:30])


def test_english_commands_are_understood_and_chinese_names_are_typed(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    answers = ["help", "帮助", "卡牌 畜牧", "卡牌穿梭", "card Livestock", "卡牌 不存在", "1", "买 3 7", "项目",
               "里程碑", "奖励", "蓄水", "32", "结束", "退出"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    assert main(["play", "--lang", "zh", "--seat", "ann=human", "--seat", "bob=greedy", "--seed", "1",
                 "--no-log"]) == 0
    out = capsys.readouterr().out
    assert out.count("命令：  查看（整个局面）") == 2                     # help and 帮助 alike
    assert out.count("畜牧（Livestock，#184） — 行动牌，13 M€，标志：动物") == 2   # by either name
    assert "穿梭机（Shuttles，#166） — 行动牌，10 M€，标志：太空" in out  # 卡牌 and the start of the name, no space
    assert "没有以「不存在」开头的牌" in out
    assert "» ann 选择「Interplanetary Cinematics」" in out
    assert "购买2张牌，共 6 M€：Mining Rights、穿梭机" in out
    assert " * 蓄水                     18 M€  放置1个海洋板块。" in out     # projects: its price, can you
    assert "  改造者         你的改造度至少35点" in out
    assert "  地产大亨     板块                       ann 0，bob 0；领先：暂无；未资助" in out
    assert "ann：你要把海洋板块放在哪里？" in out                              # 蓄水 chose the standard project
    assert "» ann 使用标准项目「蓄水」\n  ann：-18 M€\n  › ann 在 32 放置海洋板块\n    ann：改造度 20→21\n" \
           "    海洋 0→1/9\n" in out
    assert "ann：第1个行动（每回合至多2个）" in out and "游戏已保存到 tharsis-save-1.json" in out


def test_an_options_whole_chinese_text_answers_even_when_it_starts_like_a_command():
    from tharsis.games.options import Seat
    from tharsis.runtime.core.decisions import Decision, Option
    from tharsis.terminal.play import GameLog

    game = Game(GameOptions(players=("ann", "bob"), seed=7))
    session = Session(game, [Seat("ann", "human"), Seat("bob", "human")], GameLog(None),
                      stdin=io.StringIO("玩家 bob\n玩家 bo\n"), stdout=io.StringIO(), language="zh")
    decision = Decision(0, "player", "Remove up to 2 plants from any player",
                        (Option("player bob", 1), Option("remove nothing", None)))
    assert session.read("?", decision) == "玩家 bob"                 # the option as shown: chosen
    assert session.read("?", decision) is None                       # 玩家 NAME, the lookup
    assert "--- bob（尚未选择公司），改造度 20，手牌0张" in session.stdout.getvalue()


def test_the_default_seats_are_named_in_chinese(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n不买\n退出\n"))
    assert main(["play", "--lang", "zh", "--seed", "4", "--no-log"]) == 0
    out = capsys.readouterr().out
    assert "你：选择你的公司" in out and "» 你选择「CrediCor」" in out and "» 机器人选择了一家公司" in out
    assert "玩家：A=你   B=机器人" in out       # the grid's letters stay letters whatever the names
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n不买\n退出\n"))
    assert main(["play", "--lang", "zh", "--seed", "4", "--players", "3", "--no-log"]) == 0
    assert "玩家：A=你   B=机器人1   C=机器人2" in capsys.readouterr().out    # not greedy1, greedy2


def test_columns_line_up_by_the_columns_a_terminal_gives_each_character():
    from tharsis.terminal import view

    game = Game(GameOptions(players=("ann", "bob"), seed=1))
    table = view.resources_table(game.state.players[0], language="zh").splitlines()
    assert table[0] == "                M€    钢铁      钛    植物    电力    热能"
    assert {widths.width(line) for line in table} == {58}
    result = {"players": [{"name": "安", "tr": 30, "milestones": 5, "awards": 0, "greeneries": 2, "cities": 1,
                           "cards": 3, "total": 41, "megacredits": 7},
                          {"name": "bob", "tr": 20, "milestones": 0, "awards": 5, "greeneries": 0, "cities": 0,
                           "cards": 0, "total": 25, "megacredits": 9}], "winner": "安", "generations": 9}
    lines = view.final_table(result, language="zh").splitlines()
    assert {widths.width(line) for line in lines[:4]} == {widths.width(lines[0])}   # header, rule, both rows
    assert lines[4:] == ["获胜者：安", "共进行了9个时代"]


def test_colour_takes_nothing_away_from_the_chinese_text():
    from tharsis.runtime.bots import BOTS
    from tharsis.terminal import view
    from tharsis.terminal.play import _numbered

    game = Game(GameOptions(players=("ann", "bob"), seed=1, corporate_era=True))
    bot = BOTS["greedy"](1)
    while game.pending().kind != "action" or not game.state.players[game.pending().player].hand:
        game.apply(bot.choose(game, game.pending()).label)
    index = game.pending().player
    shuttles = "Shuttles"   # a card with a Chinese name (穿梭机): its name is painted in its colour
    for plain, coloured in [(view.panel(game, index, language="zh"), view.panel(game, index, style.COLOUR, "zh")),
                            (_numbered(game, game.pending(), "zh"), _numbered(game, game.pending(), "zh",
                                                                               style.COLOUR)),
                            (view.player_sheet(game, 1 - index, language="zh"),
                             view.player_sheet(game, 1 - index, style.COLOUR, "zh")),
                            (view.card_block(game, shuttles, 1, "zh"), view.card_block(game, shuttles, 1, "zh",
                                                                                       style.COLOUR))]:
        assert "\x1b[" in coloured and "\x1b[" not in plain
        assert style.strip(coloured) == plain
    assert view.card_block(game, shuttles, 1, "zh", style.COLOUR).startswith("  1. \x1b[34m穿梭机\x1b[0m（Shuttles")


def test_a_tie_is_told_in_chinese():
    from tharsis.terminal import view

    def row(name, total, money):
        return {"name": name, "tr": total, "milestones": 0, "awards": 0, "greeneries": 0, "cities": 0, "cards": 0,
                "total": total, "megacredits": money}

    broken = {"players": [row("ann", 80, 30), row("bob", 80, 41)], "winner": "bob", "tie_break": True,
              "generations": 10}
    assert view.final_table(broken, language="zh").splitlines()[-2] == \
        "获胜者：bob（与ann同为80分；比较 M€ 决出胜负：bob 41，ann 30）"
    shared = {"players": [row("ann", 80, 30), row("bob", 80, 30)], "winner": "ann", "tie_break": True,
              "generations": 10}
    assert view.final_table(shared, language="zh").splitlines()[-2] == \
        "平手：ann和bob（各80分、30 M€：用于决胜的 M€ 也相同）"


@pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a POSIX pseudo-terminal")
def test_a_chinese_game_in_a_real_terminal(tmp_path):
    """Typed Chinese reaches the game through the terminal's line editor, and the screen, colours removed, is the
    Chinese game."""
    term = Terminal(["play", "--lang", "zh", "--seat", "ann=human", "--seat", "bob=greedy", "--seed", "1",
                     "--no-log"], tmp_path)
    term.expect("种子 1（用 tharsis play --seed 1 可以再发一次同样的牌局）。")
    shown = term.expect("ann：选择你的公司")
    assert "你的10张起始手牌（接下来选择购买哪些）：" in shown
    assert "Mining Guild（#R24） — 公司，起始资金 30 M€" in shown
    term.type("2")
    term.expect("ann：你要购买哪些牌？")
    term.type("买 3 7")
    term.expect("购买2张牌，共 6 M€：Mining Rights、穿梭机")
    term.expect("ann：第1个行动（每回合至多2个）")
    term.type("标准项目")
    term.expect("「标准项目」有多个可能：标准项目「贩卖专利」、标准项目「发电」")
    term.type("蓄水")
    shown = term.expect("ann：你要把海洋板块放在哪里？")
    assert "可以放置的区域，按放置奖励分组（输入区域编号作答）：" in shown and re.search(r"2点植物 +28 32 33 34", shown)
    term.type("32")
    term.expect("» ann 使用标准项目「蓄水」")
    term.type("退出")
    assert term.exit_code() == 0
    assert "\x1b[" in term.raw and style.strip(term.raw) == term.screen


# ------------------------------------------------------------------ the docs

def test_the_chinese_session_in_docs_playing_md_is_what_tharsis_play_prints(repo, tmp_path, monkeypatch, capsys):
    """Every line of the docs' Chinese transcript comes from this run (`...` marks a cut)."""
    monkeypatch.chdir(tmp_path)
    answers = "2\n买 3 7\n蓄水\n32\n结束\n项目\n里程碑\n退出\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    assert main(["play", "--lang", "zh", "--seat", "ann=human", "--seat", "bob=greedy", "--seed", "1",
                 "--no-log"]) == 0
    real = capsys.readouterr().out
    text = (repo / "docs" / "playing.md").read_text(encoding="utf-8")
    section = text[text.index("### In Chinese: `--lang zh`"):]
    section = section[:section.find("\n## ", 1)] if "\n## " in section else section
    inside, missing, lines = False, [], 0
    for line in section.splitlines():
        if line.startswith("```"):
            inside = not inside
        elif inside and line.strip() != "..." and not line.startswith(("$ ", "tharsis play")):
            lines += 1
            if line not in real:
                missing.append(line)
    assert lines > 20 and not missing, "\n".join(missing)


def test_the_chinese_commands_are_the_english_ones():
    """Each Chinese command does what its English one does (play.py ALIASES), and the help names them all."""
    from tharsis.terminal.play import COMMANDS

    assert set(ALIASES.values()) == {command.strip() for command in COMMANDS}
    help_text = messages.ZH["help"]
    assert all(alias in help_text for alias in ALIASES if alias != "帮助")
