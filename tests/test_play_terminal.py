"""`tharsis play` as a player meets it: a real pseudo-terminal, typed lines, Ctrl-C and Ctrl-D, and what the screen
shows (the bot's moves, the multi-select card offer, a space chosen by its id, an ambiguous answer, leaving and
resuming)."""

import os
import pty
import re
import select
import signal
import sys
import time
from pathlib import Path
from typing import Optional

import pytest

from tharsis.terminal import style

pytestmark = pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a POSIX pseudo-terminal")


class Terminal:
    """`tharsis ARGS` running on a pseudo-terminal: `expect` waits for text on the screen, `type` types a line.
    `raw` is everything the program wrote, colour codes included; `screen` is the same without them (what a
    reader sees), which `expect` searches."""

    def __init__(self, args: list[str], cwd: Path, env: Optional[dict] = None):
        script = Path(sys.executable).with_name("tharsis")
        command = [str(script)] if script.exists() else [sys.executable, "-m", "tharsis"]
        pid, fd = pty.fork()
        if pid == 0:  # the child: the terminal is its stdin, stdout and controlling terminal
            os.chdir(cwd)
            os.execve(command[0], command + args, os.environ if env is None else env)
        self.pid, self.fd = pid, fd
        self.raw, self.screen, self.seen = "", "", 0

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the program has exited and closed the terminal
            data = b""
        self.raw += data.decode("utf-8", "replace").replace("\r\n", "\n")
        self.screen = style.strip(self.raw)
        return bool(data)

    def expect(self, text: str, timeout: float = 60) -> str:
        """Wait until `text` appears after what was already matched; returns the screen up to it."""
        deadline = time.monotonic() + timeout
        while text not in self.screen[self.seen:]:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._read(remaining):
                raise AssertionError(f"{text!r} did not appear; the screen ends with:\n{self.screen[-3000:]}")
        end = self.screen.index(text, self.seen) + len(text)
        shown, self.seen = self.screen[self.seen:end], end
        return shown

    def type(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def press(self, control: bytes) -> None:
        os.write(self.fd, control)

    def exit_code(self, timeout: float = 60) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self._read(0.2):
            pass
        for _ in range(int(timeout * 10)):
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.1)
        os.kill(self.pid, signal.SIGKILL)
        raise AssertionError("tharsis play did not exit")


def test_a_game_in_the_terminal_shows_the_bots_moves_and_takes_cards_spaces_and_names(tmp_path):
    # seed 1 offers ann Mining Guild; which cards are dealt is read from the screen, not assumed
    term = Terminal(["play", "--seat", "ann=human", "--seat", "bob=greedy", "--seed", "1", "--log", "game.jsonl"],
                    tmp_path)
    term.expect("Seed 1 (tharsis play --seed 1 deals this game again).")
    shown = term.expect("ann: Choose your corporation")
    assert "Your 10 starting cards (you choose which to buy next):" in shown
    assert "Mining Guild (#R24) — corporation, starts with 30 MC" in shown and "Start: " in shown
    term.type("mining")
    # the ten starting cards are one decision: each with its cost, tags, requirements and rules text
    shown = term.expect("ann: which cards do you buy?")
    assert "10 cards offered, 3 MC each; you have 30 MC (enough for 10):" in shown
    assert "When played: " in shown
    term.type("buy 7 11")
    term.expect("there is no card 11: the cards are numbered 1-10")
    term.type("buy 7 9")
    term.expect("buying 2 cards for 6 MC: ")
    names = term.expect("\n").strip()
    assert len(names.split(", ")) == 2, names
    term.expect(f"» ann buys {names}, discards 8 cards")
    term.expect("» bob buys ")      # a bot's cards stay secret: how many, never which
    term.expect("ann: action 1 of 2")
    term.type("standard")
    term.expect("'standard' is ambiguous: standard project Sell Patents, standard project Power Plant")
    term.type("aquifer")
    shown = term.expect("ann: Where do you place the ocean?")
    assert "Legal spaces by what they give (answer with the space's id):" in shown
    assert re.search(r"2 plants +28 32 33 34", shown)
    term.type("3")
    term.expect("3 is not a legal space here; legal: 04 06 07 13 28 32")
    term.type("32")
    term.expect("» ann uses standard project Aquifer\n  ann: -18 MC\n  › ann places ocean on 32\n    ann: TR 20→21\n")
    term.expect("    › placement bonus of 32\n      ann: +2 plant\n")
    term.expect("ann: action 2 of 2")
    term.type("end turn")
    shown = term.expect("ann: action 1 of 2")
    assert re.search(r"» bob (plays|uses|converts|funds|claims) ", shown), shown   # the bot's turn, as it happened
    term.type("player bo")
    shown = term.expect("ann: action 1 of 2")
    assert "--- bob (Ecoline), TR " in shown and "tags: " in shown and "in play: Ecoline" in shown
    term.type("quit")
    term.expect("Game saved in its log game.jsonl (written after every choice). "
                "Resume with: tharsis play --load game.jsonl")
    assert term.exit_code() == 0
    choices = (tmp_path / "game.jsonl").read_text().count('"event": "choice"')
    assert choices >= 14

    # resuming goes on in the same log; Ctrl-C leaves too (exit code 130), nothing lost
    term = Terminal(["play", "--load", "game.jsonl"], tmp_path)
    term.expect(f"Resuming the game of seed 1 after {choices} choices.")
    term.expect("ann: action 1 of 2")
    term.press(b"\x03")
    term.expect("(interrupted)")
    term.expect("Resume with: tharsis play --load game.jsonl")
    assert term.exit_code() == 130
    assert (tmp_path / "game.jsonl").read_text().count('"event": "choice"') == choices

    # without a log, leaving (here Ctrl-D, the end of input) writes a save, which resumes the game as well
    term = Terminal(["play", "--load", "game.jsonl", "--no-log"], tmp_path)
    term.expect("ann: action 1 of 2")
    term.expect("> ")  # the line editor is reading: a Ctrl-D typed before it starts is not seen as the end of input
    term.press(b"\x04")
    term.expect("(input ended)")
    term.expect("Game saved to tharsis-save-1.json. Resume with: tharsis play --load tharsis-save-1.json")
    assert term.exit_code() == 0
    term = Terminal(["play", "--load", "tharsis-save-1.json", "--no-log"], tmp_path)
    term.expect(f"Resuming the game of seed 1 after {choices} choices.")
    term.expect("ann: action 1 of 2")
    term.type("quit")
    term.expect("Game saved to tharsis-save-1-2.json.")    # a new name: nothing is overwritten
    assert term.exit_code() == 0


UP, LEFT = b"\x1b[A", b"\x1b[D"


def test_the_prompt_recalls_answers_completes_names_and_undo_takes_back_the_bots_moves_too(tmp_path, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")        # plain text on the screen, to compare
    term = Terminal(["play", "--seat", "ann=human", "--seat", "bob=greedy", "--seed", "1", "--no-log"], tmp_path)
    term.expect("ann: Choose your corporation")
    term.type("mining")
    term.expect("ann: which cards do you buy?")
    term.type("buy 7 9")
    bought = term.expect("ann: action 1 of 2\n> ")
    assert "» bob buys " in bought
    # keys are pressed once the prompt is up (typed ahead, they would reach the terminal before the line editor)
    term.type("hnd")
    term.expect("'hnd' is not one of the options")
    term.expect("ann: action 1 of 2\n> ")
    term.press(UP + LEFT + LEFT + b"a\r")       # the last answer again, a letter put back in it
    shown = term.expect("ann: action 1 of 2\n> ")
    assert "hand (* playable now):" in shown
    # Tab completes commands and names: a player's, a card's (names with spaces: the whole answer is completed)
    term.press(b"player b\t\r")
    shown = term.expect("ann: action 1 of 2\n> ")
    assert "--- bob (" in shown
    term.press(b"card Mining Gu\t\r")
    shown = term.expect("ann: action 1 of 2\n> ")
    assert "Mining Guild (#R24)" in shown
    # undo across the bot's move: back to the card offer, and bob's purchases are taken back too
    term.type("undo")
    term.expect("undone: back before your choice of the cards to buy in generation 1; 10 choices of bob after it are "
                "taken back too")
    term.expect("ann: which cards do you buy? (buy 1 3 5 / buy all / buy none; the rest are discarded)\n> ")
    term.press(UP * 6 + b"\r")       # back through undo, card, player, hand, hnd to buy 7 9
    again = term.expect("ann: action 1 of 2\n> ")
    assert f"» ann buys {bought.split('» ann buys ')[1].splitlines()[0]}" in again   # the same game as before
    assert "» bob buys " in again
    term.type("quit")
    term.expect("Game saved to tharsis-save-1.json.")
    assert term.exit_code() == 0


def test_each_move_names_the_cause_of_every_change_and_production_is_a_step_of_its_own(tmp_path, monkeypatch):
    """Mining Guild's trigger raises ann's steel production when her ocean lands on a steel bonus: the narration
    names the placement, its bonus and the trigger, each with what it gave; the production phase follows the last
    pass on its own, before the next generation's header."""
    monkeypatch.setenv("NO_COLOR", "1")
    term = Terminal(["play", "--seat", "ann=human", "--seat", "bob=greedy", "--seed", "1", "--no-log"], tmp_path)
    term.expect("ann: Choose your corporation")
    term.type("mining")
    term.expect("ann: which cards do you buy?")
    term.type("buy 3 7")
    term.expect("ann: action 1 of 2")
    term.type("aquifer")
    term.expect("ann: Where do you place the ocean?")
    term.type("04")
    shown = term.expect("ann: action 2 of 2")
    assert ("» ann uses standard project Aquifer\n"
            "  ann: -18 MC\n"
            "  › ann places ocean on 04\n"
            "    ann: TR 20→21\n"
            "    oceans 0→1/9\n"
            "    › placement bonus of 04\n"
            "      ann: +2 steel\n"
            "    › ann's Mining Guild\n"
            "      ann: +1 steel production\n") in shown
    term.type("end turn")
    term.expect("ann: action 1 of 2")
    term.type("pass")
    shown = term.expect("ann: which cards do you buy?")
    passes = shown.index("» bob passes\n")
    production = shown.index("» production phase of generation 1\n  ann: +")
    assert passes < production < shown.index("=== Generation 2 ===")
    assert "\n  bob: +" in shown[production:]
    term.type("quit")
    term.expect("Game saved to tharsis-save-1.json.")
    assert term.exit_code() == 0


def test_replay_step_by_step_waits_for_enter_after_each_move(tmp_path):
    from tharsis.cli import main

    assert main(["play", "--seat", "ann=greedy", "--seat", "bob=random", "--seed", "4", "--log",
                 str(tmp_path / "full.jsonl")]) == 0
    term = Terminal(["replay", "full.jsonl", "--step"], tmp_path)
    term.expect("» ann chooses a corporation")
    term.expect("(Enter: the next move, q: the rest without stopping) ")
    time.sleep(0.5)
    term._read(0.5)
    assert "» bob chooses a corporation" not in term.screen[term.seen:]   # it waits
    term.type("")
    term.expect("» bob chooses a corporation")
    term.expect("(Enter: the next move, q: the rest without stopping) ")
    term.type("q")                                                       # the rest at once
    shown = term.expect("verified: the replay gives the logged result")
    assert "» production phase of generation 13" in shown and "Enter: the next move" not in shown
    assert term.exit_code() == 0
