"""Where `tharsis simulate` writes its records: JSONL (one game a line, nested as the game gives it) or two CSV
tables for pandas, and never over the results of an earlier run.

JSONL is the whole record. CSV is the same facts made flat, because a data frame wants one row per observation:
`FILE` has one row per player per game (the game's fields repeated on each of its players' rows, `options` as JSON
text, `won` true for the winner's row), and `STEM.cards.csv` beside it one row per card a player played (the
seat, the card, the generation it was played in, the VP it scored at the end, and whether that player won), so
`pandas.read_csv("results.cards.csv").groupby("card").won.mean()` is the win rate when played. Rows are written as
each game ends, as JSONL lines are, so an interrupted run keeps every finished game in both tables.

`prepare` is the one check of `--out` before any game starts: an existing results file is never overwritten
(E760) unless `--force`; the default name `results.jsonl` (or `.csv`) is numbered when taken, as a game log's is.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Optional, TextIO

from tharsis.compiler.source import on_disk, why_unusable
from tharsis.problems import shorten, usage_error

JSONL, CSV = "jsonl", "csv"
FORMATS = (JSONL, CSV)

GAME_COLUMNS = ("seed", "board", "options", "winner", "tie_break", "generations", "terraformed", "seconds")
PLAYER_COLUMNS = ("seat", "bot", "corporation", "total", "tr", "milestones", "awards", "greeneries", "cities",
                  "cards", "megacredits", "won")
CARD_COLUMNS = ("seed", "seat", "bot", "corporation", "card", "generation", "vp", "won")


def player_columns(solo: bool) -> tuple[str, ...]:
    return GAME_COLUMNS + (("solo_won",) if solo else ()) + PLAYER_COLUMNS


def player_rows(record: dict) -> list[dict]:
    """The rows of one game in the per-player table."""
    game = {key: record[key] for key in GAME_COLUMNS if key != "options"}
    game["options"] = json.dumps(record["options"], ensure_ascii=False)
    if "solo_won" in record:
        game["solo_won"] = record["solo_won"]
    return [{**game, **{key: player[key] for key in PLAYER_COLUMNS if key != "won"},
             "won": record["winner"] == player["seat"]} for player in record["players"]]


def card_rows(record: dict) -> list[dict]:
    """The rows of one game in the per-card table: every card every player played, in the order of `played`."""
    rows = []
    for player in record["players"]:
        won = record["winner"] == player["seat"]
        for card in player["played"]:
            rows.append({"seed": record["seed"], "seat": player["seat"], "bot": player["bot"],
                         "corporation": player["corporation"], "card": card,
                         "generation": player.get("played_generation", {}).get(card),
                         "vp": player.get("card_vp", {}).get(card, 0), "won": won})
    return rows


def cards_path(out: Path) -> Path:
    """The per-card table beside the per-player one: results.csv -> results.cards.csv."""
    stem = out.name[:-len(".csv")] if out.name.lower().endswith(".csv") else out.name
    return out.with_name(stem + ".cards.csv")


def _writes_a_cards_table(out: Path) -> bool:
    """A device or a pipe (/dev/null, /dev/stdout) gets the per-player rows only: there is no folder to put a
    second table beside it."""
    return on_disk(out).kind != "other"


class _JsonlResults:
    def __init__(self, out: Path):
        self._file = open(out, "w", encoding="utf-8")

    def write(self, record: dict) -> None:
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


class _CsvResults:
    def __init__(self, out: Path, solo: bool):
        self._files: list[TextIO] = []
        self._players = self._table(out, player_columns(solo))
        self._cards = self._table(cards_path(out), CARD_COLUMNS) if _writes_a_cards_table(out) else None

    def _table(self, path: Path, columns: tuple[str, ...]) -> csv.DictWriter:
        handle = open(path, "w", encoding="utf-8", newline="")
        self._files.append(handle)
        table = csv.DictWriter(handle, columns, lineterminator="\n")
        table.writeheader()
        return table

    def write(self, record: dict) -> None:
        self._players.writerows(player_rows(record))
        if self._cards is not None:
            self._cards.writerows(card_rows(record))
        for handle in self._files:
            handle.flush()

    def close(self) -> None:
        for handle in self._files:
            handle.close()


def open_results(out: Path, format: str = JSONL, solo: bool = False):
    """A writer of records to `out` in `format` (each record flushed as it is written); `close()` when done."""
    return _CsvResults(out, solo) if format == CSV else _JsonlResults(out)


def written(out: Path, format: str) -> list[Path]:
    """The files a run writes to `out` in `format`: checked before it starts, and named by its last line."""
    return [out, cards_path(out)] if format == CSV and _writes_a_cards_table(out) else [out]


def prepare(requested: Optional[str], format: str, force: bool) -> Path:
    """The results file of a new run (created empty, with its per-card table for CSV), or ProblemError (exit 2):
    E708 when it cannot be written (a folder, an empty name, a folder that does not exist, a name the system
    refuses), E760 when it already holds results and `force` is off. An empty file is no one's results."""
    if requested is None:
        path = Path(f"results.{format}")
        number = 1
        while not force and any(p.exists() for p in written(path, format)):
            number += 1
            path = Path(f"results-{number}.{format}")
    elif not requested.strip():
        raise usage_error("E708", "cannot write results: --out is empty", "--out FILE, a new file's name")
    else:
        path = Path(requested)
    for target in written(path, format):
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
    for target in written(path, format):
        try:
            target.touch()
        except (OSError, ValueError) as exc:
            reason, hint = why_unusable(exc)
            raise usage_error("E708", f"cannot write results to {shorten(str(target))}: {reason}",
                              hint or "--out FILE in a folder you can write") from None
    return path
