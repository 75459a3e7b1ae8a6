"""What the editor shows for one card file, independent of the protocol: diagnostics with their fixes, hover,
completion, go-to-definition, the outline, semantic tokens and formatting.

Pipeline place: a client of the compiler, like `tharsis check`. A document is compiled with its project
(project.py: the `cards` paths of the `[tool.tharsis]` it lies under, or the card files of its folder, with the
bundled content, as every game loads it), the editor's unsaved texts standing in for the files that are open, and
its warnings filtered as `check` filters them (suppression comments, the project's `select` and `ignore`).
Formatting is `tharsis fmt`'s own (tharsis/designer/fmt.py). Positions here are 0-based lines and characters counted in
code points; server.py converts them to the client's encoding.
"""

from __future__ import annotations

import difflib
import re
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Optional

import attrs

from tharsis.compiler import bundled_cards_path, rules_text
from tharsis.compiler.diagnostics import Diagnostic, Diagnostics
from tharsis.compiler.pipeline import (
    CompileResult,
    compile_sources,
    declarations,
    declared_card_kinds,
    declared_marks,
    declared_parameters,
    declared_pieces,
    find_files,
)
from tharsis.compiler.vocabulary import plural
from tharsis.designer import suppressions
from tharsis.designer.code_filter import CodeFilter

from . import completion, glossary, highlight, navigation, roles
from .items import Completion, Edit, EditorDiagnostic, Location, Range, SemanticToken, Symbol
from .project import project_of

__all__ = ["Analysis", "analyse", "describe", "Completion", "EditorDiagnostic", "Range"]

_WORD = re.compile(r"[A-Za-z_][A-Za-z_']*")
_QUOTED = re.compile(r'"[^"\n]*"?')
_LINE = re.compile(r"[^\n]*\n|[^\n]+$")   # each line with its line end
_KIND_NAMES = {"card": "card", "corporation": "corporation", "standard_project": "standard project",
               "standard_action": "standard action", "milestone": "milestone", "award": "award", "board": "board",
               "parameter": "global parameter", "card_kind": "kind of card", "rule": "rule", "expansion": "expansion"}


def analyse(path: str, text: str, open_texts: Optional[dict[str, str]] = None, *,
            on_disk: bool = True) -> "Analysis":
    """Compile the document at `path` (its current `text`) with its project; `open_texts` are the editor's other
    unsaved buffers, used in place of their files when they belong to the project. A document that is not a file
    (`on_disk=False`: an editor's untitled buffer, named by `path`) is compiled with the bundled content alone."""
    if not on_disk:
        sources = _read(find_files([bundled_cards_path()], Diagnostics()))
        return Analysis(path, _lines(text), compile_sources({**sources, path: text}, volatile=[path]))
    document = Path(path).resolve()
    project = project_of(document)
    files = [p.resolve() for p in find_files(project.files, Diagnostics())]
    members = {str(p) for p in files} | {str(document)}
    buffers = {str(Path(p).resolve()): t for p, t in (open_texts or {}).items()
               if str(Path(p).resolve()) in members}
    buffers[str(document)] = text
    sources = _read(p for p in files if str(p) not in buffers)
    return Analysis(str(document), _lines(text), compile_sources({**sources, **buffers}, volatile=buffers),
                    CodeFilter(project.settings.select, project.settings.ignore))


def _read(files) -> dict[str, str]:
    """The text of each file that reads as UTF-8; one that does not is no context (opened, it shows why)."""
    sources = {}
    for file in files:
        try:
            sources[str(file)] = file.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError):
            continue
    return sources


def _lines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


@attrs.define(slots=False)  # cached properties (attrs before 23.2 gives slotted classes no room for them)
class Analysis:
    path: str
    text: str
    result: CompileResult
    code_filter: CodeFilter = CodeFilter()

    # ------------------------------------------------------------------ diagnostics

    def diagnostics(self) -> list[EditorDiagnostic]:
        """The compiler's diagnostics located in this document (problems elsewhere belong to other files), less
        what `tharsis check` would not report either: warnings silenced by a `// tharsis: ignore[CODE]` comment
        or by the project's `select`/`ignore`."""
        own = [d for d in self.result.diagnostics if d.span is not None and _same_file(d.span.path, self.path)]
        own = suppressions.reported(own, {self.path: self.text}, [self.path], self.code_filter)
        return [_editor_diagnostic(d, self.path) for d in own if d.span is not None]

    # ------------------------------------------------------------------ hover

    def hover(self, line: int, character: int) -> Optional[str]:
        """Markdown for what is under the cursor: a definition's rules text for its quoted name, the meaning of a
        vocabulary word (the one it has there, when the grammar says: `plant` after `tags:` is the tag), or
        None."""
        if _in_comment(self._line(line), character):
            return None
        name = self._quoted_at(line, character)
        if name is not None:
            definition = self._definition(name[0], _kind_named(self._line(line)[:name[1]]))
            return describe(definition) if definition is not None else None
        word = self._word_at(line, character)
        if word is None:
            return None
        tags, card_resources = self._declared()
        entries = glossary.lookup(word, tags, card_resources, **self._declared_elements())
        token = navigation.token_at(self.text, line, character)
        if token is not None and token.type == "NAME":  # the meaning the word has where it is written
            category = roles.GLOSSARY_CATEGORIES.get(roles.role(token.holders))
            entries = [entry for entry in entries if entry.category == category] or entries
        if not entries:
            return None
        return "\n\n".join(f"**{entry.word}** ({entry.category}): {entry.meaning}"
                           + (f"\n\n`{entry.syntax}`" if entry.syntax and entry.syntax != f"{entry.word}:" else "")
                           for entry in entries)

    # ------------------------------------------------------------------ completion

    def completions(self, line: int, character: int) -> list[Completion]:
        """What fits where the cursor is, from the grammar (completion.py)."""
        return completion.completions(self.text, line, character, self)

    # what completion.py needs to know of the compilation (its `Source`)

    @cached_property
    def vocabulary(self) -> roles.Vocabulary:
        texts = list(self.result.sources.values())
        tags, card_resources = declarations(texts)
        sets = sorted({d.set for d in self.result.library.definitions if isinstance(getattr(d, "set", None), str)})
        return roles.Vocabulary(frozenset(tags), frozenset(card_resources), tuple(declared_parameters(texts)),
                                declared_card_kinds(texts), tuple(sets), declared_pieces(texts), declared_marks(texts))

    @cached_property
    def definitions(self) -> list:
        """The loaded definitions, this document's own first (a name it defines is the one it means)."""
        every = self.result.library.definitions
        return [d for d in every if _same_file(d.source.path, self.path)] + \
               [d for d in every if not _same_file(d.source.path, self.path)]

    def reserved_spaces(self) -> list[str]:
        names = [space.reserved for board in self.result.library.of_kind("board") for space in board.spaces
                 if space.reserved]
        return names + [name for expansion in self.result.library.of_kind("expansion") for name in expansion.offboard]

    def describe(self, definition) -> tuple[str, str]:
        return _headline(definition), describe(definition)

    # ------------------------------------------------------------------ navigation, outline, colours

    def definition(self, line: int, character: int) -> list[Location]:
        """Where the name under the cursor is defined (navigation.py)."""
        if _in_comment(self._line(line), character):
            return []
        return navigation.definition(self.text, line, character, self.definitions, self.result.sources)

    def symbols(self) -> list[Symbol]:
        """The document's definitions and their fields, for the outline."""
        own = {(d.kind, d.name): d for d in self.result.library.definitions if _same_file(d.source.path, self.path)}

        def headline(kind: str, name: str) -> Optional[str]:
            definition = own.get((kind, name.strip()))
            return _headline(definition).split(" — ", 1)[-1] if definition is not None else None

        return navigation.symbols(self.text, headline)

    def semantic_tokens(self) -> list[SemanticToken]:
        return highlight.tokens(self.text, self.vocabulary)

    # ------------------------------------------------------------------ code actions and formatting

    def fixes(self, wanted: Range) -> list[tuple[EditorDiagnostic, Edit]]:
        """Each fix of each diagnostic that touches `wanted`, with its diagnostic (what `--fix` would apply)."""
        return [(d, fix) for d in self.diagnostics() if d.range.overlaps(wanted) for fix in d.fixes]

    def formatted(self) -> tuple[Optional[list[Edit]], list[Diagnostic]]:
        """The edits that make the document canonical (`tharsis fmt`'s text; [] when it already is), or None when
        it cannot be formatted, with fmt's own reasons (E805: a comment it cannot place); a document with errors
        has none (its errors are underlined already)."""
        from tharsis.designer.fmt import format_sources

        original = self.result.sources.get(self.path)
        if original is None:  # the document could not be decoded: its diagnostics say why
            return None, []
        run = format_sources({self.path: original}, self.result)
        result = run.files[0]
        if result.text is None:
            return None, result.problems
        return _edits(self.text, _lines(result.text)), []

    # ------------------------------------------------------------------ helpers

    def _declared(self):
        return declarations(self.result.sources.values())

    def _declared_elements(self) -> dict:
        """The declared global parameters and kinds of card, for hover."""
        texts = self.result.sources.values()
        return {"parameters": declared_parameters(texts), "card_kinds": declared_card_kinds(texts)}

    def _definition(self, name: str, kind: Optional[str] = None):
        matches = [d for d in self.definitions if d.name.casefold() == name.casefold()
                   and (kind is None or d.kind == kind)]
        return (matches or [None])[0]

    def _line(self, line: int) -> str:
        lines = self.text.split("\n")
        return lines[line] if 0 <= line < len(lines) else ""

    def _quoted_at(self, line: int, character: int) -> Optional[tuple[str, int, int]]:
        for match in _QUOTED.finditer(self._line(line)):
            if match.start() <= character < match.end():
                return match.group().strip('"'), match.start(), match.end()
        return None

    def _word_at(self, line: int, character: int) -> Optional[str]:
        text = self._line(line)
        for match in _WORD.finditer(text):
            if match.start() <= character <= match.end():
                word = match.group()
                if word == "first" and text[match.end():].startswith(" action"):
                    return "first action"
                if word == "action" and text[:match.start()].endswith("first "):
                    return "first action"
                return word
        return None


def _in_comment(line: str, character: int) -> bool:
    """Whether `character` lies in a `//` comment (a `//` inside a quoted name starts none)."""
    start = suppressions.comment_start(line)
    return start is not None and start < character


def _kind_named(before: str) -> Optional[str]:
    """The kind of definition a quoted name refers to, from the words before its quote (`standard project "`):
    a card and a standard project may share a name."""
    words = before.split()[-2:]
    if words[:1] == ["standard"] and words[1:] in (["project"], ["action"]):
        return f"standard_{words[1]}"
    return None


def describe(definition) -> str:
    """A definition in Markdown: its headline in bold, then its rules text, line by line."""
    if definition.kind in ("card", "corporation"):
        first, *rest = rules_text.card(definition).split("\n")
        return "  \n".join([f"**{first}**"] + [line.strip() for line in rest if line.strip()])
    lines = [f"**{_headline(definition)}**"]
    if definition.kind in ("standard_project", "standard_action"):
        lines.append(rules_text.sentences(definition.play))
    elif definition.kind == "milestone":
        lines.append(f"Requires {rules_text.condition(definition.requirement)}.")
    elif definition.kind == "award":
        lines.append(f"Measures {rules_text.quantity(definition.measure)}.")
    elif definition.kind == "board":
        lines.append(f"{len(definition.spaces)} spaces; milestones: {', '.join(definition.milestones) or 'none'}; "
                     f"awards: {', '.join(definition.awards) or 'none'}.")
    return "  \n".join(lines)


def _headline(definition) -> str:
    kind = _KIND_NAMES.get(definition.kind, definition.kind)
    if definition.kind == "card":
        return f"{definition.name} — {definition.type} card, {definition.cost} MC"
    if definition.kind == "standard_action":
        return f"{definition.name} — {kind}, {definition.cost} {plural(definition.cost_resource, definition.cost)}"
    if definition.kind == "standard_project":
        return f"{definition.name} — {kind}, {definition.cost} MC"
    return f"{definition.name} — {kind}"


def _editor_diagnostic(d: Diagnostic, path: str) -> EditorDiagnostic:
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    fixes = tuple(Edit(_range(fix.span), fix.replacement) for fix in getattr(d, "fixes", ())
                  if _same_file(fix.span.path, path))
    return EditorDiagnostic(_range(d.span), d.severity, d.code, message, fixes)


def _range(span) -> Range:
    return Range(span.line - 1, span.column - 1, span.end_line - 1, span.end_column - 1)


def _edits(before: str, after: str) -> list[Edit]:
    """Line edits that turn `before` into `after`, so the editor keeps the cursor, the folds and the undo history
    where nothing changed. Both texts have `\n` line ends (the compiler reads `\r\n` as `\n`); editors write
    their own line ends into what they insert."""
    end = (before.count("\n"), len(before) - before.rfind("\n") - 1)
    old, new = _LINE.findall(before), _LINE.findall(after)

    def position(index: int) -> tuple[int, int]:
        return (index, 0) if index < len(old) else end

    # difflib's junk heuristic (lines such as `}` that recur throughout are not anchors) keeps this near linear on
    # a file of hundreds of similar cards; the edits are exact either way
    return [Edit(Range(*position(i1), *position(i2)), "".join(new[j1:j2]))
            for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new).get_opcodes() if tag != "equal"]


def _same_file(a: str, b: str) -> bool:
    return a == b or _resolved(a) == _resolved(b)


@lru_cache(maxsize=4096)
def _resolved(path: str) -> Path:
    return Path(path).resolve()
