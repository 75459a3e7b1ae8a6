"""The designer and CI commands of the `tharsis` CLI, one module each (`check`, `cards`, `test`, `fmt`).

Each module has `add_parser(subparsers)`, which declares its flags, and `run(args)`, which returns the exit code
(0 ok, 1 content or test errors, 2 usage errors). tharsis/cli.py wires them in next to the game commands.
"""

from __future__ import annotations

import sys
from typing import Iterable

from tharsis.problems import USAGE, Problem, ProblemError, missing_path


def missing_paths(paths: Iterable[str], name: str = "PATH") -> list[Problem]:
    """E705 for each of `paths` (given as `name`: PATH, --cards, --config) that names no file or folder, worded as
    the game commands word a missing --cards folder; `-` is standard input, not a path."""
    found = (missing_path(name, path) for path in paths if path != "-")
    return [problem for problem in found if problem is not None]


def require_paths(paths: Iterable[str], name: str = "PATH", cards: Iterable[str] = ()) -> None:
    """Stop the command when a path (or a --cards folder) is missing: every one of them as an E705, printed by the
    CLI as the game commands' usage errors are, exit 2."""
    problems = missing_paths(paths, name) + missing_paths(cards, "--cards")
    if problems:
        raise ProblemError(problems, USAGE)


def stdin_alone(paths: list[str], stdin_filename) -> bool:
    """Report a misuse of standard input (a usage error): `-` with other PATHs, or --stdin-filename without `-`.
    True when there is none."""
    if "-" in paths and len(paths) > 1:
        print("tharsis: - (standard input) must be the only PATH", file=sys.stderr)
        return False
    if stdin_filename is not None and "-" not in paths:
        print("tharsis: --stdin-filename names standard input: give - as the PATH", file=sys.stderr)
        return False
    return True


def add_config_flag(parser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="read [tool.tharsis] from this pyproject.toml (default: the nearest one that has it, "
                             "from the working directory up)")


def load_config(args):
    """The configuration in force, or 2 (a usage error) after printing what is wrong with it; a --config file that
    does not exist stops the command (E705)."""
    from tharsis.compiler.diagnostics import render_text
    from tharsis.config import ConfigError, discover

    if args.config is not None:
        require_paths([args.config], "--config")
    try:
        return discover(args.config)
    except ConfigError as exc:
        print(render_text(exc.diagnostics, exc.sources), file=sys.stderr)
        print("tharsis: fix the configuration above", file=sys.stderr)
        return 2


def code_list(text: str) -> list[str]:
    """`--select W1,W801` -> ['W1', 'W801'] (the flags may also repeat)."""
    return [part.strip() for part in text.split(",") if part.strip()]


def configured_paths(args, what: str, key: str, example: str):
    """The configuration and the PATHs to work on: those given, else the `key` list of [tool.tharsis]. Returns
    (config, paths), or the exit code 2 after saying what is missing (`what` names the command's object)."""
    config = load_config(args)
    if isinstance(config, int):
        return config
    paths = list(args.paths) or list(getattr(config, key))
    if not paths:
        print(f"tharsis: {what} what? give a PATH, or list your {example[0]} under [tool.tharsis] in "
              f"pyproject.toml: {key} = [\"{example[1]}\"]", file=sys.stderr)
        return 2
    return config, paths
