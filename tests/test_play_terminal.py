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

import pytest

pytestmark = pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a POSIX pseudo-terminal")


class Terminal:
    """`tharsis ARGS` running on a pseudo-terminal: `expect` waits for text on the screen, `type` types a line."""

    def __init__(self, args: list[str], cwd: Path):
        script = Path(sys.executable).with_name("tharsis")
        command = [str(script)] if script.exists() else [sys.executable, "-m", "tharsis"]
        pid, fd = pty.fork()
        if pid == 0:  # the child: the terminal is its stdin, stdout and controlling terminal
            os.chdir(cwd)
            os.execv(command[0], command + args)
        self.pid, self.fd = pid, fd
        self.screen, self.seen = "", 0

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the program has exited and closed the terminal
            data = b""
        self.screen += data.decode("utf-8", "replace").replace("\r\n", "\n")
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
    term.expect("» ann uses standard project Aquifer; ann places ocean on 32")
    term.expect("  ann: TR 20→21, -18 MC, +2 plant")
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
