"""Checking a game's options, wherever they come from: the flags of play/simulate, or a save or a log.

Both roads end in the same `GameOptions`, so both go through the same checks, in two steps:
`options_from_data` checks the shape and range of every value before anything is built (a seed is a
non-negative integer, `card_paths` a list of folders that exist and are small enough to walk, ...), and
`check_against_content` checks the names that only the compiled content can judge (the board, each seat's
corporation). Problems name the value the way its source does: `--seed` for a flag, `options.seed` in a file.
"""

from __future__ import annotations

import json
import os
import secrets
from collections import Counter
from pathlib import Path
from typing import Any, Optional

import attrs

from tharsis.runtime.api import MAX_PLAYERS, MIN_PLAYERS
from tharsis.runtime.api.game import GameOptions
from tharsis.runtime.bots import BOTS

from ..problems import CONTENT, USAGE, Problem, ProblemError, missing_path, suggest

SEED_MAX = 2**63 - 1           # seeds travel through JSON and other languages' integers; negative seeds would
                               # silently repeat positive ones (random.Random uses the absolute value)
PLAYERS = (MIN_PLAYERS, MAX_PLAYERS)
MAX_GENERATIONS = (1, 999)
NAME_LENGTH = 30               # seat names are shown in fixed-width tables
GAMES = (1, 1_000_000)         # simulate --games: results are kept in memory for the summary
JOBS = (1, 64)                 # simulate --jobs: each is a process with its own copy of the cards
CARD_PATH_ENTRIES = 20_000     # a card folder holding more than this is not a card folder (`/`, a home folder)
CARD_PATHS = 50                # card folders in one game: each is walked before the game starts

FLAGS = {"players": "--seat/--players", "seed": "--seed", "board": "--board", "card_paths": "--cards",
         "max_generations": "--max-generations", "corporations": "--corporation", "expansions": "--expansion"}
BOOLEANS = ("corporate_era", "draft", "initial_draft", "beginner", "solo_tr63")


@attrs.frozen
class Where:
    """Where options come from, for the problems' wording and exit code: flags, or a line of a file."""

    path: Optional[str] = None       # None: command-line flags
    line: Optional[int] = None
    source: Optional[str] = None
    prefix: str = "options."

    @property
    def flags(self) -> bool:
        return self.path is None

    def name(self, key: str) -> str:
        return FLAGS.get(key, "--" + key.replace("_", "-")) if self.flags else self.prefix + key

    def problem(self, code: str, message: str, hint: Optional[str] = None) -> Problem:
        return Problem(code, message, hint, self.path, self.line, None, self.source)

    @property
    def exit_code(self) -> int:
        return USAGE if self.flags else CONTENT


FLAG_WHERE = Where()

KINDS = ("human",) + tuple(BOTS)   # who may sit at a seat: a human at the terminal, or a bot by its name


@attrs.frozen
class Seat:
    """One seat of a game: the player's name and who plays it (one of `KINDS`)."""

    name: str
    kind: str


def kind_of(value: Any) -> str:
    """A JSON value's type as a message says it: "an integer", "a list", "null"."""
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "an object", type(None): "null"}.get(type(value), type(value).__name__)


def describe(value: Any) -> str:
    """A JSON value in a message: its type and, when short, itself."""
    kind = kind_of(value)
    shown = json.dumps(value, ensure_ascii=False) if isinstance(value, (bool, int, float, str)) else ""
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return f"{kind} ({shown})" if shown else kind


def is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_number(name: str, value: Any, low: int, high: int, where: Where = FLAG_WHERE) -> list[Problem]:
    if not is_integer(value):
        return [where.problem("E712", f"{name} must be an integer, not {describe(value)}")]
    if not low <= value <= high:
        return [where.problem("E701", f"{name} must be between {low} and {high}, not {value}")]
    return []


def check_name(name: str, value: Any, where: Where = FLAG_WHERE) -> list[Problem]:
    """A seat's name: printed in tables and logs, so short, printable and not blank."""
    if not isinstance(value, str):
        return [where.problem("E712", f"{name} must be a string, not {describe(value)}")]
    if not value.strip():
        return [where.problem("E702", f"{name}: a seat needs a name", "--seat ann=human")]
    if len(value) > NAME_LENGTH or not value.isprintable() or value != value.strip():
        return [where.problem("E702", f"{name}: {value[:NAME_LENGTH]!r} is not a usable seat name",
                              f"at most {NAME_LENGTH} printable characters, no leading or trailing spaces")]
    return []


def options_from_data(data: Any, where: Where = FLAG_WHERE, check_paths: bool = True) -> GameOptions:
    """The options a dict describes, after checking the type and range of every value (nothing is built yet).
    `check_paths` False leaves the card folders to the caller, who may do without them: a record that holds its
    card files is loaded where its folders are not (tharsis/games/recorded_cards.py); their number is checked alike."""
    if not isinstance(data, dict):
        raise ProblemError([where.problem("E712", f"{where.prefix.rstrip('.')} must be an object, "
                                                  f"not {describe(data)}")], where.exit_code)
    known = {f.name for f in attrs.fields(GameOptions)}
    problems = []
    for key in data:
        if key not in known:
            problems.append(where.problem("E712", f"unknown option {where.prefix}{key}",
                                          suggest(str(key), known, "options")))
    players = data.get("players", GameOptions.players)
    if not isinstance(players, (list, tuple)):
        problems.append(where.problem("E712", f"{where.name('players')} must be a list of names, "
                                              f"not {describe(players)}"))
        players = ()
    else:
        if not PLAYERS[0] <= len(players) <= PLAYERS[1]:
            problems.append(where.problem("E701", f"a game has {PLAYERS[0]} to {PLAYERS[1]} players, "
                                                  f"not {len(players)}"))
        for index, name in enumerate(players[:PLAYERS[1] + 1]):
            problems += check_name(f"{where.name('players')}[{index}]", name, where)
        counts = Counter(p for p in players if isinstance(p, str))
        for name in sorted(n for n, count in counts.items() if count > 1):
            problems.append(where.problem("E702", f"two seats are called {name}", "give every seat its own name"))
    if "seed" in data:
        problems += check_number(where.name("seed"), data["seed"], 0, SEED_MAX, where)
    if not isinstance(data.get("board", ""), str):
        problems.append(where.problem("E712", f"{where.name('board')} must be a string, "
                                              f"not {describe(data['board'])}"))
    for key in BOOLEANS:
        if key in data and not isinstance(data[key], bool):
            problems.append(where.problem("E712", f"{where.name(key)} must be true or false, "
                                                  f"not {describe(data[key])}"))
    if data.get("max_generations") is not None:
        problems += check_number(where.name("max_generations"), data["max_generations"], *MAX_GENERATIONS,
                                 where=where)
    for key in ("card_paths", "corporations", "expansions"):
        value = data.get(key, ())
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            problems.append(where.problem("E712", f"{where.name(key)} must be a list of strings, "
                                                  f"not {describe(value)}"))
    corporations = data.get("corporations", ())
    if isinstance(corporations, (list, tuple)) and corporations and len(corporations) != len(players):
        problems.append(where.problem("E704", f"{where.name('corporations')} has {len(corporations)} entries "
                                              f"for {len(players)} players", "one per seat, \"\" to deal"))
    if not any(p.is_error for p in problems):
        paths = list(data.get("card_paths", ()))
        problems += check_card_paths(paths, where, count_only=not check_paths)
    if any(p.is_error for p in problems):
        raise ProblemError(problems, where.exit_code)
    return GameOptions.from_json(data)


def check_card_paths(paths: list[str], where: Where = FLAG_WHERE, count_only: bool = False) -> list[Problem]:
    """Every card folder exists and is small enough to be one: loading walks it whole, so `/` would take
    hours. The walk stops at CARD_PATH_ENTRIES entries, which bounds the time of this check too. `count_only`:
    only their number."""
    if len(paths) > CARD_PATHS:
        return [where.problem("E705", f"{where.name('card_paths')}: {len(paths)} card folders; a game takes at most "
                                      f"{CARD_PATHS}", "put your cards in fewer folders")]
    if count_only:
        return []
    problems = []
    for text in paths:
        path = Path(text)
        name = where.name("card_paths")
        missing = missing_path(name, text, "the folder of .mars files the game was played with", where)
        if missing is not None:
            problems.append(missing)
        elif not path.is_dir() and not (path.is_file() and path.suffix == ".mars"):
            problems.append(where.problem("E705", f"{name}: {text} is neither a folder nor a .mars file",
                                          "the folder of .mars files the game was played with"))
        elif path.is_dir() and _more_entries_than(path, CARD_PATH_ENTRIES):
            problems.append(where.problem("E705", f"{name}: {text} holds more than {CARD_PATH_ENTRIES} files "
                                                  "and folders; it is not a folder of cards",
                                          "name the folder that holds your .mars files"))
    return problems


def _more_entries_than(folder: Path, limit: int) -> bool:
    seen, stack = 0, [folder]
    while stack:
        try:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    seen += 1
                    if seen > limit:
                        return True
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(Path(entry.path))
        except OSError:
            continue
    return False


def known_expansions(names: list[str], definitions) -> list[str]:
    """The names given to `--expansion` (cards, gallery), each a declared expansion: E703 with a did-you-mean
    otherwise."""
    declared = {d.name for d in definitions if d.kind == "expansion"}
    problems = [FLAG_WHERE.problem("E703", f"--expansion {name}: unknown expansion {name!r}",
                                   suggest(name, declared, "expansions")) for name in names if name not in declared]
    if problems:
        raise ProblemError(problems, USAGE)
    return names


def check_against_content(options: GameOptions, library, where: Where = FLAG_WHERE) -> None:
    """The board and every fixed corporation exist in the loaded content, and no corporation is dealt twice."""
    problems = []
    boards = {d.name.lower(): d.name for d in library.of_kind("board")}
    if options.board.lower() not in boards:
        problems.append(where.problem("E703", f"unknown board {options.board!r}",
                                      suggest(options.board, boards.values(), "boards")))
    expansions = {d.name for d in library.of_kind("expansion")}
    for index, name in enumerate(options.expansions):
        if name not in expansions:
            label = f"--expansion {name}" if where.flags else f"{where.name('expansions')}[{index}]"
            problems.append(where.problem("E703", f"{label}: unknown expansion {name!r}",
                                          suggest(name, expansions, "expansions")))
    kinds = {d.name: d for d in library.definitions}
    corporations = [d.name for d in library.of_kind("corporation")]
    chosen: dict[str, str] = {}
    for index, (seat, name) in enumerate(zip(options.players, options.corporations)):
        if not name:
            continue
        label = f"--corporation {seat}={name}: " if where.flags else f"{where.name('corporations')}[{index}] ({seat}): "
        definition = kinds.get(name)
        if definition is None:
            problems.append(where.problem("E704", f"{label}no corporation is called {name!r}",
                                          suggest(name, corporations, "corporations")))
        elif definition.kind != "corporation":
            kind = {"card": "a project card"}.get(definition.kind, f"a {definition.kind.replace('_', ' ')}")
            problems.append(where.problem("E704", f"{label}{name} is {kind}, not a corporation",
                                          suggest(name, corporations, "corporations")))
        elif definition.variant is None and name in chosen:  # variant corporations (beginner) are shared
            problems.append(where.problem("E704", f"{label}{chosen[name]} already plays {name}: "
                                                  "a corporation is dealt to one player only",
                                          "choose another corporation for one of them"))
        else:
            chosen.setdefault(name, seat)
    if problems:
        raise ProblemError(problems, where.exit_code)


# ---------------------------------------------------------------------------------------------- flags

def seats_from_flags(specs: list[str], kinds: tuple[str, ...]) -> list:
    """`--seat NAME=KIND` specs as seats, or ProblemError listing every bad spec."""

    seats, problems = [], []
    for spec in specs:
        name, _, kind = spec.partition("=")
        name, kind = name.strip(), (kind.strip() or "human")
        found = check_name(f"--seat {spec}", name)
        if kind not in kinds:
            found.append(FLAG_WHERE.problem("E702", f"--seat {spec}: unknown seat kind {kind!r}",
                                            suggest(kind, kinds, "kinds")))
        if name and any(s.name == name for s in seats):
            found.append(FLAG_WHERE.problem("E702", f"two seats are called {name}", "give every seat its own name"))
        problems += found
        if not found:
            seats.append(Seat(name, kind))
    if not problems and not PLAYERS[0] <= len(seats) <= PLAYERS[1]:
        problems.append(FLAG_WHERE.problem("E701", f"a game has {PLAYERS[0]} to {PLAYERS[1]} seats, "
                                                   f"not {len(seats)}"))
    if problems:
        raise ProblemError(problems, USAGE)
    return seats


def corporations_from_flags(specs: list[str], names: list[str]) -> tuple[str, ...]:
    """`--corporation SEAT=NAME` specs as one corporation per seat ("" where the game deals), or ProblemError."""
    fixed: dict[str, str] = {}
    problems = []
    for spec in specs:
        seat, equals, corporation = (part.strip() for part in spec.partition("="))
        if not equals or not seat or not corporation:
            problems.append(FLAG_WHERE.problem("E704", f"--corporation {spec}: write SEAT=CORPORATION",
                                               f"--corporation {names[0]}=Ecoline"))
        elif seat not in names:
            problems.append(FLAG_WHERE.problem("E704", f"--corporation {spec}: there is no seat {seat!r}",
                                               suggest(seat, names, "seats")))
        elif seat in fixed:
            problems.append(FLAG_WHERE.problem("E704", f"--corporation {spec}: {seat} already plays {fixed[seat]}",
                                               "one --corporation per seat"))
        else:
            fixed[seat] = corporation
    if problems:
        raise ProblemError(problems, USAGE)
    return tuple(fixed.get(name, "") for name in names) if fixed else ()


def random_seed(games: int = 1) -> int:
    """A seed for a game whose seed was not given: 63 bits from the operating system, so that no one can scan the
    seeds for the one that deals the cards they hold; `games` seeds in a row from it stay within SEED_MAX."""
    return secrets.randbelow(SEED_MAX - max(games, 1) + 2)


def check_flags(args, simulate: bool = False) -> None:
    """The numbers and folders among the flags of play and simulate, all checked before anything starts."""
    ranges = {"seed": (0, SEED_MAX), "players": PLAYERS, "max_generations": MAX_GENERATIONS}
    if simulate:  # a Ray cluster may lend many more CPUs than this machine has
        ranges.update(games=GAMES, jobs=JOBS if getattr(args, "backend", "local") == "local" else (1, 100_000))
    problems = []
    for name, (low, high) in ranges.items():   # None: not given, and the command has its own default
        if getattr(args, name, None) is not None:
            problems += check_number("--" + name.replace("_", "-"), getattr(args, name), low, high)
    if simulate and not problems and args.seed is not None and args.seed + args.games - 1 > SEED_MAX:
        problems.append(FLAG_WHERE.problem("E701", f"--seed {args.seed} with --games {args.games}: the last "
                                                   f"game's seed would pass {SEED_MAX}", "use a smaller --seed"))
    problems += check_card_paths(args.cards)
    if problems:
        raise ProblemError(problems, USAGE)
