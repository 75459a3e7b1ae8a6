"""Names in other languages: `.names` files beside the card text, checked against the compiled content.

The card text is the one source of truth, and it is written in English; a Chinese-reading player still wants the
names the Chinese rulebook prints for the standard projects, milestones, awards and many cards. A names file says
them, one line a name, in the card text's own words, so that the compiler can check every line against what it
compiled:

    // mine/zh.names: the file's name says its language (zh.names, or anything.zh.names)
    card "Spore Farm" = "孢子农场"
    milestone "Mycologist" = "真菌学家"
    tag "mushroom" = "蘑菇"

The kind comes first because names repeat across kinds (a card and a standard project may share a name, and the
rulebook gives them different Chinese names). A name the files do not give stays as the card text writes it.

Pipeline place: after the cross-file checks. pipeline.py hands every `.names` text here with the compiled library
and the declared vocabulary; `load` reports each problem as a diagnostic (E160-E164, with file:line:col) and
returns the table, which the library carries (`Library.names`) to the rules text, the gallery and the terminal.
"""

from __future__ import annotations

import re
from importlib import resources as package_files
from pathlib import Path
from typing import Iterable, Mapping, Optional

import attrs

from .diagnostics import Diagnostics, Span, did_you_mean
from .printable import MAX_NAME, described, first_unprintable

NAMES_EXTENSION = ".names"
LANGUAGES = ("en", "zh")   # the languages of the rules text (templates/phrases/<language>.yaml)
# the kinds a line may name, as the card text writes them, and the kind of definition each is
KINDS: Mapping[str, str] = {
    "card": "card", "corporation": "corporation", "standard project": "standard_project",
    "standard action": "standard_action", "milestone": "milestone", "award": "award", "board": "board",
    "parameter": "parameter", "card kind": "card_kind", "rule": "rule", "expansion": "expansion",
    "piece": "piece", "site": "site", "tag": "tag", "resource": "resource", "area": "area",
    "faction": "faction", "government": "government", "role": "role", "stage": "stage"}
_WORDS = {kind: words for words, kind in KINDS.items()}
_STRING = r'"((?:[^"\\\n]|\\.)*)"'
_ENTRY = re.compile(r"(?P<kind>[A-Za-z][A-Za-z ]*?)[ \t]+" + _STRING.replace("(", "(?P<name>", 1) +
                    r"[ \t]*=[ \t]*" + _STRING.replace("(", "(?P<translated>", 1) + r"[ \t]*(?://.*)?$")
_KIND_WORDS = re.compile(r"[A-Za-z]+(?:[ \t]+[A-Za-z]+)*")


@attrs.frozen
class Names:
    """Every translated name: (language, kind, name) -> the name in that language. `kind` is a definition kind
    (`card`, `standard_project`, ...) or `tag`, `resource`, `area` (a board's reserved area). Hashable, so a
    phrase table built with it can be cached."""

    entries: tuple[tuple[str, str, str, str], ...] = ()   # (language, kind, name, translated), in file order
    _index: dict = attrs.field(init=False, eq=False, hash=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_index", {(language, kind, name): translated
                                            for language, kind, name, translated in self.entries})

    def get(self, kind: str, name: str, language: str) -> Optional[str]:
        """The name of a `kind` thing in `language`, or None when no names file gives it."""
        return self._index.get((language, kind, name))

    def display_name(self, definition_or_name, language: str, kind: str = "card") -> str:
        """What players of `language` call a definition (or a name of `kind`): its translated name, else its name."""
        if isinstance(definition_or_name, str):
            name = definition_or_name
        else:
            name, kind = definition_or_name.name, definition_or_name.kind
        return self.get(kind, name, language) or name

    def area(self, name: str, language: str) -> str:
        """A board's reserved area: its own translation, else that of the card it is named after (a reserved area is
    usually the place of the one card that may put a city there)."""
        return self.get("area", name, language) or self.get("card", name, language) or name

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(sorted({language for language, *_ in self.entries}))

    def __len__(self) -> int:
        return len(self.entries)


NO_NAMES = Names()


def display_name(definition_or_name, language: str = "en", names: Optional[Names] = None, kind: str = "card") -> str:
    """The name players of `language` know a definition by (a compiled definition, or a name of `kind`): from
    `names` (a library's `names`), else the card text's own. English is the card text's language."""
    return (names or NO_NAMES).display_name(definition_or_name, language, kind)


def is_names_file(path: str) -> bool:
    return path.endswith(NAMES_EXTENSION)


def find_files(paths: Iterable[Path]) -> list[Path]:
    """The names files in `paths` (folders searched as for card files; a file given by name is found by the card
    files' search itself)."""
    found: list[Path] = []
    for path in paths:
        try:
            if path.is_dir():
                found.extend(sorted(p for p in path.rglob("*" + NAMES_EXTENSION) if p.is_file()))
        except OSError:  # the card files' search reports the path
            continue
    return found


def language_of(path: str) -> str:
    """`zh.names` and `fungi.zh.names` are Chinese: the last part of the file's name before `.names`."""
    return Path(path).name[:-len(NAMES_EXTENSION)].rsplit(".", 1)[-1]


def load(texts: Mapping[str, str], library, diagnostics: Diagnostics, *, languages: Iterable[str],
         tags: Iterable[str] = (), resources: Iterable[str] = ()) -> Names:
    """Read every names file of `texts` (path -> text) against the compiled `library` and the vocabulary in force
    (`tags`, card and standard `resources`); report each problem to `diagnostics`; return the table of the good
    lines. `languages`: those the rules text speaks (a names file in English would rename the card text itself)."""
    known = _known(library, tags, resources)
    entries: list[tuple[str, str, str, str]] = []
    first: dict[tuple[str, str, str], Span] = {}
    wanted = sorted(set(languages) - {"en"})
    for path, text in texts.items():
        language = language_of(path)
        if language not in wanted:
            diagnostics.error("E160", f"'{language}' is not a language of the rules text, and a names file is named "
                                      f"for its language", Span.point(path, 1, 1),
                              f"name the file {', '.join(code + NAMES_EXTENSION for code in wanted)} (or "
                              f"anything.{wanted[0]}{NAMES_EXTENSION}); the card text itself is the English")
            continue
        for number, line in enumerate(text.split("\n"), start=1):
            entry = _line(path, number, line.rstrip("\r"), known, diagnostics)
            if entry is None:
                continue
            kind, name, translated, span = entry
            key = (language, kind, name)
            if key in first and not (_bundled(first[key].path) and not _bundled(path)):
                where = first[key]
                diagnostics.error("E163", f"the {_WORDS[kind]} '{name}' is named twice in {language}", span,
                                  f"first named at {where.path}:{where.line}; keep one")
                continue
            first[key] = span  # a designer's name for bundled content replaces the bundled one
            entries.append((language, kind, name, translated))
    return Names(tuple(entries))


def _bundled(path: str) -> bool:
    """Whether a file is one of the bundled content's, whose names a designer's names file may replace."""
    try:
        Path(path).resolve().relative_to(Path(str(package_files.files("tharsis.cards"))).resolve())
    except (ValueError, OSError):
        return False
    return True


def _known(library, tags: Iterable[str], resources: Iterable[str]) -> dict[str, set[str]]:
    """The names each kind of line may give, from the compiled content."""
    known: dict[str, set[str]] = {kind: set() for kind in KINDS.values()}
    for definition in library.definitions:
        known.setdefault(definition.kind, set()).add(definition.name)
        for space in getattr(definition, "spaces", ()):
            if space.reserved:
                known["area"].add(space.reserved)
        known["area"].update(getattr(definition, "offboard", ()) if definition.kind == "expansion" else ())
    known["role"] = {d.role for d in library.definitions if d.kind == "government" and d.role}
    known["stage"] = {stage for d in library.definitions if d.kind == "card_kind" for stage in d.stages}
    known["tag"] = set(tags)
    known["resource"] = set(resources)
    return known


def _line(path: str, number: int, line: str, known: dict[str, set[str]], diagnostics: Diagnostics):
    """One line: (kind, name, translated, span of the name), or None for a blank line, a comment or a problem."""
    stripped = line.strip()
    if not stripped or stripped.startswith("//"):
        return None
    indent = len(line) - len(line.lstrip())
    match = _ENTRY.match(line, indent)
    if match is None:
        words = _KIND_WORDS.match(line, indent)
        if words is not None and " ".join(words.group(0).split()).lower() not in KINDS and '"' in line[words.end():]:
            return _unknown_kind(path, number, words.start(), words.group(0), diagnostics)
        diagnostics.error("E161", "a names file's line is a kind, the name in the card text, `=` and the name in its "
                                  "language", Span.point(path, number, indent + 1, len(line.rstrip()) - indent),
                          'write it as: card "Spore Farm" = "孢子农场" (names in double quotes; // starts a comment)')
        return None
    words = " ".join(match.group("kind").split()).lower()
    if words not in KINDS:
        return _unknown_kind(path, number, match.start("kind"), match.group("kind"), diagnostics)
    kind = KINDS[words]
    name, translated = _unquote(match.group("name")), _unquote(match.group("translated")).strip()
    span = Span(path, number, match.start("name"), number, match.end("name") + 2)  # the quotes included
    if name not in known[kind]:
        _unknown_name(kind, name, span, known, diagnostics)
        return None
    if not translated:
        where = Span(path, number, match.start("translated"), number, match.end("translated") + 2)
        diagnostics.error("E164", f"the {words} '{name}' is given an empty name", where,
                          "write its name, or remove the line: a name no file gives stays as the card text has it")
        return None
    bad = first_unprintable(translated)
    if bad is not None or len(translated) > MAX_NAME:
        where = Span(path, number, match.start("translated"), number, match.end("translated") + 2)
        message = (f"holds the character {described(translated[bad])}, which is not printable" if bad is not None
                   else f"has {len(translated):,} characters (at most {MAX_NAME})")
        diagnostics.error("E165", f"the name given to the {words} '{name}' {message}", where,
                          "names are printed on the players' terminals: printable characters only, and short")
        return None
    return kind, name, translated, span


def _unknown_kind(path: str, number: int, start: int, words: str, diagnostics: Diagnostics) -> None:
    span = Span.point(path, number, start + 1, len(words))
    diagnostics.error("E161", f"'{' '.join(words.split())}' is not a kind of name", span,
                      did_you_mean(" ".join(words.split()), KINDS) or "one of: " + ", ".join(KINDS))


def _unknown_name(kind: str, name: str, span: Span, known: dict[str, set[str]], diagnostics: Diagnostics) -> None:
    """E162, with the kind the name has if it has another (a corporation written as a card), or a did-you-mean."""
    other = next((k for k in KINDS.values() if name in known[k]), None)
    if other is not None:
        hint = f'it is a {_WORDS[other]}: {_WORDS[other]} "{name}" = ...'
    else:
        hint = did_you_mean(name, known[kind]) or (
            "names are checked against the loaded content: a bundled name needs the bundled content "
            "(tharsis check loads it unless --no-with-bundled)")
    diagnostics.error("E162", f"no {_WORDS[kind]} named '{name}' is loaded", span, hint)


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)
