"""What a human is asked, in players' words: the engine's decisions shown with the rules text of
`tharsis cards --format rules`, and the facts needed to decide.

The engine names effects in its questions and options by their canonical card text (`Choose X: production(heat -X,
megacredits +X)`, an option `production(megacredits -2, heat +3)`): that text is stable, it is what logs and bots
use, and `compiler/text.py` writes it from the compiled effects. This module finds the compiled effects behind such
a text (an index of every effect list of the game's content, by its canonical text) and says them with the rules
text renderer (`compiler/rules_text.py`, `sentences`), so a player reads `Decrease your heat production X steps,
increase your MC production X steps.` Nothing is parsed: a text that is not an effect of the content stays as the
engine wrote it. A label typed in answer still works; the session also accepts the start of the words shown.

In another language than English (`--lang zh`) the rest of a question or an option is said from the patterns of
tharsis/terminal/engine_zh.py (`ZH_QUESTIONS`, `ZH_LABELS`: `standard project Aquifer` is 标准项目「蓄水」), with
every name as the names files give it.

The facts: a player to target is shown with the production or the stock the effect takes from, a card with the
resources it holds, and every entry of the action menu with its price (`menu_price`), computed by the same
functions the engine charges with (`card_cost`, `standard_cost`, `award_cost`, the value of a card action's
`pay`), so the price shown is the price paid (tests/test_play_prompts.py takes every priced entry of random
games' menus and compares).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

import attrs

from tharsis.compiler import effects as fx, rules_text, text
from tharsis.runtime.api import Decision, NumberOptions, Option
from tharsis.runtime.rules.checks import EffectContext, value_of
from tharsis.runtime.rules.legality import (
    award_cost,
    card_action_options,
    card_using,
    milestone_cost,
)
from tharsis.runtime.rules.measures import Where, quantity
from tharsis.runtime.rules.prices import action_effects, card_cost, standard_cost, standard_prices

from . import engine_zh
from .messages import Words, void_note, words_for
from .style import PLAIN, Paint
from .widths import width

# `nothing` (a site's empty step) is never an option's own text, and labels end in the word (`remove nothing`)
_EFFECT_KINDS = frozenset(fx.REGISTRY.values()) - {fx.Nothing}
_QUESTION = {"player": "which_player", "card": "which_card"}  # after a prompt that is only an effect
_ENGLISH = "en"


# ------------------------------------------------------------------ the compiled effects behind a canonical text

@attrs.frozen
class _Index:
    effects: dict       # canonical text -> a tuple of compiled effects that has it
    actions: dict       # "COST -> EFFECTS" (how the engine labels a card's action options) -> (definition, index)


_INDEXES: dict[int, tuple] = {}


def _index(game) -> _Index:
    """The index of the game's content, built once per content (every clone and every game shares it)."""
    content = game.content
    cached = _INDEXES.get(id(content))
    if cached is None or cached[0] is not content:
        if len(_INDEXES) > 8:  # a long-lived process that loads many contents keeps the last few
            _INDEXES.clear()
        cached = _INDEXES[id(content)] = (content, _build(content))
    return cached[1]


def _build(content) -> _Index:
    effects: dict = {}
    actions: dict = {}

    def add(run: tuple) -> None:
        effects.setdefault(text.effects(run), run)

    def walk(value) -> None:
        if isinstance(value, (tuple, list)):
            for item in value:
                walk(item)
            run = tuple(value)
            if run and all(type(e) in _EFFECT_KINDS for e in run):
                # every stretch of the list: a card's effects are offered in steps (the order question), and a
                # choice's option is labelled without its `require` conditions
                for start in range(len(run)):
                    for end in range(start + 1, len(run) + 1):
                        add(run[start:end])
                shown = tuple(e for e in run if type(e) is not fx.Require)
                if shown and shown != run:
                    add(shown)
            return
        if attrs.has(type(value)):
            for field in attrs.fields(type(value)):
                walk(getattr(value, field.name))

    for definition in content.definitions:
        walk(definition)
        for number, option in enumerate(getattr(definition, "actions", ()) or ()):
            label = text.effects(option.effects)
            if option.cost:
                label = f"{text.effects(option.cost)} -> {label}"
            actions.setdefault(label, (definition, number))
    return _Index(effects, actions)


@attrs.frozen
class Said:
    """A text of the engine with the effects it names said in rules text: the words before them (`head`), the
    effects, their rules text, and `tail`, the `?` that closed a question around them (or "")."""

    head: str
    effects: tuple
    rules: str
    tail: str

    def text(self) -> str:
        if self.tail == "?":  # "Which card gets add 1 animal to any card?" -> "Which card gets it? Add 1 ..."
            return f"{self.head}it? {self.rules}" if self.head else self.rules
        return f"{self.head}{self.rules}"


def said(game, words: str, language: str = "en") -> Optional[Said]:
    """`words` with the longest run of canonical effect text at its end (before a closing `?`) in rules text, or
    None when it names no effect of the content. A card action's option (`COST -> EFFECTS`) is said as its card
    says it."""
    index = _index(game)
    names = game.content.names
    body, tail = (words[:-1], "?") if words.endswith("?") else (words, "")
    starts = [0] + [i + 1 for i, ch in enumerate(body) if ch == " "]
    for start in starts:
        piece = body[start:]
        found = index.effects.get(piece)
        if found is not None:
            return Said(body[:start], found, rules_text.sentences(found, language, names), tail)
        action = index.actions.get(piece)
        if action is not None:
            definition, number = action
            option = definition.actions[number]
            return Said(body[:start], option.cost + option.effects,
                        rules_text.parts(definition, language, names)["actions"][number], tail)
    return None


def said_text(game, found: Said, words: Words) -> str:
    """A `Said` in the words' language: in English its `text()`; otherwise the words before the effects said too,
    a known head (engine_zh.ZH_HEADS: `Which card gets it? Add ...` is 哪张牌获得以下效果？在...), a trigger's card
    (`Pets: ` is 「Pets」：), else as the engine wrote them."""
    if words.english:
        return found.text()
    head = found.head
    if head in engine_zh.ZH_HEADS:
        head = engine_zh.ZH_HEADS[head]
    elif head.endswith(": ") and head[:-2] in game.library:
        head = f"「{words.name(game.library[head[:-2]])}」："
    return head + found.rules


# ------------------------------------------------------------------ the question

def question(game, decision: Decision, language: str = "en") -> str:
    """The decision's prompt, with the effects it names in rules text; a prompt that is only an effect (`remove up
    to 3 plants from any player`) is followed by what is asked (`Which player?`). A question a rule of the game asks
    (World Government Terraforming's `Choose one`) first says whose rule it is, and a choice within a `neutral { }`
    block that it is made for nobody, in the rules text's words for the block (no TR, no bonuses)."""
    words = words_for(game, language)
    return _asked_within(game, decision, words) + _question(game, decision, words)


def _question(game, decision: Decision, words: Words) -> str:
    found = said(game, decision.prompt, words.language)
    if found is None:
        return decision.prompt if words.english else _translated(game, words, decision.prompt, _QUESTIONS)
    if not found.head and not found.tail and decision.kind in _QUESTION:
        return f"{found.rules}{' ' if words.english else ''}{words(_QUESTION[decision.kind])}"
    return said_text(game, found, words)


def _asked_within(game, decision: Decision, words: Words) -> str:
    """`World Government Terraforming (a rule of Venus Next), for nobody (no TR, ...): ` before the question of a
    rule's step; nothing for a question a player's own move asks (they know what they did). From the rule's
    declaration: its name and set, and the `neutral { }` block the decision is made in; the engine's question says
    `for nobody` itself where it already does (a tile placed for nobody)."""
    from tharsis.runtime.api.narration import open_causes
    from tharsis.runtime.api.queries import for_nobody

    causes = open_causes(game)
    rule = causes[-1][3] if causes and causes[-1][1] == "rule" else None
    nobody = for_nobody(game) and "for nobody" not in decision.prompt
    if rule is None and not nobody:
        return ""
    parts = []
    if rule is not None:
        declared = next((r for r in game.content.of_kind("rule") if r.name == rule), None)
        parts.append(words("rule_asks", rule=words.name(rule, "rule"),
                           set=words.phrases.set_name(declared.set) if declared is not None else ""))
    if nobody:
        said = words.phrases("neutral", effects="").rstrip(": ：")
        parts.append(said[:1].lower() + said[1:] if words.english else said)
    return words("asked_within", within=words("sep").join(parts))


@lru_cache(maxsize=None)
def _compiled(patterns: tuple) -> tuple:
    return tuple((re.compile(pattern), said_as) for pattern, said_as in patterns)


_QUESTIONS = engine_zh.ZH_QUESTIONS
_LABELS = engine_zh.ZH_LABELS


def _translated(game, words: Words, engine_text: str, patterns: tuple) -> str:
    """An engine's question or label said from the first pattern it matches, each named part in the words'
    language; as the engine wrote it when none matches."""
    for pattern, said_as in _compiled(patterns):
        found = pattern.fullmatch(engine_text)
        if found is not None:
            return said_as.format(**{part: _part(game, words, part, value)
                                     for part, value in found.groupdict().items()})
    return engine_text


_DEFINITION_KINDS = {"card": "card", "corporation": "corporation", "project": "standard_project",
                     "milestone": "milestone", "award": "award", "conversion": "standard_action", "site": "site",
                     "faction": "faction"}


def _part(game, words: Words, part: str, value: str) -> str:
    t = words.phrases
    if part in _DEFINITION_KINDS:
        definition = game.library.get(value) if part == "card" else None
        if definition is not None:   # a corporation or a ruling faction's policy named as a card (its resources)
            return words.name(definition)
        return words.name(value, _DEFINITION_KINDS[part])
    if part == "tile":
        return t.tile(value)
    if part == "kind":
        return t.card_type(value)
    if part == "resource":
        return t.noun(value, 1)
    if part == "piece":
        from tharsis.compiler.vocabulary import lookup_piece

        return t.piece(lookup_piece([value], game.elements.pieces) or value)
    if part == "paid":
        return _paid_for(game, words, value)
    return value


def _paid_for(game, words: Words, what: str) -> str:
    """What a payment is for (runtime/handlers/payment.py `pay`'s `what`: a card, a project, a milestone or an award by
    its name, `buying CARD`, `an action`), said by the action just chosen: a card and a standard project may share a
    name (Asteroid: 小行星 and 升温)."""
    if what == "an action":
        return "行动"
    if what.startswith("buying ") and what[7:] in game.library:
        return f"购买「{words.name(what[7:])}」"
    last = game.log[-1] if len(game.log) else ""
    for prefix, kind in (("standard project ", "standard_project"), ("claim ", "milestone"), ("fund ", "award")):
        if last == prefix + what:
            return f"「{words.name(what, kind)}」"
    return f"「{words.name(what)}」"


# ------------------------------------------------------------------ the options

def option_text(game, decision: Decision, option: Option, language: str = "en") -> str:
    """What an option shows: its label, or the rules text of the effects it names; then the facts about its target
    (a player's production or stock that the effect takes from, the resources on a card)."""
    words = words_for(game, language)
    shown = label_text(game, decision, option.label, words)
    facts = target_facts(game, decision, option, language)
    if not facts:
        return shown
    return f"{shown} ({facts})" if words.english else f"{shown}（{facts}）"


def label_text(game, decision: Decision, label: str, words: Words) -> str:
    """An option's label as a player reads it: the rules text of the effects it names; in another language than
    English, every other label too (a payment, a resource, `standard project Aquifer`)."""
    found = said(game, label, words.language)
    if found is not None:
        return said_text(game, found, words)
    if words.english:
        return label
    if decision.kind == "pay":
        return _payment(game, words, label)
    if decision.kind == "option" and label in words.phrases.nouns:
        return words.phrases.noun(label, 1)   # which production rises: plant, heat, ...
    if decision.kind == "faction" and label.startswith("faction "):   # `faction Unity neutral`: a piece to remove
        rest = label.removeprefix("faction ")
        for name in game.elements.factions:
            if rest.startswith(name + " "):
                owner = rest[len(name) + 1:]
                return words("faction_piece", faction=words.name(name, "faction"),
                             owner=words("neutral_owner") if owner == "neutral" else owner)
    return _translated(game, words, label, _LABELS)


def _payment(game, words: Words, label: str) -> str:
    """A payment (runtime/handlers/payment.py `describe_payment`: `2 steel + 3 MC`, `2 from Dirigibles`, `nothing`)."""
    if label == "nothing":
        return "不支付"
    parts = []
    for part in label.split(" + "):
        number, _, what = part.partition(" ")
        if not number.isdigit():
            return label
        if what == "MC":
            parts.append(words("mc", n=number))
        elif what.startswith("from "):
            parts.append(f"「{words.name(what[5:])}」上的{number}个资源")
        else:
            parts.append(words.counted(int(number), what))
    return " + ".join(parts)


def target_facts(game, decision: Decision, option: Option, language: str = "en") -> str:
    """What the chooser needs to know about the player or card an option targets, or ""."""
    words = words_for(game, language)
    players = game.state.players
    value = option.value
    if decision.kind == "player" and type(value) is int and 0 <= value < len(players) and \
            option.label.startswith("player "):
        found = said(game, decision.prompt)
        effect = found.effects[-1] if found is not None and found.effects else None
        facts = _player_facts(game, players[value], effect, words)
        return (words("you_and", facts=facts) if facts else words("you")) if value == decision.acting else facts
    if decision.kind == "card" and option.label.startswith("card "):
        owner, name = (value if isinstance(value, tuple) and len(value) == 2 else (decision.acting, value))
        if type(owner) is int and 0 <= owner < len(players) and isinstance(name, str):
            in_play = players[owner].card(name)
            if in_play is not None and game.library[name].holds:
                return _counted(in_play.resources, game.library[name].holds, words)
    if decision.kind == "site" and option.label.startswith("site ") and isinstance(value, str):
        from .view import site_facts

        return site_facts(game, value, decision.acting, words, placing=decision.prompt.startswith("On which site do "
                                                                                                 "you place"))
    if decision.kind == "faction" and option.label.startswith("faction ") and isinstance(value, str):
        from .view import faction_facts

        return faction_facts(game, value, decision.acting, words)
    if decision.kind == "option" and option.label in players[decision.acting].production and \
            option.label == option.value:  # "Which production rises?": each production as it is now
        return words("production_now", n=players[decision.acting].production[option.label])
    return ""


def _player_facts(game, player, effect, words: Words) -> str:
    if isinstance(effect, fx.AnyProduction):
        return words("sep").join(words("production_fact", resource=_noun(c.resource, 1, words),
                                       n=player.production[c.resource])
                                 for c in effect.changes if c.resource in player.production)
    resource = getattr(effect, "resource", None)
    if isinstance(effect, (fx.RemoveResources, fx.Steal)) and resource in player.resources:
        return words("has", things=_counted(player.resources[resource], resource, words))
    return ""


def _noun(name: str, count: int, words: Optional[Words] = None) -> str:
    return (words.phrases if words is not None else rules_text.phrases(_ENGLISH)).noun(name, count)


def _counted(count: int, name: str, words: Optional[Words] = None) -> str:
    return (words.phrases if words is not None else rules_text.phrases(_ENGLISH)).counted(str(count), name, count)


# ------------------------------------------------------------------ prices in the action menu

@attrs.frozen
class Price:
    """What a menu entry costs: `megacredits` is the amount the engine's payment is asked for (steel, titanium or
    heat may cover part of it where the rules allow), None when the price is in something else or free."""

    megacredits: Optional[int]
    text: str


def menu_price(game, player: int, option: Option, language: str = "en") -> Optional[Price]:
    """The price of an action menu entry for `player` now, from the functions the engine charges with; None for an
    entry without one (pass, end turn, a corporation's first action)."""
    words = words_for(game, language)
    action = option.value
    if not isinstance(action, tuple) or len(action) < 2:
        return None
    kind, name = action[0], action[1]
    if kind == "play":
        cost = card_cost(game, player, name)
        return Price(cost, words("mc", n=cost))
    if kind in ("project", "convert"):
        definition = (game.standard_projects if kind == "project" else game.standard_actions)[name]
        if definition.alternatives:  # every way to pay (9 MC or 3 energy or 3 titanium), the player's choice
            return Price(None, words("or").join(_cost(amount, resource, words)
                                                for amount, resource in standard_prices(game, player, definition)))
        cost = standard_cost(game, player, definition)
        if getattr(definition, "cost_resource", "megacredits") == "megacredits":
            return Price(cost, words("mc", n=cost) if cost or kind == "project" else words("free"))
        return Price(None, _counted(cost, definition.cost_resource, words))
    if kind == "milestone":
        cost = milestone_cost(game, player)
        return Price(cost, words("mc", n=cost))
    if kind == "award":
        cost = award_cost(game, player)
        return Price(cost, words("mc", n=cost))
    if kind == "card_action":
        prices = [action_option_price(game, player, name, number, language)
                  for number in card_action_options(game, player, name)]
        if not prices:
            return None
        texts = list(dict.fromkeys(p.text for p in prices))
        money = {p.megacredits for p in prices}
        return Price(money.pop() if len(money) == 1 else None, words("or").join(texts))
    return None


def _cost(amount: int, resource: str, words: Words) -> str:
    return words("mc", n=amount) if resource == "megacredits" else _counted(amount, resource, words)


def action_option_price(game, player: int, name: str, number: int, language: str = "en") -> Price:
    """The cost of option `number` of a card's action: what its `pay` asks (evaluated as the engine runs it, in
    the card's context), then what else it spends; "free" when it costs nothing."""
    words = words_for(game, language)
    option = game.library[name].actions[number]
    ctx = EffectContext(player, card=name)
    money, parts = None, []
    for e in action_effects(game, player, name, option.cost):   # after a `discount N on action of "NAME"`
        if isinstance(e, fx.Pay):
            amount = value_of(game, e.amount, ctx)
            money = (money or 0) + amount
            means = [_noun(r, 1, words) for r in e.using if r in ("steel", "titanium")]
            parts.append(words("mc", n=amount) + (words("or_means", means=words("or_plain").join(means))
                                                  if means else ""))
        elif isinstance(e, (fx.Spend, fx.Lose)):
            parts.append(_counted(value_of(game, e.amount, ctx), e.resource, words))
        elif isinstance(e, fx.RemoveResources) and e.source == "here":
            parts.append(_counted(value_of(game, e.amount, ctx), e.resource, words) + (" here" if words.english
                                                                                     else "（本卡上）"))
        elif isinstance(e, fx.Production):
            parts.extend(words("production_cost", n=-value_of(game, c.amount, ctx),
                               resource=_noun(c.resource, 1, words))
                         for c in e.changes if value_of(game, c.amount, ctx) < 0)
        elif not isinstance(e, fx.Require):
            parts.append(rules_text.sentences((e,), language, game.content.names).rstrip("。."))
    return Price(money, " + ".join(parts) or words("free"))


def _menu_note(game, player: int, option: Option, language: str) -> str:
    """What a menu entry does or is, in a few words: a card's tags, what a project or a card's action does."""
    words = words_for(game, language)
    names = game.content.names
    action = option.value
    kind = action[0] if isinstance(action, tuple) and action else None
    if kind == "play":
        card = game.library[action[1]]
        tags = (",".join(card.tags) if words.english else words.tags(card.tags)) or words("no_tags")
        means = [_noun(m, 1, words) for m in card_using(game, player, card) if m in ("steel", "titanium")]
        return tags + (words("may_pay", means=words("or_plain").join(means)) if means else "")
    if kind == "project":
        play = game.standard_projects[action[1]].play
        return rules_text.sentences(play, language, names) + void_note(game, play, words)
    if kind == "convert":
        return rules_text.sentences(game.standard_actions[action[1]].play, language, names)
    if kind == "card_action":
        definition = game.library[action[1]]
        numbers = card_action_options(game, player, action[1])
        return " | ".join(dict.fromkeys(rules_text.sentences(definition.actions[n].effects, language, names)
                                        for n in numbers))
    if kind == "first_action":
        corporation = game.state.players[player].pending_first_action()
        return rules_text.sentences(game.library[corporation].first_action, language, names) if corporation else ""
    if kind == "milestone":
        return words("milestone_note",
                     condition=rules_text.condition(game.milestones[action[1]].requirement, language, names))
    if kind == "award":  # who leads decides whether funding pays: every player's count
        award = game.awards[action[1]]
        counts = words("sep").join(f"{p.name} {quantity(game, award.measure, Where(p.index))}"
                                   for p in game.state.players)
        measure = rules_text.quantity(award.measure, language, names, owner=words.english)
        return words("award_note", measure=measure, counts=counts)
    return ""


# ------------------------------------------------------------------ the numbered options

LABEL_WIDTH = 46   # the options' labels, numbered, are padded to this width before the price


def numbered(game, decision: Decision, language: str = "en", paint: Paint = PLAIN) -> str:
    """The options, one per line. In the action menu each entry has its price (what the engine will charge) and
    what it does; a card named by an option shows its type, printed cost and tags (`card NAME` gives its text);
    an option naming effects shows their rules text, and a target its facts."""
    if decision.kind == "space":
        return "  " + " ".join(o.label.removeprefix("space ").strip() for o in decision.options)
    options = decision.options
    if isinstance(options, NumberOptions):
        return "\n".join(f"  {n:>3}. {o.label}" for n, o in enumerate(options, start=1))
    if decision.kind == "action":
        return _menu(game, decision, language, paint)
    words = words_for(game, language)
    lines = []
    for n, option in enumerate(options, start=1):
        number = f"  {n:>3}. "
        named = _card_named(game, option.label)
        if named and game.library[named].kind == "card" and not target_facts(game, decision, option, language):
            card = game.library[named]
            cost = words("card_cost", cost=card.cost) if card.type not in game.elements.card_kinds else ""
            plain, label = _shown_label(game, decision, option.label, named, words, paint)
            padding = " " * max(0, LABEL_WIDTH - len(number) - width(plain))
            tags = (",".join(card.tags) if words.english else words.tags(card.tags)) or words("no_tags")
            lines.append(number + label + padding
                         + words("card_line", type=words.card_type(card.type), cost=cost, tags=tags))
        else:
            lines.append(number + option_text(game, decision, option, language))
    return "\n".join(lines)


def _menu(game, decision: Decision, language: str, paint: Paint) -> str:
    """The action menu: each entry, its price (right-aligned in a column as wide as the longest) and what it
    does."""
    words = words_for(game, language)
    rows = []
    for option in decision.options:
        price = menu_price(game, decision.player, option, language)
        priced = price is not None or (option.value and option.value[0] == "first_action")
        rows.append((option, (price.text if price is not None else words("free")) if priced else None))
    columns = max((width(shown) for _, shown in rows if shown is not None), default=0)
    lines = []
    for n, (option, shown) in enumerate(rows, start=1):
        number = f"  {n:>3}. "
        plain, label = _shown_label(game, decision, option.label, _card_named(game, option.label), words, paint)
        if shown is None:
            lines.append(number + label)
            continue
        padding = " " * max(1, LABEL_WIDTH - len(number) - width(plain))
        note = _menu_note(game, decision.player, option, language)
        lines.append(f"{number}{label}{padding}{' ' * (columns - width(shown))}{paint.price(shown)}  {note}".rstrip())
    return "\n".join(lines)


def _card_named(game, label: str) -> Optional[str]:
    name = label.partition(" ")[2]
    return name if name in game.library else None


def _shown_label(game, decision: Decision, label: str, named: Optional[str], words: Words,
                 paint: Paint) -> tuple[str, str]:
    """An option's label as shown, without and with colour: the card it names in its type's colour."""
    plain = label if words.english else label_text(game, decision, label, words)
    if not named or not paint.colour:
        return plain, plain
    shown = words.name(game.library[named])
    at = plain.rfind(shown)
    if at < 0:
        return plain, plain
    return plain, plain[:at] + paint.card(shown, game.library[named].type) + plain[at + len(shown):]
