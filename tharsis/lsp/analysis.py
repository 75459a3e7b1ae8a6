"""What the editor shows for one card file: its diagnostics, hovers and completions, independent of the protocol.

Pipeline place: a client of the compiler, like `tharsis check`. A document is compiled as `tharsis check FOLDER`
would compile it (the bundled content and the other card files of its folder, as every game loads them), with the
editor's unsaved text standing in for the files that are open, and its warnings filtered as `check` filters them
(suppression comments, the project's `[tool.tharsis]` `select`, `ignore` and `with-bundled`). Positions here are
0-based lines and characters counted in code points; server.py converts them to the client's encoding.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

import attrs

from tharsis import config, suppressions
from tharsis.code_filter import CodeFilter
from tharsis.compiler import bundled_cards_path, rules_text
from tharsis.compiler.diagnostics import Diagnostic, Diagnostics
from tharsis.compiler.pipeline import (EXTENSION, CompileResult, compile_sources, declarations, declared_card_kinds,
                                      declared_parameters, find_files)
from tharsis.compiler.vocabulary import plural
from tharsis.config import Config

from . import glossary

_WORD = re.compile(r"[A-Za-z_][A-Za-z_']*")
_QUOTED = re.compile(r'"[^"\n]*"?')
_FIELD = re.compile(r"(first action|[a-z]+)\s*:")
_KIND_NAMES = {"card": "card", "corporation": "corporation", "standard_project": "standard project",
               "standard_action": "standard action", "milestone": "milestone", "award": "award", "board": "board"}


@attrs.frozen
class Range:
    start_line: int
    start_character: int
    end_line: int
    end_character: int


@attrs.frozen
class EditorDiagnostic:
    range: Range
    severity: str          # error | warning
    code: str
    message: str


@attrs.frozen
class Completion:
    label: str
    category: str          # field, effect, resource, tag, quantity, card, ...
    detail: str = ""
    documentation: str = ""
    insert_text: Optional[str] = None
    replace: Optional[Range] = None   # what the insertion replaces (a quoted name: from the quote to the cursor)


def document_files(path: Path, with_bundled: bool = True) -> list[Path]:
    """What a document is compiled with: the bundled content (unless the project's configuration says
    `with-bundled = false`) and the card files beside it."""
    files = [bundled_cards_path()] if with_bundled else []
    if path.parent.is_dir():
        files += sorted(p for p in path.parent.glob("*" + EXTENSION) if p.is_file())
    return files


def analyse(path: str, text: str, open_texts: Optional[dict[str, str]] = None, *,
            on_disk: bool = True) -> "Analysis":
    """Compile the document at `path` (its current `text`) with its context; `open_texts` are the editor's other
    unsaved buffers, used in place of their files when they lie beside the document. A document that is not a file
    (`on_disk=False`: an editor's untitled buffer, named by `path`) is compiled with the bundled content alone."""
    if not on_disk:
        sources = _read(find_files([bundled_cards_path()], Diagnostics()))
        return Analysis(path, _lines(text), compile_sources({**sources, path: text}, volatile=[path]))
    document = Path(path).resolve()
    settings = _settings(document.parent)
    buffers = {str(Path(p).resolve()): t for p, t in (open_texts or {}).items()
               if Path(p).resolve().parent == document.parent}
    buffers[str(document)] = text
    files = document_files(document, with_bundled=settings.with_bundled)
    sources = _read(p for p in find_files(files, Diagnostics()) if str(p.resolve()) not in buffers)
    return Analysis(str(document), _lines(text), compile_sources({**sources, **buffers}, volatile=buffers),
                    CodeFilter(settings.select, settings.ignore))


def _settings(folder: Path) -> Config:
    """The project's `[tool.tharsis]` (the nearest pyproject.toml that has one), as `tharsis check` reads it; a
    broken one is `tharsis check`'s to report, the editor goes on with the defaults."""
    try:
        return config.discover(start=folder)
    except config.ConfigError:
        return Config()


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


@attrs.define
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
        return [_editor_diagnostic(d) for d in own if d.span is not None]

    # ------------------------------------------------------------------ hover

    def hover(self, line: int, character: int) -> Optional[str]:
        """Markdown for what is under the cursor: a definition's rules text for its quoted name, the meaning of a
        vocabulary word, or None."""
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
        if not entries:
            return None
        return "\n\n".join(f"**{entry.word}** ({entry.category}): {entry.meaning}"
                           + (f"\n\n`{entry.syntax}`" if entry.syntax and entry.syntax != f"{entry.word}:" else "")
                           for entry in entries)

    # ------------------------------------------------------------------ completion

    def completions(self, line: int, character: int) -> list[Completion]:
        """Names that fit where the cursor is: definition names in quotes, field names at the start of a line,
        the closed vocabulary of a field (`tags:`, `type:`, `holds:`, ...), otherwise effect keywords, resources,
        tags, tiles and quantity phrases."""
        lines = self.text.split("\n")
        before = lines[line][:character] if line < len(lines) else ""
        after = lines[line][character:] if line < len(lines) else ""
        if _in_comment(before, character):
            return []
        if before.count('"') % 2 == 1:
            start = before.rindex('"') + 1
            return self._names(Range(line, start, line, character), closing=not after.startswith('"'),
                               kind=_kind_named(before[:start - 1]))
        prefix = re.search(r"[A-Za-z_]*$", before)
        head = before[:prefix.start()]
        tags, card_resources = self._declared()
        words = glossary.vocabulary(tags, card_resources, **self._declared_elements())
        if not head.strip():
            return [_word_completion(w, insert=f"{w.word}: ") for w in words if w.category == "field"] + \
                   [_word_completion(w) for w in words if w.category == "definition"]
        fields = _FIELD.findall(head)
        field = fields[-1] if fields else None
        wanted = {"tags": {"tag"}, "type": {"card type"}, "holds": {"card resource"}, "variant": {"variant"}}
        if field in wanted:
            return [_word_completion(w) for w in words if w.category in wanted[field]]
        if field == "set":
            sets = sorted({d.set for d in self.result.library.definitions if hasattr(d, "set")})
            return [Completion(name, "set", "a set of the loaded content") for name in sets]
        phrases = [Completion(phrase, "quantity", "a quantity", meaning)
                   for phrase, meaning in glossary.quantity_phrases(
                       tags, card_resources, self._declared_elements()["parameters"]).items()]
        if field in ("requires", "measure") or head.rstrip().endswith("per"):
            return phrases
        vocabulary = [_word_completion(w) for w in words if w.category not in ("field", "definition", "variant")]
        return vocabulary + phrases

    # ------------------------------------------------------------------ helpers

    def _declared(self):
        return declarations(self.result.sources.values())

    def _declared_elements(self) -> dict:
        """The declared global parameters and kinds of card, for hover and completion."""
        texts = self.result.sources.values()
        return {"parameters": declared_parameters(texts), "card_kinds": declared_card_kinds(texts)}

    def _definition(self, name: str, kind: Optional[str] = None):
        matches = [d for d in self.result.library.definitions if d.name.casefold() == name.casefold()
                   and (kind is None or d.kind == kind)]
        own = [d for d in matches if _same_file(d.source.path, self.path)]
        return (own or matches or [None])[0]

    def _names(self, replace: Range, closing: bool, kind: Optional[str]) -> list[Completion]:
        seen, items = set(), []
        for definition in self.result.library.definitions:
            if (definition.name, definition.kind) in seen or (kind and definition.kind != kind):
                continue
            seen.add((definition.name, definition.kind))
            items.append(Completion(definition.name, "card" if definition.kind in ("card", "corporation") else "name",
                                    _headline(definition), describe(definition),
                                    insert_text=definition.name + ('"' if closing else ""), replace=replace))
        return items

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


def _word_completion(word: glossary.Word, insert: Optional[str] = None) -> Completion:
    return Completion(word.word, word.category, word.syntax or word.category, word.meaning, insert_text=insert)


def _editor_diagnostic(d: Diagnostic) -> EditorDiagnostic:
    s = d.span
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    return EditorDiagnostic(Range(s.line - 1, s.column - 1, s.end_line - 1, s.end_column - 1), d.severity, d.code,
                            message)


def _same_file(a: str, b: str) -> bool:
    return a == b or Path(a).resolve() == Path(b).resolve()
