"""`tharsis test`: run YAML rules scenarios (docs/scenarios.md) against the compiled content.

Each scenario file is read once and its scenarios run in order; `-k` picks scenarios by words of their file and
name (with `and`, `or`, `not` and parentheses, as in pytest), and `--junit-xml` writes the JUnit report that CI
systems show as a test tab. Paths and card folders default to [tool.tharsis] (`scenarios`, `cards`).
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Callable, Optional

from tharsis.cli.commands import add_config_flag, configured, configured_paths, missing_paths, require
from tharsis.compiler.source import on_disk, why_unusable
from tharsis.problems import Problem, shorten


def add_parser(sub) -> None:
    test = sub.add_parser("test", help="run rules scenarios (YAML)",
                          description="Run scenario files (or folders of them); see docs/scenarios.md.")
    test.add_argument("paths", nargs="*", metavar="PATH",
                      help="scenario files or folders (default: the 'scenarios' paths of [tool.tharsis])")
    test.add_argument("--cards", action="append", default=[], metavar="DIR",
                      help="also load this folder of card files (repeatable; adds to 'cards' of [tool.tharsis])")
    test.add_argument("-k", dest="keyword", metavar="EXPRESSION",
                      help="run only scenarios whose file and name match: words (case-insensitive substrings) "
                           "joined by and, or, not and parentheses, e.g. -k 'ocean and not bonus'")
    test.add_argument("--junit-xml", metavar="FILE", help="also write the results as JUnit XML (for CI)")
    test.add_argument("-q", "--quiet", action="store_true", help="print failures and the summary only")
    add_config_flag(test)
    test.set_defaults(run=run)


def run(args) -> int:
    from tharsis.designer import scenarios
    from tharsis.runtime.api.game import ContentError, load_library

    config, paths, name = configured_paths(args, "test", "scenarios", ("scenario folders", "mine/scenarios"))
    cards = list(dict.fromkeys(list(config.cards) + args.cards))
    problems = missing_paths(paths, name) + missing_paths(args.cards, "--cards")
    if config.cards:
        problems += missing_paths(config.cards, configured(config, "cards"))
    selected = _every_scenario
    try:
        if args.keyword:
            selected = keyword_matcher(args.keyword)
    except ValueError as exc:
        problems.append(Problem("E732", f"-k: {exc}", "words joined by and, or, not and parentheses: "
                                                      "-k 'ocean and not bonus'"))
    if args.junit_xml is not None:
        problems += _unwritable_report(args.junit_xml)
    require(problems)
    try:
        card_paths = tuple(str(Path(c).resolve()) for c in cards)
        library = load_library(card_paths)
    except ContentError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    passed = failed = deselected = 0
    report: list[tuple[str, list]] = []   # (file, [(outcome, seconds)])
    for path in scenarios.find([Path(p) for p in paths]):
        try:
            specs = scenarios.load(path)  # once per file, however many scenarios it holds
        except scenarios.ScenarioError as exc:
            outcomes = [(scenarios.Outcome(path.name, str(path), error=str(exc)), 0.0)]
        else:
            outcomes = []
            for spec in specs:
                if not selected(f"{path} {spec.get('name', 'unnamed')}"):
                    deselected += 1
                    continue
                started = time.perf_counter()
                outcome = scenarios.run(spec, str(path), library, card_paths)
                outcomes.append((outcome, time.perf_counter() - started))
        report.append((str(path), outcomes))
        for outcome, _ in outcomes:
            if outcome.passed:
                passed += 1
                if not args.quiet or outcome.xfail:
                    print(f"{outcome.status} {outcome.path}: {outcome.name}"
                          + (f" (known bug: {outcome.xfail})" if outcome.xfail else ""))
                continue
            failed += 1
            print(f"{outcome.status} {outcome.path}: {outcome.name}"
                  + (" (marked xfail but passes now: remove the xfail)" if outcome.xfail else ""))
            for line in ([outcome.error] if outcome.error else []) + outcome.failures:
                print("     " + line.replace("\n", "\n     "))
    unwritten: list[Problem] = []
    if args.junit_xml:
        from tharsis.designer.junit import write_junit

        try:
            write_junit(Path(args.junit_xml), report)
        except OSError as exc:  # e.g. the disk filled up while the scenarios ran
            unwritten.append(_junit_problem(args.junit_xml, exc.strerror or type(exc).__name__))
    if deselected:
        print(f"{deselected} scenario{'s' if deselected != 1 else ''} not matching -k {args.keyword}")
    if not passed and not failed and args.keyword:
        print(f"tharsis: no scenario matches -k {args.keyword}", file=sys.stderr)
    print(f"{passed} passed, {failed} failed")
    require(unwritten)
    return 1 if failed or not passed else 0


def _every_scenario(text: str) -> bool:
    return True


def _unwritable_report(name: str) -> list[Problem]:
    """E708 when the JUnit report cannot be written (checked before the scenarios run, not after)."""
    look = on_disk(name)
    why = "give a file name" if not name else "it is a folder" if look.kind == "folder" else None
    if why is None:
        try:
            Path(name).touch()
        except (OSError, ValueError) as exc:  # a name over 255 bytes, a folder that does not exist, no permission
            reason, hint = why_unusable(exc)
            why = reason + (f"; {hint}" if hint else "")
    return [] if why is None else [_junit_problem(name, why)]


def _junit_problem(name: str, why: str) -> Problem:
    return Problem("E708", f"--junit-xml: cannot write the JUnit report to {shorten(name)!r}: {why}",
                   "--junit-xml FILE in a folder you can write, e.g. --junit-xml junit.xml")


_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")


NESTING = 50   # -k parentheses inside one another (the parser recurses on them)


def keyword_matcher(expression: str) -> Callable[[str], bool]:
    """`-k` as in pytest: words match as case-insensitive substrings, combined with and/or/not/parentheses.
    Raises ValueError for an expression that does not parse. Long chains of `or`, `and` and `not` are loops, not
    nested calls, so no expression reaches Python's recursion limit."""
    tokens = _TOKEN.findall(expression)
    if not tokens:
        raise ValueError("give at least one word")
    shown = expression if len(expression) <= 60 else expression[:57] + "..."
    position = 0

    def peek() -> Optional[str]:
        return tokens[position] if position < len(tokens) else None

    def take() -> str:
        nonlocal position
        position += 1
        return tokens[position - 1]

    def parse_or(depth: int) -> Callable[[str], bool]:
        terms = [parse_and(depth)]
        while peek() == "or":
            take()
            terms.append(parse_and(depth))
        return terms[0] if len(terms) == 1 else lambda text: any(term(text) for term in terms)

    def parse_and(depth: int) -> Callable[[str], bool]:
        factors = [parse_not(depth)]
        while peek() == "and":
            take()
            factors.append(parse_not(depth))
        return factors[0] if len(factors) == 1 else lambda text: all(factor(text) for factor in factors)

    def parse_not(depth: int) -> Callable[[str], bool]:
        negations = 0
        while peek() == "not":
            take()
            negations += 1
        inner = parse_word(depth)
        return inner if negations % 2 == 0 else lambda text: not inner(text)

    def parse_word(depth: int) -> Callable[[str], bool]:
        token = peek()
        if token is None:
            raise ValueError(f"'{shown}' ends where a word was expected")
        if token == "(":
            if depth == NESTING:
                raise ValueError(f"'{shown}' nests parentheses more than {NESTING} deep")
            take()
            inner = parse_or(depth + 1)
            if peek() != ")":
                raise ValueError(f"'{shown}' has a '(' that is never closed")
            take()
            return inner
        if token in (")", "and", "or"):
            raise ValueError(f"'{shown}': expected a word before '{token}'")
        word = take().lower()
        return lambda text: word in text.lower()

    matcher = parse_or(0)
    if position != len(tokens):
        raise ValueError(f"'{shown}': unexpected '{tokens[position]}'")
    return matcher
