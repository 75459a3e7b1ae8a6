"""Saves and game logs: writing them, and reading them back without trusting them.

Two formats, one reader (`read`), used by `play --load` and `replay`:
- a save (`save FILE` at the prompt): one JSON object {format, options, log, state, seats, content};
- a game log (JSONL, appended after every choice, so it is also the autosave of an interrupted game): a start line
  {event: start, format, options, seats, content}, one {event: choice, n, player, label} per choice, and
  {event: end, result} once the game is over.
`content` is the content the game was dealt from (tharsis/games/recorded_cards.py: each definition it can use, hashed,
and the designer's card files), and `options.card_paths` are relative: a record loads in another folder and on
another machine, and cards added to the designer's folder since change nothing. Records of log format 1 and saves
whose `content` is a string (a hash of everything loaded) are read as they always were: with the cards found at
their `card_paths`, and a warning (W701) when those changed.

Reading goes in steps, each bounded in time and memory, and each problem is reported with the file, the line for
logs, and a code E7xx (docs/errors.md):
1. the file: a regular file of at most MAX_BYTES, UTF-8, JSON nested at most MAX_DEPTH deep (E710, E711);
2. the shape: every type of the outer structure and of the options, before anything is built (E712, E713;
   the options go through tharsis/games/options.py like the flags of a new game do);
3. the game (`build`): the recorded cards are found and unchanged (E741, E742, E743) and compile (E715), the names
   exist in them (board, corporations), every logged choice is replayed as a legal choice of the logged player
   (E714), and the outcome is compared with what the file recorded, the saved state or the logged result (E716).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Callable, Optional

import attrs

from tharsis.compiler.source import NotRegularFile, read_bounded, why_unusable
from tharsis.runtime.api.game import SAVE_FORMAT, ContentError, Game, GameOptions, load_library
from tharsis.runtime.api.saves import upgraded_reference

from ..problems import CONTENT, USAGE, Problem, ProblemError, suggest
from . import recorded_cards
from .options import KINDS, Seat, Where, check_against_content, check_name, describe, is_integer, options_from_data

LOG_FORMAT = 2
LOG_FORMATS = (1, 2)          # 1: `content` a hash of everything loaded, absolute card_paths (read as before)
MAX_BYTES = 8 * 2**20         # a long five-player game's log is well under 1 MB
MAX_DEPTH = 24                # the deepest value a save holds (the state) is about 6 levels down
MAX_CHOICES = 20_000          # five players with draft take about 1,000; bounds a replay to seconds
EVENTS = ("start", "choice", "end")


@attrs.frozen
class Choice:
    number: int
    label: str
    player: Optional[str] = None     # who chose, when the file says
    line: Optional[int] = None       # its line in a log
    source: Optional[str] = None     # the text of that line


@attrs.frozen
class Record:
    """What a save or a log says, its shape checked; nothing built yet."""

    path: str
    kind: str                                   # "save" | "log"
    options: GameOptions
    seats: list
    choices: list
    content: Any = None                         # recorded_cards.Recorded; in older records a hash, or None
    state: Optional[dict] = None                # a save's state
    result: Optional[dict] = None               # a log's end line, when the game ended
    warnings: list = attrs.field(factory=list)
    where: Where = Where()                      # where its options are written
    end: Optional[Where] = None                 # where a log's end line is


# ---------------------------------------------------------------------------------------------- writing

def content_hash(library) -> str:
    """A hash of what all the compiled cards mean (spans, order and comments do not count): what records of log
    format 1, and older saves, hold as their `content`, to tell whether the cards changed since (W701)."""
    encoded = sorted((json.dumps(recorded_cards.canonical(d), sort_keys=True, ensure_ascii=False, default=repr)
                      for d in library.definitions))
    return "sha256:" + hashlib.sha256("\n".join(encoded).encode("utf-8")).hexdigest()[:16]


def save_data(game: Game, seats: list) -> dict:
    data = json.loads(game.to_json())
    data["options"] = _options_data(game)
    data["seats"] = [attrs.asdict(s) for s in seats]
    data["content"] = recorded_cards.record(game)
    return data


def log_start(game: Game, seats: list) -> dict:
    return {"event": "start", "format": LOG_FORMAT, "options": _options_data(game),
            "seats": [attrs.asdict(s) for s in seats], "content": recorded_cards.record(game)}


def _options_data(game: Game) -> dict:
    options = game.options.to_json()
    options["card_paths"] = recorded_cards.relative_paths(options["card_paths"])
    return options


# ---------------------------------------------------------------------------------------------- reading

def read(path: Path | str) -> Record:
    """The record a save or a log holds, its shape checked. Raises ProblemError."""
    name = str(path)
    text = _read_text(Path(path), name)
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise ProblemError([Problem("E711", "the file is empty", "a save (save FILE) or a game log", name)])
    head = _parse_line(lines[first])
    if isinstance(head, dict) and "event" in head:
        return _read_log(name, lines)
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ProblemError([_json_problem(name, exc, lines)]) from None
    except RecursionError:
        raise ProblemError([_too_deep(name)]) from None
    _check_depth(data, name)
    if isinstance(data, dict) and "event" in data:   # a log of a single line
        return _read_log(name, lines)
    return _read_save(name, data)


def _read_text(path: Path, name: str) -> str:
    try:
        data = read_bounded(path, MAX_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        raise ProblemError([Problem("E710", "no such file", None, name)], USAGE) from None
    except (IsADirectoryError, NotRegularFile):
        raise ProblemError([Problem("E710", "not a file", "a save (save FILE) or a game log (.jsonl)", name)],
                           USAGE) from None
    except (OSError, ValueError) as exc:  # a name over 255 bytes, a loop of links, no permission...
        reason, hint = why_unusable(exc)
        raise ProblemError([Problem("E710", f"cannot read the file: {reason}", hint, name)],
                           USAGE) from None
    if len(data) > MAX_BYTES:
        raise ProblemError([Problem("E710", f"the file is larger than {MAX_BYTES // 2**20} MB; no save or game "
                                            "log is that large", "is this the right file?", name)])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ProblemError([Problem("E710", "not UTF-8 text (a binary or damaged file)",
                                    "saves and logs are JSON text", name, line)]) from None


def _parse_line(line: str) -> Any:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def _json_problem(name: str, exc: ValueError, lines: list[str], line_offset: int = 0) -> Problem:
    if isinstance(exc, json.JSONDecodeError):
        line = exc.lineno + line_offset
        source = lines[line - 1] if 0 < line <= len(lines) else None
        cut = exc.pos >= len(exc.doc.rstrip()) or exc.msg.startswith("Unterminated string")
        what = "the line" if line_offset else "the file"
        message = (f"{what} ends in the middle of a JSON value (it was cut short)" if cut
                   else f"not valid JSON: {exc.msg}")
        return Problem("E711", message, "a damaged file: use another save, or the game log", name, line,
                       exc.colno, source)
    if "digits" in str(exc):  # Python refuses to read integers of more than 4300 digits
        return Problem("E711", "a number too long to read (thousands of digits)", "is this the right file?", name,
                       line_offset + 1 if line_offset else None, None, lines[line_offset] if line_offset else None)
    return Problem("E711", f"not valid JSON: {exc}", None, name, line_offset + 1 if line_offset else None)


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _too_deep(name: str, line: Optional[int] = None) -> Problem:
    return Problem("E712", f"values nested more than {MAX_DEPTH} deep; no save or log is", "is this the right file?",
                   name, line)


def _check_depth(value: Any, name: str, line: Optional[int] = None) -> None:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ProblemError([_too_deep(name, line)])
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)


def _read_save(name: str, data: Any) -> Record:
    if not isinstance(data, dict):
        raise ProblemError([Problem("E713", f"not a Tharsis save: the file holds {describe(data)}, not an object",
                                    "a save (save FILE) or a game log", name)])
    problems = []
    if "format" not in data or "log" not in data or "options" not in data:
        missing = [k for k in ("format", "options", "log") if k not in data]
        raise ProblemError([Problem("E713", f"not a Tharsis save: no {', '.join(missing)}",
                                    "a save (save FILE) or a game log", name)])
    if data["format"] != SAVE_FORMAT or not is_integer(data["format"]):
        raise ProblemError([Problem("E713", f"unsupported save format {_short(data['format'])}",
                                    f"this Tharsis reads format {SAVE_FORMAT}", name)])
    where = Where(name)
    portable = isinstance(data.get("content"), dict)
    options = _options(data["options"], where, problems, check_paths=not portable)
    log = data["log"]
    choices = []
    if not isinstance(log, list):
        problems.append(Problem("E712", f"log must be a list of choices, not {describe(log)}", None, name))
    elif len(log) > MAX_CHOICES:
        problems.append(Problem("E712", f"log holds {len(log)} choices; no game has more than {MAX_CHOICES}",
                                None, name))
    else:
        for number, label in enumerate(log, start=1):
            if not isinstance(label, str):
                problems.append(Problem("E712", f"log[{number - 1}] must be the label of a choice (a string), "
                                                f"not {describe(label)}", None, name))
            else:
                choices.append(Choice(number, label))
    state = data.get("state")
    if state is not None and not isinstance(state, dict):
        problems.append(Problem("E712", f"state must be an object, not {describe(state)}", None, name))
    content = _content(data.get("content"), Where(name, prefix=""), problems)
    seats = _seats(data.get("seats"), options, Where(name, prefix=""), problems)
    if problems:
        raise ProblemError(problems)
    return Record(name, "save", options, seats, choices, content, state, None, [], where)


def _options(data: Any, where: Where, problems: list, check_paths: bool = True) -> Optional[GameOptions]:
    try:
        return options_from_data(data, where, check_paths)
    except ProblemError as exc:
        problems.extend(exc.problems)
        return None


def _content(value: Any, where: Where, problems: list, portable: Optional[bool] = None) -> Any:
    """What a record says of its cards: their record (an object), or in older records a hash (a string) or
    nothing. `portable` True or False: the log's format says which it must be."""
    if isinstance(value, dict) and portable is not False:
        return recorded_cards.parse(value, where, problems)
    if portable:
        problems.append(where.problem("E712", f"content must be an object (the cards the game was dealt from), "
                                              f"not {describe(value)}"))
        return None
    if value is not None and not isinstance(value, str):
        problems.append(where.problem("E712", f"content must be the hash of the cards (a string), "
                                              f"not {describe(value)}"))
        return None
    return value


def _seats(value: Any, options: Optional[GameOptions], where: Where, problems: list) -> list:
    """The seats of a file: one per player, named like them, each a human or a bot kind."""
    if value is None or options is None:
        return [Seat(p, "human") for p in options.players] if options else []
    if not isinstance(value, list):
        problems.append(where.problem("E712", f"seats must be a list, not {describe(value)}"))
        return []
    seats = []
    for index, seat in enumerate(value[:len(options.players) + 1]):
        name = f"seats[{index}]"
        if not isinstance(seat, dict) or set(seat) != {"name", "kind"}:
            problems.append(where.problem("E712", f"{name} must be an object with a name and a kind, "
                                                  f"not {describe(seat)}", '{"name": "ann", "kind": "human"}'))
            continue
        found = check_name(f"{name}.name", seat["name"], where)
        if not isinstance(seat["kind"], str) or seat["kind"] not in KINDS:
            found.append(where.problem("E702", f"{name}.kind: unknown seat kind {_short(seat['kind'])}",
                                       suggest(str(seat["kind"]), KINDS, "kinds")))
        problems.extend(found)
        if not found:
            seats.append(Seat(seat["name"], seat["kind"]))
    if [s.name for s in seats] != list(options.players) and len(seats) == len(value):
        problems.append(where.problem("E702", "the seats are not the players of the game: "
                                              f"{', '.join(s.name for s in seats) or 'none'} for "
                                              f"{', '.join(options.players)}"))
    return seats


def _read_log(name: str, lines: list[str]) -> Record:
    """A JSONL game log. A last line cut short (the game was stopped while writing it) is dropped with a warning:
    everything before it can still be replayed and resumed."""
    problems, warnings, choices = [], [], []
    start, result, start_where, end_where = None, None, None, None
    ended_at, expected = None, 1      # the line of the end event; the number the next choice must have
    count = sum(1 for line in lines if line.strip())
    if count > MAX_CHOICES + 2:
        raise ProblemError([Problem("E712", f"the log holds {count} lines; no game has more than {MAX_CHOICES} "
                                            "choices", None, name)])
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue

        def problem(code: str, message: str, hint: Optional[str] = None) -> Problem:  # about this line only
            return Problem(code, message, hint, name, number, None, line)  # noqa: B023

        try:
            entry = json.loads(line)
        except ValueError as exc:
            if number == len(lines) and not any(p.is_error for p in problems) and start is not None:
                warnings.append(Problem("W702", "the last line is cut short (the game stopped while writing it); "
                                                "it is left out", None, name, number, None, line))
                continue
            problems.append(_json_problem(name, exc, lines, number - 1))
            expected += start is not None
            continue
        except RecursionError:
            problems.append(_too_deep(name, number))
            continue
        try:
            _check_depth(entry, name, number)
        except ProblemError as exc:
            problems.extend(exc.problems)
            continue
        if not isinstance(entry, dict):
            problems.append(problem("E712", f"each line of a log is an object, not {describe(entry)}"))
            expected += start is not None  # most likely a damaged choice: the next one keeps its number
            continue
        event = entry.get("event")
        if event not in EVENTS:
            problems.append(problem("E712", f"unknown event {_short(event)}", suggest(str(event), EVENTS,
                                                                                         "events")))
            continue
        if ended_at is not None:
            problems.append(problem("E712", f"a line after the end of the game (line {ended_at})"))
            break
        if start is None and event != "start":
            problems.append(problem("E713", "not a Tharsis game log: it does not begin with a start line",
                                    '{"event": "start", "format": 1, "options": {...}, "seats": [...]}'))
            break
        if event == "start":
            if start is not None:
                problems.append(problem("E712", "a second start line"))
                continue
            start = entry
            start_where = Where(name, number, line)
            if entry.get("format") not in LOG_FORMATS or not is_integer(entry.get("format")):   # not 2.0, not true
                problems.append(problem("E713", f"unsupported log format {_short(entry.get('format'))}",
                                        f"this Tharsis reads formats {LOG_FORMATS[0]} to {LOG_FORMATS[-1]}"))
                break
        elif event == "choice":
            n, label, player = entry.get("n"), entry.get("label"), entry.get("player")
            due, expected = expected, (n + 1 if is_integer(n) else expected + 1)  # one gap, one problem
            if not isinstance(label, str):
                problems.append(problem("E712", f"label must be the label of a choice (a string), "
                                                f"not {describe(label)}"))
            elif n != due or not is_integer(n):
                shown = n if is_integer(n) else describe(n)
                problems.append(problem("E712", f"choice number {shown} where {due} was due",
                                        "a line is missing, repeated or edited"))
            elif player is not None and not isinstance(player, str):
                problems.append(problem("E712", f"player must be a seat's name, not {describe(player)}"))
            else:
                choices.append(Choice(n, label, player, number, line))
        else:
            ended_at, end_where = number, Where(name, number, line, prefix="")
            result = entry.get("result")
            if not isinstance(result, dict):
                problems.append(problem("E712", f"result must be an object, not {describe(result)}"))
    if start is None and not problems:
        problems.append(Problem("E713", "not a Tharsis game log: no start line", None, name))
    if problems:
        raise ProblemError(problems + warnings)
    portable = start.get("format") != 1
    options = _options(start.get("options"), start_where, problems, check_paths=not portable)
    content = _content(start.get("content"), attrs.evolve(start_where, prefix=""), problems, portable)
    seats = _seats(start.get("seats"), options, attrs.evolve(start_where, prefix=""), problems)
    if problems:
        raise ProblemError(problems + warnings)
    return Record(name, "log", options, seats, choices, content, None, result, warnings, start_where, end_where)


# ---------------------------------------------------------------------------------------------- building

@attrs.frozen
class Loaded:
    game: Game
    seats: list
    record: Record
    warnings: list
    choosers: list = attrs.field(factory=list)   # the name of the player who made each choice, in order


def build(record: Record, library=None, before_choice: Optional[Callable[[Game, Choice], None]] = None,
          verify: bool = True) -> Loaded:
    """The game a record describes, replayed choice by choice, and checked against what the file recorded."""
    options, where = record.options, record.where
    warnings = list(record.warnings)
    portable = isinstance(record.content, recorded_cards.Recorded)
    changed_cards: dict = {}
    if portable and library is None:
        found = recorded_cards.library_for(record.content, options, attrs.evolve(where, prefix=""), record.kind)
        library, changed_cards = found.library, found.changed
        warnings += found.warnings
    elif library is None:
        try:
            library = load_library(tuple(options.card_paths))
        except ContentError as exc:
            raise ProblemError([where.problem("E715", "the cards the game was played with do not compile: "
                                                      f"{', '.join(options.card_paths)}",
                                              "fix them (tharsis check --with-bundled FOLDER), then load again")],
                               CONTENT, str(exc)) from None
    try:
        check_against_content(options, library, where)
    except ProblemError as exc:
        raise ProblemError(warnings + exc.problems, exc.exit_code) from None
    changed = None
    if isinstance(record.content, str):
        now = content_hash(library)
        if now != record.content:
            changed = (f"the cards changed since this game was played (played with {record.content}, "
                       f"now {now})")
            warnings.append(where.problem("W701", changed, "a replay may differ from the game that was played"))
    try:
        game = Game(options, library)
    except ValueError as exc:  # the options passed every check above, so this is the content refusing them
        raise ProblemError([where.problem("E715", f"the game cannot start with these options: {exc}")]) from None
    names, choosers = list(options.players), []

    def check_drawn(number: int) -> None:
        taken = recorded_cards.drawn(game, changed_cards)
        if taken:
            raise ProblemError(warnings + [recorded_cards.changed_problem(attrs.evolve(where, prefix=""),
                                                                          changed_cards[name], number)
                                           for name in taken[:recorded_cards.SHOWN]])

    check_drawn(0)

    def fail(choice: Choice, message: str, hint: Optional[str] = None) -> ProblemError:
        hint = "; ".join(h for h in (hint, changed) if h) or None
        if record.kind == "save":
            message = f"log[{choice.number - 1}]: {message}"
        return ProblemError(warnings + [Problem("E714", message, hint, record.path, choice.line, None,
                                                choice.source)])

    for choice in record.choices:
        if before_choice is not None:
            before_choice(game, choice)
        decision = game.pending()
        if decision is None:
            raise fail(choice, f"choice {choice.number} ({choice.label!r}) comes after the end of the game")
        chooser = names[decision.player]
        if choice.player is not None and choice.player != chooser:
            raise fail(choice, f"choice {choice.number} is logged for {choice.player}, but {chooser} chooses "
                               f"here ({decision.prompt})")
        labels = decision.labels()
        if choice.label not in labels:
            shown = ", ".join(labels[:12]) + (", ..." if len(labels) > 12 else "")
            raise fail(choice, f"choice {choice.number} ({choice.label!r}) is not a legal choice for {chooser} "
                               f"({decision.prompt})", f"legal: {shown}")
        game.apply(choice.label)
        choosers.append(chooser)
        check_drawn(choice.number)
    if verify:
        _verify(record, game, warnings, changed)
    return Loaded(game, record.seats, record, warnings, choosers)


def _verify(record: Record, game: Game, warnings: list, changed: Optional[str]) -> None:
    """The replayed game ends where the file says it did: the saved state, or the logged result."""
    problem, where = None, record.where
    if record.state is not None:
        replayed = game.snapshot()
        if not isinstance(record.content, recorded_cards.Recorded):
            record = attrs.evolve(record, state=_upgraded(record.state, game))
        differ = sorted(str(k) for k in set(replayed) | set(record.state) if replayed.get(k) != record.state.get(k))
        if differ:
            problem = f"the saved state is not the state its choices lead to (it differs in: {', '.join(differ[:8])})"
    elif record.result is not None:
        where = record.end or where
        if game.over:
            if json.loads(json.dumps(game.result)) != record.result:
                replayed, logged = game.result.get("winner"), record.result.get("winner")
                problem = (f"the replayed result differs from the logged one (winner: replayed {replayed}, "
                           f"logged {logged})")
        else:
            problem = "the log has an end line, but its choices stop before the end of the game"
    if problem:
        hint = changed or "the file was edited, or was written by a different version of the rules"
        raise ProblemError(warnings + [where.problem("E716", problem, hint)])


def _upgraded(value: Any, game: Game) -> Any:
    """An older save's state with its references to compiled effects ({"x": n}, a position in a walk of the whole
    library) written as a state is written now ({"x": [kind, name, n]}), so that the two compare."""
    if isinstance(value, dict):
        number = value.get("x")
        if len(value) == 1 and is_integer(number):
            try:
                return {"x": upgraded_reference(game.content, number)}
            except (IndexError, KeyError):
                return value
        return {k: _upgraded(v, game) for k, v in value.items()}
    if isinstance(value, list):
        return [_upgraded(v, game) for v in value]
    return value


def load(path: Path | str, **kwargs) -> Loaded:
    return build(read(path), **kwargs)
