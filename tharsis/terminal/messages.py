"""The terminal game's own words, in English and Chinese: what `tharsis play --lang en|zh` says around the cards.

The rules text of cards, standard projects, milestones and awards has its own phrase tables
(compiler/templates/phrases/<language>.yaml) and the names of definitions have the names files (cards/zh.names,
compiler/names.py). What is left is the terminal's: prompts, menu entries, help, lookups, panels, tables, the
board's legend, refusals, the final table and its tie wording. Each is a key here with one text per language; the
code lays the screens out once and asks `Words` for every word, so the English screens are the English table's
texts byte for byte and the Chinese ones speak the same terms as the Chinese rulebook (seed 000: 改造度, M€, 时代,
标准项目, 里程碑, 奖励, 资助, 跳过, 放置奖励, 海洋保留区, 玩家指示物), which are also the phrase table's.

Why a Python module rather than YAML beside the phrase tables: the phrase tables are the compiler's package data,
read by the rules text renderer; these words are the terminal client's and nothing else reads them. Several
English entries are two forms chosen by a count (`1 card`, `2 cards`), which a tuple says in the table itself,
and a Python table needs no package data (pyproject) to ship. tests/test_play_zh.py checks that both tables have
the same keys and the same slots.

Names never come from here: `Words.name` asks the names files (a card without a Chinese name keeps its English
name: names are never invented), and nouns, tags, tiles and card types come from the phrase table, so a term reads
the same on a card and in a menu.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Optional, Union

from tharsis.compiler import rules_text
from tharsis.compiler.names import NO_NAMES, Names

from . import engine_zh

__all__ = ["EN", "TABLES", "ZH", "Words", "path_refusal", "slots", "void_note", "words", "words_for"]

Entry = Union[str, tuple[str, str]]   # a text, or (singular, plural) chosen by the slot `n`

EN: dict[str, Entry] = {
    # ------------------------------------------------------------------ the session (tharsis/terminal/play.py)
    "resuming": "Resuming the game of seed {seed} after {n} choices.",
    "seed": "Seed {seed} (tharsis play --seed {seed} deals this game again).",
    "type_help": "Type help for the commands.",
    "interrupted": "\n(interrupted)",
    "input_ended": "(input ended)",
    "saved_in_log": ("Game saved in its log {path} (written after every choice). "
                     "Resume with: tharsis play --load {path}"),
    "saved_to": "Game saved to {path}. Resume with: tharsis play --load {path}",
    "log_written": "log written to {path} (tharsis replay {path})",
    # ------------------------------------------------------------------ tharsis replay (tharsis/terminal/replay.py)
    "replay_start": "Replaying {path}: seed {seed}, {seats}.",
    "replay_seat": "{name} ({kind})",
    "kind_human": "human",
    "kind_random": "random",
    "kind_greedy": "greedy",
    "kind_mcts": "mcts",
    "the_log": "log",
    "the_save": "save",
    "replay_stops": "the {kind} stops before the end of the game (generation {generation}, waiting for {name}: "
                    "{prompt}); resume it with: tharsis play --load {path}",
    "replay_verified_result": "verified: the replay gives the logged result",
    "replay_verified_state": "verified: the replay reaches the saved state",
    "replay_after": "--- after generation {n}:",
    "replay_goes_on": "(the game goes on: tharsis replay without --until tells the rest)",
    "replay_step": "(Enter: the next move, q: the rest without stopping) ",
    "replay_player": "  {name}: TR {tr}, {mc} MC, production {production}, {played}",
    "cards_in_play": ("{n} card in play", "{n} cards in play"),
    "prompt": "{name}: {asked}",
    "prompt_for": "{name}, deciding for {owner}: {asked}",
    "decided_by_note": "decided by {name}",
    "legal_spaces": "Legal spaces by what they give (answer with the space's id):",
    "starting_cards": ("Your {n} starting card (you choose which to buy next):",
                       "Your {n} starting cards (you choose which to buy next):"),
    "dealt_with_corporations": ("The {n} card dealt to you with the corporations (you choose which to keep after "
                                "the buy):",
                                "The {n} cards dealt to you with the corporations (you choose which to keep after "
                                "the buy):"),
    "which_cards": "which cards do you buy? (buy 1 3 5 / buy all / buy none; the rest are discarded)",
    "buying": "buying {cards}{cost}: {names}",
    "buying_cost": " for {mc} MC",
    "buying_none": "buying no cards",
    "cards_count": ("{n} card", "{n} cards"),
    "needs_a_name": "{command} needs a name: {command} {example}",
    "nothing_yet": "nothing has happened yet",
    "no_card_starts": "no card starts with {name!r}",
    "not_a_card": "{name} is {kind}, not a card: type {command}",
    "kind_milestone": "a milestone",
    "kind_award": "an award",
    "kind_project": "a standard project",
    "kind_conversion": "a conversion (a standard action)",
    "no_player": "no player is called {name!r}; players: {players}",
    "ambiguous": "'{answer}' is ambiguous: {shown}; type more of it",
    "ambiguous_more": ", ... ({n} in all)",
    "save_needs_name": "save needs a file name: save mygame.json",
    "could_not_save": "could not save to {path}: {reason}",
    "could_not_save_kept": "could not save to {path}: {reason}; the earlier save there is as it was",
    "exists": "{path} already exists: save under another name (a save never overwrites another file)",
    "saved": "saved to {path}; resume with: tharsis play --load {path}",
    "nothing_to_undo": "nothing of yours to undo",
    "cannot_undo": ("cannot undo: {humans} has chosen since your last choice (undo takes back your own answers, and "
                    "the bots' choices after them)",
                    "cannot undo: {humans} have chosen since your last choice (undo takes back your own answers, and "
                    "the bots' choices after them)"),
    "and": " and ",
    "undone": "undone: back before {move} in generation {generation}{also}",
    "undone_choice": "your choice '{label}'",
    "undone_buying": "your choice of the cards to buy",
    "undone_nothing": "your last choice",
    "undone_also": ("; {choices} of {bots} after it is taken back too",
                    "; {choices} of {bots} after it are taken back too"),
    "choices_count": ("{n} choice", "{n} choices"),
    "not_a_legal_space": "{space} is not a legal space here; legal: {legal}",
    "no_option": "there is no option {answer}: the options are numbered 1-{n}",
    "not_an_option": "'{answer}' is not one of the options; type options to list them, help for the commands",
    "cannot_play": "{card} cannot be played now: {reason}",
    "pass_is_end_turn": ("you have taken an action this turn, so you cannot pass now: '{end_turn}' ({n}) ends your "
                         "turn (pass instead of your first action of a later turn to stop for this generation)"),
    "offered": "{cards} offered, {price}; you have {mc} MC{enough}:",
    "price_each": "{price} MC each",
    "priced_as_shown": "priced as shown",
    "enough_for": " (enough for {n})",
    "help": """Answer with the number of an option or the start of its text (or of a word in it); a space with its board
id (31); cards to buy with their numbers (buy 1 3 5, buy all, buy none).
Commands:  view (the whole state)   board   hand   card NAME (a card's rules text)   options (this decision's)
           player NAME / opponents (corporation, production, tags, cards in play)   history (the last events)
           projects (standard projects: price, can you)   milestones / awards (who meets / leads them)
           undo (take back your last answer, and the bots' choices after it)   save FILE
           quit (saves, and says how to resume)""",

    # ------------------------------------------------------------------ buying (tharsis/terminal/buying.py)
    "say_which": "say which cards to buy: buy 1 3 5, buy all or buy none",
    "not_a_card_number": "{word!r} is not a card number; answer like: buy 1 3 5, buy 2-4, buy all or buy none",
    "no_card_number": "there is no card {number}: the cards are numbered 1-{n}",
    "backwards_range": "{word!r} counts down and so names no card: a range goes from the lower number up ({fixed})",
    "not_a_digit": "{word!r} is not a number you can answer with: type numbers with the digits 0-9",
    "cannot_afford": ("you cannot afford {cards}{price}: {bought} is the most you can pay for (you have {mc} MC)"),
    "at_each": " at {price} MC each",

    # -------------------------------------------------------------- the board and the panels (tharsis/terminal/view.py)
    "legend": "players: {players}   ≈≈ ocean  g greenery  C city  S special  ~ ocean space  ^ volcanic  · no bonus",
    "legend_player": "{letter}={name}",
    "legend_neutral": "   n=neutral",
    "off_mars": "off Mars: {areas}",
    "off_mars_sep": "; ",
    "offboard_city": "{area}: city {owner}",
    "offboard_free": "{area}: free",
    "bonuses": "bonuses: {bonuses} (a letter twice: 2 of it)",
    "markers": "markers (*): {markers}",
    "marker_at": "{name} on {space} ({owner}{blocks})",
    "marker_blocks": ", no tile may go there",
    "on_top": "tiles on top of tiles: {tiles}",
    "on_top_at": "{space} {top} on {below}",
    "tile_marks": "marks on tiles: {marks}",
    "tile_mark_at": "{space} {count} {mark}",
    "bonus_key": "{letter} {name}",
    "generation_line": "Generation {generation} ({phase})   temperature {temperature}°C   oxygen {oxygen}%   "
                       "oceans {oceans}/9{declared}",
    "declared_parameter": "   {name} {value}{unit}",
    "phase": "{phase}",
    "resource_heads": "MC|steel|titan|plant|energy|heat",
    "stock": "stock",
    "production": "production",
    "hand_empty": "hand: (empty)",
    "hand": "hand (* playable now):",
    "card_facts": " [{type}, {cost} MC, {tags}]",
    "card_type": "{type}",
    "tags_compact_sep": ",",
    "no_tags_compact": "-",
    "requires": "  requires {condition}",
    "not_met": "  requires {condition} (not met)",
    "why": "  ({reason})",
    "in_play": "in play: {cards}",
    "none": "-",
    "list_sep": ", ",
    "sep": ", ",
    "held_count": " ({n})",
    "used": " used",
    "events": "\nevents: {cards}",
    "milestones_line": "milestones: {milestones}\nawards: {awards}",
    "taken_by": " ({name})",
    "government_line": "government: {ruling} rules, {role}: {holder}, dominant: {dominant}",
    "policy_line": "  policy of {ruling}: {policy}",
    "policy_action": "Action: {action}",
    "reserves_line": "  {pieces} in reserve: {reserves}",
    "reserve": "{name} {n}",
    "faction_pieces": "  {name}: {pieces}{marks}",
    "ruling_mark": " (ruling)",
    "dominant_mark": " (dominant)",
    "leader_mark": "*",
    "neutral_owner": "neutral",
    "nobody": "nobody",
    "stages_line": "{kind} cards: {stages}",
    "stage_card": "{stage} {card}",
    "stage_empty": "{stage} -",
    "sites_head": "sites (the marker's step in brackets):",
    "site_line": "  {name}{inactive}: {parts}\n      {more}",
    "site_sep": "; ",
    "site_track": "track {track}",
    "site_income": "{visitor} visiting now gets: {income}",
    "site_bonus": "{piece} bonus: {bonus}",
    "site_pieces": "{pieces}: {owners} ({n}/{capacity})",
    "site_visiting": "{name}'s {visitor} is here",
    "site_inactive": "inactive until {event}",
    "site_inactive_mark": " (inactive)",
    "site_inactive_income": "nothing while inactive",
    "nothing_gained": "nothing",
    "nobody_there": "none",
    "site_build": "placing one: {build}",
    "site_step": "step {step}: {income}",
    "faction_now": "{pieces}: {owners}",
    "faction_piece": "{owner}'s piece in {faction}",
    "would_lead": "you would lead it",
    "would_dominate": "it would become dominant",
    "is_dominant": "dominant",
    "is_ruling": "ruling",
    "others": "{name}: TR {tr}, {mc} MC (+{production}), {cards} in hand, {played} in play{passed}",
    "passed": ", passed",
    "score_now": "score now: {scores}",
    "score": "{name} {total}",
    "panel_header": "--- {name} ({corporation}), TR {tr}",
    "no_corporation": "no corporation yet",
    "tags": "tags: {tags}",
    "tag_count": "{tag} {n}",
    "final_titles": "TR|milestones|awards|greeneries|cities|cards|TOTAL|MC (tie-break)",
    "player": "player",
    "solo_won": "solo: WON — Mars is terraformed in time",
    "solo_lost": "solo: LOST",
    "winner": "winner: {name}",
    "generations": "generations: {n}",
    "tied_all": "tied: {names} and {last} ({total} points and {mc} MC each: megacredits, the tie-break, are equal too)",
    "won_tie": "winner: {name} (tied on {total} points with {rivals}; megacredits broke the tie: {money})",
    "money": "{name} {mc}",

    # ------------------------------------------------------------------ lookups (tharsis/terminal/view.py)
    "amount_mc": "{n} MC",
    "amount_ocean": ("{n} ocean to place", "{n} oceans to place"),
    "next_to_oceans": ("+{mc} MC ({n} ocean next to it)", "+{mc} MC ({n} oceans next to it)"),
    "space_costs": "costs {mc} MC",
    "no_bonus": "no bonus",
    "sheet_header": "--- {name} ({corporation}), TR {tr}, {cards} in hand{passed}",
    "holds": " ({n} {holds})",
    "resources_held": "resources",
    "action_used": " [action used]",
    "events_played": "events played: {cards}",
    "tiles": "tiles: {tiles}",
    "claimed_funded": "claimed: {milestones}; funded: {awards}",
    "projects": "standard projects (your price; * you can do it now):",
    "conversions": "conversions (any number of times):",
    "mc": "{n} MC",
    "no_milestones": "no milestones in this game",
    "milestones_head": "milestones: {cost} MC to claim, 5 VP; {claimed} of {limit} claimed",
    "standing": "{name} {values}",
    "meets": " (meets it)",
    "claimed_by": "claimed by {name}",
    "no_awards": "no awards in this game",
    "awards_head": "awards: 5 VP for first, 2 for second; {funded} of {limit} funded, {price}",
    "next_costs": "the next costs {mc} MC",
    "all_funded": "all are funded",
    "award_line": "{counts}; leads: {leaders}; {status}",
    "count": "{name} {n}",
    "nobody_yet": "nobody yet",
    "funded_by": "funded by {name}",
    "not_funded": "not funded",
    "refuse_costs": "costs {mc} MC",
    "refuse_effects": "its effects cannot all be carried out",
    "refuse_effect_needs": "its effects cannot all be carried out: '{effect}' needs {things} (you have {had})",
    "refuse_effect_stuck": "its effects cannot all be carried out: '{effect}' cannot be carried out{why}",
    "refuse_effects_together": ("its effects cannot all be carried out: each can be carried out on its own, but not "
                                "all of them once the card is paid for"),
    "refuse_needs": "needs {things}",
    "refuse_now": "cannot be carried out now",
    "refuse_prices": "needs {prices}",
    "refuse_costs_taxed": "costs {mc} MC and its TR steps are taxed {tax} MC",
    "refuse_taxed": "its TR steps are taxed {tax} MC, which you cannot also pay",
    "refuse_used": "was already used this generation",

    # -------------------------------------------------------------- questions and options (tharsis/terminal/prompts.py)
    "rule_asks": "{rule} (a rule of {set})",
    "asked_within": "{within}: ",
    "which_player": "Which player?",
    "which_card": "Which card?",
    "said_question": "{head}it? {rules}",
    "you": "you",
    "you_and": "you; {facts}",
    "production_fact": "{resource} production {n}",
    "has": "has {things}",
    "production_now": "your production now {n}",
    "free": "free",
    "or": " or ",
    "or_plain": " or ",
    "card_cost": "{cost} MC, ",
    "or_means": " (or {means})",
    "production_cost": "{n} {resource} production",
    "no_tags": "no tags",
    "may_pay": "; {means} may pay",
    "milestone_note": "5 VP; {condition}",
    "void_note": " (does nothing now: {parameters} at the maximum)",
    "award_note": "{measure}: {counts}",
    "card_line": "{type}, {cost}{tags}",
    # ------------------------------------------------------------- the moves as they happen (tharsis/terminal/moves.py)
    "generation_header": "=== Generation {n} ===",
    "continued": " (continued)",
    "move_line": "» {subject}{said}",
    "choices_line": "({subject}{said})",
    "change_line": "{name}: {changes}",
    "tr_change": "TR {before}→{after}",
    "resource_change": "{delta} {resource}",
    "production_change": "{delta} {resource} production",
    "hand_change": ("{delta} card in hand", "{delta} cards in hand"),
    "held_change": "{delta} {holds} on {card}",
    "temperature_change": "temperature {before}→{after}°C",
    "oxygen_change": "oxygen {before}→{after}%",
    "oceans_change": "oceans {before}→{after}/9",
    "parameter_change": "{name} {before}→{after}{unit}",
    "vp_from_cards": "VP from cards:",
    "vp_line": "  {name}: {cards} ({points} VP)",
    "vp_none": "  {name}: none",
    "vp_card": "{card} {points}",
    "history_line": "gen {generation}: {sentence}",
}

# The Chinese words. 改造度 (TR), 时代 (generation), M€, 分 (VP), 跳过 (pass), 资助 (fund an award), 宣告 (claim a
# milestone), 放置奖励, 海洋保留区, 手牌, 公司: the rulebook's terms (seed 000), as in the rules text's phrase table.
ZH: dict[str, Entry] = {
    "resuming": "继续种子 {seed} 的牌局（已做出 {n} 个选择）。",
    "seed": "种子 {seed}（用 tharsis play --seed {seed} 可以再发一次同样的牌局）。",
    "type_help": "输入「帮助」查看命令。",
    "interrupted": "\n（已中断）",
    "input_ended": "（输入已结束）",
    "saved_in_log": "游戏已保存在它的记录文件 {path} 中（每次选择后都会写入）。继续游戏：tharsis play --load {path}",
    "saved_to": "游戏已保存到 {path}。继续游戏：tharsis play --load {path}",
    "log_written": "记录文件已写入 {path}（重放：tharsis replay {path}）",
    # ------------------------------------------------------------------ tharsis replay (tharsis/terminal/replay.py)
    "replay_start": "重放 {path}：种子 {seed}，{seats}。",
    "replay_seat": "{name}（{kind}）",
    "kind_human": "人类",
    "kind_random": "随机机器人",
    "kind_greedy": "贪心机器人",
    "kind_mcts": "搜索机器人",
    "the_log": "记录文件",
    "the_save": "存档",
    "replay_stops": "这份{kind}在游戏结束前中断（第{generation}时代，等待{name}：{prompt}）；"
                    "继续游戏：tharsis play --load {path}",
    "replay_verified_result": "已核对：重放得到记录的结果",
    "replay_verified_state": "已核对：重放到达存档的状态",
    "replay_after": "--- 第{n}时代结束后：",
    "replay_goes_on": "（游戏还在继续：不带 --until 的 tharsis replay 讲述其余部分）",
    "replay_step": "（回车：下一步，q：不停顿地讲完）",
    "replay_player": "  {name}：改造度 {tr}，{mc} M€，产量 {production}，{played}",
    "cards_in_play": ("已打出{n}张", "已打出{n}张"),
    "prompt": "{name}：{asked}",
    "prompt_for": "{name}（替{owner}决定）：{asked}",
    "decided_by_note": "由{name}决定",
    "legal_spaces": "可以放置的区域，按放置奖励分组（输入区域编号作答）：",
    "starting_cards": "你的{n}张起始手牌（接下来选择购买哪些）：",
    "dealt_with_corporations": "随公司一起发给你的{n}张牌（购买之后选择保留哪些）：",
    "which_cards": "你要购买哪些牌？（买 1 3 5 / 全部 / 不买；其余的弃掉）",
    "buying": "购买{cards}{cost}：{names}",
    "buying_cost": "，共 {mc} M€",
    "buying_none": "一张也不买",
    "cards_count": "{n}张牌",
    "needs_a_name": "「{command}」后面要跟名称：{command} {example}",
    "nothing_yet": "还没有发生任何事",
    "no_card_starts": "没有以「{name}」开头的牌",
    "not_a_card": "「{name}」是{kind}，不是牌：请输入「{command}」",
    "kind_milestone": "里程碑",
    "kind_award": "奖励",
    "kind_project": "标准项目",
    "kind_conversion": "转换（标准行动）",
    "no_player": "没有叫「{name}」的玩家；玩家：{players}",
    "ambiguous": "「{answer}」有多个可能：{shown}；请多输入几个字",
    "ambiguous_more": "……（共{n}个）",
    "save_needs_name": "保存需要文件名：保存 mygame.json",
    "could_not_save": "无法保存到 {path}：{reason}",
    "could_not_save_kept": "无法保存到 {path}：{reason}；那里原有的存档保持不变",
    "exists": "{path} 已经存在：请换个文件名（保存从不覆盖其他文件）",
    "saved": "已保存到 {path}；继续游戏：tharsis play --load {path}",
    "nothing_to_undo": "你还没有可以撤销的选择",
    "cannot_undo": "无法撤销：{humans}在你上一个选择之后已经做出了选择"
                   "（撤销只能收回你自己的回答，以及其后机器人的选择）",
    "and": "和",
    "undone": "已撤销：回到第{generation}时代{move}之前{also}",
    "undone_choice": "你的选择“{label}”",
    "undone_buying": "你选择购买卡牌",
    "undone_nothing": "你的上一个选择",
    "undone_also": "；其后{bots}的{choices}也一并收回",
    "choices_count": "{n}个选择",
    "not_a_legal_space": "{space} 不是这里可以放置的区域；可以放置的区域：{legal}",
    "no_option": "没有选项 {answer}：选项编号为 1-{n}",
    "not_an_option": "「{answer}」不是任何一个选项；输入「选项」列出选项，输入「帮助」查看命令",
    "cannot_play": "现在无法打出「{card}」：{reason}",
    "pass_is_end_turn": ("你本回合已经执行过行动，现在不能跳过：「{end_turn}」（{n}）结束你的回合"
                         "（要在本时代不再行动，请在之后某个回合的第一个行动时跳过）"),
    "offered": "可购买{cards}，{price}；你有 {mc} M€{enough}：",
    "price_each": "每张 {price} M€",
    "priced_as_shown": "价格如下",
    "enough_for": "（够买{n}张）",
    "help": """回答时输入选项的编号，或选项文字的开头（或其中某个词的开头）；区域输入版图上的编号（31）；
购买卡牌输入它们的编号（买 1 3 5、全部、不买）。
命令：  查看（整个局面）   版图   手牌   卡牌 名称（一张牌的规则文字）   选项（本次决定的选项）
        玩家 名称 / 对手（公司、产量、标志、已打出的牌）   历史（最近发生的事）
        项目（标准项目：价格、现在能否使用）   里程碑 / 奖励（谁达成 / 谁领先）
        撤销（收回你上一个回答，以及其后机器人的选择）   保存 文件名
        退出（保存游戏，并说明如何继续）""",

    "say_which": "请说明要买哪些牌：买 1 3 5、全部 或 不买",
    "not_a_card_number": "「{word}」不是卡牌编号；请这样回答：买 1 3 5、买 2-4、全部 或 不买",
    "no_card_number": "没有第{number}张牌：卡牌编号为 1-{n}",
    "backwards_range": "「{word}」是倒着数的，选不到任何牌：范围要从小号写到大号（{fixed}）",
    "not_a_digit": "「{word}」不是可以作答的数字：请用数字 0-9 输入",
    "cannot_afford": "你买不起{cards}{price}：最多只能支付{bought}张（你有 {mc} M€）",
    "at_each": "（每张 {price} M€）",

    "legend": "玩家：{players}   ≈≈ 海洋板块  g 绿化板块  C 城市板块  S 特殊板块  "
              "~ 海洋保留区  ^ 火山区域  · 无放置奖励",
    "legend_player": "{letter}={name}",
    "legend_neutral": "   n=中立",
    "off_mars": "火星之外：{areas}",
    "off_mars_sep": "；",
    "offboard_city": "{area}：{owner} 的城市",
    "offboard_free": "{area}：空闲",
    "bonuses": "放置奖励：{bonuses}（字母出现两次：2份）",
    "markers": "标记（*）：{markers}",
    "marker_at": "「{name}」在 {space}（{owner}{blocks}）",
    "marker_blocks": "，该区域不能放置板块",
    "on_top": "叠放的板块：{tiles}",
    "on_top_at": "{space} {below}上的{top}",
    "tile_marks": "板块上的标记：{marks}",
    "tile_mark_at": "{space} {count}个{mark}",
    "bonus_key": "{letter} {name}",
    "generation_line": "第{generation}时代（{phase}）   温度 {temperature}℃   "
                       "氧气浓度 {oxygen}%   海洋 {oceans}/9{declared}",
    "declared_parameter": "   {name} {value}{unit}",
    "phase": "{phase}",
    "resource_heads": "M€|钢铁|钛|植物|电力|热能",
    "stock": "资源",
    "production": "产量",
    "hand_empty": "手牌：（无）",
    "hand": "手牌（* 现在可以打出）：",
    "card_facts": "（{type}，{cost} M€，{tags}）",
    "card_type": "{type}牌",
    "tags_compact_sep": "、",
    "no_tags_compact": "无标志",
    "requires": "  需求：{condition}",
    "not_met": "  需求：{condition}（未满足）",
    "why": "  （{reason}）",
    "in_play": "已打出：{cards}",
    "none": "无",
    "list_sep": "、",
    "sep": "，",
    "held_count": "（{n}）",
    "used": "（已使用）",
    "events": "\n事件牌：{cards}",
    "milestones_line": "里程碑：{milestones}\n奖励：{awards}",
    "taken_by": "（{name}）",
    "government_line": "政府：{ruling}执政，{role}：{holder}，优势派系：{dominant}",
    "policy_line": "  {ruling}的政策：{policy}",
    "policy_action": "行动：{action}",
    "reserves_line": "  储备的{pieces}：{reserves}",
    "reserve": "{name} {n}",
    "faction_pieces": "  {name}：{pieces}{marks}",
    "ruling_mark": "（执政）",
    "dominant_mark": "（优势）",
    "leader_mark": "*",
    "neutral_owner": "中立",
    "nobody": "无人",
    "stages_line": "{kind}牌：{stages}",
    "stage_card": "{stage}「{card}」",
    "stage_empty": "{stage}无",
    "sites_head": "站点（方括号内为标记所在的格）：",
    "site_line": "  {name}{inactive}：{parts}\n      {more}",
    "site_sep": "；",
    "site_track": "轨道 {track}",
    "site_income": "{visitor}现在访问获得：{income}",
    "site_bonus": "{piece}奖励：{bonus}",
    "site_pieces": "{pieces}：{owners}（{n}/{capacity}）",
    "site_visiting": "{name}的{visitor}停靠中",
    "site_inactive": "直到{event}才启用",
    "site_inactive_mark": "（未启用）",
    "site_inactive_income": "未启用时无",
    "nothing_gained": "无",
    "nobody_there": "无",
    "site_build": "放置后：{build}",
    "site_step": "第{step}格：{income}",
    "faction_now": "{pieces}：{owners}",
    "faction_piece": "「{faction}」中{owner}的棋子",
    "would_lead": "你将成为领袖",
    "would_dominate": "它将成为优势派系",
    "is_dominant": "优势派系",
    "is_ruling": "执政中",
    "others": "{name}：改造度 {tr}，{mc} M€（+{production}），手牌{n}张，已打出{played}张{passed}",
    "passed": "，已跳过",
    "score_now": "当前分数：{scores}",
    "score": "{name} {total}",
    "panel_header": "--- {name}（{corporation}），改造度 {tr}",
    "no_corporation": "尚未选择公司",
    "tags": "标志：{tags}",
    "tag_count": "{tag} {n}",
    "final_titles": "改造度|里程碑|奖励|绿化板块|城市板块|卡牌|总分|M€（平手比较）",
    "player": "玩家",
    "solo_won": "单人游戏：胜利——火星按时完成了改造",
    "solo_lost": "单人游戏：失败",
    "winner": "获胜者：{name}",
    "generations": "共进行了{n}个时代",
    "tied_all": "平手：{names}和{last}（各{total}分、{mc} M€：用于决胜的 M€ 也相同）",
    "won_tie": "获胜者：{name}（与{rivals}同为{total}分；比较 M€ 决出胜负：{money}）",
    "money": "{name} {mc}",

    "amount_mc": "{n} M€",
    "amount_ocean": "放置{n}个海洋板块",
    "next_to_oceans": "+{mc} M€（相邻{n}个海洋板块）",
    "space_costs": "需支付 {mc} M€",
    "no_bonus": "无放置奖励",
    "sheet_header": "--- {name}（{corporation}），改造度 {tr}，手牌{n}张{passed}",
    "holds": "（{n}{holds}）",
    "resources_held": "资源",
    "action_used": "（本时代的行动已使用）",
    "events_played": "已打出的事件牌：{cards}",
    "tiles": "板块：{tiles}",
    "claimed_funded": "已宣告的里程碑：{milestones}；已资助的奖励：{awards}",
    "projects": "标准项目（你的价格；* 现在可以使用）：",
    "conversions": "转换（可以进行任意次）：",
    "mc": "{n} M€",
    "no_milestones": "本局没有里程碑",
    "milestones_head": "里程碑：宣告需支付 {cost} M€，得5分；已宣告 {claimed}/{limit} 个",
    "standing": "{name} {values}",
    "meets": "（已达成）",
    "claimed_by": "已由 {name} 宣告",
    "no_awards": "本局没有奖励",
    "awards_head": "奖励：第一名得5分，第二名得2分；已资助 {funded}/{limit} 个，{price}",
    "next_costs": "下一个需支付 {mc} M€",
    "all_funded": "已全部资助",
    "award_line": "{counts}；领先：{leaders}；{status}",
    "count": "{name} {n}",
    "nobody_yet": "暂无",
    "funded_by": "由 {name} 资助",
    "not_funded": "未资助",
    "refuse_costs": "需要 {mc} M€",
    "refuse_effects": "它的效果无法全部执行",
    "refuse_effect_needs": "它的效果无法全部执行：「{effect}」需要{things}（你有{had}）",
    "refuse_effect_stuck": "它的效果无法全部执行：「{effect}」现在无法执行{why}",
    "refuse_effects_together": "它的效果无法全部执行：每个效果都能单独执行，但支付这张牌的费用后无法全部执行",
    "refuse_needs": "需要{things}",
    "refuse_now": "现在无法执行",
    "refuse_prices": "需要{prices}",
    "refuse_costs_taxed": "需要 {mc} M€，另有改造度的税 {tax} M€",
    "refuse_taxed": "改造度的税为 {tax} M€，你无法同时支付",
    "refuse_used": "本时代已经使用过",

    "rule_asks": "「{rule}」（{set}的规则）",
    "asked_within": "{within}：",
    "which_player": "选择哪位玩家？",
    "which_card": "选择哪张牌？",
    "said_question": "{head}{rules}",
    "you": "你",
    "you_and": "你；{facts}",
    "production_fact": "{resource}产量 {n}",
    "has": "有{things}",
    "production_now": "你现在的产量 {n}",
    "free": "免费",
    "or": " 或 ",
    "or_plain": "或",
    "card_cost": "{cost} M€，",
    "or_means": "（或用{means}支付）",
    "production_cost": "{n}点{resource}产量",
    "no_tags": "无标志",
    "may_pay": "；可用{means}支付",
    "milestone_note": "5分；{condition}",
    "void_note": "（现在没有效果：{parameters}已达上限）",
    "award_note": "{measure}：{counts}",
    "card_line": "{type}，{cost}{tags}",
    "generation_header": "=== 第{n}时代 ===",
    "continued": "（续）",
    "move_line": "» {subject}{said}",
    "choices_line": "（{subject}{said}）",
    "change_line": "{name}：{changes}",
    "tr_change": "改造度 {before}→{after}",
    "resource_change": "{delta} {resource}",
    "production_change": "{delta} {resource}产量",
    "hand_change": "手牌 {delta}",
    "held_change": "「{card}」上的{holds} {delta}",
    "temperature_change": "温度 {before}→{after}℃",
    "oxygen_change": "氧气浓度 {before}→{after}%",
    "oceans_change": "海洋 {before}→{after}/9",
    "parameter_change": "{name} {before}→{after}{unit}",
    "vp_from_cards": "卡牌分数：",
    "vp_line": "  {name}：{cards}（共{points}分）",
    "vp_none": "  {name}：无",
    "vp_card": "{card} {points}",
    "history_line": "第{generation}时代：{sentence}",
}

TABLES = {"en": EN, "zh": ZH}

_SLOT = re.compile(r"{(\w+)")


def slots(entry: Entry) -> set[str]:
    """The slots an entry fills (both forms of a counted one), for the test that compares the tables."""
    forms = entry if isinstance(entry, tuple) else (entry,)
    return {name for form in forms for name in _SLOT.findall(form)}


class Words:
    """One language's words for the terminal, and the content's names in it: `words("cannot_undo", n=2,
    humans="ann and bob")`, `words.name(card)`, the rules text's phrase table as `words.phrases`."""

    def __init__(self, language: str, names: Optional[Names] = None):
        if language not in TABLES:
            raise ValueError(f"no terminal words in {language!r}; languages: {', '.join(TABLES)}")
        self.language = language
        self.english = language == "en"
        self.table = TABLES[language]
        self.names = names or NO_NAMES
        self.phrases = rules_text.phrases(language, names or None)

    def __call__(self, key: str, n: Optional[int] = None, **slots) -> str:
        entry = self.table[key]
        if isinstance(entry, tuple):
            entry = entry[0] if n == 1 else entry[1]
        return entry.format(n=n, **slots)

    def columns(self, key: str) -> list[str]:
        """An entry that lists column titles, `|` between them."""
        return self.table[key].split("|")

    def name(self, definition_or_name, kind: str = "card") -> str:
        """What players of this language call a definition (or a name of `kind`); its own name without one."""
        return self.names.display_name(definition_or_name, self.language, kind)

    def card_type(self, card_type: str) -> str:
        """`automated` / 自动化牌: a card's type as the lists say it."""
        if not self.english and card_type == "corporation":
            return "公司"
        return self("card_type", type=card_type if self.english else self.phrases.card_type(card_type))

    def tag(self, tag: str) -> str:
        return tag if self.english else self.phrases.tag(tag)

    def tags(self, tags) -> str:
        """A card's tags in a list's few words: `plant,building`, 植物、建筑; `-`, 无标志 without any."""
        return self("tags_compact_sep").join(self.tag(tag) for tag in tags) or self("no_tags_compact")

    def join(self, parts, separator: str = "list_sep") -> str:
        return self(separator).join(parts)

    def counted(self, count: int, noun: str) -> str:
        """`3 plants`, 3点植物: a number of a resource (or of cards, tiles) as the rules text says it."""
        return self.phrases.counted(str(count), noun, count)


@lru_cache(maxsize=32)
def words(language: str = "en", names: Optional[Names] = None) -> Words:
    """The terminal's words in `language`, speaking the content's `names` (a library's `names`)."""
    return Words(language, names)


def words_for(game, language: str = "en") -> Words:
    """The words of a game's terminal: its content's names in `language`."""
    return words(language, game.content.names if game is not None else None)


def void_note(game, effects, words: "Words") -> str:
    """The warning after a standard project that would do nothing now (the ocean project after the last ocean):
    the rules let a player pay for it, so it stays on the menu, said plainly; empty otherwise."""
    from tharsis.runtime.api.queries import void_by_maxed

    parameters = void_by_maxed(game, effects)
    if not parameters:
        return ""
    named = [p if words.english else words.phrases.parameter(p) for p in parameters]
    return words("void_note", parameters=words.join(named))


def path_refusal(words: "Words", reason: str, hint: Optional[str]) -> str:
    """`REASON; HINT` (or the reason alone) of a path the system refuses, in the words' language; a reason not known
    here stays as the system gives it."""
    if not words.english:
        known = engine_zh.ZH_VALUE_REASONS.get(reason) or next(
            (said for number, said in engine_zh.ZH_PATH_REASONS.items() if reason == os.strerror(number)), None)
        if known is not None:
            reason, hint = known
    return reason + (f"; {hint}" if hint and words.english else f"；{hint}" if hint else "")
