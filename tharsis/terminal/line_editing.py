"""Line editing at the `tharsis play` prompt: the arrow keys, the history of answers and Tab completion.

On a terminal (standard input and output both a terminal) answers are read with `input()` through the standard
library's `readline`: left and right move in the line, up and down recall the answers given before (Ctrl-R
searches them), and Tab completes the commands, card and player names, space ids and the options of the question
being asked (a second Tab lists the candidates). Anywhere else (a pipe, a file, a test) lines are read as they
come and nothing is drawn: `for_streams` returns None and the caller reads its stream itself. Without a `readline`
module (some Windows Pythons) the prompt reads plain lines too.
"""

from __future__ import annotations

import sys
from typing import Callable, Iterable, Optional, TextIO


class LineEditor:
    """`read` one line with editing, history and completion from `candidates` (whole answers: a card name holds
    spaces, so the whole line is completed, not its last word)."""

    def __init__(self, readline):
        self.readline = readline
        self.candidates: Callable[[], Iterable[str]] = lambda: ()
        self.matches: list[str] = []
        readline.set_completer(self._complete)
        readline.set_completer_delims("")
        if "libedit" in (readline.__doc__ or ""):  # macOS's readline is libedit, which binds keys its own way
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")
            readline.parse_and_bind("set completion-ignore-case on")
        readline.set_auto_history(False)  # answered lines only, and not the same one twice in a row

    def read(self, prompt: str, candidates: Callable[[], Iterable[str]]) -> str:
        """One line and its newline, or "" at the end of input (Ctrl-D), as `readline()` of a stream gives them."""
        self.candidates = candidates
        try:
            line = input(prompt)
        except EOFError:
            return ""
        readline = self.readline
        last = readline.get_history_item(readline.get_current_history_length())
        if line.strip() and line != last:
            readline.add_history(line)
        return line + "\n"

    def _complete(self, text: str, state: int) -> Optional[str]:
        if state == 0:
            typed = text.lower()
            self.matches = sorted({c for c in self.candidates() if c.lower().startswith(typed)},
                                  key=lambda c: (c.lower(), c))
        return self.matches[state] if state < len(self.matches) else None


def for_streams(stdin: TextIO, stdout: TextIO) -> Optional[LineEditor]:
    """A line editor when the prompt is the process's own terminal, else None (read the stream as it is)."""
    if stdin is not sys.stdin or stdout is not sys.stdout or not (_is_terminal(stdin) and _is_terminal(stdout)):
        return None
    try:
        import readline
    except ImportError:
        return None
    return LineEditor(readline)


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
