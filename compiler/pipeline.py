"""Runs the phases over a set of files and collects one `CompileResult`.

Per-file work (parse, AST, checks) is cached on disk keyed by the file's bytes, the declared vocabulary and the
compiler version, so a second `tharsis check` of unchanged content skips Lark entirely. Cross-file checks
(duplicate names and numbers, board references) always run, over the compiled definitions.
"""

from __future__ import annotations

import hashlib
import re
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

import attrs

from . import cache, effects as fx, names as names_files, vocabulary as v
from .definitions import Library
from .diagnostics import Diagnostic, Diagnostics, Fix, Span, did_you_mean, single_match
from .effects import (
    Discount,
    GainPieces,
    PlaceInFaction,
    PlaceTile,
    RemoveFromFaction,
    ReplaceNeutral,
    ReplaceTile,
    Trigger,
    walk,
)
from .set_uses import check_parameter_sets
from .source import MAX_FILE_BYTES, decode, on_disk, read_bounded, why_unusable
from .termination import check_termination

if TYPE_CHECKING:
    from .checker import Checker

EXTENSION = ".mars"
_DECLARATION = re.compile(r"^(resource|tag)[ \t]+([^\n/]+?)(?:[ \t]+as[ \t]+any[ \t]+tag\b)?[ \t]*(?=//|$)", re.M)
# Declared parameters and card kinds are found in every file before any is checked (a card may use a parameter
# declared in another file): a `parameter` header and the `scale:` field that follows it, a `card kind` header.
_PARAMETER = re.compile(r'^parameter[ \t]+"([^"\n]*)"|\bscale[ \t]*:[ \t]*([+-]?\d{1,6})(%|°C|C)?[ \t]+to[ \t]+'
                        r'([+-]?\d{1,6})(%|°C|C)?[ \t]+step[ \t]+([+-]?\d{1,6})(%|°C|C)?', re.M)
_CARD_KIND = re.compile(r'^card[ \t]+kind[ \t]+"([^"\n]*)"', re.M)
# a kind with `stages:` among its fields (its braces may hold one level of braces: `unplayable: choose { ... }`)
_STAGED_KIND = re.compile(r'^card[ \t]+kind[ \t]+"([^"\n]*)"[ \t]*\{(?:[^{}]|\{[^{}]*\})*?\bstages[ \t]*:', re.M)
_PIECE = re.compile(r'^piece[ \t]+"([^"\n]*)"', re.M)
_MARK = re.compile(r"^mark[ \t]+([^\n/]+?)[ \t]*(?=//|$)", re.M)   # `mark cathedral`: marks put on tiles
_FACTION = re.compile(r'^faction[ \t]+"([^"\n]*)"', re.M)
_ROLE = re.compile(r'\brole[ \t]*:[ \t]*"([^"\n]*)"')
_GOVERNMENT = re.compile(r'^government[ \t]+"', re.M)
_WILD_TAG = re.compile(r"^tag[ \t]+([^\n/]+?)[ \t]+as[ \t]+any[ \t]+tag\b", re.M)
_LINE_COMMENT = re.compile(r'"[^"\n]*"|//[^\n]*')


@attrs.define
class CompileResult:
    library: Library
    diagnostics: list[Diagnostic]
    sources: dict[str, str]           # path -> text, for rendering carets
    files: list[str]
    declared_tags: tuple[str, ...] = ()        # `tag` declarations beyond the built-in tags
    declared_resources: tuple[str, ...] = ()   # `resource` declarations beyond the built-in card resources
    declared_parameters: tuple[str, ...] = ()  # `parameter` definitions beyond temperature, oxygen and oceans
    declared_card_kinds: tuple[str, ...] = ()  # `card kind` definitions
    declared_staged_kinds: tuple[str, ...] = ()  # those of them with `stages:`
    declared_wild_tags: tuple[str, ...] = ()   # tags declared `as any tag`
    declared_pieces: tuple[str, ...] = ()      # `piece` definitions
    declared_marks: tuple[str, ...] = ()       # `mark` declarations: marks put on tiles
    declared_factions: tuple[str, ...] = ()    # `faction` definitions, and the roles of `government` definitions
    declared_roles: tuple[str, ...] = ()

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if not d.is_error]

    @property
    def ok(self) -> bool:
        return not self.errors


def bundled_cards_path() -> Path:
    return Path(str(resources.files("tharsis.cards")))


def find_files(paths: Iterable[Path], diagnostics: Diagnostics) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        look = on_disk(path)
        if look.kind == "folder":
            inside = sorted(p for p in path.rglob("*" + EXTENSION) if p.is_file())
            if not inside:  # a wrong folder must not pass as "no problems"
                diagnostics.error("E010", f"no card files ({EXTENSION}) in the folder {path}", None,
                                  f"card files end in {EXTENSION}; check the folder's name")
            found.extend(inside)
        elif look.kind == "file":
            found.append(path)
        elif look.kind == "other":  # a device, a pipe, a socket: reading one may never end
            diagnostics.error("E009", f"not a file or folder: {path}", None,
                              "to check text from a pipe, give `-` and pipe it to standard input")
        elif look.kind == "unusable":
            diagnostics.error("E009", f"cannot read {path}: {look.reason}", None, look.hint)
        else:
            diagnostics.error("E009", f"no such file or folder: {path}", None)
    unique: dict[Path, Path] = {}
    for path in found:
        unique.setdefault(path.resolve(), path)
    return list(unique.values())


def with_neighbours(paths: Iterable[Path | str]) -> list[Path]:
    """`paths` and, for each file among them, the other card files of its folder: what a file is compiled with when
    a tool is given the file alone (`tharsis fmt FILE`, `tharsis cards FILE`), so that a resource, tag or kind
    declared in a sibling file counts, as it does for `tharsis check FOLDER` and in the editor
    (tharsis/designer/lsp/project.py). The callers report and show only what `paths` hold."""
    found = [Path(p) for p in paths]
    for path in list(found):
        if on_disk(path).kind == "file" and path.suffix == EXTENSION:
            found += sorted(p for p in path.parent.glob("*" + EXTENSION) if p.is_file() and p not in found)
    return found


def compile_paths(paths: Iterable[Path | str], *, use_cache: bool = True, with_bundled: bool = False) -> CompileResult:
    """Compile the files and folders `paths`. `with_bundled`: together with the bundled content, as a game loads
    them, so names and numbers that clash with it are errors; a bundled file whose exact bytes are among `paths`
    (a copy of the bundled cards, e.g. a checkout's cards/ beside an installed Tharsis) is loaded once."""
    diagnostics = Diagnostics()
    folders = [Path(p) for p in paths]
    raw = _read(find_files(folders, diagnostics) + names_files.find_files(folders), diagnostics)
    shipped: set[str] = set()
    if with_bundled:
        given = {data for _, data in raw}
        bundled = [(path, data) for path, data in _read(find_files([bundled_cards_path()], Diagnostics()) +
                                                        names_files.find_files([bundled_cards_path()]), diagnostics)
                   if data not in given]
        shipped = {path for path, _ in bundled}
        raw = bundled + raw
    return _compile(raw, diagnostics, use_cache, always_cached=shipped)


def _read(files: list[Path], diagnostics: Diagnostics) -> list[tuple[str, bytes]]:
    """The bytes of each file, at most MAX_FILE_BYTES + 1 of them (`decode` refuses more, E004): a 4 GB file costs
    256 KB, and a file replaced by a pipe since it was found is refused, not waited on."""
    raw: list[tuple[str, bytes]] = []
    for path in files:
        try:
            raw.append((str(path), read_bounded(path, MAX_FILE_BYTES)))
        except (OSError, ValueError) as exc:
            reason, hint = why_unusable(exc)
            diagnostics.error("E009", f"cannot read {path}: {reason}", None, hint)
    return raw


def compile_text(text: str, path: str = "<text>", *, with_bundled: bool = False,
                 beside: Iterable[Path | str] = ()) -> CompileResult:
    """Compile one string (tests, docs examples, the scenario runner's inline cards). `beside`: folders or files
    compiled together with it (a scenario's inline cards next to the `--cards` folders of `tharsis test`, whose
    declarations they may use)."""
    diagnostics = Diagnostics()
    raw = [(path, text.encode("utf-8"))]
    folders = [Path(p) for p in beside]
    if folders:
        raw = _read(find_files(folders, diagnostics) + names_files.find_files(folders), diagnostics) + raw
    if with_bundled:
        bundled = find_files([bundled_cards_path()], diagnostics) + names_files.find_files([bundled_cards_path()])
        raw = _read(bundled, diagnostics) + raw
    return _compile(raw, diagnostics, use_cache=with_bundled)


def compile_sources(sources: dict[str, str], *, use_cache: bool = True,
                    volatile: Iterable[str] = ()) -> CompileResult:
    """Compile texts as one set of files without reading the disk (tharsis fmt compiles the text it is about to
    write this way, next to the files it was formatted with, to prove nothing changed). `volatile` names texts that
    change with every keystroke (an editor's unsaved buffers, tharsis lsp): they are compiled afresh and never
    written to the on-disk cache."""
    return _compile([(path, text.encode("utf-8")) for path, text in sources.items()], Diagnostics(), use_cache,
                    volatile=set(volatile))


def _compile(raw: list[tuple[str, bytes]], diagnostics: Diagnostics, use_cache: bool,
             always_cached: set[str] = frozenset(), volatile: set[str] = frozenset()) -> CompileResult:
    """`use_cache` False compiles the files afresh, except `always_cached` (the bundled content loaded beside a
    designer's files: it ships with Tharsis, and its entries are keyed by the compiler's own sources). `volatile`
    texts (an editor's unsaved buffers) are never read from nor written to the cache."""
    texts: dict[str, str] = {}
    for path, data in raw:
        text = decode(path, data, diagnostics)
        if text is not None:
            texts[path] = text
    sources, texts = texts, {path: text for path, text in texts.items() if not names_files.is_names_file(path)}
    tags, card_resources = declarations(texts.values())
    parameters, card_kinds = declared_parameters(texts.values()), declared_card_kinds(texts.values())
    wild_tags = declared_wild_tags(texts.values())
    staged = declared_card_kinds(texts.values(), _STAGED_KIND)
    pieces = declared_pieces(texts.values())
    marks = declared_marks(texts.values())
    factions, roles = declared_factions(texts.values())
    vocabulary_key = (",".join(sorted(tags)) + "|" + ",".join(sorted(card_resources)) + "|" +
                      repr(sorted(parameters.items())) + "|" + ",".join(card_kinds) + "|" + ",".join(wild_tags) +
                      ("|" + ",".join(pieces) if pieces else "") + ("|marks:" + ",".join(marks) if marks else "") +
                      ("|staged:" + ",".join(staged) if staged else "") +
                      ("|factions:" + ",".join(factions) + "|roles:" + ",".join(roles) if factions or roles else ""))
    library = Library()
    identities: list = []  # every definition's kind, name and number, the ones with syntax errors included
    for path, text in texts.items():
        # surrogateescape: a file name that is not UTF-8 (bytes 0x80-0xff, as the system hands them over) is a key too
        keyed = vocabulary_key + "\0" + path + "\0" + text
        key = hashlib.sha256(keyed.encode("utf-8", "surrogateescape")).hexdigest()
        cacheable = (use_cache or path in always_cached) and path not in volatile
        cached = cache.load(key) if cacheable else None
        if cached is None:
            from .checker import Checker  # parsing and checking are needed only on a cache miss
            from .parser import parse

            file_diagnostics = Diagnostics()
            checker = Checker(file_diagnostics, tags, card_resources, parameters, card_kinds, wild_tags, pieces,
                              staged, factions, roles, marks)
            definitions, broken, recovered = [], [], []
            nodes = parse(path, text, file_diagnostics, broken, recovered)
            for node in nodes:
                compiled = checker.definition(node)
                if compiled is not None:
                    definitions.append(compiled)
            _check_recovered(recovered, checker, file_diagnostics)
            cached = (definitions, file_diagnostics.items, broken)
            if cacheable:
                cache.store(key, cached)
        definitions, items, broken = cached
        library.definitions.extend(definitions)
        diagnostics.extend(items)
        identities.extend(sorted(definitions + broken, key=lambda d: (d.source.line, d.source.column)))
    # a government that did not compile was reported; which factions it lists is then unknown
    governments_whole = sum(len(_GOVERNMENT.findall(_strip_comments(text))) for text in texts.values()) == \
        len(library.of_kind("government"))
    _check_library(library, diagnostics, identities, governments_whole)
    # names in other languages, checked against what was compiled (compiler/names.py)
    names_texts = {path: text for path, text in sources.items() if names_files.is_names_file(path)}
    library.names = names_files.load(names_texts, library, diagnostics, languages=names_files.LANGUAGES, tags=tags,
                                     resources=card_resources | set(v.STANDARD_RESOURCES) | set(marks))
    return CompileResult(library, diagnostics.items, sources, list(sources),
                         declared_tags=tuple(sorted(tags - set(v.TAGS))),
                         declared_resources=tuple(sorted(card_resources - set(v.CARD_RESOURCES))),
                         declared_parameters=tuple(sorted(set(parameters) - set(v.GLOBAL_RANGES))),
                         declared_card_kinds=card_kinds, declared_wild_tags=wild_tags, declared_pieces=pieces,
                         declared_staged_kinds=staged, declared_factions=factions, declared_roles=roles,
                         declared_marks=marks)


def _check_recovered(recovered: list, checker: "Checker", diagnostics: Diagnostics) -> None:
    """The problems of the definitions with syntax errors, parsed again without their broken fields
    (compiler/parser.py `_recover`): only those a field shows on its own (an unknown name, a wrong value or unit,
    a zero amount, an effect given twice), since a missing field would make the others (a required field, a
    card's type, what `here` holds, a cost) unfounded. The definitions themselves stay out of the library."""
    for node in recovered:
        start = len(diagnostics.items)
        checker.definition(node)
        header = node.span.line   # what is said of the whole definition (it costs nothing, it lacks a field)
        diagnostics.items[start:] = [d for d in diagnostics.items[start:] if d.code.startswith(_FIELD_CODES)
                                     and d.span is not None and d.span.line != header]


# the codes of problems a field shows on its own: unknown names (E1xx), values and units (E30x), zero amounts, an
# effect given twice
_FIELD_CODES = ("E10", "E11", "E301", "E302", "E303", "E304", "E306", "E307", "E308", "W103", "W108")


def declared_parameters(texts: Iterable[str]) -> dict[str, tuple[int, int, int, str]]:
    """Every global parameter's (minimum, maximum, step, unit): the printed ones and those declared in `texts`
    (`parameter "radiation" { scale: 0% to 30% step 2% }`). A header without a readable scale declares nothing here;
    the checker then reports the scale."""
    parameters = dict(v.GLOBAL_RANGES)
    for text in texts:
        name = None
        for found in _PARAMETER.finditer(_strip_comments(text)):
            if found.group(1) is not None:
                name = found.group(1).strip().lower()
            elif name and name.isidentifier() and name not in v.GLOBAL_RANGES and name != "tr":
                low, high, step = int(found.group(2)), int(found.group(4)), int(found.group(6))
                unit = next((u for u in (found.group(3), found.group(5), found.group(7)) if u), "")
                parameters.setdefault(name, (low, high, step, "C" if unit == "°C" else unit))
                name = None
    return parameters


def declared_wild_tags(texts: Iterable[str]) -> tuple[str, ...]:
    """Tags declared `tag wild as any tag`: each counts as one tag of any kind in requirements and counts (not in
    awards, not for `when you play ... tag` triggers, not for tag discounts)."""
    wild: set[str] = set()
    for text in texts:
        for names in _WILD_TAG.findall(_strip_comments(text)):
            wild.update(name.strip().lower() for name in names.split(",") if name.strip())
    return tuple(sorted(wild))


def declared_card_kinds(texts: Iterable[str], pattern: re.Pattern = _CARD_KIND) -> tuple[str, ...]:
    """The kinds of card declared in `texts` (`card kind "mission" { ... }`, `card kind "sky omen"`), lower-cased
    with one space between words, in a stable order; with `_STAGED_KIND`, only those with stages."""
    kinds: set[str] = set()
    for text in texts:
        kinds.update(" ".join(name.lower().split()) for name in pattern.findall(_strip_comments(text))
                     if name.strip())
    return tuple(sorted(k for k in kinds if all(w.isidentifier() for w in k.split()) and k not in v.CARD_TYPES))


def declared_factions(texts: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The factions declared in `texts` (`faction "Blue Party" { ... }`), as written, and the roles the governments
    declare (`role: "chair"`), lower-case with single spaces: both are names a quantity or a requirement may use."""
    factions: set[str] = set()
    roles: set[str] = set()
    for text in texts:
        stripped = _strip_comments(text)
        factions.update(name for name in _FACTION.findall(stripped) if name.strip())
        roles.update(" ".join(name.lower().split()) for name in _ROLE.findall(stripped) if name.strip())
    return tuple(sorted(factions)), tuple(sorted(r for r in roles if all(w.isidentifier() for w in r.split())))


def declared_marks(texts: Iterable[str]) -> tuple[str, ...]:
    """The marks declared in `texts` (`mark cathedral`, `mark cathedral, shrine`), lower-case, in a stable order: a
    mark is put on a tile (`put cathedral on city`) and counted (`cities with cathedral`)."""
    marks: set[str] = set()
    for text in texts:
        for names in _MARK.findall(_strip_comments(text)):
            marks.update(v.singular(name.strip().lower()) for name in names.split(",") if name.strip())
    return tuple(sorted(m for m in marks if m.isidentifier()))


def declared_pieces(texts: Iterable[str]) -> tuple[str, ...]:
    """The kinds of piece declared in `texts` (`piece "cargo ship" { ... }`), lower-case with single spaces, in a
    stable order (a name of several words is written bare in effects: `send cargo ship`)."""
    pieces: set[str] = set()
    for text in texts:
        pieces.update(v.piece_name(name) for name in _PIECE.findall(_strip_comments(text)))
    return tuple(sorted(p for p in pieces if v.is_piece_name(p)))


def _strip_comments(text: str) -> str:
    if "//" not in text:
        return text
    return _LINE_COMMENT.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "", text)


def declarations(texts: Iterable[str]) -> tuple[set[str], set[str]]:
    """The tags and card resources every file may use: the printed ones and those declared in any of `texts`."""
    tags, card_resources = set(v.TAGS) - {"event"}, set(v.CARD_RESOURCES)
    for text in texts:
        for kind, names in _DECLARATION.findall(text):
            target = tags if kind == "tag" else card_resources
            builtin = v.TAGS if kind == "tag" else v.CARD_RESOURCES
            # kept as written (`tag mars` is not the tag `mar`), unless it is another form of a printed name
            target.update(v.lookup(name.strip(), builtin) or name.strip().lower()
                          for name in names.split(",") if name.strip())
    return tags, card_resources


def _check_library(library: Library, diagnostics: Diagnostics, identities: list,
                   governments_whole: bool = True) -> None:
    """Cross-file checks. `identities`: the definitions and the headers of those with syntax errors, in file
    order, for the duplicate name and number checks; `governments_whole`: every government written compiled (else
    the factions and pieces they list are not all known, and are not checked against them)."""
    names: dict[tuple[str, str], Span] = {}
    numbers: dict[str, tuple[str, Span]] = {}
    staged = {kind.name for kind in library.of_kind("card_kind") if kind.stages}
    for definition in identities:
        group = "project" if definition.kind in ("card", "corporation") else definition.kind
        if definition.kind == "card" and getattr(definition, "type", None) in staged:
            # the cards of a kind with stages never reach a hand or a play area: their names are their kind's own,
            # and may be those of project cards (the rules name them apart: by the kind, `resolve KIND`)
            group = f"card kind {definition.type}"
        key = (group, definition.name.casefold())
        if key in names:
            first = names[key]
            diagnostics.error("E401", f"'{definition.name}' is defined twice", definition.source,
                              f"first defined at {first.path}:{first.line}" + _bundled_note(first.path))
        else:
            names[key] = definition.source
        number = getattr(definition, "number", None)
        if number:
            normal = number.lstrip("0") or "0"
            if normal in numbers:
                other, span = numbers[normal]
                diagnostics.error("E402", f"card number #{number} is already used by '{other}'", definition.source,
                                  f"at {span.path}:{span.line}" + _bundled_note(span.path))
            else:
                numbers[normal] = (definition.name, definition.source)
    milestones = {d.name for d in library.of_kind("milestone")}
    awards = {d.name for d in library.of_kind("award")}
    for board in library.of_kind("board") + library.of_kind("expansion"):
        for wanted, known, what in ((board.milestones, milestones, "milestone"), (board.awards, awards, "award")):
            spans = dict(board.reference_spans)
            for name in wanted:
                if name not in known:
                    diagnostics.error("E109", f"{board.kind} '{board.name}' uses {what} '{name}', which is not defined",
                                      spans.get(name, board.source), did_you_mean(name, known),
                                      _renaming(spans.get(name), name, known))
    _check_standard_names(library, diagnostics)
    _check_stages_and_sets(library, diagnostics)
    _check_governments(library, diagnostics, governments_whole)
    _check_sites(library, diagnostics)
    check_termination(library, diagnostics)
    check_parameter_sets(library, diagnostics)
    _check_markers(library, diagnostics)
    reserved = {s.reserved for b in library.of_kind("board") for s in b.spaces if s.reserved}
    reserved |= {name for e in library.of_kind("expansion") for name in e.offboard}
    if library.of_kind("board"):
        for definition in library.definitions:
            for filters, outcome in _reserved_uses(definition):
                for f in filters:
                    if f.kind == "reserved" and f.reserved not in reserved:
                        diagnostics.warning("W102", f"no loaded board reserves a space named '{f.reserved}'; "
                                                    f"{outcome}",
                                            f.reserved_span or definition.source,
                                            did_you_mean(f.reserved, reserved),
                                            _renaming(f.reserved_span, f.reserved, reserved))


def _renaming(span: Span | None, name: str, known) -> tuple[Fix, ...]:
    """The fix that writes the single close match of a quoted `name` over `span` (the quoted name, quotes
    included), or no fix."""
    match = single_match(name, known)
    return (Fix(span, f'"{match}"'),) if span is not None and match is not None and match != name else ()


def _bundled_note(path: str) -> str:
    """Said when the other definition of a clash is bundled content, which every game loads."""
    try:
        Path(path).resolve().relative_to(bundled_cards_path().resolve())
    except (ValueError, OSError):
        return ""
    return " (bundled content, loaded by every game: rename or renumber yours)"


def _check_markers(library: Library, diagnostics: Diagnostics) -> None:
    """W104: a marker moved (`move marker "NAME"`) or placed next to (`next to marker "NAME"`) that no definition
    places can never be on the board, so what asks for it never happens."""
    placed: set[str] = set()
    wanted: list[tuple[str, object]] = []
    for definition in library.definitions:
        stack = [getattr(definition, f.name) for f in attrs.fields(type(definition)) if f.name != "source"]
        while stack:
            item = stack.pop()
            if item is None or isinstance(item, (str, int)):
                continue
            if isinstance(item, (tuple, list)):
                stack.extend(item)
            elif isinstance(item, fx.PlaceMarker):
                placed.add(item.name)
                stack.extend(item.filters)
            elif isinstance(item, fx.MoveMarker):
                wanted.append((item.name, definition))
                stack.extend(f for f in item.filters if f.marker != item.name)
            elif isinstance(item, fx.SpaceFilter):
                if item.marker is not None:
                    wanted.append((item.marker, definition))
            elif attrs.has(type(item)):
                stack.extend(getattr(item, f.name) for f in attrs.fields(type(item)))
    reported = set()
    for name, definition in wanted:
        if name not in placed and (name, definition.name) not in reported:
            reported.add((name, definition.name))
            diagnostics.warning("W104", f"no definition places a marker named '{name}', so it is never on the board "
                                        f"and what asks for it never happens", definition.source,
                                did_you_mean(name, placed) or f'place it with: place marker "{name}"')


def _check_standard_names(library: Library, diagnostics: Diagnostics) -> None:
    """Names of standard projects and actions used by discounts and `except` filters must exist (when any are
    loaded: a designer's folder checked alone has none to compare with)."""
    known = {"standard_project": {d.name for d in library.of_kind("standard_project")},
             "standard_action": {d.name for d in library.of_kind("standard_action")},
             # `discount N on action of "NAME"`: a card, corporation or faction with an action
             "action": {d.name for d in library.definitions
                        if d.kind in ("card", "corporation", "faction") and getattr(d, "actions", None)}}
    actions = {d.name: d.actions for d in library.definitions if d.kind in ("card", "corporation", "faction") and
               getattr(d, "actions", None)}
    if not known["standard_project"] and not known["standard_action"]:
        return
    for definition in library.definitions:
        used = [("standard_project", e.name, None) for e in _used_projects(definition)]
        for passive in (*getattr(definition, "passives", ()), None):
            wanted = used if passive is None else []
            if isinstance(passive, Discount) and passive.target.name:
                wanted.append((passive.target.kind, passive.target.name, passive.target.name_span))
            if isinstance(passive, fx.Substitute) and passive.projects:   # `for standard project "Aquifer"`
                spans = passive.project_spans or (None,) * len(passive.projects)
                wanted += [("standard_project", name, span) for name, span in zip(passive.projects, spans)]
            if isinstance(passive, Trigger):
                event = passive.event
                spans = event.excluded_spans or (None,) * len(event.excluded)
                wanted += [("standard_project", name, span) for name, span in zip(event.excluded, spans)]
            for kind, name, span in wanted:
                if name not in known[kind]:
                    message = f"'{definition.name}' names {kind.replace('_', ' ')} '{name}', which is not defined" \
                        if kind != "action" else f"'{definition.name}' names the action of '{name}', but no card, " \
                        "corporation or faction of that name has an action"
                    diagnostics.error("E109", message,
                                      span or definition.source, did_you_mean(name, known[kind]),
                                      _renaming(span, name, known[kind]))
                elif kind == "action" and not any(_pays(option) for option in actions[name]):
                    diagnostics.warning("W104", f"the action of '{name}' pays no fixed amount of megacredits ('pay N "
                                        "megacredits'), so a discount on it never lowers anything",
                                        span or definition.source, "discount an action that says 'pay N megacredits'")


def _pays(option) -> bool:
    """Whether an action's option pays a fixed number of megacredits (`pay 10 megacredits -> ...`): what `discount N
    on action of "NAME"` lowers (runtime/rules/prices.py `action_effects`)."""
    return any(isinstance(e, fx.Pay) and not e.amount.variable and e.amount.per is None
               for e in option.cost + option.effects)


def _used_projects(definition) -> list:
    """The `use standard project "NAME"` effects anywhere in a definition (its play, actions, triggers' effects)."""
    found, stack = [], [getattr(definition, f.name) for f in attrs.fields(type(definition)) if f.name != "source"]
    while stack:
        item = stack.pop()
        if item is None or isinstance(item, (str, int, float, bool)):
            continue
        if isinstance(item, (tuple, list)):
            stack.extend(item)
        elif isinstance(item, fx.UseProject):
            if item.name is not None:
                found.append(item)
            stack.extend(item.otherwise or ())
        elif attrs.has(type(item)):
            stack.extend(getattr(item, f.name) for f in attrs.fields(type(item)))
    return found


def _check_governments(library: Library, diagnostics: Diagnostics, governments_whole: bool) -> None:
    """A government's factions are declared ones, of its own set or one always in play; one set has one government;
    a faction belongs to one government at most, and to one at least (E307: else no piece could go into it), as do
    the pieces that effects put into factions."""
    factions = {f.name: f for f in library.of_kind("faction")}
    projects = {d.name for d in library.definitions if d.kind in ("card", "corporation")}
    for faction in factions.values():  # a policy action is taken by the faction's name, as a card's by the card's
        if faction.name in projects:
            diagnostics.error("E401", f"the faction '{faction.name}' has the name of a card or corporation",
                              faction.source, "rename the faction")
    by_set: dict[str, str] = {}
    listed: dict[str, str] = {}
    for government in library.of_kind("government"):
        spans = dict(government.reference_spans)
        if government.set in by_set:
            diagnostics.error("E401", f"the set '{government.set}' has two governments: '{by_set[government.set]}' "
                                      f"and '{government.name}'", government.source, "one government to a set")
        by_set.setdefault(government.set, government.name)
        for name in government.factions:
            if name not in factions:
                diagnostics.error("E109", f"government '{government.name}' lists the faction '{name}', which is not "
                                          "defined", spans.get(name, government.source),
                                  did_you_mean(name, factions), _renaming(spans.get(name), name, factions))
            elif name in listed:
                diagnostics.error("E401", f"the faction '{name}' belongs to two governments: '{listed[name]}' and "
                                          f"'{government.name}'", spans.get(name, government.source))
            listed.setdefault(name, government.name)
    if not governments_whole:
        return
    for faction in factions.values():
        if faction.name not in listed:
            diagnostics.error("E307", f"the faction '{faction.name}' belongs to no government, so no piece can ever "
                                      "be placed in it", faction.source,
                              f'list it in a government: government "NAME" {{ factions: "{faction.name}", ...  '
                              "pieces: PIECE }")
    pieces = {government.piece for government in library.of_kind("government")}
    for definition in library.definitions:
        for effect in _effects_in(definition):
            if isinstance(effect, (PlaceInFaction, RemoveFromFaction, ReplaceNeutral)) and effect.piece not in pieces:
                hint = (f"a government says which piece goes into its factions: pieces: {effect.piece}"
                        if library.of_kind("government") else
                        f'declare a government: government "NAME" {{ factions: ...  pieces: {effect.piece} }}')
                diagnostics.error("E307", f"'{definition.name}' puts {v.plural_noun(effect.piece)} in factions, but no "
                                          f"government's factions take them", definition.source, hint)


def _check_stages_and_sets(library: Library, diagnostics: Diagnostics) -> None:
    """A card's `on STAGE:` fields name stages of its kind; `needs:` and a rule's `after:` name sets that some
    definition belongs to (or an expansion declares)."""
    kinds = {k.name: k for k in library.of_kind("card_kind")}
    sets = {"base", "corpera"} | {d.name for d in library.of_kind("expansion")}
    sets |= {d.set for d in library.definitions if isinstance(getattr(d, "set", None), str)}
    for definition in library.definitions:
        kind = kinds.get(getattr(definition, "type", None)) if definition.kind == "card" else None
        for (stage, _), span in zip(getattr(definition, "on_stage", ()), getattr(definition, "on_stage_spans", ())):
            known = ("reveal",) + (kind.stages if kind is not None else ())
            if kind is not None and stage not in known:
                diagnostics.error("E110", f"the kind '{kind.name}' has no stage '{stage}'", span,
                                  did_you_mean(stage, known) or "stages: " + ", ".join(known))
        for key in ("needs", "after"):
            for name, span in zip(getattr(definition, key, ()), getattr(definition, key + "_spans", ())):
                if name not in sets:
                    diagnostics.error("E110", f"'{definition.name}' names the set '{name}', which nothing belongs to",
                                      span, did_you_mean(name, sets) or "sets: " + ", ".join(sorted(sets)))


def _check_sites(library: Library, diagnostics: Diagnostics) -> None:
    """An expansion's table may not deal more sites than its set has (E313); pieces are gained only into a supply
    (E301: a kind declared without `supply:` has as many as needed)."""
    sites: dict[str, int] = {}
    for site in library.of_kind("site"):
        sites[site.set] = sites.get(site.set, 0) + 1
    for expansion in library.of_kind("expansion"):
        most = max((count for _, count in expansion.sites), default=0)
        if most > sites.get(expansion.name, 0):
            diagnostics.error("E313", f"expansion '{expansion.name}' deals up to {most} sites, but its set has "
                                      f"{sites.get(expansion.name, 0)}", expansion.source,
                              f'declare its sites with set: {expansion.name} (site "NAME" {{ ... }}), or deal fewer')
    unlimited = {piece.name for piece in library.of_kind("piece") if piece.supply is None}
    if not unlimited:
        return
    for definition in library.definitions:
        for effect in _effects_in(definition):
            if isinstance(effect, GainPieces) and effect.piece in unlimited:
                diagnostics.error("E301", f"'{definition.name}' gains {v.plural_noun(effect.piece)}, but a player "
                                          f"has as many as needed: piece \"{effect.piece}\" declares no supply",
                                  definition.source, f'give it a supply: piece "{effect.piece}" {{ supply: 1 }}')


def _effects_in(definition) -> Iterable:
    """Every compiled effect of a definition (a site's track, bonus and build too), nested ones included."""
    effects = tuple(getattr(definition, "play", ())) + tuple(getattr(definition, "first_action", ()))
    effects += tuple(getattr(definition, "bonus", ())) + tuple(getattr(definition, "build", ()))
    effects += tuple(e for step in getattr(definition, "track", ()) for e in step)
    effects += tuple(e for option in getattr(definition, "actions", ()) for e in option.cost + option.effects)
    effects += tuple(getattr(definition, "passives", ()))
    effects += tuple(e for _, stage in getattr(definition, "on_stage", ()) for e in stage)
    effects += tuple(getattr(definition, "role_reward", ()))
    return walk(effects)


def _reserved_uses(definition) -> Iterable[tuple]:
    """(space filters, what a reserved name no board has means for them): a placement's (the tile goes on any legal
    space), a placement trigger's (it never fires there) and a replacement's (no tile of yours is there)."""
    for place in _placements(definition):
        yield place.filters, "the tile will go on any legal space"
    for effect in _effects_in(definition):
        if isinstance(effect, Trigger) and effect.event.kind == "place":
            yield effect.event.filters, "this trigger never fires for a tile there"
        elif isinstance(effect, ReplaceTile):
            yield effect.filters, "no tile of yours can be replaced there"


def _placements(definition) -> Iterable[PlaceTile]:
    """The placements a definition's `play:` and `first action:` make, in blocks too."""
    effects = tuple(getattr(definition, "play", ())) + tuple(getattr(definition, "first_action", ()))
    return (effect for effect in walk(effects) if isinstance(effect, PlaceTile))
