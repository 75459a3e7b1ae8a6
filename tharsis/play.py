"""`tharsis play`: a game in the terminal between humans and bots, with a log, saving, loading and undo.

Humans answer the same pending decisions bots do (runtime/decisions.py): they see a compact view of the state
and a numbered list of the legal options. Every game writes a JSONL log (the options it started with, the seats,
then one line per choice, and the result), which `tharsis replay` reproduces.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional, TextIO

import attrs

from tharsis.compiler import rules_text
from tharsis.runtime.bots import BOTS
from tharsis.runtime.decisions import Decision
from tharsis.runtime.game import Game

from . import view

KINDS = ("human",) + tuple(BOTS)
HELP = """Answer with the number of an option, or type the start of its text.
Commands:  help   view (the whole state)   board   hand   card NAME (its text)   awards (standings)
           undo (take back your last choice this turn)   save FILE   quit"""


@attrs.frozen
class Seat:
    name: str
    kind: str


class GameLog:
    """The JSONL log of one game: a start line, one line per choice, an end line. Rewritten whole on undo."""

    def __init__(self, path: Optional[Path]):
        self.path = path

    def start(self, game: Game, seats: list[Seat]) -> None:
        if self.path is None:
            return
        from tharsis.saves import log_start

        with open(self.path, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(log_start(game, seats)) + "\n")
            for number, label in enumerate(game.log, start=1):
                handle.write(json.dumps({"event": "choice", "n": number, "label": label}) + "\n")

    def choice(self, game: Game, player: str) -> None:
        if self.path is None:
            return
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"event": "choice", "n": len(game.log), "player": player,
                                     "label": game.log[-1]}, ensure_ascii=False) + "\n")

    def end(self, result: dict) -> None:
        if self.path is None:
            return
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"event": "end", "result": result}, ensure_ascii=False) + "\n")


class Session:
    def __init__(self, game: Game, seats: list[Seat], log: GameLog, stdin: Optional[TextIO] = None,
                 stdout: Optional[TextIO] = None):
        self.game = game
        self.seats = seats
        self.log = log
        self.stdin, self.stdout = stdin or sys.stdin, stdout or sys.stdout
        self.bots = {i: BOTS[s.kind](game.options.seed * 10 + i) for i, s in enumerate(seats) if s.kind != "human"}
        self.deciders: list[tuple[int, int]] = []   # (player, generation) of each logged choice, for undo

    def say(self, message: str = "") -> None:
        print(message, file=self.stdout)

    def run(self) -> int:
        self.log.start(self.game, self.seats)
        while not self.game.over:
            game = self.game  # undo replaces the game
            decision = game.pending()
            if self.seats[decision.player].kind == "human":
                answer = self.ask(decision)
                if answer is None:
                    resume = self.log.path or "FILE (after save FILE)"
                    self.say(f"Game left unfinished. Resume with: tharsis play --load {resume}")
                    return 0
                if answer == "undone":
                    continue
                label = answer
            else:
                label = self.bots[decision.player].choose(game, decision).label
            generation = game.state.generation
            game.apply(label)
            self.deciders.append((decision.player, generation))
            self.log.choice(game, self.seats[decision.player].name)
        game = self.game
        self.log.end(game.result)
        self.say()
        self.say(view.globals_line(game))
        self.say(view.board(game))
        self.say()
        self.say(view.final_table(game.result))
        return 0

    # ------------------------------------------------------------------ the human's prompt

    def ask(self, decision: Decision) -> Optional[str]:
        game = self.game
        index = decision.player
        if decision.kind == "action":
            self.say()
            self.say(view.panel(game, index))
        elif decision.kind == "space":
            self.say(view.board(game, highlight=tuple(o.value for o in decision.options)))
        while True:
            self.say()
            self.say(f"{self.seats[index].name}: {decision.prompt}")
            self.say(_numbered(decision))
            self.stdout.write("> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.say("(input ended)")
                return None
            if not _is_terminal(self.stdin):  # scripted input: show it, so transcripts read like a session
                self.stdout.write(line if line.endswith("\n") else line + "\n")
            answer = line.strip()
            command, _, argument = answer.partition(" ")
            command = command.lower()
            if not answer:
                continue
            if command in ("help", "?", "h"):
                self.say(HELP)
            elif command == "quit":
                return None
            elif command == "view":
                self.say(view.panel(game, index))
            elif command == "board":
                self.say(view.board(game))
            elif command == "hand":
                self.say(view.hand(game, index))
            elif command == "awards":
                self.say(view.award_standings(game) or "no awards in this game")
            elif command == "card":
                self.say(self.card_text(argument.strip()))
            elif command == "save":
                self.say(self.save(argument.strip()))
            elif command == "undo":
                message = self.undo(index)
                self.say(message)
                if message.startswith("undone"):
                    return "undone"
            else:
                option = None
                if answer.isdigit():
                    number = int(answer)
                    option = decision.options[number - 1] if 1 <= number <= len(decision.options) else None
                else:
                    option = decision.find(answer)
                if option is None:
                    self.say(f"'{answer}' is not one of the options (1-{len(decision.options)}); type help")
                    continue
                return option.label

    def card_text(self, name: str) -> str:
        matches = [n for n in self.game.library if n.lower().startswith(name.lower())] if name else []
        if not matches:
            return f"no card starts with {name!r}"
        return rules_text.card(self.game.library[matches[0]])

    def save(self, filename: str) -> str:
        if not filename:
            return "save needs a file name: save mygame.json"
        from tharsis.saves import save_data

        data = save_data(self.game, self.seats)
        try:
            Path(filename).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        except OSError as exc:
            return f"could not save to {filename}: {exc.strerror}"
        return f"saved to {filename}; resume with: tharsis play --load {filename}"

    def undo(self, index: int) -> str:
        mine = [i for i, (who, _) in enumerate(self.deciders) if who == index]
        if not mine:
            return "nothing of yours to undo"
        last = mine[-1]
        if any(who != index for who, _ in self.deciders[last:]):
            return "cannot undo: another player has chosen since your last choice"
        if self.deciders[last][1] != self.game.state.generation:  # a new generation means a new turn
            return "cannot undo a choice from an earlier turn"
        labels = self.game.log[:last]
        self.game = Game.replay(self.game.options, labels, self.game.content)
        self.deciders = self.deciders[:last]
        self.log.start(self.game, self.seats)
        return f"undone: back before your choice #{last + 1}"


def _numbered(decision: Decision) -> str:
    """The options, one per line; long lists of spaces go eight to a line (answer with the number or `space 31`)."""
    labels = [o.label for o in decision.options]
    if len(labels) > 12 and all(label.startswith("space ") for label in labels):
        cells = [f"{n:>3}) {label[6:]:<4}" for n, label in enumerate(labels, start=1)]
        return "\n".join("  " + " ".join(cells[i:i + 8]) for i in range(0, len(cells), 8))
    return "\n".join(f"  {n:>3}. {label}" for n, label in enumerate(labels, start=1))


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
