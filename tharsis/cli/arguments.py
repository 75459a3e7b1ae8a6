"""The CLI's argument parser: argparse, whose refusals are coded problems like every other usage error.

argparse finds the mistakes of form (a flag it does not know, a flag without its value, `--interval abc`, a choice
it does not offer, a missing DIR) and would print its usage text and a plain `error:` line. Here each becomes
E709 (docs/errors.md) through tharsis/problems.py, so it prints as the other usage errors do, exits 2, and gets a
did-you-mean where the words are a closed list: the choices of the flag, the commands, the flags of the command.
"""

from __future__ import annotations

import argparse
import re
from typing import NoReturn, Optional

from tharsis.problems import suggest, usage_error

_CHOICE = re.compile(r"^argument (?P<flag>[^:]+): invalid choice: '?(?P<word>.*?)'? \(choose from (?P<choices>.*)\)$")


class ArgumentParser(argparse.ArgumentParser):
    """argparse with `error` raising E709 (the subcommands' parsers are of this class too)."""

    def error(self, message: str) -> NoReturn:
        raise usage_error("E709", message, self._hint(message)) from None

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]
        """As argparse's, but an unknown flag is checked against the flags of the command it was given to."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            command = self._command(parsed)
            flags = [flag for action in command._actions for flag in action.option_strings]
            word = next((extra for extra in extras if extra.startswith("-")), extras[0])
            raise usage_error("E709", f"unrecognized arguments: {' '.join(extras)}",
                              suggest(word.split("=", 1)[0], flags) or f"{command.prog} --help lists its flags")
        return parsed

    def _hint(self, message: str) -> Optional[str]:
        match = _CHOICE.match(message)
        if match:
            choices = [choice.strip().strip("'") for choice in match["choices"].split(",")]
            return suggest(match["word"], choices, "one of")
        return f"{self.prog} --help says what it takes"

    def _command(self, parsed) -> argparse.ArgumentParser:
        """The parser of the subcommand that was given (this one when there is none)."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                return action.choices.get(getattr(parsed, action.dest, None) or "", self)
        return self
