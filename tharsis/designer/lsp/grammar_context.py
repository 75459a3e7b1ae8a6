"""Where a position stands in the grammar: the tokens of a card file as the compiler's own parser reads them, the
terminals it accepts next, and the grammar rule that holds each name.

Pipeline place: a reader of grammar/tharsis.lark through the compiler's Lark parser (compiler/parser.py), for the
editor only. A file is read definition by definition, as the compiler reads it (a definition begins with a keyword
at the start of a line), so a broken definition leaves the others readable. The grammar's words carry meaning: the
NAME in `next to NAME` is a tile, in `tags: NAME` a tag, in `requires: NAME ...` a quantity. Which rule holds a
name is what completion, semantic tokens and go-to-definition need (roles.py gives each rule its meaning):

- In a definition that parses, it is read off the parse tree (the tree keeps the lexer's own token objects).
- At the cursor, where the text stops (and in a definition that does not parse), the parser's LALR table is
  simulated from its state: shift the name, then try the terminals that could follow until a rule that holds the
  name is reduced. Only the table is used, never a guess from the words around.

Positions here are 0-based lines and characters counted in code points, as in analysis.py.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, Optional

import attrs
from lark import Token as LarkToken, Tree
from lark.exceptions import LarkError
from lark.lexer import PatternRE, PatternStr

from tharsis.compiler.parser import DEFINITION_KEYWORDS, MAX_NESTING, display, lark_parser

_DEFINITION_START = re.compile(r"^(?:%s)\b" % "|".join(DEFINITION_KEYWORDS), re.M)
_BRACKETS = re.compile(r'"[^"\n]*"|//[^\n]*|[{}()]')
_FIELD_KEY = re.compile(r"^[ \t]*((?:first[ \t]+action|ends[ \t]+game|solo[ \t]+generations|visited[ \t]+by"
                        r"|inactive[ \t]+until|[a-z]+)[ \t]*:)", re.M)
SEARCH_DEPTH = 4      # terminals tried after a name before giving up on finding the rule that holds it
SEARCH_WIDTH = 256    # parser stacks kept per step of that search
VALUE_TERMINALS = ("NAME", "STRING", "INT", "SIGNED", "SIGNED_INT", "VALUE", "CARD_NUMBER", "X", "MULTIPLE_X")
# The spoken forms of the terminals that are regular expressions in the grammar (the plain words are read off
# their patterns). A verb of a trigger is `play` after `you` and `plays` after any other subject.
_SPOKEN = {
    "OWNER": ("your", "opponent"), "UP_TO": ("up to",), "NEXT_TO_IT": ("next to it",),
    "NEXT_TO_THIS_TILE": ("next to this tile",),
    "INCLUDING_THIS": ("including this",), "THIS_CARD": ("this card",),
    "THAT_PLAYERS_EVENTS": ("that player's events",),
    "KEPT_PLAYABLE": ("cards here may be played as if from hand",),
    "IGNORING_REQUIREMENTS": ("ignoring global requirements",), "PROTECT_SCOPE": ("here", "from opponents"),
    "THEN_DISCARD": ("then discard",), "ONE_BY_ONE": ("one by one",), "FOR_FREE": ("for free",),
    "IGNORING_ALL_REQUIREMENTS": ("ignoring requirements",), "EVENTS_TAGS_COUNT": ("your events' tags count",),
    "CARD_KIND": ("card", "event"), "WILD_TAG": ("as any tag",),
    "ONCE_PER_GENERATION": ("once per generation",), "ONCE_PER_ACTION": ("once per action",), "ON_STAGE": ("on",),
    "RANK_PLACE": ("first", "second", "third", "fourth", "fifth"), "LOWEST": ("lowest",), "AT_LEAST": ("at least",),
    "VP_SCORERS": ("each player", "each opponent"),
    "BLOCKING_TILES": ("blocking tiles",), "COLLECTING_BONUS": ("collecting bonus", "collecting space bonus"),
    "IF_YOU_CAN": ("if you can",), "BUILDING_TWICE": ("building twice",),
    "UNTIL_NONE_LEFT": ("until none left",), "HARMED_YOU": ("who harmed you this generation",),
    "GIVE_TO": ("the victim", "that player"),
    "IN_A_FACTION": ("a faction",), "REUSING_ONE": ("reusing one",),
    "TO_ANY_SITE": ("to any site",), "TAKING_EVERY_BONUS": ("taking every bonus",),
    "DECIDER": ("first player", "player to your left", "player to your right", "opponent of your choice"),
}
VERBS = ("PLAY", "PLACE", "USE", "RAISE", "PRODUCE", "ADD", "SEND", "GAIN", "HARM", "BECOME")


@attrs.frozen
class Holder:
    """A grammar rule that holds a name: its tree name (`next_to`, `tags_field`), the name's place among the names
    of the rule (`use NAME as NAME`: 0, 1), and the rule that holds that rule (`name_list` is held by `pay` or
    `tags_field`)."""

    rule: str
    ordinal: int = 0
    parent: Optional[str] = None


@attrs.frozen
class Token:
    type: str              # the grammar's terminal (NAME, STRING, TAGS_KEY, GAIN, ...)
    text: str
    line: int
    character: int
    end_line: int
    end_character: int
    holders: frozenset = frozenset()   # for NAME and STRING: the rules that hold it (usually one)


@attrs.frozen
class Definition:
    """One top-level definition's text, as the compiler splits a file: it begins at `line`, column 0, which is
    character `offset` of the file."""

    line: int
    text: str
    kind: Optional[str]     # card, corporation, standard_project, ... (checker.FIELDS names), None if unknown
    offset: int = 0


@attrs.frozen
class Reading:
    """A definition read as far as the parser could: its tokens, whether it parsed whole, and the parser's state
    stack after the last token (for what may follow)."""

    definition: Definition
    tokens: tuple[Token, ...]
    complete: bool
    stack: tuple[int, ...]


# ---------------------------------------------------------------------------------------------- the parser's table

@lru_cache(maxsize=1)
def _table():
    """The LALR table of the compiler's parser: state -> {symbol: (action, argument)}, and its start state."""
    parser = lark_parser()
    interactive = parser.parse_interactive("")
    conf = interactive.parser_state.parse_conf
    return conf.parse_table.states, interactive.parser_state.state_stack[0]


def _is_terminal(symbol: str) -> bool:
    return symbol.isupper()  # terminals are upper case (`$END`, `__ANON_1` too); rules are lower case


def _is_shift(action) -> bool:
    return action[0].name == "Shift"


def transparent(rule) -> bool:
    """A rule that leaves no node of its own in the tree: an internal one (`_add_word`, `__term_plus_3`) or an
    inlined `?rule` with one symbol."""
    name = rule.origin.name
    if rule.alias:
        return False
    return name.startswith("_") or (rule.options.expand1 and len(rule.expansion) == 1)


def holders_after(stack: Iterable[int], terminal: str, following: Iterable[str] = ()) -> frozenset:
    """The rules that hold a `terminal` (NAME or STRING) shifted onto the parser state `stack`: found with the
    terminals that really follow it when they settle it (`following`), else by trying every terminal the table
    allows after it, up to SEARCH_DEPTH of them."""
    states, _ = _table()
    stack = list(stack)
    if _climb(states, stack, terminal, -1, []) is None:  # the reductions it causes, then its shift
        return frozenset()
    position = len(stack) - 1
    found: list = []
    trial, where = list(stack), position
    for lookahead in following:
        where = _climb(states, trial, lookahead, where, found)
        if where is None or len(found) >= 2:
            break
    if len(found) >= 2 or (found and where is None):
        return frozenset({_holder(found)})
    return _search(states, stack, position)


def _search(states, stack: list, position: int) -> frozenset:
    """Breadth first over the terminals that may follow: the holders found at the smallest depth."""
    frontier = [(stack, position, ())]
    for _ in range(SEARCH_DEPTH):
        results: set[Holder] = set()
        following, seen = [], set()
        for current, where, held in frontier:
            for lookahead in [s for s in states[current[-1]] if _is_terminal(s)]:
                trial, found = list(current), list(held)
                shifted = _climb(states, trial, lookahead, where, found)
                if shifted is None:  # the table refuses this terminal here
                    continue
                if len(found) >= 2 or (found and lookahead == "$END"):
                    results.add(_holder(found))
                    continue
                key = (tuple(trial), tuple(found))
                if key not in seen and len(following) < SEARCH_WIDTH:
                    seen.add(key)
                    following.append((trial, shifted, tuple(found)))
        if results:
            return frozenset(results)
        frontier = following
    return frozenset(_holder(list(held)) for _, _, held in frontier if held)


def _climb(states, stack: list, lookahead: str, position: int, found: list) -> Optional[int]:
    """Run the parser's table on `stack` for `lookahead`: the reductions it causes, then its shift. The symbol at
    index `position` of the stack is followed into the rules that reduce it, each appended to `found` as (rule,
    the symbol's place among the rule's names), up to two (the rule and the rule that holds it). Returns where the
    symbol then stands, or None when the table refuses `lookahead`."""
    while True:
        action = states[stack[-1]].get(lookahead)
        if action is None:
            return None
        if _is_shift(action):
            stack.append(action[1])
            return position
        rule = action[1]
        size = len(rule.expansion)
        base = len(stack) - size
        if size and position >= base:
            if not transparent(rule):
                index = position - base
                ordinal = sum(1 for symbol in rule.expansion[:index] if symbol.name == "NAME")
                found.append((str(rule.alias or rule.origin.name), ordinal))
                if len(found) >= 2:
                    return position
            position = base
        del stack[base:]
        goto = states[stack[-1]].get(rule.origin.name)
        if goto is None:  # the start rule: the text is complete, which only the end of the input may say
            return position if lookahead == "$END" else None
        stack.append(goto[1])


def _holder(found: list) -> Holder:
    rule, ordinal = found[0]
    return Holder(rule, ordinal, found[1][0] if len(found) > 1 else None)


def accepts(stack: Iterable[int]) -> frozenset:
    """The terminals the parser accepts after the state `stack` (what Lark's `accepts()` computes, without copying
    a parser per terminal)."""
    states, _ = _table()
    stack = list(stack)
    accepted = set()
    for lookahead in [s for s in states[stack[-1]] if _is_terminal(s)]:
        if _climb(states, list(stack), lookahead, -1, []) is not None:  # -1: no symbol to follow
            accepted.add(lookahead)
    return frozenset(accepted)


# ---------------------------------------------------------------------------------------------- reading text

def definitions(text: str) -> list[Definition]:
    """The file's top-level definitions, split where the compiler splits them (text before the first one, such
    as comments, is a definition of no kind)."""
    starts = [m.start() for m in _DEFINITION_START.finditer(text)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    starts.append(len(text))
    found, line = [], 0
    for begin, end in zip(starts, starts[1:]):
        chunk = text[begin:end]
        found.append(Definition(line, chunk, definition_kind(chunk), begin))
        line += chunk.count("\n")
    return found


@lru_cache(maxsize=8)
def read_all(text: str) -> tuple[Reading, ...]:
    """Every definition of a text read, with the rules that hold its names: the semantic tokens, the outline and
    go-to-definition of one version of a document share one reading."""
    return tuple(read(definition) for definition in definitions(text))


def definition_kind(text: str) -> Optional[str]:
    """The kind of definition a text begins with, as checker.FIELDS names it."""
    words = text.split(None, 2)[:2]
    if not words:
        return None
    if words[0] == "standard" and len(words) > 1 and words[1] in ("project", "action"):
        return "standard_" + words[1]
    if words[0] == "card" and len(words) > 1 and words[1] == "kind":
        return "card_kind"
    return words[0] if words[0] in DEFINITION_KEYWORDS else None


def read(definition: Definition, upto: Optional[int] = None, with_holders: bool = True) -> Reading:
    """Read a definition (its first `upto` characters) with the compiler's parser: every token until the text
    ends or the parser refuses one, each name and quoted name with the rules that hold it (`with_holders`)."""
    text = definition.text if upto is None else definition.text[:upto]
    if _too_deep(text):  # the compiler refuses it unparsed (E006): so does the editor
        return Reading(definition, (), False, (_table()[1],))
    interactive = lark_parser().parse_interactive(text)
    state = interactive.parser_state
    raw: list[LarkToken] = []
    stacks: list[tuple[int, ...]] = []   # the parser's states before each token
    tree = None
    try:
        for token in interactive.iter_parse():
            raw.append(token)
            stacks.append(tuple(state.state_stack))
        end = tuple(state.state_stack)
        if upto is None:
            tree = interactive.feed_eof(raw[-1] if raw else None)
    except (LarkError, RecursionError) as exc:
        if raw and getattr(exc, "token", None) is raw[-1]:  # the parser refused the last token: read up to it
            raw.pop()
            end = stacks.pop()
        else:  # the lexer stopped: every token so far was taken
            end = tuple(state.state_stack)
    holders = _tree_holders(tree) if tree is not None else {}
    tokens = []
    for index, token in enumerate(raw):
        held = holders.get(id(token), frozenset())
        if with_holders and not held and token.type in ("NAME", "STRING"):
            held = holders_after(stacks[index], token.type, [t.type for t in raw[index + 1:index + 65]])
        tokens.append(Token(token.type, str(token), definition.line + token.line - 1, token.column - 1,
                            definition.line + token.end_line - 1, token.end_column - 1, held))
    return Reading(definition, tuple(tokens), tree is not None, end)


def _too_deep(text: str) -> bool:
    """Whether brackets nest deeper than the compiler accepts (parser.MAX_NESTING); the parser's stack, copied
    before every token, would make reading such a text slow for nothing."""
    depth = 0
    for match in _BRACKETS.finditer(text):
        bracket = match.group()
        if bracket in "{(":
            depth += 1
            if depth > MAX_NESTING:
                return True
        elif bracket in "})":
            depth -= 1
    return False


def _tree_holders(tree: Tree) -> dict[int, frozenset]:
    """id(token) -> the rule that holds it, for every NAME and STRING of a parse tree (walked without recursion:
    the nesting of a definition is bounded by the compiler, not by Python's stack)."""
    found: dict[int, frozenset] = {}
    pending = [(tree, None)]
    while pending:
        node, parent = pending.pop()
        names = 0
        for child in node.children:
            if isinstance(child, Tree):
                pending.append((child, str(node.data)))
            elif isinstance(child, LarkToken) and child.type in ("NAME", "STRING"):
                found[id(child)] = frozenset({Holder(str(node.data), names if child.type == "NAME" else 0, parent)})
                names += child.type == "NAME"
    return found


# ---------------------------------------------------------------------------------------------- the cursor

@attrs.frozen
class Cursor:
    """What the grammar says at a position: the definition it lies in, the tokens before it, the terminals the
    parser accepts there, and the partial word being typed (`start` is where that word begins)."""

    reading: Reading
    accepted: frozenset
    start: int            # the character where the word under the cursor begins (the cursor itself if none)
    definition: Definition   # the definition as written (`reading` may be of a stand-in, see _stand_ins)

    def holders(self, terminal: str) -> frozenset:
        return holders_after(self.reading.stack, terminal)

    @property
    def tokens(self) -> tuple[Token, ...]:
        return self.reading.tokens


def cursor(text: str, line: int, character: int, word_start: int) -> Optional[Cursor]:
    """The grammar's view of the position (`word_start`: where the word being typed begins on the line). When the
    definition cannot be read up to there (an error earlier in it), the current field is read on its own behind a
    stand-in header of the same kind; None when even that fails."""
    lines = text.split("\n")
    offset = sum(len(previous) + 1 for previous in lines[:line]) + word_start
    found = [d for d in definitions(text) if d.offset <= offset]
    if not found:
        return None
    definition = found[-1]
    upto = offset - definition.offset
    reading = read(definition, upto, with_holders=False)
    if _read_whole(reading, definition.text[:upto]):
        return Cursor(reading, accepts(reading.stack), word_start, definition)
    for stand_in, end in _stand_ins(definition, upto):
        reading = read(stand_in, end, with_holders=False)
        if _read_whole(reading, stand_in.text[:end]):
            return Cursor(reading, accepts(reading.stack), word_start, definition)
    return None


def _read_whole(reading: Reading, text: str) -> bool:
    """Whether the parser took every token of `text` (a refused token stops the reading early)."""
    if not reading.tokens:
        return not _meaningful(text)
    last = reading.tokens[-1]
    rest = text.split("\n")[last.end_line - reading.definition.line:]
    rest[0] = rest[0][last.end_character:]
    return not _meaningful("\n".join(rest))


def _meaningful(text: str) -> bool:
    """Whether text holds more than blanks and comments."""
    return bool(re.sub(r"//[^\n]*", "", text).strip())


def _stand_ins(definition: Definition, upto: int):
    """The part of the definition the position lies in, read on its own behind a stand-in header of the
    definition's kind and padded so that its lines and columns stay the file's own: from the last field key before
    the position, else (at the start of a line) from the position itself, where a new field begins."""
    if definition.kind is None:
        return
    before = definition.text[:upto]
    starts = [key.start(1) for key in list(_FIELD_KEY.finditer(before))[-1:]]
    if not before[before.rfind("\n") + 1:].strip():
        starts.append(upto)
    header = {"standard_project": 'standard project "_" {', "standard_action": 'standard action "_" {',
              "card_kind": 'card kind "_" {'}.get(definition.kind, f'{definition.kind} "_" {{')
    for start in starts:
        line = before.count("\n", 0, start)
        if line == 0:  # on the definition's first line: no room for a stand-in header
            continue
        column = start - (before.rfind("\n", 0, start) + 1)
        text = header + "\n" * line + " " * column + definition.text[start:]
        yield Definition(definition.line, text, definition.kind, definition.offset), \
            len(header) + line + column + (upto - start)


# ---------------------------------------------------------------------------------------------- terminals as words

@lru_cache(maxsize=1)
def _patterns() -> dict[str, object]:
    return {terminal.name: terminal.pattern for terminal in lark_parser().terminals}


def spoken(terminal: str, previous: Optional[Token] = None) -> tuple[str, ...]:
    """How a designer writes a keyword terminal (`GAIN` -> gain, `UP_TO` -> up to); () for names, numbers,
    punctuation and field keys."""
    if terminal in _SPOKEN:
        return _SPOKEN[terminal]
    pattern = _patterns().get(terminal)
    if terminal in VERBS:
        word = pattern.value.split("s?")[0]
        subject_is_you = previous is not None and previous.type == "YOU"
        return (word if subject_is_you or previous is None or previous.type not in ("PLAYER",) else word + "s",)
    if isinstance(pattern, PatternStr):
        return (pattern.value,) if re.fullmatch(r"\w+", pattern.value) else ()
    if isinstance(pattern, PatternRE):
        word = re.fullmatch(r"(\w+)\(\?!\\w\)", pattern.value)
        if word and terminal not in VALUE_TERMINALS:
            return (word.group(1),)
    return ()


def field_name(terminal: str) -> Optional[str]:
    """The field a key terminal writes (`FIRST_ACTION_KEY` -> first action), None for other terminals."""
    if not terminal.endswith("_KEY"):
        return None
    return display(terminal).rstrip(":")


def keyword_words() -> tuple[str, ...]:
    """Every word the grammar uses as a keyword, for the TextMate grammar (textmate.py)."""
    words: set[str] = set()
    for terminal in _patterns():
        if terminal in VALUE_TERMINALS or terminal.endswith("_KEY"):
            continue
        if terminal in VERBS:
            base = _patterns()[terminal].value.split("s?")[0]
            words.update((base, base + "s"))
            continue
        for phrase in spoken(terminal):
            words.update(phrase.split())
    words.update(word for phrase in _SPOKEN.values() for text in phrase for word in text.split())
    return tuple(sorted(words))


def fields_written(definition: Definition) -> list[tuple[str, int, int]]:
    """The field keys written in a definition, whether or not it parses: (field, line, character), outside
    quoted names and comments."""
    names = sorted(field_names(), key=len, reverse=True)
    key = re.compile(r'"[^"\n]*"|//[^\n]*|(?<![\w"])(%s)[ \t]*:' % "|".join(
        re.escape(name).replace(r"\ ", r"[ \t]+") for name in names))
    found = []
    for match in key.finditer(definition.text):
        if match.group(1):
            before = definition.text[:match.start(1)]
            found.append((re.sub(r"[ \t]+", " ", match.group(1)), definition.line + before.count("\n"),
                          match.start(1) - (before.rfind("\n") + 1)))
    return found


def field_names() -> tuple[str, ...]:
    """Every field key of the grammar (`type`, `first action`, `row`, ...)."""
    return tuple(sorted(name for terminal in _patterns() if (name := field_name(terminal))))
