"""The cards a game was dealt from, as a save or a log records them, and finding them again when it is loaded.

A game is fixed by its options, its choices and its content. The content a game can use (every definition of the
sets in play: the cards of its decks, the corporations, the declared kinds, rules and parameters, the standard
projects, milestones and awards, its board and its expansions) is recorded by kind and name with a hash of what
each means (`record`), together with the text of the designer's card files (`--cards`), named relative to their
folder, never by an absolute path. Loading (`library_for`) then:

- takes the cards where the game's card folders are, when they are all found from the current folder, and
  otherwise compiles the card files the record holds (with a warning, W740): a log copied to another folder or
  another machine replays;
- keeps exactly the recorded definitions: a card added since (or any other definition) is left out, so it changes
  neither the deal nor the replay, and one removed that the game did not use was never recorded;
- refuses a recorded definition that is gone (E742) or changed (E741), naming it: the game would not be the one
  that was played. A changed project card is refused only once the game takes it from its deck (`drawn`): until
  then only its name counts (the deck is shuffled by name), so a designer's edit to a card that never came up
  leaves the game as it was, and the game goes on with the card as it is now.

Records written before this one (a `content` that is a hash of everything loaded) are read by tharsis/games/saves.py as
before; this module reads only the new `content` object.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Optional

import attrs

from tharsis.compiler import bundled_cards_path, compile_sources
from tharsis.compiler.definitions import KINDS, Library
from tharsis.compiler.diagnostics import Span, render_text
from tharsis.compiler.effects import ADDED
from tharsis.compiler.source import MAX_FILE_BYTES, content_files, on_disk, read_bounded
from tharsis.runtime.api.game import ContentError, Game, GameOptions, load_library

from ..problems import CONTENT, Problem, ProblemError, suggest
from .options import CARD_PATH_ENTRIES, Where, check_card_paths, describe

FILES_LIMIT = 2 * 2**20       # card text a record holds at most: 2 MB is some 10,000 cards (a save stays under 8 MB)
MAX_DEFINITIONS = 20_000      # the bundled content has a few hundred
SHOWN = 12                    # changed or missing definitions named one by one; the rest are counted


@attrs.frozen
class Recorded:
    """A record's `content`, its shape checked."""

    hash: str
    used: dict                       # (kind, name) -> hash of what the definition means
    files: Optional[dict] = None     # relative name -> text of each of the designer's card files; None: not held


# ---------------------------------------------------------------------------------------------- hashing

def canonical(value: Any, memo: Optional[dict] = None) -> Any:
    """What a compiled value means, as JSON-ready data: positions (spans) left out, sets and dicts ordered.
    `memo` holds what equal compiled values already gave (a requirement chain of thousands of one comparison is
    read once, not thousands of times)."""
    if isinstance(value, Span):
        return None
    if attrs.has(type(value)):
        if memo is None:
            memo = {}
        try:
            return memo[(type(value), value)]
        except (KeyError, TypeError):   # TypeError: a mutable attrs value is not hashable
            pass
        found = [type(value).__name__] + [[f.name, canonical(getattr(value, f.name), memo)]
                                          for f in attrs.fields(type(value))
                                          if f.eq and not (ADDED in f.metadata and getattr(value, f.name) == f.default)]
        try:
            memo[(type(value), value)] = found
        except TypeError:
            pass
        return found
    if isinstance(value, (list, tuple)):
        return [canonical(v, memo) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((canonical(v, memo) for v in value), key=repr)
    if isinstance(value, dict):
        return sorted(([canonical(k, memo), canonical(v, memo)] for k, v in value.items()), key=repr)
    return value


def definition_hash(definition) -> str:
    """What a definition means, hashed: its layout, comments and file do not count."""
    text = json.dumps(canonical(definition), sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


_HASHES: dict[int, tuple] = {}


class _Hashes(dict):
    """id of a definition -> its hash, each computed when first asked for: a record's card files may hold far more
    than the game used (megabytes of text of a set not in play), and hashing what no one compares cost a replay
    more than compiling it."""

    def __init__(self, library: Library):
        super().__init__()
        self.definitions = {id(d): d for d in library.definitions}

    def __missing__(self, key: int) -> str:
        self[key] = definition_hash(self.definitions[key])
        return self[key]


def _hashes(library: Library) -> dict[int, str]:
    """id of each definition -> its hash, computed once per library and definition."""
    cached = _HASHES.get(id(library))
    if cached is not None and cached[0] is library:
        return cached[1]
    hashes = _Hashes(library)
    _HASHES[id(library)] = (library, hashes)
    return hashes


def overall_hash(used: dict) -> str:
    lines = sorted(f"{kind}\0{name}\0{value}" for (kind, name), value in used.items())
    return "sha256:" + hashlib.sha256("\n".join(lines).encode("utf-8", "surrogateescape")).hexdigest()[:16]


STAGED = "card:"   # a record files a card of a kind with stages under `card:KIND` (see record_key)


def record_key(definition, staged: frozenset) -> tuple[str, str]:
    """(kind, name) of a definition in a record. A card of a kind with stages (`staged`: the names of those kinds)
    is filed under `card:KIND`: its name is its kind's own and may be a project card's too (the global event and
    the base game's card both named Asteroid Mining), and each keeps its own hash."""
    kind = definition.kind
    if kind == "card" and getattr(definition, "type", None) in staged:
        return STAGED + definition.type, definition.name
    return kind, definition.name


def staged_kinds(library: Library) -> frozenset:
    return frozenset(k.name for k in library.of_kind("card_kind") if k.stages)


def in_play(definition, game: Game) -> bool:
    """Whether a game can use a definition: its board, its expansions, their milestones and awards, the variant
    corporations (shared by every seat whatever their set), and everything of the sets in play."""
    kind, name = definition.kind, definition.name
    if kind == "board":
        return name.lower() == game.options.board.lower()
    if kind == "expansion":
        return name in game.options.expansions
    if kind in ("milestone", "award") and name in {*game.milestones, *game.awards}:
        return True
    if kind == "corporation" and definition.variant is not None:
        return True
    return getattr(definition, "set", None) in game.sets_in_play()


# ---------------------------------------------------------------------------------------------- writing

_FILES: dict[int, tuple] = {}    # id of a library -> (the library, the designer's card files it was compiled from)


def record(game: Game) -> dict:
    """The `content` of a save or a log: every definition the game can use, and the designer's card files."""
    hashes, staged = _hashes(game.content), staged_kinds(game.content)
    used = {record_key(d, staged): hashes[id(d)] for d in game.content.definitions if in_play(d, game)}
    return {"hash": overall_hash(used),
            "used": {kind: {name: value for (k, name), value in sorted(used.items()) if k == kind}
                     for kind in sorted({k for k, _ in used})},
            "files": designer_files(game.content, game.options.card_paths)}


def designer_files(library: Library, card_paths) -> Optional[dict]:
    """The text of every card file under the card folders, by a name relative to its folder (`mine/cards.mars`),
    read once per library (the files as the game was dealt from them, whatever is edited later); None when they
    are larger than FILES_LIMIT, or cannot be read."""
    cached = _FILES.get(id(library))
    if cached is not None and cached[0] is library:
        return cached[1]
    files: Optional[dict] = {}
    total, tops = 0, set()
    for text_path in card_paths:
        folder = Path(text_path)
        top = base = folder.resolve().name or "cards"
        while top in tops:      # two folders of one name (a/cards, b/cards): cards/..., cards-2/...
            top = f"{len(tops) + 1}/{base}" if folder.is_file() else f"{base}-{len(tops) + 1}"
        tops.add(top)
        if folder.is_file():
            found = [(folder, top)]
        else:
            found = [(f, f"{top}/{f.relative_to(folder).as_posix()}") for f in content_files(folder)]
        for path, name in found:
            try:
                text = read_bounded(path, MAX_FILE_BYTES).decode("utf-8-sig")
            except (OSError, ValueError):
                files = None
                break
            total += len(text)
            if total > FILES_LIMIT:
                files = None
                break
            files[name] = text.replace("\r\n", "\n").replace("\r", "\n")
        if files is None:
            break
    remember(library, files)
    return files


def remember(library: Library, files: Optional[dict]) -> None:
    _FILES[id(library)] = (library, files)


def relative_paths(paths) -> list[str]:
    """Card folders as a record writes them: relative to the current folder, so no record holds a home folder's
    name and a project's logs load wherever the project is."""
    relative = []
    for path in paths:
        if os.path.isabs(path):
            try:
                path = os.path.relpath(path)
            except ValueError:  # another drive (Windows): only the name is left
                path = Path(path).name
        relative.append(Path(path).as_posix())
    return relative


# ---------------------------------------------------------------------------------------------- reading

def parse(value: Any, where: Where, problems: list) -> Optional[Recorded]:
    """A record's `content` object, its shape checked (E712)."""
    def problem(message: str, hint: Optional[str] = None) -> None:
        problems.append(where.problem("E712", f"content{message}", hint))

    if not isinstance(value, dict):
        problem(f" must be an object (the cards the game was dealt from), not {describe(value)}")
        return None
    unknown = sorted(set(value) - {"hash", "used", "files"})
    if unknown:
        problem(f": unknown field {unknown[0]!r}", "content holds hash, used and files")
        return None
    found_hash, used, files = value.get("hash"), value.get("used"), value.get("files")
    if not isinstance(found_hash, str):
        problem(f".hash must be a string, not {describe(found_hash)}")
        return None
    if not isinstance(used, dict) or not all(isinstance(v, dict) for v in used.values()):
        problem(f".used must be an object of kinds, each an object of names, not {describe(used)}")
        return None
    count = sum(len(v) for v in used.values())
    if count > MAX_DEFINITIONS:
        problem(f".used lists {count} definitions; no content has more than {MAX_DEFINITIONS}")
        return None
    recorded: dict = {}
    for kind, names in used.items():
        if kind not in KINDS and not (kind.startswith(STAGED) and len(kind) > len(STAGED)):
            problem(f".used: unknown kind {kind!r}", suggest(kind, KINDS, "kinds") or
                    f"kinds: {', '.join(KINDS)}, or {STAGED}KIND for a card of a kind with stages")
            return None
        for name, hashed in names.items():
            if not isinstance(hashed, str):
                problem(f".used.{kind}[{json.dumps(name)[:40]}] must be a hash (a string), not {describe(hashed)}")
                return None
            recorded[(kind, name)] = hashed
    if files is not None:
        if not isinstance(files, dict):
            problem(f".files must be an object (file name -> card text) or null, not {describe(files)}")
            return None
        if len(files) > CARD_PATH_ENTRIES:
            problem(f".files holds {len(files)} files; no card folder has more than {CARD_PATH_ENTRIES}")
            return None
        for name, text in files.items():
            parts = name.split("/")
            if (not name.endswith((".mars", ".names")) or name.startswith("/") or "\\" in name or ".." in parts
                    or "" in parts or not name.isprintable()):
                problem(f".files: {json.dumps(name)[:60]} is not the name of a card file inside its folder",
                        'a relative name such as "mine/cards.mars"')
                return None
            if not isinstance(text, str):
                problem(f".files[{json.dumps(name)[:40]}] must be the file's text, not {describe(text)}")
                return None
        if sum(len(text) for text in files.values()) > FILES_LIMIT:
            problem(f".files holds more than {FILES_LIMIT // 2**20} MB of card text; no record holds more")
            return None
    return Recorded(found_hash, recorded, files)


@attrs.frozen
class Found:
    library: Library
    warnings: list
    changed: dict = attrs.field(factory=dict)   # name -> definition of each changed card, refused once drawn


def library_for(recorded: Recorded, options: GameOptions, where: Where, kind: str) -> Found:
    """The content to rebuild a recorded game with: the recorded definitions found in the cards here (the game's
    card folders when they are all found, else the card files the record holds), each unchanged. Raises
    ProblemError (E705, E715, E741, E742, E743). Problems name the record's file and line, without the line
    itself (a start line of several kilobytes says nothing more)."""
    where = attrs.evolve(where, source=None)
    warnings: list = []
    paths = list(options.card_paths)
    absent = [p for p in paths if on_disk(p).kind == "missing"]
    if not absent:
        problems = check_card_paths(paths, where)
        if problems:
            raise ProblemError(problems)
        library = _compiled_folders(paths, where)
    elif recorded.files is None:
        shown = ", ".join(absent)
        raise ProblemError([where.problem(
            "E743", f"the card folder{'s' if len(absent) > 1 else ''} {shown} of this game "
                    f"{'are' if len(absent) > 1 else 'is'} not here, and the {kind} does not hold "
                    "the card files (they were over 2 MB, or could not be read when it was written)",
            "load it from the folder the game was played in, or copy the card folders beside it")])
    else:
        library = _compiled_files(recorded.files, where, kind)
        shown = ", ".join(absent)
        warnings.append(where.problem(
            "W740", f"the card folder{'s' if len(absent) > 1 else ''} {shown} of this game "
                    f"{'are' if len(absent) > 1 else 'is'} not here: the game is rebuilt from the "
                    f"{len(recorded.files)} card file{'s' if len(recorded.files) != 1 else ''} the "
                    f"{kind} holds",
            "load it from the folder it was played in to use the card folders themselves"))
    kept, changed = _recorded_only(library, recorded, where)
    remember(kept, recorded.files if absent else designer_files(library, paths))
    return Found(kept, warnings, changed)


def _compiled_folders(paths: list[str], where: Where) -> Library:
    try:
        return load_library(tuple(paths))
    except ContentError as exc:
        shown = ", ".join(str(Path(p).resolve()) for p in paths)
        raise ProblemError([where.problem("E715", f"the cards the game was played with do not compile: {shown}",
                                          "fix them (tharsis check --with-bundled FOLDER), then load again")],
                           CONTENT, str(exc)) from None


def _compiled_files(files: dict, where: Where, kind: str) -> Library:
    """The bundled cards and the recorded card files, compiled together as a game loads them."""
    bundled = bundled_cards_path()
    sources = {str(f): f.read_text(encoding="utf-8") for f in content_files(bundled)}
    sources.update(files)
    result = compile_sources(sources)
    if result.errors:
        raise ProblemError([where.problem("E715", f"the card files this {kind} holds do not compile",
                                          "a damaged or edited file, or cards this Tharsis no longer reads")],
                           CONTENT, render_text(result.errors, result.sources))
    return result.library


def _recorded_only(library: Library, recorded: Recorded, where: Where) -> tuple[Library, dict]:
    """The recorded definitions of `library`, and the project cards among them that changed (name -> definition);
    refuses the game (E741, E742) when another definition changed or one is gone."""
    hashes, staged = _hashes(library), staged_kinds(library)
    present = {record_key(d, staged): d for d in library.definitions}
    changed = [(key, present[key]) for key, value in recorded.used.items()
               if key in present and hashes[id(present[key])] != value and key[0] != "card"]
    cards = {key[1]: present[key] for key, value in recorded.used.items()
             if key in present and hashes[id(present[key])] != value and key[0] == "card"}
    missing = [key for key in recorded.used if key not in present]
    problems = []
    for _, definition in sorted(changed)[:SHOWN]:
        problems.append(changed_problem(where, definition))
    for kind, name in sorted(missing)[:SHOWN]:
        problems.append(where.problem(
            "E742", f"the {_words(kind)} {name} of this game is not in the cards now",
            "the game used it (a card: its deck held it, and the deck is shuffled by name): put it back to go on "
            "with this game (the record's content.files holds the card files it was played with)"))
    hidden = len(changed) + len(missing) - len(problems)
    if hidden > 0:
        problems.append(where.problem("E741" if changed else "E742", f"and {hidden} more definitions of this game "
                                                                    "changed or are gone"))
    if problems:
        raise ProblemError(problems)
    kept = [d for d in library.definitions if record_key(d, staged) in recorded.used]
    return attrs.evolve(library, definitions=kept), cards   # the names files' names stay with the definitions


def changed_problem(where: Where, definition, drawn: Optional[int] = None) -> Problem:
    """E741: a definition the game used changed since (a card: it was `drawn` by the game at that choice)."""
    where = attrs.evolve(where, source=None)
    when = "" if drawn is None else (" and the game took it from the deck " +
                                     ("as it was dealt" if drawn == 0 else f"at choice {drawn}"))
    return where.problem("E741", f"the {_words(definition.kind)} {definition.name} changed since this game was "
                                 f"played ({_place(definition)}){when}",
                         "the game used it as it was then (the record holds the card files it was played with): "
                         "put its text back to go on with this game, or start a new one")


def drawn(game: Game, changed: dict) -> list[str]:
    """The changed cards the game has taken from its decks (a card still in a deck is only a name there)."""
    if not changed:
        return []
    waiting = set(game.state.deck).union(*game.state.piles.values())
    return sorted(name for name in changed if name not in waiting)


def _words(kind: str) -> str:
    if kind.startswith(STAGED):
        return kind[len(STAGED):]
    return {"card": "card", "card_kind": "kind of card"}.get(kind, kind.replace("_", " "))


def _place(definition) -> str:
    source = definition.source
    try:
        Path(source.path).resolve().relative_to(bundled_cards_path().resolve())
    except (ValueError, OSError):
        return f"now at {source.path}:{source.line}"
    return "this Tharsis has another version of it than the game was played with"
