"""The engine's English texts as the Chinese terminal game says them (`tharsis play --lang zh`).

The engine speaks English data that logs, saves and bots read: its questions (`Where do you place the ocean?`), the
labels of options (`standard project Aquifer`), its events (`(3, "play", 0, CARD)`, told in English by
runtime/api/narration.py) and the system's reasons for refusing a path. English players read them as they are; the
Chinese game says each by a pattern here, with every name as the names files give it. tharsis/terminal/prompts.py uses
the questions, heads and labels, tharsis/terminal/moves.py the events and choices, tharsis/terminal/view.py the phases
and tharsis/terminal/messages.py the reasons. The terminal's own words (in both languages) are
tharsis/terminal/messages.py's.
"""

from __future__ import annotations

import errno
from typing import Optional

from tharsis.runtime.core.state import ACTION, END, FINAL_GREENERY, PRODUCTION, RESEARCH, SETUP

__all__ = ["ZH_CHOICES", "ZH_EVENTS", "ZH_HEADS", "ZH_LABELS", "ZH_PATH_REASONS", "ZH_PHASES", "ZH_QUESTIONS",
           "ZH_VALUE_REASONS"]

# Why the system refuses a path (a save's file), by its errno: compiler/source.py `why_unusable` words the reason and
# the hint in English (the system's strerror, a hint of its own); the Chinese game says them in Chinese.
ZH_PATH_REASONS: dict[int, tuple[str, Optional[str]]] = {
    errno.ENOENT: ("没有这个文件或文件夹", None),
    errno.ENAMETOOLONG: ("文件名太长", "文件或文件夹的名称最多255字节，整个路径约4096字节"),
    errno.ELOOP: ("符号链接太多", "路径上的符号链接指回了自身，或一个接一个的链接太多"),
    errno.EACCES: ("没有权限", "你不能读写它或它上层的某个文件夹：请检查权限"),
    errno.EPERM: ("没有权限", "你不能读写它或它上层的某个文件夹：请检查权限"),
    errno.ENOTDIR: ("不是文件夹", "路径中应是文件夹的一段是文件"),
    errno.EISDIR: ("这是一个文件夹", None),
    errno.ENOSPC: ("磁盘空间不足", None),
    errno.EROFS: ("文件系统是只读的", None),
}
ZH_VALUE_REASONS = {
    "the path holds characters the file system cannot store": ("路径中有文件系统无法保存的字符", "请改用普通字符命名"),
    "the path holds a NUL character (\\0), which no path can hold": ("路径中有空字符（\\0），任何路径都不能含有它",
                                                                     None),
}


# The engine's questions and options are English data (runtime/: logs, saves and bots read them) and English players
# read them as they are. In Chinese each is said from its pattern: a question or label of that shape, its named parts,
# and the Chinese, in which tharsis/terminal/prompts.py says each part by its name (`card`, `corporation`, `project`,
# `milestone`, `award`, `conversion`: the names files' name; `tile`: 海洋板块; `kind`: a card type; `resource`: the
# rules text's noun; `paid`: what a payment is for; `player`, `n`: as they are). The first pattern that matches the
# whole text is used; a text no pattern matches stays as the engine wrote it (tests/test_play_zh.py plays whole games
# to find none).
ZH_QUESTIONS: tuple[tuple[str, str], ...] = (
    (r"Choose your corporation", "选择你的公司"),
    (r"action (?P<n>\d+) of 2", "第{n}个行动（每回合至多2个）"),
    (r"extra action \((?P<n>\d+) to take\)", "额外行动（还有{n}个）"),
    (r"Where do you place the marker\?", "你要把标记放在哪里？"),
    (r"Where do you move the marker\?", "你要把标记移到哪里？"),
    (r"Which tile gets the mark\?", "哪个板块获得这个标记？"),
    (r'Where do you place the (?P<tile>\w+) "(?P<card>.+)"\?', "你要把{tile}「{card}」放在哪里？"),
    (r"Where do you place the (?P<tile>\w+)\?", "你要把{tile}放在哪里？"),
    (r"Where is the (?P<tile>\w+) placed \(for nobody\)\?", "{tile}放在哪里（不属于任何玩家）？"),
    (r"Which space do you claim\?", "你要占据哪个区域？"),
    (r"Which (?P<tile>\w+) tile is removed\?", "移除哪个{tile}？"),
    (r'Which of your tiles is replaced by the (?P<tile>\w+) "(?P<card>.+)"\?',
     "你的哪个板块被替换为{tile}「{card}」？"),
    (r"Which of your tiles is replaced by the (?P<tile>\w+)\?", "你的哪个板块被替换为{tile}？"),
    (r"Buy (?P<card>.+) for (?P<n>\d+) MC\?", "以 {n} M€ 购买「{card}」？"),
    (r"Pay (?P<n>\d+) MC for (?P<paid>.+)", "为{paid}支付 {n} M€"),
    (r"Which effect of the card first\?", "先执行这张牌的哪个效果？"),
    (r"Which production rises\?", "提升哪一项产量？"),
    (r"Which card do you keep\?", "你保留哪张牌？"),
    (r"Which (?P<kind>\w+) card do you keep\?", "你保留哪张{kind}牌？"),
    (r"Which card do you discard\?", "你弃掉哪张牌？"),
    (r"Which card gets 1 (?P<resource>\w+) \((?P<n>\d+) to place\)\?", "哪张牌获得1个{resource}（还有{n}个要放）？"),
    (r"Choose one", "选择一项"),
    (r"Copy the production of which card\?", "复制哪张牌的产量效果？"),
    (r"Copy the effects of which card\?", "复制哪张牌的立即效果？"),
    (r"Which card do you move\?", "你移动哪张牌？"),
    (r"Which card do you reveal \((?P<n>\d+) to go\)\?", "你展示哪张牌（还要展示{n}张）？"),
    (r"Which revealed card do you take into hand\?", "你将哪张翻开的牌加入手牌？"),
    (r"Into whose play area does (?P<card>.+) go\?", "「{card}」放入谁的场上？"),
    (r"Which card do you play from your hand\?", "你从手牌中打出哪张牌？"),
    (r"Which of your played events do you play again\?", "你再次打出哪张打出过的事件牌？"),
    (r"Which award do you fund for free\?", "你免费资助哪个奖励？"),
    (r"Which card do you play first\?", "你先打出哪张牌？"),
    (r"Which (?P<kind>\w+) card do you play\?", "你打出哪张{kind}牌？"),
    (r"Repeat the action of which card\?", "再次使用哪张牌的行动？"),
    (r"Draft a card \(keep one, pass the rest\)", "轮抽一张牌（保留一张，其余的传给下一位玩家）"),
    (r"Convert plants into a greenery\?", "把植物转换为绿化板块吗？"),
    (r"Several effects trigger: which resolves first\?", "多个效果同时触发：先结算哪一个？"),
    (r"Which action of (?P<card>.+)\?", "使用「{card}」的哪个行动？"),
    (r"On which site do you place an? (?P<piece>.+)\?", "你要在哪个站点放置{piece}？"),
    (r"Which site does your (?P<piece>.+) visit\?", "你的{piece}要访问哪个站点？"),
    (r"In which faction do you place (?P<n>\d+) (?P<piece>.+?)s?\?", "你要将{n}个{piece}放入哪个派系？"),
    (r"Which piece do you remove\?", "你要移除哪个棋子？"),
    (r"In which faction do you replace a neutral piece\?", "你要在哪个派系替换一个中立棋子？"),
    (r"Raise the marker of (?P<site>.+) before the visit\?", "访问前要把「{site}」的标记提升到哪一格？"),
    (r"On which site do you raise the marker (?P<n>\d+) steps?\?", "你要把哪个站点的标记提升{n}格？"),
    (r"On which site do you lower the marker (?P<n>\d+) steps?\?", "你要把哪个站点的标记降低{n}格？"),
    (r"Which site do you bring into play\?", "你要将哪个站点加入游戏？"),
    (r"Which site do you set aside\?", "你要将哪个站点移出游戏？"),
    (r"How do you pay for (?P<conversion>.+)\?", "你如何支付「{conversion}」？"),
    (r"How much of your (?P<n>\d+) energy do you convert to heat\?", "你的{n}个电力中要将多少转换为热能？"),
)
# the phases of a generation (the state's `phase`, which English players read as it is)
ZH_PHASES = {SETUP: "设置", RESEARCH: "研究阶段", ACTION: "行动阶段", PRODUCTION: "生产阶段",
             FINAL_GREENERY: "最后的绿化", END: "游戏结束"}
# the words before the effects a question names (`Which card gets ` + an effect + `?`), said before their rules text
ZH_HEADS: dict[str, str] = {
    "Which card gets ": "哪张牌获得以下效果？", "Whose production decreases? ": "谁的产量减少？",
    "Choose X: ": "选择X：", "Reveal X cards from hand: ": "从手牌展示X张牌：", "Optional: ": "可选：",
    "first action: ": "第一个行动：", "Which opponent decides? ": "由哪名对手决定？",
}
# The engine's events (runtime/api/narration.py says them in English), as the Chinese moves tell them: `{who}` is the
# actor followed by a space when the name ends in a Latin letter (ann 打出, 你打出), `{owner}` the name alone,
# `{0}`, `{1}` the details with every name as the names files give it; tharsis/terminal/moves.py fills the other slots.
ZH_EVENTS: dict[str, str] = {
    "start": "{who}以「{0}」开局",
    "first_action": "{who}执行「{0}」的第一个行动",
    "play": "{who}打出「{0}」",
    "unplayable": "{who}无法打出「{0}」：弃掉该牌",
    "action": "{who}使用「{0}」的行动：{action}",
    "project": "{who}使用标准项目「{0}」",
    "convert": "{who}使用标准行动「{0}」",
    "milestone": "{who}宣告达成里程碑「{0}」",
    "award": "{who}资助奖励「{0}」",
    "place": "{who}在 {0} 放置{tile}",
    "place_nobody": "{tile}放在 {0}，不属于任何玩家",
    "neutral_city": "在 {0} 放置一座中立城市",
    "bonus": "{0} 的放置奖励",
    "track": "{parameter}达到{value}时的奖励",
    "trigger": "{owner}的「{0}」",
    "rule": "规则：{0}",
    "production": "第{generation}时代的生产阶段",
    "research": "第{generation}时代的研究阶段",
    "starting_cards": "{owner}的起始手牌",
    "set_aside": "{who}放弃「{0}」",
    "pass": "{who}跳过",
    "reveal": "{who}翻开「{0}」",
    "reveal_until": "{who}翻开{0}张牌，拿取{found}",
    "reveal_from_hand": "{who}从手牌展示{found}",
    "reveal_shared": "{who}翻开供每名玩家拿取：{found}",
    "take_revealed": "{who}拿取「{0}」",
    "kept": "{who}展示「{0}」并将其放在「{1}」上",
    "kept_doubled": "「{0}」上的资源翻倍为{1}个",
    "discard_revealed": "未被拿取的牌弃掉：{found}",
    "award_free": "{who}免费资助奖励「{0}」",
    "discard_kind": "{who}弃掉{0}张{kind}牌",
    "neutral_production": "中立对手的产量减少",
    "face_down": "{who}将「{0}」面朝下放入事件牌堆",
    "discard_event": "{who}将「{0}」从事件牌堆弃掉",
    "actions_lost": "{who}无事可做：失去{0}个额外行动",
    "resolve": "执行{kind}「{0}」",
    "stage": "{kind}「{0}」进入{1}阶段",
    "stage_reveal": "揭示{kind}「{0}」",
    "stage_discard": "弃掉{kind}「{0}」",
    "government": "「{0}」上台执政",
    "faction_bonus": "「{0}」的执政奖励",
    "role": "{who}担任{0}",
    "faction_in": "{owner}的{piece}进入「{0}」",
    "faction_out": "{owner}的{piece}离开「{0}」",
    "pieces_back": "{piece}回到各自的储备：{owners}",
    "tile_removed": "移除 {0} 上的{1}",
    "tax": "{who}为{0}级改造度支付{1} M€ 的税",
    "untaxed": "{who}付不起{1} M€ 的税：{0}级改造度不获得",
    "tr_skipped": "{who}跳过{0}级改造度：不获得",
    "visit": "{who}派出{piece}访问「{0}」",
    "build": "{who}在「{0}」放置{piece}",
    "piece_back": "{who}从「{0}」收回{piece}",
    "site_bonus": "{owner}在「{0}」的{piece}奖励",
    "marker": "「{0}」的标记移到第{1}格",
    "site_active": "「{0}」启用",
    "site_in": "{who}将「{0}」加入游戏",
    "site_out": "{who}将「{0}」移出游戏",
    "marker_placed": "{who}将「{0}」标记放在 {1}",
    "marker_moved": "{who}将「{0}」标记移到 {1}",
    "mark_put": "{who}在 {0} 的板块上放置{2}个{1}",
}
# the mover's choices that the events do not tell, in Chinese (in English they are conjugated: runtime/api/narration.py)
ZH_CHOICES: dict[str, str] = {
    "pay": "支付 {what}", "choose": "选择{what}", "first": "选择先{what}", "then": "再{what}",
    "corporation": "选择了一家公司", "buy": "购买", "draft": "轮抽",
    "keep": "保留", "discard": "弃掉", "cards": "{n}张牌",
}
ZH_LABELS: tuple[tuple[str, str], ...] = (
    (r"corporation (?P<corporation>.+)", "公司「{corporation}」"),
    (r"keep (?P<card>.+)", "保留「{card}」"),
    (r"draft (?P<card>.+)", "轮抽「{card}」"),
    (r"buy (?P<card>.+)", "购买「{card}」"),
    (r"discard (?P<card>.+)", "弃掉「{card}」"),
    (r"move (?P<card>.+)", "移动「{card}」"),
    (r"take (?P<card>.+)", "拿取「{card}」"),
    (r"reveal (?P<card>.+)", "展示「{card}」"),
    (r"copy (?P<card>.+)", "复制「{card}」"),
    (r"play (?P<card>.+)", "打出「{card}」"),
    (r"card (?P<card>.+) \((?P<player>[^()]+)\)", "「{card}」（{player}）"),
    (r"card (?P<card>.+)", "「{card}」"),
    (r"player (?P<player>.+)", "玩家 {player}"),
    (r"standard project (?P<project>.+)", "标准项目「{project}」"),
    (r"claim (?P<milestone>.+)", "宣告里程碑「{milestone}」"),
    (r"fund (?P<award>.+)", "资助奖励「{award}」"),
    (r"convert (?P<conversion>.+)", "标准行动「{conversion}」"),
    (r"action (?P<card>.+)", "使用「{card}」的行动"),
    (r"space (?P<n>\S+)", "区域 {n}"),
    (r"site (?P<site>.+)", "站点「{site}」"),
    (r"faction (?P<faction>.+)", "派系「{faction}」"),
    (r"(?P<n>\d+) MC", "{n} M€"),
    (r"(?P<n>\d+) (?P<resource>energy|titanium|steel|plants?|heat)", "{n}点{resource}"),
    (r"remove nothing", "不移除"),
    (r"steal nothing", "不夺取"),
    (r"neutral opponent", "中立对手"),
    (r"yes", "是"),
    (r"no", "否"),
    (r"done", "完成"),
    (r"nothing", "什么也不做"),
    (r"pass", "跳过"),
    (r"end turn", "结束回合"),
)
