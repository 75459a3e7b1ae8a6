"""`tharsis gallery DIR [PATH...]`: write the static HTML card gallery (tharsis/designer/gallery.py, docs/gallery.md).

The problems shown are those `tharsis check --with-bundled` reports: suppression comments are honoured and the
project's [tool.tharsis] table gives the default PATHs and which warnings to show (select/ignore).

Exit codes: 0 written, 1 written but the designer's files have errors (shown on their cards), 2 usage errors (a
PATH that does not exist; E730 for a DIR that is empty, a file, or cannot be written).
"""

from __future__ import annotations

from pathlib import Path

from tharsis.cli.commands import add_config_flag, configured, load_config, missing_paths, require
from tharsis.problems import Problem, ProblemError


def add_parser(sub) -> None:
    gallery = sub.add_parser("gallery", help="write a static HTML card gallery",
                             description="Write DIR/index.html: every card and corporation as a card face "
                                         "(and every site and faction of the expansions), "
                                         "searchable and filterable, with the problems of PATH shown on the cards "
                                         "(docs/gallery.md).")
    gallery.add_argument("directory", metavar="DIR", help="where to write index.html (created if missing)")
    gallery.add_argument("paths", nargs="*", metavar="PATH",
                         help="your card files or folders: checked with the bundled content and shown with it "
                              "(default: 'cards' of [tool.tharsis])")
    gallery.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the rules text and page")
    gallery.add_argument("--expansion", action="append", default=None, metavar="NAME",
                         help="only the cards of a game with this expansion (repeatable); default: every card")
    add_config_flag(gallery)
    gallery.set_defaults(run=run)


def run(args) -> int:
    from tharsis.designer import gallery
    from tharsis.designer.code_filter import CodeFilter

    config = load_config(args)
    paths = list(args.paths) or list(config.cards)
    directory = Path(args.directory)
    problems = []
    if not args.directory.strip():  # Path('') is the working directory: not what an empty argument meant
        problems.append(Problem("E730", "DIR is empty: the gallery needs a folder to go into",
                                "name a new or existing folder: tharsis gallery site/"))
    else:
        try:
            gallery.check_directory(directory)
        except ProblemError as exc:
            problems += exc.problems
    require(problems + missing_paths(paths, "PATH" if args.paths else configured(config, "cards")))
    built = gallery.build([Path(p) for p in paths], args.lang, code_filter=CodeFilter(config.select, config.ignore),
                          expansions=args.expansion)
    page = gallery.write(directory, built)
    with_problems = sum(1 for face in built.faces if face.problems)
    errors = f"{built.errors} error{'s' if built.errors != 1 else ''}"
    cards = sum(1 for face in built.faces if face.kind not in gallery.ELEMENTS)
    elements = [f"{n} {kind}{'s' if n != 1 else ''}" for kind in gallery.ELEMENTS
                if (n := sum(1 for face in built.faces if face.kind == kind))]
    print(f"wrote {page}: {cards} cards, {with_problems} with problems ({errors})"
          + (f"; {', '.join(elements)}" if elements else ""))
    return 1 if built.errors else 0
