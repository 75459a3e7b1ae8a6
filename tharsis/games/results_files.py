"""Where `tharsis simulate` writes its records: JSONL (one game a line, nested as the game gives it) or two CSV
tables for pandas, and never over the results of an earlier run.

JSONL is the whole record. CSV is the same facts made flat, because a data frame wants one row per observation:
`FILE` has one row per player per game (the game's fields repeated on each of its players' rows, `options` as JSON
text, `won` true for the winner's row), and `STEM.cards.csv` beside it one row per card a player played (the
seat, the card, the generation it was played in, the VP it scored at the end, and whether that player won), so
`pandas.read_csv("results.cards.csv").groupby("card").won.mean()` is the win rate when played. A card-effect run
(`--effect`, tharsis/games/paired.py) adds to both tables the game's `holder` and the card `handed` to them (empty in
the game without the cards), and writes `STEM.effects.csv`, a row per tested card with its effect, interval and
verdict (tharsis/games/effects.py `effect_rows`), when the run ends. Rows are written as
each game ends, as JSONL lines are, so an interrupted run keeps every finished game in both tables; results that
replace an earlier run's (--force) are written beside them and renamed over them when the run ends or is
interrupted (compiler/writing.py), so that a failed write never leaves the earlier results half overwritten.

`prepare` is the one check of `--out` before any game starts: an existing results file is never overwritten
(E760) unless `--force`; the default name `results.jsonl` (or `.csv`) is numbered when taken, as a game log's is.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Optional, TextIO

import attrs

from tharsis.compiler.source import on_disk, why_unusable
from tharsis.compiler.writing import Rewrite, replace_file
from tharsis.problems import CONTENT, USAGE, Problem, ProblemError, missing_path, shorten, usage_error

from .options import GAMES, MAX_GENERATIONS, PLAYERS, SEED_MAX, is_integer, kind_of

JSONL, CSV = "jsonl", "csv"
FORMATS = (JSONL, CSV)

GAME_COLUMNS = ("seed", "board", "options", "winner", "tie_break", "generations", "terraformed", "seconds")
PLAYER_COLUMNS = ("seat", "bot", "corporation", "total", "tr", "milestones", "awards", "greeneries", "cities",
                  "cards", "megacredits", "won")
CARD_COLUMNS = ("seed", "seat", "bot", "corporation", "card", "generation", "vp", "won")
EXPERIMENT_COLUMNS = ("holder", "handed")   # a card-effect run's: who held the card, and which (empty: none)


def win_share(record: dict, seat: str) -> float:
    """The part of one game's win that goes to `seat`: 1 to the winner, 1/N to each of N seats in a full tie
    (points and megacredits equal: the record's `tied`), else 0. Win counts add these up, so a tie splits."""
    if record["winner"] is not None:
        return 1 if record["winner"] == seat else 0
    tied = record.get("tied") or ()
    return 1 / len(tied) if seat in tied else 0


def player_columns(solo: bool, experiment: bool = False) -> tuple[str, ...]:
    return (GAME_COLUMNS + (("solo_won",) if solo else ()) + (EXPERIMENT_COLUMNS if experiment else ())
            + PLAYER_COLUMNS)


def card_columns(experiment: bool = False) -> tuple[str, ...]:
    return CARD_COLUMNS[:1] + (EXPERIMENT_COLUMNS if experiment else ()) + CARD_COLUMNS[1:]


def _experiment_cells(record: dict) -> dict:
    """A card-effect run's columns of one game: who held the card and which card ("" in the game without)."""
    effect = record.get("effect")
    if not isinstance(effect, dict):
        return {}
    return {"holder": effect["holder"], "handed": effect["card"] or ""}


def player_rows(record: dict) -> list[dict]:
    """The rows of one game in the per-player table."""
    game = {key: record[key] for key in GAME_COLUMNS if key != "options"}
    game["options"] = json.dumps(record["options"], ensure_ascii=False)
    if "solo_won" in record:
        game["solo_won"] = record["solo_won"]
    game.update(_experiment_cells(record))
    return [{**game, **{key: player[key] for key in PLAYER_COLUMNS if key != "won"},
             "won": record["winner"] == player["seat"]} for player in record["players"]]


def card_rows(record: dict) -> list[dict]:
    """The rows of one game in the per-card table: every card every player played, in the order of `played`."""
    rows = []
    experiment = _experiment_cells(record)
    for player in record["players"]:
        won = record["winner"] == player["seat"]
        for card in player["played"]:
            rows.append({"seed": record["seed"], **experiment, "seat": player["seat"], "bot": player["bot"],
                         "corporation": player["corporation"], "card": card,
                         "generation": player.get("played_generation", {}).get(card),
                         "vp": player.get("card_vp", {}).get(card, 0), "won": won})
    return rows


def cards_path(out: Path) -> Path:
    """The per-card table beside the per-player one: results.csv -> results.cards.csv."""
    return _beside(out, ".cards.csv")


def effects_path(out: Path) -> Path:
    """A card-effect run's table of effects beside the per-player one: results.csv -> results.effects.csv."""
    return _beside(out, ".effects.csv")


def _beside(out: Path, suffix: str) -> Path:
    stem = out.name[:-len(".csv")] if out.name.lower().endswith(".csv") else out.name
    return out.with_name(stem + suffix)


def _writes_a_cards_table(out: Path) -> bool:
    """A device or a pipe (/dev/null, /dev/stdout) gets the per-player rows only: there is no folder to put a
    second table beside it."""
    return on_disk(out).kind != "other"


# A text cell a spreadsheet would run as a formula: a name that begins with one of these ("=HYPERLINK(...)",
# "@SUM(...)", "+cmd|..."; a tab or a carriage return hides one) gets a leading apostrophe, as spreadsheet exports
# do, so that Excel, LibreOffice and Google Sheets show it as text. Numbers (a card's -1 VP) stay numbers;
# pandas.read_csv reads the name with its apostrophe.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cells(row: dict) -> dict:
    return {key: "'" + value if isinstance(value, str) and value.startswith(_FORMULA_STARTS) else value
            for key, value in row.items()}


def _results_file(out: Path, newline: Optional[str] = None):
    """Where a run's rows go. Earlier results (replaced with --force) are replaced whole when the run ends
    (compiler/writing.py), so that a full disk or a kill never leaves them half overwritten. A new file (`prepare`
    made it empty) grows game by game where it is, so that a killed run leaves every finished game (and at worst a
    cut last line, which `report` forgives); so does a device or a pipe (/dev/null, /dev/stdout)."""
    look = on_disk(out)
    if look.kind == "file" and look.size > 0:
        return Rewrite(out, newline=newline)
    return _Direct(open(out, "w", encoding="utf-8", newline=newline))


@attrs.define
class _Direct:
    handle: TextIO

    def commit(self) -> None:
        self.handle.close()

    def discard(self) -> None:
        self.handle.close()


def _finish(files: list, out: Path) -> None:
    """Every table renamed into place, or E708 saying that the earlier files are as they were."""
    try:
        for file in files:
            file.commit()
    except OSError as exc:
        for file in files:
            file.discard()
        reason, hint = why_unusable(exc)
        raise usage_error("E708", f"cannot write results to {shorten(str(out))}: {reason}; the file is as it was "
                                  "before this run", hint) from None


class _JsonlResults:
    def __init__(self, out: Path):
        self._out = out
        self._file = _results_file(out)

    def write(self, record: dict) -> None:
        self._file.handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._file.handle.flush()

    def close(self) -> None:
        _finish([self._file], self._out)


class _CsvResults:
    def __init__(self, out: Path, solo: bool, experiment: bool):
        self._out = out
        self._files: list = []
        self._players = self._table(out, player_columns(solo, experiment))
        self._cards = self._table(cards_path(out), card_columns(experiment)) if _writes_a_cards_table(out) else None

    def _table(self, path: Path, columns: tuple[str, ...]) -> csv.DictWriter:
        file = _results_file(path, newline="")
        self._files.append(file)
        table = csv.DictWriter(file.handle, columns, lineterminator="\n")
        table.writeheader()
        return table

    def write(self, record: dict) -> None:
        if "failed" in record:   # a game stopped as endless has no player to give a row (simulate says it failed)
            return
        self._players.writerows(map(_cells, player_rows(record)))
        if self._cards is not None:
            self._cards.writerows(map(_cells, card_rows(record)))
        for file in self._files:
            file.handle.flush()

    def close(self) -> None:
        _finish(self._files, self._out)


def open_results(out: Path, format: str = JSONL, solo: bool = False, experiment: bool = False):
    """A writer of records to `out` in `format` (each record flushed as it is written); `close()` when done.
    `experiment`: the records of a card-effect run, whose CSV rows say the holder and the card handed."""
    return _CsvResults(out, solo, experiment) if format == CSV else _JsonlResults(out)


def written(out: Path, format: str, experiment: bool = False) -> list[Path]:
    """The files a run writes to `out` in `format`: checked before it starts, and named by its last line."""
    if format != CSV or not _writes_a_cards_table(out):
        return [out]
    return [out, cards_path(out)] + ([effects_path(out)] if experiment else [])


def write_table(path: Path, columns: tuple[str, ...], rows: list[dict]) -> None:
    """A whole CSV table written at once (a card-effect run's effects, known when it ends), replacing the empty file
    `prepare` made; E708 when the disk refuses it."""
    import io

    text = io.StringIO(newline="")
    table = csv.DictWriter(text, columns, lineterminator="\n")
    table.writeheader()
    table.writerows(map(_cells, rows))
    try:
        replace_file(path, text.getvalue(), newline="")
    except OSError as exc:
        reason, hint = why_unusable(exc)
        raise usage_error("E708", f"cannot write results to {shorten(str(path))}: {reason}", hint) from None


def prepare(requested: Optional[str], format: str, force: bool, experiment: bool = False) -> Path:
    """The results file of a new run (created empty, with its per-card table for CSV), or ProblemError (exit 2):
    E708 when it cannot be written (a folder, an empty name, a folder that does not exist, a name the system
    refuses), E760 when it already holds results and `force` is off. An empty file is no one's results."""
    if requested is None:
        path = Path(f"results.{format}")
        number = 1
        while not force and any(p.exists() for p in written(path, format, experiment)):
            number += 1
            path = Path(f"results-{number}.{format}")
    elif not requested.strip():
        raise usage_error("E708", "cannot write results: --out is empty", "--out FILE, a new file's name")
    else:
        path = Path(requested)
    for target in written(path, format, experiment):
        look = on_disk(target)
        if look.kind == "unusable":
            raise usage_error("E708", f"cannot write results to {shorten(str(target))}: {look.reason}", look.hint)
        if look.kind == "folder":
            raise usage_error("E708", f"cannot write results to {shorten(str(target))}: it is a folder",
                              "--out FILE, a file's name (in a folder you can write)")
        if look.kind == "file" and look.size > 0 and not force:
            raise usage_error("E760", f"--out {shorten(str(target))}: the file already holds results, and a new "
                                      "run does not overwrite them", "choose another --out FILE, or add --force "
                                                                     "to replace them")
    for target in written(path, format, experiment):
        try:
            target.touch()
        except (OSError, ValueError) as exc:
            reason, hint = why_unusable(exc)
            raise usage_error("E708", f"cannot write results to {shorten(str(target))}: {reason}",
                              hint or "--out FILE in a folder you can write") from None
    return path


# ------------------------------------------------------------------ reading a JSONL results file back (tharsis report)

LINE_LIMIT = 4 * 1024 * 1024   # bytes in one game's record: a game of five players with every card played is ~20 KB
SHOWN = 10                     # problems listed before "and N more"


def read(text_path: str, warnings: Optional[list] = None) -> list[dict]:
    """The records of a JSONL results file `simulate` wrote, checked for what the balance report reads, or
    ProblemError: E705 for a path that is no file, E763 for a file that is not such results (each wrong line
    said, up to SHOWN), with the line and what is wrong with it. Read line by line, never more than LINE_LIMIT
    bytes of one line, never more games than a run can play. A last line cut short (no line end, not whole JSON:
    what a killed run or a full disk leaves) is left out with a warning added to `warnings` (W702), as a game
    log's is."""
    refused = missing_path("RESULTS", text_path)
    if refused is not None:
        raise ProblemError([refused], USAGE)
    problems: list[Problem] = []
    records: list[dict] = []
    seats: Optional[list] = None

    def wrong(number: int, message: str, line: str = "") -> None:
        problems.append(Problem("E763", message, _READ_HINT, text_path, number or None, None,
                                shorten(line.rstrip("\n"), 100) or None))

    try:
        with open(text_path, "rb") as handle:
            number = 0
            while len(problems) < SHOWN:
                raw = handle.readline(LINE_LIMIT + 1)
                if not raw:
                    break
                number += 1
                if len(raw) > LINE_LIMIT:
                    wrong(number, f"line {number} is longer than {LINE_LIMIT // (1024 * 1024)} MB: no game's record is")
                    break
                line = raw.decode("utf-8", errors="replace")
                if not line.strip():
                    continue
                if len(records) >= GAMES[1]:
                    wrong(number, f"more than {GAMES[1]:,} games: no run of simulate plays that many")
                    break
                try:
                    record = json.loads(line)
                except (ValueError, RecursionError) as exc:   # RecursionError: arrays nested thousands deep
                    if not raw.endswith(b"\n") and records and warnings is not None:   # the last line, cut
                        warnings.append(Problem("W702", f"the last line ({number}) is cut short (the run stopped "
                                                        "while writing it); it is left out, the games before it "
                                                        "are read", None, text_path, number))
                        break
                    why = (exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deep"
                           if isinstance(exc, RecursionError) else "a number too long to read")  # over 4,300 digits
                    wrong(number, f"line {number} is not a JSON record ({why})", line)
                    continue
                if isinstance(record, dict) and isinstance(record.get("failed"), dict):
                    continue   # a game stopped as endless (tharsis/games/records.py failed_record): nothing to chart
                why = _record_problem(record)
                if why is None and seats is None:
                    seats = [p["seat"] for p in record["players"]]
                elif why is None and [p["seat"] for p in record["players"]] != seats:
                    why = f"its seats ({', '.join(p['seat'] for p in record['players'])}) are not those of the " \
                          f"first game ({', '.join(seats)}): a report is of one set of seats"
                if why is not None:
                    wrong(number, f"line {number}: {why}", line)
                else:
                    records.append(record)
    except OSError as exc:
        reason, hint = why_unusable(exc)
        raise ProblemError([Problem("E705", f"cannot read {shorten(text_path)}: {reason}", hint, text_path)],
                           USAGE) from None
    if not records and not problems:
        wrong(0, "the file holds no game")
    if problems:
        raise ProblemError(problems, CONTENT)
    return records


_READ_HINT = "tharsis report reads the JSONL results of tharsis simulate (--format jsonl, the default), unedited"


def _record_problem(record) -> Optional[str]:
    """What is wrong with one line's record for the report, or None."""
    if not isinstance(record, dict):
        return "a record is a JSON object, one game's"
    for key, kind in (("seed", int), ("board", str), ("options", dict), ("generations", int),
                      ("tie_break", bool), ("players", list)):
        if key not in record:
            return f"the record has no {key!r}"
        if not _is(record[key], kind):
            return f"{key!r} is {kind_of(record[key])}, not {kind_of(kind())}"
    for key, (low, high) in (("seed", (0, SEED_MAX)), ("generations", GENERATIONS)):
        if not low <= record[key] <= high:
            return f"{key!r} is {_number(record[key])}, not a number from {low} to {high:,}"
    for key, value in record["options"].items():   # the options the report says and plays the designer's cards with
        if key in _OPTION_FLAGS and not isinstance(value, bool):
            return f"options.{key} is {kind_of(value)}, not a boolean"
        if key in _OPTION_LISTS and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            return f"options.{key} is {kind_of(value)}, not a list of names"
        if key == "max_generations" and not (value is None or is_integer(value)):
            return f"options.max_generations is {kind_of(value)}, not a whole number or null"
        if key == "max_generations" and value is not None and not MAX_GENERATIONS[0] <= value <= MAX_GENERATIONS[1]:
            return f"options.max_generations is {_number(value)}, not a number from {MAX_GENERATIONS[0]} to " \
                   f"{MAX_GENERATIONS[1]}"
    if "winner" not in record or not (record["winner"] is None or isinstance(record["winner"], str)):
        return "the record has no 'winner' (a seat's name, or null)"
    if "solo_won" in record and not isinstance(record["solo_won"], bool):
        return f"'solo_won' is {kind_of(record['solo_won'])}, not a boolean"
    if not PLAYERS[0] <= len(record["players"]) <= PLAYERS[1]:
        return f"a game has {PLAYERS[0]} to {PLAYERS[1]} players, not {len(record['players'])}"
    names = set()
    for index, player in enumerate(record["players"], start=1):
        where = f"player {index}"
        if not isinstance(player, dict):
            return f"{where} is {kind_of(player)}, not an object"
        for key, kind in (("seat", str), ("bot", str), ("corporation", str), ("total", int), ("played", list)):
            if not _is(player.get(key), kind):
                return f"{where}'s {key!r} is {kind_of(player.get(key))}, not {kind_of(kind())}"
        if not all(isinstance(card, str) for card in player["played"]):
            return f"{where}'s 'played' holds something other than card names"
        if not -VP_LIMIT <= player["total"] <= VP_LIMIT:
            return f"{where}'s 'total' is {_number(player['total'])}, not a score from {-VP_LIMIT:,} to {VP_LIMIT:,}"
        for key, (low, high) in (("played_generation", GENERATIONS), ("card_vp", (-VP_LIMIT, VP_LIMIT))):
            value = player.get(key, {})
            if not isinstance(value, dict) or not all(isinstance(k, str) and is_integer(v) for k, v in value.items()):
                return f"{where}'s {key!r} is not an object of card names and whole numbers"
            wrong = next((v for v in value.values() if not low <= v <= high), None)
            if wrong is not None:
                return f"{where}'s {key!r} holds {_number(wrong)}, not a number from {low:,} to {high:,}"
        names.add(player["seat"])
    if len(names) != len(record["players"]):
        return "two players have the same seat name"
    if record["winner"] is not None and record["winner"] not in names:
        return f"the winner {shorten(record['winner'], 30)!r} is none of the seats"
    tied = record.get("tied", [])
    if not (isinstance(tied, list) and all(isinstance(seat, str) and seat in names for seat in tied)):
        return "'tied' is not a list of the seats that share the win"
    return _effect_problem(record, names)


def _effect_problem(record: dict, names: set) -> Optional[str]:
    """What is wrong with a card-effect run's `effect` and `moves` (tharsis/games/paired.py), or None."""
    if "effect" not in record:
        return None
    effect = record["effect"]
    if not isinstance(effect, dict) or set(effect) != {"holder", "card", "without"}:
        return "'effect' is not an object of holder, card and without (a run of simulate --effect)"
    if not isinstance(effect["holder"], str) or effect["holder"] not in names:
        return "'effect.holder' is none of the seats"
    without = effect["without"]
    if not (isinstance(without, list) and without and all(isinstance(name, str) for name in without)):
        return "'effect.without' is not a list of the tested cards"
    if not (effect["card"] is None or effect["card"] in without):
        return "'effect.card' is neither null nor one of the tested cards ('effect.without')"
    if not isinstance(record.get("moves", ""), str):
        return f"'moves' is {kind_of(record['moves'])}, not a string"
    return None


# The numbers the report reads are bounded as a game bounds them (the charts compute in 64-bit floats and
# integers: a generation of 2**64 was an internal error).
GENERATIONS = (1, MAX_GENERATIONS[1])
VP_LIMIT = 100_000          # points of one player or one card; a long game scores a few hundred


def _number(value: int) -> str:
    """A number as a message shows it: a 5,000-digit one by its length."""
    text = str(value)
    return text if len(text) <= 20 else f"a number of {len(text.lstrip('-')):,} digits"


_OPTION_FLAGS = ("corporate_era", "draft", "initial_draft", "beginner", "solo_tr63")
_OPTION_LISTS = ("card_paths", "corporations", "expansions", "sites")


def _is(value, kind: type) -> bool:
    """Whether a JSON value is of `kind`, a boolean not counting as an integer."""
    return is_integer(value) if kind is int else isinstance(value, kind)
