"""The `tharsis` command line: it only wires commands to the tools. Each command is a module of
tharsis/cli/commands/ (its flags and a `run` that calls the designer tools, the terminal game or the batch runs and
returns the exit code); here are `main`, the parser they join and the last line of defence.

Exit codes: 0 success, 1 the content has errors, 2 usage errors (bad flags, missing paths), 3 an internal error
(a bug: reported in one line with a request to file it, never as a traceback).

May import: everything else of Tharsis; nothing imports it. It holds no behaviour of its own beyond arguments, exit
codes and what is printed around a tool's result, so every tool can be used, and tested, without it.
"""

from __future__ import annotations

import argparse
import sys

from tharsis import __version__
from tharsis.cli.arguments import ArgumentParser
from tharsis.cli.commands import (
    cards,
    check,
    fmt,
    gallery,
    lsp,
    play,
    replay,
    report,
    report_config_error,
    simulate,
    test,
)
from tharsis.designer.config import ConfigError
from tharsis.problems import ProblemError, endless_problem, render, usage_error
from tharsis.runtime.core.flow import EndlessGame


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdin, sys.stdout):
        _keep_undecodable_bytes(stream)
    parser = _parser()
    try:
        try:
            args = parser.parse_args(argv)
        except ProblemError as exc:  # E709; `check --format json|github|sarif` reports it in that format
            output = check.requested_format(sys.argv[1:] if argv is None else argv)
            if output == "text":
                raise
            return check.usage_report(exc, output)
        if not getattr(args, "command", None):
            parser.print_help()
            raise usage_error("E709", "no COMMAND given",
                              "one of the commands above: tharsis check mine/, tharsis play")
        return args.run(args)
    except ProblemError as exc:  # bad flags (E709: refused by argparse), saves, logs: every problem with its code
        if exc.details:
            print(exc.details, file=sys.stderr)
        print(render(exc.problems), file=sys.stderr)
        return exc.exit_code
    except ConfigError as exc:  # a wrong [tool.tharsis] of a designer command (E8xx): reported like card errors
        return report_config_error(exc)
    except EndlessGame as exc:  # content that loops, in play, replay or a game's set-up: E770 names what loops
        print(render([endless_problem(exc)]), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # the last line of defence: users never see a traceback
        print(f"tharsis: internal error: {type(exc).__name__}: {exc}\n"
              "This is a bug in Tharsis; please report it with the command you ran.", file=sys.stderr)
        return 3


def _keep_undecodable_bytes(stream) -> None:
    """Bytes that are not UTF-8 reach Python as surrogates (PEP 383): a file name, or a line typed at the play
    prompt on a terminal in another encoding. Read and printed back they are the bytes they were, as `ls` prints a
    name, not a UnicodeDecodeError or UnicodeEncodeError (exit 3, and with `play --no-log` the game lost). Python
    does so itself under the C locale, but the standard streams of a UTF-8 locale are strict (standard error always
    escapes)."""
    if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
        try:
            stream.reconfigure(errors="surrogateescape")
        except (ValueError, OSError):  # a stream that cannot change now keeps its handler
            pass


class _Version(argparse.Action):
    """--version: the version and the engine build (compiled or plain Python), which is read off the engine's files
    only when asked, not at every start."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="show the version and whether the engine is compiled, and exit"):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from tharsis.runtime import engine_build

        print(f"tharsis {__version__} (engine: {engine_build()})")
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="tharsis", description="Write, check and run Terraforming Mars-style rules.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    # in the order help lists them
    for command in (check, cards, test, fmt, gallery, lsp, play, simulate, replay, report):
        command.add_parser(sub)
    return parser
