"""`tharsis cards`: the compiled facts of every definition, as a table, JSON, card text or rules text."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from tharsis.cli.commands import require_paths
from tharsis.problems import usage_error


def add_parser(sub) -> None:
    cards = sub.add_parser("cards", help="list compiled definitions",
                           description="List every definition with its facts. Without PATH: the bundled content.")
    cards.add_argument("paths", nargs="*", metavar="PATH")
    cards.add_argument("--format", choices=("json", "table", "text", "rules"), default="table",
                       help="text: every definition as canonical card text, after its tag and resource "
                            "declarations (it checks clean: tharsis check --no-with-bundled); rules: each "
                            "definition's rules in players' words (cards, standard projects, milestones, awards, "
                            "boards, ...), in the language of --lang, with the names of the `.names` files; both "
                            "generated from what was compiled")
    cards.add_argument("--expansion", action="append", default=None, metavar="NAME",
                       help="only the content of a game with this expansion (repeatable); default: everything")
    cards.add_argument("--lang", choices=("en", "zh"), default=None,
                       help="language of --format rules: English or Chinese (default en)")
    cards.add_argument("--kind", choices=("card", "corporation", "standard_project", "standard_action",
                                          "milestone", "award", "board", "parameter", "card_kind", "rule",
                                          "expansion", "piece", "site", "faction", "government"),
                       help="only this kind")
    cards.set_defaults(run=run)


def _named(written: str) -> str:
    """Card text without its quoted names and comments, lower-case: where a declared name is looked for."""
    return re.sub(r'"[^"\n]*"|//[^\n]*', " ", written).lower()


def _names(written: str, name: str) -> bool:
    """Whether card text (`_named`) names a declared word (a tag, a card resource, a parameter, a kind, a
    piece...), in the singular or a plural (`floater`, `floaters`; `trade fleet`, `trade fleets`)."""
    return re.search(r"(?<![\w-])" + re.escape(name.lower()) + r"(?:s|es)?(?![\w-])", written) is not None


def run(args) -> int:
    from tharsis.compiler import bundled_cards_path, compile_paths
    from tharsis.compiler.definitions import with_expansions
    from tharsis.compiler.diagnostics import render_text
    from tharsis.compiler.facts import facts, render_table
    from tharsis.compiler.pipeline import with_neighbours
    from tharsis.compiler.printable import escaped
    from tharsis.designer.checking import inside
    from tharsis.games.options import known_expansions

    if args.lang is not None and args.format != "rules":
        raise usage_error("E706", f"--lang is the language of --format rules, and the format is {args.format}",
                          "add --format rules, or drop --lang")
    require_paths(args.paths)
    # PATHs are compiled beside the bundled content, as `check` and a game load them (their cards may use the
    # floater, the venus tag or the prelude kind the bundled expansions declare); only PATHs' definitions are shown
    own = [Path(p) for p in args.paths]
    wanted = frozenset(str(p.resolve()) for p in own)
    # a file given alone is compiled with the card files of its folder, whose declarations it may use (as `check
    # FOLDER` and the editor compile it); only its own definitions are shown
    result = compile_paths(with_neighbours(own) or [bundled_cards_path()], with_bundled=bool(own))
    errors = [d for d in result.errors if not own or d.span is None or inside(d.span.path, wanted)]
    if errors:
        print(render_text(errors, result.sources), file=sys.stderr)
        print("tharsis: fix the errors above first (tharsis check)", file=sys.stderr)
        return 1
    definitions = result.library.definitions
    if args.expansion is not None:
        definitions = with_expansions(definitions, known_expansions(args.expansion, definitions))
    chosen = [d for d in definitions if (not args.kind or d.kind == args.kind)
              and (not own or inside(d.source.path, wanted))]
    if args.format == "text":  # every kind, after the declarations they need: the output checks clean
        from tharsis.compiler import text

        named = {name for board in chosen if board.kind == "board" for name in board.milestones + board.awards}
        needed = [d for d in definitions if d.kind in ("milestone", "award") and d.name in named
                  and d not in chosen]  # a board's milestones and awards, so that `--kind board` checks too
        # declared parameters, kinds of card, pieces, factions and their government are declarations, like `tag`:
        # any definition may need them (a card requires a faction to rule)
        needed += [d for d in definitions if d.kind in ("parameter", "card_kind", "piece", "faction", "government")
                   and d not in chosen]
        tags, resources, wild = result.declared_tags, result.declared_resources, result.declared_wild_tags
        marks = result.declared_marks
        if own:   # PATHs' own declarations; the bundled ones only where PATHs need them, those their text names
            mine = compile_paths(with_neighbours(own))
            named = _named(text.content([d for d in needed if inside(d.source.path, wanted)] + chosen)) \
                if mine.errors else ""
            needed = [d for d in needed if inside(d.source.path, wanted) or _names(named, d.name)]
            tags = [t for t in tags if t in mine.declared_tags or _names(named, t)]
            resources = [r for r in resources if r in mine.declared_resources or _names(named, r)]
            wild = [t for t in wild if t in mine.declared_wild_tags or _names(named, t)]
            marks = [m for m in marks if m in mine.declared_marks or _names(named, m)]
        print(escaped(text.content(needed + chosen, tags, resources, wild, marks)))
        return 0
    if args.format == "rules":
        from tharsis.compiler import element_text

        names = result.library.names
        rules = "\n\n".join(element_text.definition(d, args.lang or "en", names) for d in chosen)
        try:
            print(escaped(rules))
        except UnicodeEncodeError:  # e.g. Chinese, or the em dash, on an ASCII-only pipe or terminal
            raise usage_error("E733", f"the output's encoding ({sys.stdout.encoding}) cannot show the rules text",
                              "use a UTF-8 terminal, or set PYTHONIOENCODING=utf-8") from None
        return 0
    rows = [facts(d) for d in chosen]
    if args.format == "json":
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        print(escaped(render_table(rows)))
    return 0
