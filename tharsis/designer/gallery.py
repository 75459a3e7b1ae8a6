"""The card gallery: a static, self-contained HTML page with every card and corporation as a card face.

`tharsis gallery DIR [PATHS...] [--lang en|zh]` compiles the bundled content together with a designer's folders
(as `tharsis check --with-bundled` does), and writes DIR/index.html: one file with its styles and a little vanilla
JavaScript inline (search, filters by set, type, tag and origin, driven by and written to the URL fragment, so a
link like `index.html#tag=jovian&q=mine` opens filtered), no network and no CDN. Each face shows the cost, tags,
requirements, the generated rules text (compiler/rules_text.py, in the chosen language), VP and the type colour.
The checker's diagnostics for the designer's files are shown on the card they belong to; a card the compiler
could not build at all (a syntax error) still appears, under its name, with its errors. The layout is the Jinja
template templates/gallery/index.html.j2, its words templates/gallery/labels.yaml.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Optional

import attrs
import jinja2
import yaml

from tharsis.compiler import bundled_cards_path, compile_paths, element_text, rules_text
from tharsis.compiler.definitions import with_expansions
from tharsis.compiler.diagnostics import Diagnostic, source_line_of
from tharsis.compiler.names import NO_NAMES, Names
from tharsis.compiler.pipeline import CompileResult
from tharsis.compiler.printable import shown_characters
from tharsis.compiler.source import on_disk, why_unusable
from tharsis.compiler.writing import UNCHANGED, replace_file
from tharsis.designer import suppressions
from tharsis.designer.code_filter import CodeFilter
from tharsis.problems import USAGE, Problem as UsageProblem, ProblemError

_HEADER = re.compile(r'^[ \t]*(card|corporation)[ \t]+"((?:[^"\\\n]|\\.)*)"', re.M)
# any definition's header: it ends the block of the card before it
_ANY_HEADER = re.compile(r'^[ \t]*(?:(?:card|corporation|standard[ \t]+(?:project|action)|milestone|award|board)'
                         r'[ \t]+"|(?:resource|tag)[ \t]+[A-Za-z])', re.M)
BUNDLED = "bundled"
_NO_RULES = {"name": "", "requirement": "", "play": "", "first_action": "", "actions": [], "passives": [], "vp": "",
             "stages": [], "needs": "", "lines": [], "track": []}
# the declared game elements shown as faces beside the cards: the places off the board and the factions
ELEMENTS = ("site", "faction")


@attrs.frozen
class Problem:
    """One diagnostic as the gallery shows it: where, what, and the offending source line."""

    code: str
    severity: str
    message: str
    hint: Optional[str]
    path: Optional[str]
    line: Optional[int]
    column: Optional[int]
    source_line: Optional[str]


@attrs.frozen
class Face:
    """Everything one card face shows. `definition` is None for a card the compiler could not build."""

    name: str
    kind: str                     # card | corporation | site | faction
    type: str                     # automated | active | event | corporation | a declared kind | site | faction
                                  # | unknown
    origin: str                   # "bundled" or the designer's PATH it came from
    definition: Optional[object]
    rules: dict
    problems: tuple[Problem, ...]

    @property
    def errors(self) -> int:
        return sum(1 for p in self.problems if p.severity == "error")


@attrs.frozen
class Gallery:
    faces: tuple[Face, ...]
    loose_problems: tuple[Problem, ...]   # diagnostics that belong to no card (a board, a file that won't read)
    language: str
    names: Names = NO_NAMES               # the content's names in other languages (compiler/names.py)

    @property
    def errors(self) -> int:
        return sum(f.errors for f in self.faces) + sum(1 for p in self.loose_problems if p.severity == "error")


def build(paths: Iterable[Path], language: str = "en", *, code_filter: Optional[CodeFilter] = None,
          use_cache: bool = True, expansions: Optional[list] = None) -> Gallery:
    """Compile the bundled content with `paths` and lay out every card and corporation, with the diagnostics of
    the files under `paths` attached to the cards they are about: the ones `tharsis check --with-bundled` reports
    (suppression comments honoured, warnings chosen by `code_filter`, as from [tool.tharsis] select/ignore)."""
    paths = list(paths)
    result = compile_paths([bundled_cards_path()] + paths, use_cache=use_cache)
    origins = {str(p.resolve()): str(p) for p in paths}
    ours = [d for d in result.diagnostics if d.span is None or _origin(d.span.path, origins) != BUNDLED]
    ours = suppressions.reported(ours, result.sources, [f for f in result.files if _origin(f, origins) != BUNDLED],
                                 code_filter or CodeFilter())
    blocks = _card_blocks(result, origins)
    attached: dict[tuple[str, str], list[Problem]] = {}
    loose = []
    for diagnostic in sorted(ours, key=lambda d: (d.span.path, d.span.line, d.span.column) if d.span else ("", 0, 0)):
        problem = _problem(diagnostic, result)
        block = _block_of(diagnostic, blocks)
        if block is None:
            loose.append(problem)
        else:
            attached.setdefault(block, []).append(problem)
    faces = []
    built = set()
    definitions = result.library.definitions
    if expansions is not None:  # only the content of a game with these expansions
        from tharsis.games.options import known_expansions
        definitions = with_expansions(definitions, known_expansions(expansions, definitions))
    for definition in definitions:
        if definition.kind in ELEMENTS:
            faces.append(Face(name=definition.name, kind=definition.kind, type=definition.kind,
                              origin=_origin(definition.source.path, origins), definition=definition,
                              rules=element_parts(definition, language, result.library.names), problems=()))
            continue
        if definition.kind not in ("card", "corporation"):
            continue
        key = (str(Path(definition.source.path).resolve()), definition.name)
        built.add(key)
        faces.append(Face(name=definition.name, kind=definition.kind, type=definition.type,
                          origin=_origin(definition.source.path, origins), definition=definition,
                          rules=dict(_NO_RULES, **rules_text.parts(definition, language, result.library.names)),
                          problems=tuple(attached.get(key, ()))))
    for key, problems in attached.items():  # cards that did not compile: their name and their errors
        if key not in built:
            kind = blocks[key][1]
            faces.append(Face(name=key[1], kind=kind, type="corporation" if kind == "corporation" else "unknown",
                              origin=_origin(key[0], origins), definition=None, rules=_NO_RULES,
                              problems=tuple(problems)))
    faces.sort(key=lambda f: (f.origin == BUNDLED, f.kind != "corporation", f.name.casefold()))
    return Gallery(faces=tuple(faces), loose_problems=tuple(loose), language=language, names=result.library.names)


def element_parts(definition, language: str, names: Names) -> dict:
    """What the face of a site or a faction shows: its name, its rules text as lines (compiler/element_text.py, the
    words of `tharsis cards --format rules`), and a site's track step by step."""
    header, lines = element_text.writer(definition.kind)(rules_text.phrases(language, names), definition)
    track = [rules_text.sentences(step, language, names) for step in getattr(definition, "track", ())]
    if track:  # the track is shown as its own list of steps, the marker's start marked
        lines = [line for line in lines if not line.startswith(_track_prefix(language, names))]
    return dict(_NO_RULES, name=rules_text.phrases(language, names).name(definition.name, definition.kind),
                lines=[line for line in lines if line], track=track,
                marker=getattr(definition, "marker", None))


def _track_prefix(language: str, names: Names) -> str:
    return rules_text.phrases(language, names)("site_track", steps="")


def _origin(path: str, origins: dict[str, str]) -> str:
    resolved = str(Path(path).resolve())
    for root, given in origins.items():
        if resolved == root or resolved.startswith(root.rstrip("/") + "/"):
            return given
    return BUNDLED


def _card_blocks(result: CompileResult, origins: dict[str, str]) -> dict[tuple[str, str], tuple[range, str]]:
    """(file, card name) -> (the lines of its block, card or corporation), for the designer's files: a block runs
    from its header to the line before the next definition's header."""
    blocks = {}
    for path, text in result.sources.items():
        if _origin(path, origins) == BUNDLED:
            continue
        starts = [text.count("\n", 0, m.start()) + 1 for m in _ANY_HEADER.finditer(text)]
        for match in _HEADER.finditer(text):
            first = text.count("\n", 0, match.start()) + 1
            following = [s for s in starts if s > first]
            last = following[0] - 1 if following else text.count("\n") + 1
            name = match.group(2).replace('\\"', '"')
            blocks[(str(Path(path).resolve()), name)] = (range(first, last + 1), match.group(1))
    return blocks


def _block_of(diagnostic: Diagnostic, blocks) -> Optional[tuple[str, str]]:
    if diagnostic.span is None:
        return None
    path = str(Path(diagnostic.span.path).resolve())
    for key, (lines, _) in blocks.items():
        if key[0] == path and diagnostic.span.line in lines:
            return key
    return None


def _problem(d: Diagnostic, result: CompileResult) -> Problem:
    source_line = None
    line = source_line_of(d.span, result.sources) if d.span is not None else None
    if line is not None:
        source_line = _shown_line(line.rstrip(), d.span.column)
    return Problem(code=d.code, severity=d.severity, message=d.message, hint=d.hint,
                   path=d.span.path if d.span else None, line=d.span.line if d.span else None,
                   column=d.span.column if d.span else None, source_line=source_line)


def _shown_line(line: str, column: int, most: int = 160) -> str:
    """A source line as a problem on a card shows it: what is not printable escaped (\\x1b, a binary file's
    \\x00), as `tharsis check` shows it, and at most about `most` characters from a little before the column,
    `...` where cut (a line may be megabytes long)."""
    first = max(0, column - 1 - 20)
    pieces = shown_characters(line[first:first + most])   # a piece is at least a character wide
    shown, width = [], 0
    for piece in pieces:
        if width + len(piece) > most:
            break
        shown.append(piece)
        width += len(piece)
    cut = first + len(shown) < len(line)
    return ("..." if first else "") + "".join(shown) + ("..." if cut else "")


# ------------------------------------------------------------------------------------------- HTML

@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("tharsis.designer", "templates/gallery"),
                              autoescape=True, trim_blocks=True, lstrip_blocks=True,
                              undefined=jinja2.StrictUndefined)


@lru_cache(maxsize=None)
def labels(language: str) -> dict:
    source = _environment().loader.get_source(_environment(), "labels.yaml")[0]
    return yaml.safe_load(source)[language]


def render(gallery: Gallery) -> str:
    """The whole page as one HTML string (styles and script inline)."""
    t = rules_text.phrases(gallery.language, gallery.names)
    faces = gallery.faces
    return _environment().get_template("index.html.j2").render(
        gallery=gallery, faces=faces, t=t, ui=labels(gallery.language), lang=gallery.language,
        sets=sorted({f.definition.set for f in faces if f.definition}),
        types=_types(faces),
        tags=sorted({tag for f in faces if f.definition for tag in getattr(f.definition, "tags", ())}),
        origins=sorted({f.origin for f in faces}, key=lambda o: (o == BUNDLED, o)),
        requirement_types={"automated", "active", "event"})


def _types(faces) -> list[str]:
    """The card types of the faces for the type filter: the printed ones, then declared kinds (preludes), the
    corporations, the declared elements (sites, factions) and the cards that did not compile."""
    printed = ("automated", "active", "event")
    last = ("corporation",) + ELEMENTS + ("unknown",)
    present = {f.type for f in faces}
    declared = sorted(present - set(printed) - set(last))
    return [x for x in printed if x in present] + declared + [x for x in last if x in present]


def check_directory(directory: Path) -> None:
    """Refuse a DIR that is a file, or a path the system refuses (a name over 255 bytes...), before compiling
    anything (E730, a usage error)."""
    look = on_disk(directory)
    if look.kind == "unusable":
        raise ProblemError([UsageProblem("E730", f"cannot write the gallery here: {look.reason}",
                                         look.hint or "name a folder you can write to", str(directory))], USAGE)
    if look.kind not in ("missing", "folder"):
        raise ProblemError([UsageProblem("E730", "the gallery goes into a folder, and this is a file",
                                    "name a new or existing folder: tharsis gallery site/", str(directory))], USAGE)


def write(directory: Path, gallery: Gallery) -> Path:
    """Write DIR/index.html (creating DIR); E730 when it cannot be written."""
    check_directory(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        page = directory / "index.html"
        # a file name that is not UTF-8 (shown as an origin) becomes U+FFFD: the page stays valid UTF-8
        replace_file(page, render(gallery), errors="replace")   # an earlier page stays whole until the new one is
    except OSError as exc:
        kept = f"; {UNCHANGED}" if (directory / "index.html").is_file() else ""
        raise ProblemError([UsageProblem("E730", f"cannot write the gallery here: {why_unusable(exc)[0]}{kept}",
                                    "name a folder you can write to", str(directory))], USAGE) from None
    return page
