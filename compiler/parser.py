"""Parsing: card text -> Lark parse tree -> AST, with every failure turned into a Diagnostic.

Pipeline place: the first phase. Lark's exceptions never leave this module: they are translated into
designer-facing messages ("expected one of: tags:, cost:, ..."), with a did-you-mean when the unexpected word
is close to a keyword the parser would have accepted.

A file is split into top-level chunks (a definition starts with a keyword at column 1), and each chunk is
parsed on its own, so one broken card does not hide the errors of the next. Within a broken definition each
broken field is fixed (when its one fix keeps the line's length) or left out and the definition parsed again
(`_recover`), so one broken field does not hide the others; the checker then reports the problems of its other
fields (compiler/pipeline.py), and the definition stays out of the library.
"""

from __future__ import annotations

import re
from functools import lru_cache

import attrs
from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternRE, PatternStr, TerminalDef

from . import syntax
from .checker import FIELDS
from .definitions import Header
from .diagnostics import Diagnostic, Diagnostics, Fix, Span, did_you_mean, single_match
from .effects import IMMEDIATE
from .printable import MAX_NAME, described, first_unprintable
from .source import grammar_path
from .syntax import Node
from .vocabulary import TILES, singular

MAX_NESTING = 40
MAX_DIGITS = 6  # no count, cost or track value in a card needs more; Python refuses to read 4,300+ digits at all
DEFINITION_KEYWORDS = ("card", "corporation", "standard", "milestone", "award", "board", "resource", "tag",
                       "parameter", "rule", "expansion", "piece", "site", "faction", "government")
_CHUNK_START = re.compile(r"^(?:%s)\b" % "|".join(DEFINITION_KEYWORDS), re.M)
_COMMENT = re.compile(r"//[^\n]*")
_HEADER = re.compile(r'^(card[ \t]+kind|card|corporation|standard[ \t]+project|standard[ \t]+action|milestone'
                     r'|award|board|parameter|rule|expansion|piece|site|faction|government)[ \t]+'
                     r'("[^"\n]*")(?:[ \t]*#([A-Za-z0-9]+))?', re.M)
_WORD = r"[^\W\d]\w*"
_WORD_CHAR = re.compile(r"\w")
_STRING_OR_COMMENT = re.compile(r'"[^"\n]*"|//')
_STRING_OR_COMMENT_TEXT = re.compile(r'"[^"\n]*"|//[^\n]*')
# A number too long to be one, outside strings and comments (a card number `#123` is a name, not a number).
_LONG_NUMBER = re.compile(r'"[^"\n]*"|//[^\n]*|(?<![\w#])[+-]?(\d{%d,})' % (MAX_DIGITS + 1))
# Words that begin an effect (the first word of each verb's syntax, compiler/effects.py); a NAME where an effect
# starts that is none of these is a misspelt effect.
EFFECT_WORDS = tuple(dict.fromkeys(word for word in (verb.syntax.split()[0].split("(")[0] for verb in IMMEDIATE)
                                   if word.islower()))
PARAMETER_WORDS = ("temperature", "oxygen", "tr")
# Comparisons written the other way round or with typographic symbols.
_COMPARATOR_TYPOS = {"=>": ">=", "=<": "<=", "≥": ">=", "≤": "<=", "=": "==", "!=": None}

_FRIENDLY = {
    "NAME": "a name", "INT": "a number", "SIGNED": "a signed number like +1", "SIGNED_INT": "a number",
    "STRING": 'a quoted name like "My Card"', "VALUE": "a number like 9% or -12C",
    "CARD_NUMBER": "a card number like #184", "COMPARATOR": "a comparison (>=, <=, ==, >, <)", "X": "X",
    "MULTIPLE_X": "a multiple of X like 3X", "OWNER": "your", "UP_TO": "up to",
    "NEXT_TO_IT": "next to it", "INCLUDING_THIS": "including this", "THIS_CARD": "this card",
    "THAT_PLAYERS_EVENTS": "that player's events", "KEPT_PLAYABLE": "cards here may be played as if from hand",
    "PROTECT_SCOPE": "here or from opponents",
    "PLAY": "play", "PLACE": "place", "USE": "use", "RAISE": "raise", "CARD_KIND": "card or event",
    "PLUS_MINUS": "+-", "$END": "end of file", "ON_STAGE": "on STAGE:", "RANK_PLACE": "first:",
    "ONCE_PER_GENERATION": "once per generation", "ONCE_PER_ACTION": "once per action",
}


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    """The LALR parser; Lark caches its tables on disk (cache=True), keyed by the grammar's hash (the cache
    stores the terminals as `_whole_words` left them: change the grammar file when changing that function)."""
    return build_parser(grammar_path().read_text(encoding="utf-8"))


def build_parser(grammar: str, cache: bool = True) -> Lark:
    """A parser of `grammar` (the text of grammar/tharsis.lark, or a test's version of it with a rule added)."""
    return Lark(grammar, parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=False,
                cache=cache, edit_terminals=_whole_words)


def _whole_words(terminal: TerminalDef) -> None:
    """A keyword matches a whole word only: `anyone` is the word 'anyone', never the keyword 'any' then 'one'.

    Lark's contextual lexer matches a keyword string wherever the parser accepts it, even as the start of a
    longer word, when no NAME is acceptable there. So each keyword becomes a regex that refuses a word character
    after it; its priority puts it before NAME, which it then beats only on a whole word (as Lark's own
    keyword-over-NAME rule does)."""
    pattern = terminal.pattern
    if isinstance(pattern, PatternStr) and re.fullmatch(r"\w+", pattern.value):
        terminal.pattern = PatternRE(re.escape(pattern.value) + r"(?!\w)", pattern.flags)
        terminal.priority = max(terminal.priority, 1)


@lru_cache(maxsize=1)
def _display_names() -> dict[str, str]:
    names = dict(_FRIENDLY)
    for terminal in lark_parser().terminals:
        if terminal.name in names:
            continue
        if isinstance(terminal.pattern, PatternStr):
            names[terminal.name] = terminal.pattern.value
        elif (keyword := _KEYWORD.fullmatch(terminal.pattern.value)) is not None:
            # a quoted keyword `_whole_words` made a regex (an anonymous one is `__ANON_1`): shown as its word
            names[terminal.name] = keyword.group(1)
        elif terminal.name.endswith("_KEY"):
            names[terminal.name] = terminal.name[:-4].lower().replace("_", " ").replace("play key", "play") + ":"
    names["PLAY_KEY"] = "play:"
    return names


_KEYWORD = re.compile(r"(\w+)\(\?!\\w\)")  # the pattern `_whole_words` gives a keyword: `place(?!\w)`


def display(terminal: str) -> str:
    return _display_names().get(terminal, terminal.lower())


def parse(path: str, text: str, diagnostics: Diagnostics, broken: list[Header] | None = None,
          recovered: list[Node] | None = None) -> list[Node]:
    """Parse one file into definition nodes; syntax errors go to `diagnostics`, good chunks still come back, and
    the headers of the definitions that did not parse go to `broken` (for the duplicate checks). `recovered`: the
    definitions with syntax errors, parsed again without the fields that hold them (`_recover`), so that the
    checker can report the rest of their problems; they are never compiled into the library."""
    with syntax.collector_paused():  # linear in the file (syntax.collector_paused says why)
        return _parse(path, text, diagnostics, broken, recovered)


def _parse(path: str, text: str, diagnostics: Diagnostics, broken: list[Header] | None,
           recovered: list[Node] | None = None) -> list[Node]:
    definitions: list[Node] = []
    if not _COMMENT.sub("", text).strip():
        message = "file defines nothing" + (" (it holds only comments)" if text.strip() else "")
        diagnostics.warning("W001", message, Span(path, 1, 1, 1, 2))
        return definitions
    if _prescan_ok(path, text, 1, Diagnostics()):
        try:  # the common case, a file without syntax errors, in one parse
            return syntax.build(lark_parser().parse(text), path).nodes()
        except UnexpectedInput:
            pass  # parse again definition by definition, to report every broken one and keep the good ones
    chunks = list(_chunks(text))
    for index, (start_line, chunk) in enumerate(chunks):
        if not _prescan_ok(path, chunk, start_line, diagnostics):
            _header(path, chunk, start_line, broken)
            continue
        try:
            tree = _parse_chunk(chunk, start_line)
        except UnexpectedInput as exc:
            _header(path, chunk, start_line, broken)
            tree = _recover(path, chunk, start_line, exc, index == len(chunks) - 1, diagnostics)
            if tree is not None and recovered is not None:
                recovered.extend(syntax.build(tree, path).nodes())
            continue
        definitions.extend(syntax.build(tree, path).nodes())
    return definitions


MAX_RECOVERIES = 20   # syntax errors reported in one definition before the rest of it is left for later
MORE_MAY_FOLLOW = "; more problems of this definition may follow: the rest of it is checked once this is fixed"
_FIELD_START = re.compile(r"[ \t]*[a-z][a-z ]*:")   # a line that starts a field (`  play:`, `  first action:`)


def _recover(path: str, chunk: str, start_line: int, exc: UnexpectedInput, last: bool, diagnostics: Diagnostics):
    """Report the syntax error `exc` of a definition, then the others: the field that holds each error (from the
    line the error is reported at to the next field or the definition's closing `}`) is blanked out, positions
    kept, and the definition parsed again, until it parses (its tree is returned, for the checker to report the
    rest of its problems) or an error leaves no field to blank out (None; that error's hint then says that more
    may follow). An error whose fix keeps the line's length (`draw 1 card`: the word removed) is fixed instead, so
    its field is checked too. Lark's own error recovery (`on_error`) resumes the same parse, whose stack still holds
    the broken field, so the text is cut at field boundaries instead: a field is where a card's problems are
    independent."""
    current, reported, patch = chunk, set(), None   # patch: (the text before a fix was made, the fix's span)
    for _ in range(MAX_RECOVERIES):
        diagnostic = _translate(path, current, start_line, exc, last)
        if patch is not None and diagnostic.span is not None and diagnostic.span.line == patch[1].line and \
                diagnostic.span.column < patch[1].end_column + 1:
            # the fix left its words broken (`any` for `anyone`, which wants more): its field is blanked instead,
            # and this error, which the fix made, is not reported
            current, line = patch[0], patch[1].line
            patch = None
            blanked = _without_field(current, line - start_line)
            if blanked is None:
                break
            current = blanked
            try:
                return _parse_chunk(current, start_line)
            except UnexpectedInput as again:
                exc = again
                continue
        blanked = _with_fix(current, start_line, diagnostic) if diagnostic.span is not None else None
        patch = (current, diagnostic.fixes[0].span) if blanked is not None else None
        if blanked is None and diagnostic.span is not None:
            blanked = _without_field(current, diagnostic.span.line - start_line)
        if blanked is None:
            break
        key = (diagnostic.span, diagnostic.message)
        if key not in reported:
            reported.add(key)
            diagnostics.items.append(diagnostic)
        current = blanked
        try:
            return _parse_chunk(current, start_line)
        except UnexpectedInput as again:
            exc = again
    else:
        diagnostic = _translate(path, current, start_line, exc, last)
    diagnostics.items.append(attrs.evolve(diagnostic, hint=(diagnostic.hint or "fix this first") + MORE_MAY_FOLLOW))
    return None


def _with_fix(chunk: str, start_line: int, diagnostic: Diagnostic) -> str | None:
    """`chunk` with the diagnostic's one fix made so that every later position stays where it was: a shorter
    replacement padded with blanks, a longer one taking the blanks after it (`cost 14` -> `cost:14`); None when
    there is no single fix within a line, or no room for it."""
    if len(diagnostic.fixes) != 1:
        return None
    fix = diagnostic.fixes[0]
    span = fix.span
    lines = chunk.split("\n")
    at = span.line - start_line
    if span.line != span.end_line or "\n" in fix.replacement or not 0 <= at < len(lines):
        return None
    text = lines[at]
    end = span.end_column - 1
    while len(fix.replacement) > end - (span.column - 1) and text[end:end + 1] in (" ", "\t"):
        end += 1   # the blanks after the span make room
    if len(fix.replacement) > end - (span.column - 1) or (
            end > span.end_column - 1 and fix.replacement[-1:].isalnum() and text[end:end + 1].isalnum()):
        return None   # no room, or the words would run together (`places` over `plays city`)
    lines[at] = text[:span.column - 1] + fix.replacement.ljust(end - (span.column - 1)) + text[end:]
    return "\n".join(lines)


def _without_field(chunk: str, line: int) -> str | None:
    """`chunk` with the field that line `line` (0-based in the chunk) belongs to blanked out (each character but
    the line breaks a space), or that line alone when it is in no field (after the field's end); None when the line
    is the definition's first (its header) or blank, or no field starts at or before it, or the field runs to the
    end of the chunk (its `}` is missing)."""
    lines = chunk.split("\n")
    if not 0 < line < len(lines) or not lines[line].strip():
        return None
    depth = [0] * (len(lines) + 1)   # the blocks open at the start of each line (0-based)
    for ch, at_line, _, _ in _scan_braces(chunk):   # a brace on line N (1-based) counts from the next line on
        depth[at_line] += 1 if ch == "{" else -1
    for n in range(1, len(depth)):
        depth[n] += depth[n - 1]
    start = next((n for n in range(line, 0, -1) if _FIELD_START.match(lines[n]) and depth[n] == 1), None)
    end = None if start is None else next((n for n in range(start + 1, len(lines)) if depth[n] == 1 and (
        _FIELD_START.match(lines[n]) or lines[n].lstrip().startswith("}"))), None)
    if end is None:
        return None
    if line >= end:   # a line of no field (a '}' too many after the definition): that line alone
        start, end = line, line + 1
    blanked = [" " * len(text) for text in lines[start:end]]
    return "\n".join(lines[:start] + blanked + lines[end:])


def _header(path: str, chunk: str, start_line: int, broken: list[Header] | None) -> None:
    """The kind, name and number at the start of a chunk that did not parse, if it has them."""
    found = _HEADER.search(chunk) if broken is not None else None
    if not found or not found.group(2)[1:-1].strip():
        return
    kind = "_".join(found.group(1).split())
    line, column = _position(chunk, start_line, found.start(2))
    broken.append(Header(kind, found.group(2)[1:-1].strip(), found.group(3),
                         Span.point(path, line, column, len(found.group(2)))))


def _parse_chunk(chunk: str, start_line: int):
    """Parse one chunk with Lark's line counter starting at `start_line`, so positions are the file's own
    (padding the chunk with newlines instead costs time proportional to the file for every chunk)."""
    interactive = lark_parser().parse_interactive(chunk)
    try:
        interactive.lexer_thread.state.line_ctr.line = start_line
    except AttributeError:  # a Lark without this interactive API: fall back to padding
        return lark_parser().parse("\n" * (start_line - 1) + chunk)
    return interactive.resume_parse()


def _chunks(text: str):
    starts = [m.start() for m in _CHUNK_START.finditer(text)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    starts.append(len(text))
    line, counted = 1, 0
    for begin, end in zip(starts, starts[1:]):
        line += text.count("\n", counted, begin)
        counted = begin
        chunk = text[begin:end]
        if chunk.strip():
            yield line, chunk


def _prescan_ok(path: str, chunk: str, start_line: int, diagnostics: Diagnostics) -> bool:
    """Refuse, before parsing, what no later phase could handle: absurdly long numbers and absurd nesting."""
    numbers_ok = _numbers_ok(path, chunk, start_line, diagnostics)
    text_ok = _text_ok(path, chunk, start_line, diagnostics)
    return _nesting_ok(path, chunk, start_line, diagnostics) and numbers_ok and text_ok


def _text_ok(path: str, chunk: str, start_line: int, diagnostics: Diagnostics) -> bool:
    """Quoted names and comments are printed (`play`, `replay`, `cards`, `fmt --diff`), and a log carries them to
    whoever replays it: a control character (ESC, BEL, a C1 control), a bidi override or a zero-width character
    there could drive the reader's terminal (set its title, clear it, write the clipboard) or show a name other
    than the one the engine matches, so it is refused with its position (E008), as a seat name is (E702); so is a
    name longer than MAX_NAME characters."""
    ok, line, line_start, counted = True, start_line, 0, 0
    for match in _STRING_OR_COMMENT_TEXT.finditer(chunk):
        text = match.group(0)
        is_name = text.startswith('"')
        bad = first_unprintable(text, in_name=is_name)
        if bad is None and not (is_name and len(text) - 2 > MAX_NAME):
            continue
        at = match.start() + (bad or 0)
        line += chunk.count("\n", counted, at)
        line_start, counted = max(line_start, chunk.rfind("\n", counted, at) + 1), at
        where = Span.point(path, line, at - line_start + 1, 1 if bad is not None else len(text))
        if bad is not None:
            diagnostics.error("E008", f"{'a quoted name' if is_name else 'a comment'} holds the character "
                                      f"{described(text[bad])}, which is not printable",
                              where, "remove it: names and comments hold printable characters only, so that no "
                                     "one's terminal runs what a card file holds")
        else:
            diagnostics.error("E008", f"a quoted name of {len(text) - 2:,} characters (at most {MAX_NAME})", where,
                              "shorten it: a name is shown on a card, in tables and in the game's messages")
        ok = False
    return ok


def _numbers_ok(path: str, chunk: str, start_line: int, diagnostics: Diagnostics) -> bool:
    """A number of more than MAX_DIGITS digits is a typo or junk; reading it could fail (Python refuses to
    convert 4,300+ digits) or make the game loop for ever, so it is refused with its position."""
    ok, line, line_start, counted = True, start_line, 0, 0
    for match in _LONG_NUMBER.finditer(chunk):
        if match.group(1) is None:
            continue
        digits, at = match.group(1), match.start(1)
        line += chunk.count("\n", counted, at)  # counted from the previous number on: linear in the chunk
        line_start, counted = max(line_start, chunk.rfind("\n", counted, at) + 1), at
        column = at - line_start + 1
        shown = digits if len(digits) <= 20 else digits[:8] + "..." + digits[-4:]
        diagnostics.error("E007", f"the number {shown} is too long ({len(digits)} digits; at most {MAX_DIGITS})",
                          Span.point(path, line, column, len(digits)),
                          "no count, cost or value in a card needs more: check for a typo")
        ok = False
    return ok


def _nesting_ok(path: str, chunk: str, start_line: int, diagnostics: Diagnostics) -> bool:
    """Refuse absurd nesting before parsing, so no later phase can run out of stack."""
    depth, line, column, in_string, in_comment, previous = 0, start_line, 0, False, False, ""
    for ch in chunk:
        column += 1
        if ch == "\n":
            line, column, in_string, in_comment = line + 1, 0, False, False
        elif in_comment:
            pass
        elif ch == '"':
            in_string = not in_string
        elif in_string:
            pass
        elif ch == "/" and previous == "/":
            in_comment = True
        elif ch in "{(":
            depth += 1
            if depth > MAX_NESTING:
                diagnostics.error("E006", f"blocks are nested more than {MAX_NESTING} deep",
                                  Span.point(path, line, column), "flatten the effect; no card needs this depth")
                return False
        elif ch in "})":
            depth -= 1
        previous = ch if not in_comment else ""
    return True


def _translate(path: str, text: str, start_line: int, exc: UnexpectedInput, last: bool = True):
    """One Lark exception -> one Diagnostic. `text` is the chunk, which starts at line `start_line` of the file;
    `last` tells whether the chunk ends the file (an unclosed block at its end is then the end of the file)."""
    line, column = max(exc.line, 1), max(exc.column, 1)
    position = getattr(exc, "pos_in_stream", None)
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END" or isinstance(exc, UnexpectedEOF):
        return _unexpected_end(path, text, start_line, exc, last)
    if isinstance(exc, UnexpectedCharacters):
        ch = text[position] if position is not None and position < len(text) else ""
        accepted = _accepted(exc)
        expected = sorted(display(t) for t in accepted)
        if ch == ":":
            field = _field_before(path, text, start_line, position)
            if field:
                return field
            glued = _word_before(text, position)
            if glued is not None and glued[1] == position:  # `... x: 3` after a run of names (`gain 1 cargo ship`)
                word_line, word_column = _position(text, start_line, glued[0])
                word = text[glued[0]:glued[1]]
                return Diagnostic("E001", "error", f"unexpected '{word}'",
                                  Span.point(path, word_line, word_column, len(word)),
                                  "a field starts a line of its own; expected " +
                                  _list(_fitting(sorted(display(t) for t in _accepted(exc) if t.endswith("_KEY")),
                                                 text)))
        if ch == '"' and '"' not in text[position + 1:].split("\n", 1)[0]:
            return Diagnostic("E002", "error", "this quoted name is not closed: the '\"' at its end is missing",
                              Span.point(path, line, column), "a quoted name ends on the line it starts: add '\"'")
        word = re.match(_WORD, text[position:]) if position is not None else None
        hint = _hint(word.group(0) if word else None, _fitting(expected, text))
        pair = text[position:position + 2] if position is not None else ""
        typo = pair if pair in _COMPARATOR_TYPOS else ch
        comparator = _COMPARATOR_TYPOS.get(typo)
        fixes: tuple[Fix, ...] = ()
        if comparator and "COMPARATOR" in accepted:
            hint = f"did you mean '{comparator}'? (comparisons are >=, <=, ==, > and <)"
            fixes = (Fix(Span.point(path, line, column, len(typo)), comparator),)
        shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
        if word:
            message = f"unexpected word '{word.group(0)}'"
            width = len(word.group(0))
            fixes = _keyword_fixes(word.group(0), _fitting(expected, text, summarise=False),
                                   Span.point(path, line, column, width))
        else:
            message = f"unexpected character {shown}"
            width = 1
        return Diagnostic("E002", "error", message, Span.point(path, line, column, width), hint, fixes)
    token = exc.token
    accepted = _accepted(exc)
    expected = sorted(display(t) for t in accepted)
    token_at = getattr(token, "start_pos", None)
    is_word = re.fullmatch(_WORD, str(token)) is not None
    if is_word and token_at is not None and re.match(r"[ \t]*:", text[token_at + len(token):]):
        field = _field_before(path, text, start_line, token_at + len(token) + text[token_at + len(token):].index(":"))
        if field:
            return field
    if set(accepted) == {"SIGNED"} and token_at is not None:
        effect = _effect_before(path, text, start_line, token_at)
        if effect:
            return effect
    text_shown = str(token).split("\n")[0][:40]
    if is_word and str(token) + ":" in expected:
        span = Span.point(path, line, column, len(text_shown))
        return Diagnostic("E001", "error", f"'{token}' needs a ':' after it", span, f"write '{token}:'",
                          (Fix(span, f"{token}:"),))
    if token_at is not None:
        found = (_missing_colon(path, text, start_line, token_at, accepted) or
                 _negative_number(path, text, start_line, token, accepted) or
                 _tile_played(path, text, start_line, token_at) or
                 _hyphenated_name(path, text, start_line, token, token_at))
        if found:
            return found
    if token_at is not None and (token.type == "RBRACE" or token.type.endswith("_KEY")):
        dangling = _separator_before(text, token_at)
        if dangling is not None and "NAME" in accepted:
            separator = text[dangling]
            return Diagnostic("E001", "error", f"nothing follows this '{separator}'",
                              Span.point(path, *_position(text, start_line, dangling)),
                              f"add what should follow it, or remove the '{separator}'")
    if (token_at is not None and accepted and not any(t.endswith("_KEY") or t == "RBRACE" for t in accepted)
            and _starts_line(text, token_at) and (token.type.endswith("_KEY") or token.type == "RBRACE"
                                                  and _depth(text[:token_at]) > 0)):
        # Blanks and line breaks are alike to the parser, so what is missing at the end of a line is noticed only
        # at the next line's field or '}' (`requires: mayor`: the parser took 'mayor' as the start of a
        # quantity). Nothing that ends a field would do here, so the line before is the one to fix.
        last = _last_on_line_before(text, token_at)
        if last is not None:
            start, end = last
            shown = text[start:end][:40]
            hint = f"expected {_list(_fitting(expected, text))} after it"
            if set(accepted) <= {"SIGNED"} and shown.isalpha():
                # a lone word where an effect goes parses only as the start of `PARAMETER +N` (`play: pass`):
                # saying what else it could be helps more than asking for a number
                hint = (f"'{shown}' alone is no effect: a word there starts a parameter change, which needs a signed "
                        f"number (`oxygen +1`); other effects start with their verb (gain, draw, place, raise ...: "
                        f"docs/language.md)")
            return Diagnostic("E001", "error", f"something is missing after '{shown}'",
                              Span.point(path, *_position(text, start_line, start), len(shown)), hint)
    if is_word and token_at is not None:
        extra = _extra_word(path, text, start_line, str(token), token_at)
        if extra:
            return extra
    hint = _hint(str(token), _fitting(expected, text))
    fixes = _keyword_fixes(str(token), _fitting(expected, text, summarise=False),
                           Span.point(path, line, column, len(text_shown))) if is_word else ()
    if token.type == "RBRACE" and accepted == {"VBAR"}:
        hint = "a 'choose { }' needs at least two options separated by '|'; for a single effect drop 'choose'"
    if token.type == "RBRACE" and token_at is not None and _depth(text[:token_at]) <= 0:
        closer = _early_closer(text, token_at)
        if closer is not None:
            # `... }}` then a '}' of its own line: the doubled brace closed the definition one line early.
            return Diagnostic("E001", "error", "this '}' closes the definition too early",
                              Span.point(path, *_position(text, start_line, closer)),
                              f"one '}}' too many: remove it (the '}}' at line {line} then closes the definition)")
        hint = "this '}' closes no block; remove it"
    return Diagnostic("E001", "error", f"unexpected '{text_shown}'", Span.point(path, line, column, len(text_shown)),
                      hint, fixes)


_COUNTED = re.compile(r"\b([a-z]+)[ \t]+(\d+|X|\d+X)[ \t]+$")   # an effect's word and its count, before a word


def _extra_word(path: str, text: str, start_line: int, word: str, word_at: int):
    """`draw 1 card`: a word after an effect's count that the effect does not take (`draw N` draws cards). Found when
    the definition parses further without it; the fix removes it, the hint shows the effect's syntax."""
    before = _COUNTED.search(text, text.rfind("\n", 0, word_at) + 1, word_at)
    if before is None or before.group(1) not in EFFECT_WORDS:
        return None
    without = text[:before.end(2)] + " " * (word_at + len(word) - before.end(2)) + text[word_at + len(word):]
    try:
        _parse_chunk(without, start_line)
    except UnexpectedInput as exc:
        if getattr(exc, "pos_in_stream", None) is None or exc.pos_in_stream <= word_at + len(word):
            return None
    verb, count = before.group(1), before.group(2)
    syntaxes = [effect.syntax for effect in IMMEDIATE if effect.syntax.split()[0] == verb]
    line, column = _position(text, start_line, word_at)
    _, after_count = _position(text, start_line, before.end(2))
    written = f" ({'; '.join(syntaxes)})" if syntaxes else ""
    return Diagnostic("E001", "error", f"unexpected '{word}': '{verb} {count}' takes nothing more here",
                      Span.point(path, line, column, len(word)), f"did you mean '{verb} {count}'?{written}",
                      (Fix(Span(path, line, after_count, line, column + len(word)), ""),))


def _keyword_fixes(word: str, expected: list[str], span: Span) -> tuple[Fix, ...]:
    """A misspelt keyword where the parser wanted one (`plase` for `place`): its single close match, if any."""
    keywords = [e for e in expected if re.fullmatch(r"[a-z ]+", e)]
    match = single_match(word, keywords)
    return (Fix(span, match),) if match and match != word else ()


def _missing_colon(path: str, text: str, start_line: int, token_at: int, accepted: set[str]):
    """`requires oxygen >= 5%`: a field name without its ':' at the start of a line. The parser takes the word as
    part of the field before (`cost: 14 requires`: a cost's unit) and stumbles only on the next word. On one line
    with the field before, when that field takes several words (`type: automated  cost 14`: a kind of card may
    have several words), the word is taken the same way."""
    if not any(t.endswith("_KEY") for t in accepted):
        return None
    found = _word_before(text, token_at)
    if found is None or not (_starts_line(text, found[0]) or "NAME" in accepted):
        return None
    start, end = found
    word = text[start:end]
    if word.lower() + ":" not in _field_keys():
        return None
    span = Span.point(path, *_position(text, start_line, start), end - start)
    return Diagnostic("E001", "error", f"'{word}' needs a ':' after it", span, f"write '{word}:'",
                      (Fix(span, f"{word}:"),))


_NUMBER_FIELDS = {"cost": "a card's cost is 0 or more; a card that makes others cheaper has an effect: "
                          "discount 3 on cards",
                  "start": "a corporation starts with 0 megacredits or more",
                  "deal": "deal: N keep K counts cards, 0 or more"}


def _negative_number(path: str, text: str, start_line: int, token, accepted: set[str]):
    """`cost: -3`: a signed number where only a count goes (a cost, a start, a count of cards)."""
    written = str(token)
    if not re.fullmatch(r"-\d+", written) or "INT" not in accepted or "SIGNED_INT" in accepted:
        return None
    before = token.start_pos
    while before > 0 and text[before - 1] in " \t":
        before -= 1
    key = _word_before(text, before - 1) if before > 0 and text[before - 1] == ":" else None
    field = text[key[0]:key[1]].lower() if key else None
    what = f"a {field} can't be negative" if field in _NUMBER_FIELDS else "a negative number can't go here"
    span = Span.point(path, *_position(text, start_line, token.start_pos), len(written))
    return Diagnostic("E302", "error", f"{what}: {written}", span,
                      _NUMBER_FIELDS.get(field, "write a number of 0 or more"))


_PLAYED_TILE = re.compile(r"\b(you|players?)[ \t]+(plays?)[ \t]+(\w+)[ \t]*$")


def _tile_played(path: str, text: str, start_line: int, token_at: int):
    """`when you plays city tile`: a tile is placed, not played; the fix writes the verb that agrees with its
    subject (`you place`, `any player places`)."""
    found = _PLAYED_TILE.search(text, text.rfind("\n", 0, token_at) + 1, token_at)
    if found is None or singular(found.group(3)) not in TILES + ("tile",):
        return None
    verb = "place" if found.group(1) == "you" else "places"
    span = Span.point(path, *_position(text, start_line, found.start(2)), len(found.group(2)))
    return Diagnostic("E001", "error", f"a {singular(found.group(3))} tile is placed, not played", span,
                      f"did you mean '{verb}'? ('when {found.group(1)} {verb} {found.group(3)} tile -> ...'; "
                      "cards and tags are played)", (Fix(span, verb),))


_HYPHENATED = re.compile(r"\w+(?:-\w+)+")
_FIELD_BEFORE = re.compile(r"(\w+):[ \t]*$")


def _hyphenated_name(path: str, text: str, start_line: int, token, token_at: int):
    """`needs: promo-spaces`: a '-' between two letters where the parser stopped (where a subtraction would do,
    `cities-oceans` parses) is a name with a hyphen, which is written in quotes; the fix quotes it."""
    if str(token) != "-" or not (0 < token_at < len(text) - 1 and _WORD_CHAR.match(text[token_at - 1])
                                 and _WORD_CHAR.match(text[token_at + 1])):
        return None
    start = token_at
    while start > 0 and _WORD_CHAR.match(text[start - 1]):
        start -= 1
    name = _HYPHENATED.match(text, start)
    if name is None or text[start - 1:start] == '"':
        return None
    line, column = _position(text, start_line, token_at)
    field = _FIELD_BEFORE.search(text, text.rfind("\n", 0, start) + 1, start)
    written = f'{field.group(1)}: "{name.group(0)}"' if field else f'"{name.group(0)}"'
    return Diagnostic("E001", "error", "unexpected '-'", Span.point(path, line, column),
                      f"a name with '-' in it is written in quotes: {written}",
                      (Fix(Span.point(path, *_position(text, start_line, start), len(name.group(0))),
                           f'"{name.group(0)}"'),))


def _accepted(exc: UnexpectedInput) -> set[str]:
    """The terminals the parser could have taken where it stopped. Lark's own `expected` list can be wider than
    the truth (the contextual lexer's fallback reports its lexer state's terminals), so ask the parser."""
    accepted = None
    interactive = getattr(exc, "interactive_parser", None)
    if interactive is not None:
        try:
            accepted = interactive.accepts()
        except Exception:  # the hint is a nicety; the error is reported either way
            accepted = None
    if not accepted:
        accepted = getattr(exc, "accepts", None) or getattr(exc, "expected", None) or getattr(exc, "allowed", None)
    return {t for t in (accepted or ()) if t != "$END"}


ANY_FIELD = "a field on a line of its own"


def _fitting(expected: list[str], chunk: str, summarise: bool = True) -> list[str]:
    """What the parser would take, less the fields that the definition `chunk` begins cannot have: the grammar lets
    every definition have every field (the checker says which fields each kind has, checker.FIELDS), so a card's
    error would otherwise list `deal:`, `ends game:` or `offboard:`. `summarise`: the fields, when something else
    may come too (after a complete field), are said once, as a field on a line of its own."""
    found = _HEADER.match(chunk)
    kind = "_".join(found.group(1).split()) if found else None
    if kind not in FIELDS:
        return expected
    fields = FIELDS[kind][0] | ({"on STAGE"} if kind == "card" else set())
    every = {field for accepted, _ in FIELDS.values() for field in accepted}
    fitting = [e for e in expected if e.rstrip(":") in fields or not (e.endswith(":") or e in every)]
    words = [e for e in fitting if e.rstrip(":") not in fields]
    # after a complete field any field may follow: said once, when something else may follow too
    if summarise and words and len(words) < len(fitting):
        return words + [ANY_FIELD]
    return fitting


def _field_keys() -> list[str]:
    return sorted(name for terminal, name in _display_names().items() if terminal.endswith("_KEY"))


def _position(text: str, start_line: int, offset: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, offset) + 1
    return start_line + text.count("\n", 0, offset), offset - line_start + 1


def _word_before(text: str, end: int) -> tuple[int, int] | None:
    """(start, end) of the word (`_WORD`) that ends at `end`, blanks before `end` skipped; None if there is none.
    A backwards scan, linear in the word's length: a regex search anchored at `end` retries every start position
    and takes quadratic time on a long word."""
    while end > 0 and text[end - 1] in " \t":
        end -= 1
    start = end
    while start > 0 and _WORD_CHAR.match(text[start - 1]):
        start -= 1
    while start < end and text[start].isdecimal():  # a word starts with a letter: `12abc` ends in the word 'abc'
        start += 1
    return (start, end) if start < end else None


def _starts_line(text: str, offset: int) -> bool:
    return not text[text.rfind("\n", 0, offset) + 1:offset].strip()


def _last_on_line_before(text: str, offset: int) -> tuple[int, int] | None:
    """(start, end) of the last word, or run of symbols, on the last line with content (comments left out)
    before the line of `offset`; None if there is none."""
    end = text.rfind("\n", 0, offset)
    while end >= 0:
        start = text.rfind("\n", 0, end) + 1
        cut = end
        for piece in _STRING_OR_COMMENT.finditer(text, start, end):
            if piece.group(0).startswith("//"):
                cut = piece.start()
                break
        while cut > start and text[cut - 1].isspace():
            cut -= 1
        if cut > start:
            word = _word_before(text, cut)
            if word is not None and word[1] == cut:
                return word
            first = cut
            while first > start and not text[first - 1].isspace():
                first -= 1
            return first, cut
        end = start - 1
    return None


def _separator_before(text: str, offset: int) -> int | None:
    """The offset of a ';', '|' or ',' that is the last thing before `offset` (blank lines and a trailing
    `// comment` after it allowed), or None. Linear: skips blanks backwards, then looks at one line."""
    end = offset
    while end > 0 and text[end - 1].isspace():
        end -= 1
    line_start = text.rfind("\n", 0, end) + 1
    comment = text.find("//", line_start, end)
    while comment != -1:  # `gain 1 plant; // more to come`: the leftmost '//' preceded by a separator wins
        before = comment
        while before > line_start and text[before - 1] in " \t":
            before -= 1
        if before > line_start and text[before - 1] in ";|,":
            return before - 1
        comment = text.find("//", comment + 2, end)
    return end - 1 if end > line_start and text[end - 1] in ";|," else None


def _field_before(path: str, text: str, start_line: int, colon: int):
    """A ':' the parser did not expect, right after a word: a misspelt field name, or a field where it can't be."""
    found = _word_before(text, colon)
    if not found:
        return None
    start, end = found
    word = text[start:end]
    if word == "action":
        first = _word_before(text, start)
        if first and text[first[0]:first[1]] == "first" and first[1] < start:
            start, word = first[0], "first action"
    line, column = _position(text, start_line, start)
    span = Span.point(path, line, column, end - start)
    keys = _field_keys()
    key = " ".join(word.lower().split()) + ":"
    starts_line = not text[text.rfind("\n", 0, start) + 1:start].strip()
    guess = did_you_mean(word, [k.rstrip(":") for k in keys])
    if key not in keys and not starts_line and not guess:
        return None  # `oxygen: 5%`: a stray ':' after a word mid-line, not a field name
    dangling = _separator_before(text, start) if starts_line else None
    if key in keys and dangling is not None:   # `play: gain 2 plants;` then a field: the ';' promised an effect
        separator = text[dangling]
        return Diagnostic("E001", "error", f"nothing follows this '{separator}'",
                          Span.point(path, *_position(text, start_line, dangling)),
                          f"add what should follow it, or remove the '{separator}'")
    if key in keys:
        return Diagnostic("E001", "error", f"'{key}' can't go here: a field can't start inside another field",
                          span, "start the field on a line of its own inside the definition's { }, or, to add "
                                "effects to the same field, join them with ';'")
    keys = _fitting(keys, text, summarise=False)   # the fields this kind of definition has
    guess = did_you_mean(word, [k.rstrip(":") for k in keys])
    hint = (guess.replace("'?", ":'?") if guess else None) or "fields: " + ", ".join(keys)
    match = single_match(word, [k.rstrip(":") for k in keys])
    return Diagnostic("E001", "error", f"unknown field '{word}:'", span, hint,
                      (Fix(span, match),) if match and match != word else ())


def _effect_before(path: str, text: str, start_line: int, offset: int):
    """`gian 2 plants`: the parser read 'gian' as a parameter and wanted `+N`; the word is a misspelt effect."""
    found = _word_before(text, offset)
    if not found:
        return None
    start, end = found
    before = start
    while before > 0 and text[before - 1] in " \t\n":
        before -= 1
    word = text[start:end]
    if (before > 0 and text[before - 1] not in ":;{|>") or word.lower() in PARAMETER_WORDS:
        return None
    line, column = _position(text, start_line, start)
    hint = did_you_mean(word, EFFECT_WORDS + PARAMETER_WORDS) or (
        "an effect starts with one of: " + ", ".join(EFFECT_WORDS) + ", or is a parameter change like "
        "'temperature +1'")
    span = Span.point(path, line, column, len(word))
    match = single_match(word, EFFECT_WORDS + PARAMETER_WORDS)
    return Diagnostic("E001", "error", f"unknown effect '{word}'", span, hint,
                      (Fix(span, match),) if match and match != word else ())


def _unexpected_end(path: str, text: str, start_line: int, exc: UnexpectedInput, last: bool):
    expected = _fitting(sorted(display(t) for t in _accepted(exc)), text)
    skipped, still_open = _unclosed_blocks(text)
    if skipped:
        # A '}' that lines up with an outer block closed it, so the inner block opened here lost its '}'.
        line, column = skipped[0]
        return Diagnostic("E003", "error", "this '{' is never closed",
                          Span.point(path, start_line + line - 1, column),
                          "add the missing '}' before the '}' that closes the enclosing block")
    stripped = text.rstrip()
    end_line = start_line + stripped.count("\n")
    end_column = len(stripped.split("\n")[-1]) + 1
    where = Span.point(path, end_line, end_column)
    message = "unexpected end of file" if last else "unexpected end of definition (the next definition starts " \
                                                    f"at line {start_line + text.count(chr(10))})"
    hint = None
    if still_open:
        line, column = still_open[-1]
        message += f": the block opened at line {start_line + line - 1} column {column} is not closed"
        hint = "add the missing '}'"
    elif expected:
        hint = "expected " + _list(expected)
    return Diagnostic("E003", "error", message, where, hint)


def _hint(word: str | None, expected: list[str]) -> str | None:
    if not expected:
        return None
    keywords = [e for e in expected if re.fullmatch(r"[a-z ]+:?", e) and e != ANY_FIELD]
    if word:
        guess = did_you_mean(word.rstrip(":"), keywords)
        if guess:
            return f"{guess} (expected {_list(expected)})"
    return "expected " + _list(expected)


def _list(items: list[str], limit: int = 14) -> str:
    items = list(dict.fromkeys(items))
    shown = ", ".join(items[:limit])
    return shown + (", ..." if len(items) > limit else "")


def _scan_braces(text: str):
    """Yield (char, line, column, first_on_line) for every '{' and '}' outside strings and comments."""
    line, column, in_string, in_comment, blank_so_far = 1, 0, False, False, True
    for i, ch in enumerate(text):
        column += 1
        if ch == "\n":
            line, column, in_string, in_comment, blank_so_far = line + 1, 0, False, False, True
            continue
        if in_comment:
            continue
        if ch == '"':
            in_string = not in_string
        elif in_string:
            pass
        elif ch == "/" and text[i + 1:i + 2] == "/":
            in_comment = True
        elif ch in "{}":
            yield ch, line, column, blank_so_far
        if ch not in " \t":
            blank_so_far = False


def _unclosed_blocks(text: str):
    """Unclosed '{'s as ([skipped], [still open]), lines counted from the chunk's start.

    A '}' that starts its line closes the innermost block whose opening line is indented no deeper than the
    '}' itself; the blocks in between are 'skipped': their own '}' is missing. That finds the block that lost
    its '}' (a `choose {` never closed) rather than blaming the definition around it."""
    lines = text.split("\n")
    stack: list[tuple[int, int, int]] = []
    skipped: list[tuple[int, int]] = []
    for ch, line, column, first in _scan_braces(text):
        if ch == "{":
            indent = len(lines[line - 1]) - len(lines[line - 1].lstrip(" \t"))
            stack.append((line, column, indent))
        elif stack:
            if first:
                indent = column - 1
                while len(stack) > 1 and stack[-1][2] > indent:
                    skipped.append(stack.pop()[:2])
            stack.pop()
    return sorted(skipped), [opened[:2] for opened in stack]


def _early_closer(text: str, offset: int):
    """The offset of the '}' that closed the outermost block before `offset`, when that '}' ended a line of
    content while the '}' at `offset` stands alone at the start of its line; else None."""
    line_start = text.rfind("\n", 0, offset) + 1
    if offset != line_start:
        return None
    line_starts = [0] + [i + 1 for i, ch in enumerate(text[:offset]) if ch == "\n"]
    depth, closer, opened_on = 0, None, 0
    for ch, line, column, first in _scan_braces(text[:offset]):
        if ch == "{" and depth == 0:
            opened_on = line
        depth += 1 if ch == "{" else -1
        if depth == 0:  # a one-line definition closes on its own line: its '}' is not early
            closer = None if first or line == opened_on else line_starts[line - 1] + column - 1
    return closer


def _depth(text: str) -> int:
    depth = 0
    for ch, *_ in _scan_braces(text):
        depth += 1 if ch == "{" else -1
    return depth
