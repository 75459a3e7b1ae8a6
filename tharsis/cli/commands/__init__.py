"""The commands of the `tharsis` CLI, one module each: the designer and CI commands (`check`, `cards`, `test`,
`fmt`, `gallery`, `lsp`) and the game commands (`play`, `simulate`, `replay`; game_flags.py: the flags of a new
game they share). Here: what the designer commands share (paths, standard input, `--config`).

Each module has `add_parser(subparsers)`, which declares its flags, and `run(args)`, which calls the tools
(tharsis/designer/, tharsis/terminal/, tharsis/games/) and returns the exit code (0 ok, 1 content or test errors,
2 usage errors). tharsis/cli/ wires them into one parser.
"""

from __future__ import annotations

from typing import Iterable, Optional

from tharsis.problems import USAGE, Problem, ProblemError, missing_path

STDIN_HINT = "only tharsis check and tharsis fmt read standard input (PATH -)"


def missing_paths(paths: Iterable[str], name: str = "PATH", stdin: bool = False) -> list[Problem]:
    """E705 for each of `paths` (given as `name`: PATH, --cards, --config) that names no file or folder, worded as
    the game commands word a missing --cards folder; `-` is standard input, not a path, where `stdin` says the
    command reads it (check and fmt), and a missing path elsewhere."""
    found = (missing_path(name, path, STDIN_HINT if path == "-" else None)
             for path in paths if not (stdin and path == "-"))
    return [problem for problem in found if problem is not None]


def require_paths(paths: Iterable[str], name: str = "PATH") -> None:
    """Stop the command when a path is missing: every one of them as an E705, printed by the CLI as the game
    commands' usage errors are, exit 2."""
    require(missing_paths(paths, name))


def stdin_problems(paths: list[str], stdin_filename: Optional[str]) -> list[Problem]:
    """E706 for a misuse of standard input: `-` with other PATHs, or --stdin-filename without `-`; E734 for an
    empty --stdin-filename (messages would name no file)."""
    if stdin_filename is not None and not stdin_filename.strip():
        return [Problem("E734", "--stdin-filename is empty: messages would name no file",
                        "name the file the text is from, e.g. --stdin-filename mine/cards.mars")]
    if "-" in paths and len(paths) > 1:
        return [Problem("E706", "- (standard input) must be the only PATH",
                        "check the files, or pipe one file to standard input, in separate runs")]
    if stdin_filename is not None and "-" not in paths:
        return [Problem("E706", "--stdin-filename names standard input, but no PATH is -",
                        "give - as the PATH, or drop --stdin-filename")]
    return []


def require(problems: list[Problem]) -> None:
    """Stop the command with every usage problem found (exit 2), printed as the game commands print theirs."""
    if problems:
        raise ProblemError(problems, USAGE)


def add_config_flag(parser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="read [tool.tharsis] from this pyproject.toml (default: the nearest one that has it, "
                             "from the working directory up)")


def load_config(args):
    """The configuration in force. A --config file that does not exist stops the command (E705), a wrong
    configuration raises ConfigError (E8xx), which the CLI prints as a usage error (exit 2)."""
    from tharsis.designer.config import discover

    if args.config is not None:
        require_paths([args.config], "--config")
    return discover(args.config)


def report_config_error(error) -> int:
    """Print a wrong [tool.tharsis] (a ConfigError: E8xx with carets, as card errors are shown) on standard error;
    returns the exit code of a usage error."""
    import sys

    from tharsis.compiler.diagnostics import render_text

    print(render_text(error.diagnostics, error.sources), file=sys.stderr)
    print("tharsis: fix the configuration above", file=sys.stderr)
    return USAGE


def code_list(text: str) -> list[str]:
    """`--select W1,W801` -> ['W1', 'W801'] (the flags may also repeat)."""
    return [part.strip() for part in text.split(",") if part.strip()]


def configured_paths(args, what: str, key: str, example: tuple[str, str]):
    """The configuration and the PATHs to work on: those given, else the `key` list of [tool.tharsis]. Returns
    (config, paths, name), `name` saying where the paths came from for E705 (PATH, or 'cards' of pyproject.toml);
    E731 (exit 2) when there are none (`what` names the command's object)."""
    from tharsis.designer.config import display

    config = load_config(args)
    if args.paths:
        return config, list(args.paths), "PATH"
    paths = list(getattr(config, key))
    if not paths:
        where = f"in {display(config.path)}" if config.path else "in pyproject.toml"
        raise ProblemError([Problem("E731", f"{what} what? no PATH given, and no '{key}' {where}",
                                    f"give a PATH, or list your {example[0]} under [tool.tharsis] {where}: "
                                    f"{key} = [\"{example[1]}\"]")], USAGE)
    return config, paths, configured(config, key)


def configured(config, key: str) -> str:
    """How E705 names a path of the `key` list of [tool.tharsis]: 'cards' of pyproject.toml."""
    from tharsis.designer.config import display

    return f"'{key}' of {display(config.path)}" if config.path else f"'{key}'"
