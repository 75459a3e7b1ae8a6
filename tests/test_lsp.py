"""`tharsis lsp` as an editor meets it: the server runs as a subprocess and we speak LSP JSON-RPC on its stdio.

A designer opens a card file with a typo, sees the diagnostic under the word with its code, applies the quick fix
and sees the diagnostic go; hovers a card's name for its rules text and a word for its meaning; completes exactly
what the grammar accepts at the cursor; formats the file as `tharsis fmt` would; goes to the definition of a name,
bundled or their own; reads the outline and the semantic colours; works in a project rooted at its
`[tool.tharsis]`. A burst of edits compiles once. A broken frame ends the server with E722 (never a hang, never
exit 3), and the lifecycle is the specification's; fuzz tests (hypothesis) send random frames to the server running
in this process, and half-written text to every feature.
"""

import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

pytest.importorskip("pygls", reason="the language server is an optional extra: pip install 'tharsis[lsp]'")

from tharsis.cli import main  # noqa: E402
from tharsis.compiler import compile_text  # noqa: E402
from tharsis.compiler.checker import FIELDS  # noqa: E402
from tharsis.designer.lsp import glossary  # noqa: E402
from tharsis.designer.lsp.analysis import analyse  # noqa: E402
from tharsis.designer.lsp.items import Range  # noqa: E402
from tharsis.problems import ProblemError  # noqa: E402

TIMEOUT = 30


class Editor:
    """The client side of LSP: Content-Length framed JSON-RPC over the server's stdin and stdout."""

    def __init__(self, cwd: Path):
        self.process = subprocess.Popen([sys.executable, "-m", "tharsis", "lsp"], cwd=cwd, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue = queue.Queue()
        self.seen: list[dict] = []   # every message taken from `messages`, awaited or not
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message: dict) -> None:
        self.send_bytes(frame(message))

    def send_bytes(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict):
        message = self.answer(method, params)
        assert "error" not in message, message
        return message["result"]

    def answer(self, method: str, params: dict) -> dict:
        """The whole response to a request: its result or its error."""
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self._wait(lambda m: m.get("id") == self.next_id and "method" not in m)

    def notification(self, method: str) -> dict:
        return self._wait(lambda m: m.get("method") == method)["params"]

    def _wait(self, wanted) -> dict:
        while True:
            try:
                message = self.messages.get(timeout=TIMEOUT)
            except queue.Empty:
                raise AssertionError(f"no answer from the server in {TIMEOUT} s; stderr: "
                                     f"{self.process.stderr.read1(4000).decode(errors='replace')}") from None
            self.seen.append(message)
            if wanted(message):
                return message

    def drain(self) -> None:
        """Take the messages that have arrived into `seen`."""
        while not self.messages.empty():
            self.seen.append(self.messages.get())

    def close(self) -> int:
        self.request("shutdown", None)
        self.notify("exit", None)
        return self.wait()

    def wait(self) -> int:
        """The server's exit code, once it ends (by itself: a failure when it takes more than TIMEOUT)."""
        try:
            return self.process.wait(TIMEOUT)
        finally:
            if self.process.poll() is None:
                self.process.kill()

    def stderr(self) -> str:
        return self.process.stderr.read().decode(errors="replace")


def frame(message: dict) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


@pytest.fixture
def editor(tmp_path):
    client = Editor(tmp_path)
    result = client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
    capabilities = result["capabilities"]
    assert capabilities["hoverProvider"] and '"' in capabilities["completionProvider"]["triggerCharacters"]
    client.notify("initialized", {})
    yield client
    if client.process.poll() is None:
        assert client.close() == 0


COWS = 'card "Space Cows" #M1 {\n  type: active  cost: 5  tags: aminal\n  holds: animal\n' \
       '  play: gain 2 plants\n  action: add 1 animal here\n  vp: 1 per animal here\n}\n'


def test_a_typo_is_underlined_as_you_type_and_the_fix_clears_it(editor, tmp_path):
    uri = (tmp_path / "cows.mars").as_uri()
    editor.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "tharsis", "version": 1,
                                                            "text": COWS}})
    published = editor.notification("textDocument/publishDiagnostics")
    assert published["uri"] == uri and published["version"] == 1
    [diagnostic] = published["diagnostics"]
    assert diagnostic["range"] == {"start": {"line": 1, "character": 31}, "end": {"line": 1, "character": 37}}
    assert diagnostic["code"] == "E102" and diagnostic["severity"] == 1 and diagnostic["source"] == "tharsis"
    assert "unknown tag 'aminal'" in diagnostic["message"] and "did you mean 'animal'?" in diagnostic["message"]

    # the designer retypes the word: an incremental change of just that range
    editor.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": diagnostic["range"], "text": "animal"}]})
    published = editor.notification("textDocument/publishDiagnostics")
    assert published["version"] == 2 and published["diagnostics"] == []

    # a warning arrives with its own severity
    editor.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [
        {"text": COWS.replace("aminal", "animal") + 'card "Far" #M2 {\n  type: automated  cost: 1\n'
                                                    '  play: place city on reserved "Nowhere Town"\n}\n'}]})
    [warning] = editor.notification("textDocument/publishDiagnostics")["diagnostics"]
    assert warning["code"] == "W102" and warning["severity"] == 2 and warning["range"]["start"]["line"] == 9


def test_ranges_count_utf16_code_units_as_the_protocol_says(editor, tmp_path):
    uri = (tmp_path / "moo.mars").as_uri()
    text = 'card "🐄 Moo" #M1 { type: automated  cost: 3  tags: aminal }\n'  # the cow is 2 UTF-16 units
    editor.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "tharsis", "version": 1,
                                                            "text": text}})
    [diagnostic] = editor.notification("textDocument/publishDiagnostics")["diagnostics"]
    column = text.index("aminal")
    assert diagnostic["range"]["start"] == {"line": 0, "character": column + 1}
    assert diagnostic["range"]["end"] == {"line": 0, "character": column + 7}


def test_hover_shows_rules_text_and_word_meanings_and_completion_offers_what_fits(editor, tmp_path):
    uri = (tmp_path / "cows.mars").as_uri()
    text = COWS.replace("aminal", "animal") + 'card "Cow Shed" #M2 {\n  type: automated  cost: 4  tags: \n' \
                                              '  effect: discount 1 on standard project "Pow\n}\n'
    editor.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "tharsis", "version": 1,
                                                            "text": text}})
    editor.notification("textDocument/publishDiagnostics")
    position = lambda line, character: {"textDocument": {"uri": uri}, "position": {"line": line,  # noqa: E731
                                                                                   "character": character}}

    card = editor.request("textDocument/hover", position(0, 9))["contents"]
    assert card["kind"] == "markdown"
    assert card["value"].startswith("**Space Cows (#M1) — active card, 5 MC, tags: animal**")
    assert "When played: Gain 2 plants." in card["value"] and "Action: Add 1 animal to this card." in card["value"]

    plants = editor.request("textDocument/hover", position(3, 17))["contents"]["value"]
    assert "**plant** (resource)" in plants and "8 plants convert into a greenery" in plants
    gain = editor.request("textDocument/hover", position(3, 9))["contents"]["value"]
    assert "**gain** (effect)" in gain and "`gain N RESOURCE [per QUANTITY]`" in gain
    assert editor.request("textDocument/hover", position(0, 19)) is None  # the card number means nothing more

    tags = editor.request("textDocument/completion", position(8, 34))
    labels = {item["label"] for item in tags["items"]}
    assert {"animal", "jovian", "building"} <= labels and "play" not in labels and "plants" not in labels

    fields = {item["label"]: item for item in editor.request("textDocument/completion", position(2, 2))["items"]}
    assert fields["holds"]["insertText"] == "holds: " and "gain" not in fields
    assert "first action" not in fields and "type" not in fields  # a corporation's field; a field already given

    quoted = editor.request("textDocument/completion", position(9, 45))["items"]
    power = next(item for item in quoted if item["label"] == "Power Plant")
    assert power["textEdit"] == {"range": {"start": {"line": 9, "character": 42}, "end": {"line": 9, "character": 45}},
                                 "newText": 'Power Plant"'}
    assert [item["detail"] for item in quoted if item["label"] == "Power Plant"] == [
        "Power Plant — standard project, 11 MC"]  # not the card of the same name: a standard project is named
    assert "Livestock" not in {item["label"] for item in quoted}
    assert editor.request("textDocument/completion", position(0, 7))["items"] == []  # a new name: nothing to offer


def test_a_card_file_is_checked_with_the_files_beside_it(editor, tmp_path):
    (tmp_path / "declarations.mars").write_text("resource moo\n", encoding="utf-8")
    uri = (tmp_path / "cows.mars").as_uri()
    text = COWS.replace("aminal", "animal").replace("holds: animal", "holds: moo").replace("1 animal", "1 moo") \
        .replace("per animal here", "per moo here")
    editor.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "tharsis", "version": 1,
                                                            "text": text}})
    assert editor.notification("textDocument/publishDiagnostics")["diagnostics"] == []
    holds = editor.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                       "position": {"line": 2, "character": 9}})
    assert "moo" in {item["label"] for item in holds["items"]}


def test_an_untitled_buffer_is_checked_against_the_bundled_content_and_comments_are_prose(editor):
    uri = "untitled:Untitled-1"
    text = '// gain plants here is prose\ncard "Livestock" #M7 { type: automated  cost: 3 }\n'
    editor.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "tharsis", "version": 1,
                                                            "text": text}})
    [duplicate] = editor.notification("textDocument/publishDiagnostics")["diagnostics"]
    assert duplicate["code"] == "E401" and duplicate["range"]["start"]["line"] == 1  # the bundled card's name
    at = lambda line, character: {"textDocument": {"uri": uri}, "position": {"line": line,  # noqa: E731
                                                                             "character": character}}
    assert editor.request("textDocument/hover", at(0, 4)) is None
    assert editor.request("textDocument/completion", at(0, 5))["items"] == []
    assert editor.request("textDocument/hover", at(1, 8))["contents"]["value"].startswith(
        "**Livestock (#M7) — automated card, 3 MC**")  # the buffer's own definition comes first


def test_without_pygls_the_command_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.delitem(sys.modules, "tharsis.designer.lsp.server", raising=False)
    monkeypatch.setitem(sys.modules, "pygls", None)  # `import pygls` now fails as where it is not installed
    assert main(["lsp"]) == 2
    err = capsys.readouterr().err
    assert "error[E720]: the language server needs pygls" in err and "pip install 'tharsis[lsp]'" in err


def test_every_field_of_the_language_has_a_meaning():
    fields = {field for accepted, _ in FIELDS.values() for field in accepted}
    assert fields <= set(glossary.FIELD_MEANINGS)


def test_every_offered_quantity_phrase_compiles():
    for phrase in glossary.quantity_phrases():
        holds = glossary.lookup(phrase.split()[0])[0].word if phrase.endswith(" here") else "animal"
        counted = f"effect: when any player places tile -> gain 1 MC per {phrase}" if phrase.endswith(" next to it") \
            else f"vp: 1 per {phrase}"   # the tiles next to the tile just placed: in a placement trigger only
        text = (f'card "Q" #Q1 {{\n  type: active  cost: 1  holds: {holds}\n  play: place city\n'
                f'  {counted}\n}}\n')
        assert compile_text(text).diagnostics == [], phrase


def test_an_unsaved_neighbour_counts_with_its_unsaved_text(tmp_path):
    (tmp_path / "other.mars").write_text('card "Space Cows" #M9 { type: automated  cost: 1 }\n', encoding="utf-8")
    alone = analyse(str(tmp_path / "cows.mars"), COWS.replace("aminal", "animal"))
    assert [d.code for d in alone.diagnostics()] == ["E401"]  # the saved neighbour defines the name too
    edited = analyse(str(tmp_path / "cows.mars"), COWS.replace("aminal", "animal"),
                     {str(tmp_path / "other.mars"): 'card "Other Cows" #M9 { type: automated  cost: 1 }\n'})
    assert edited.diagnostics() == []


def test_the_hover_shown_in_the_docs_is_what_the_server_says(repo):
    doc = (repo / "docs" / "editor.md").read_text(encoding="utf-8")
    shown = doc.split("```\n  Livestock")[1].split("```")[0]
    shown = ["Livestock" + shown.split("\n")[0]] + [line.strip() for line in shown.split("\n")[1:] if line.strip()]
    livestock = analyse(str(repo / "cards" / "base" / "active.mars"),
                        (repo / "cards" / "base" / "active.mars").read_text(encoding="utf-8"))
    line = next(n for n, text in enumerate(livestock.text.split("\n")) if text.startswith('card "Livestock"'))
    assert livestock.hover(line, 8) == f"**{shown[0]}**  \n" + "  \n".join(shown[1:])


def test_warnings_are_filtered_as_tharsis_check_filters_them(tmp_path):
    far = 'card "Far" #M2 {\n  type: automated  cost: 1\n  play: place city on reserved "Nowhere Town"\n}\n'
    assert [d.code for d in analyse(str(tmp_path / "far.mars"), far).diagnostics()] == ["W102"]
    silenced = far.replace('"Nowhere Town"', '"Nowhere Town"  // tharsis: ignore[W102]')
    assert analyse(str(tmp_path / "far.mars"), silenced).diagnostics() == []
    stale = far.replace("cost: 1", "cost: 1  // tharsis: ignore[W102]")
    assert [d.code for d in analyse(str(tmp_path / "far.mars"), stale).diagnostics()] == ["W102", "W801"]
    (tmp_path / "pyproject.toml").write_text('[tool.tharsis]\nignore = ["W102"]\n', encoding="utf-8")
    assert analyse(str(tmp_path / "far.mars"), far).diagnostics() == []


def test_hover_and_completion_know_the_declared_parameters_and_kinds_of_card(tmp_path):
    text = ('parameter "radiation" { scale: 0 to 10 step 1 }\n'
            'card kind "mission" { deal: 2 keep 1 }\n'
            'card "Probe" #M7 {\n  type: mission\n  play: radiation +1\n}\n'
            'card "Shield" #M8 {\n  type: automated  cost: 3\n  requires: \n}\n')
    analysis = analyse(str(tmp_path / "lab.mars"), text)
    hover = analysis.hover(4, 9)
    assert "**radiation** (global parameter)" in hover and "from 0 to 10 in steps of 1" in hover
    assert "**mission** (card type)" in analysis.hover(3, 10)
    types = {item.label for item in analysis.completions(3, 8)}
    assert {"mission", "automated", "active", "event"} <= types
    requires = {item.label for item in analysis.completions(8, 12)}
    assert "radiation" in requires


def test_completion_after_look_offers_the_declared_kinds_and_the_corporations(tmp_path):
    text = ('card kind "mission" { deal: 2 keep 1 }\n'
            'card "Merger" #M9 {\n  type: mission\n  play: look 4 \n}\n')
    analysis = analyse(str(tmp_path / "merger.mars"), text)
    kinds = {item.label for item in analysis.completions(3, 15)}
    assert {"mission", "corporation"} <= kinds and "automated" not in kinds


def test_hover_gives_a_word_the_meaning_it_has_where_it_is_written(tmp_path):
    text = 'card "Hothouse" #M5 {\n  type: active  cost: 5  tags: plant\n  play: gain 2 plants\n}\n'
    analysis = analyse(str(tmp_path / "hothouse.mars"), text)
    assert analysis.hover(1, 33).startswith("**plant** (tag)") and "(resource)" not in analysis.hover(1, 33)
    assert analysis.hover(2, 17).startswith("**plant** (resource)") and "(tag)" not in analysis.hover(2, 17)


# ---------------------------------------------------------------------------- completion from the grammar

def _complete(editor, tmp_path, marked: str) -> list[dict]:
    """Completion where `|` marks the cursor, in a new document."""
    line = marked[:marked.index("|")].count("\n")
    character = len(marked[:marked.index("|")].split("\n")[-1])
    uri = _open(editor, tmp_path / f"completion{len(editor.seen)}.mars", marked.replace("|", ""))[0]
    return editor.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                      "position": {"line": line, "character": character}})["items"]


def _open(editor, path: Path, text: str) -> tuple[str, list[dict]]:
    """Open a document in the editor: its URI and its diagnostics."""
    uri = path.as_uri()
    editor.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "tharsis", "version": 1,
                                                            "text": text}})
    return uri, editor._wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                             and m["params"]["uri"] == uri)["params"]["diagnostics"]


def _labels(items: list[dict]) -> list[str]:
    labels = [item["label"] for item in items]
    assert len(labels) == len(set(labels)), labels  # never the same word twice
    return labels


BARN = 'card "Barn" #M3 {{\n  type: active  cost: 9\n  holds: animal\n  {}\n}}\n'


def test_completion_offers_the_count_form_of_copying_production(tmp_path):
    """After `copy production of 2 ` only `different` goes on (`copy production of 2 different building cards`),
    and after it the tags."""
    text = 'card "Foundry" #M9 {\n  type: automated  cost: 5\n  play: copy production of 2 \n}\n'
    analysis = analyse(str(tmp_path / "foundry.mars"), text)
    assert {item.label for item in analysis.completions(2, 29)} == {"different"}
    text = text.replace("of 2 ", "of 2 different ")
    analysis = analyse(str(tmp_path / "foundry.mars"), text)
    assert {"building", "space", "jovian"} <= {item.label for item in analysis.completions(2, 39)}


def test_completion_offers_only_what_the_grammar_accepts_at_the_cursor(editor, tmp_path):
    """After `place city next to ` the parser takes a number, `your`, `opponent` or a tile (the rule `next_to`
    takes tiles): a few words, not the whole language."""
    assert set(_labels(_complete(editor, tmp_path, BARN.format("play: place city next to |")))) == {
        "city", "greenery", "ocean", "tile", "your", "opponent", "marker", "no"}
    # `next to no ` (Red City) takes what `next to ` does but a number and a marker
    assert set(_labels(_complete(editor, tmp_path, BARN.format("play: place city next to no |")))) == {
        "city", "greenery", "ocean", "tile", "your", "opponent"}
    # issue 30, trial 9: `remove ... from each opponent` (Public Sponsored Grant), `effect: no TILE next to this tile`
    assert {"any", "your", "each"} <= set(_labels(_complete(editor, tmp_path,
                                                            BARN.format("play: remove 2 plants from |"))))
    assert {"greenery", "city", "tile"} <= set(_labels(_complete(editor, tmp_path, BARN.format("effect: no |"))))
    assert set(_labels(_complete(editor, tmp_path, BARN.format("play: gain 2 |")))) == {
        "megacredits", "steel", "titanium", "plants", "energy", "heat", "more"}  # 2: plants; `gain 2 more space bonus`
    added = _labels(_complete(editor, tmp_path, BARN.format("action: add 1 |")))
    assert {"animal", "microbe", "science", "fighter"} <= set(added) and "plant" not in added
    assert set(_labels(_complete(editor, tmp_path, BARN.format("effect: when you |")))) == {
        "play", "place", "use", "raise", "produce", "add", "send", "gain", "harm", "become"}
    assert set(_labels(_complete(editor, tmp_path, BARN.format("effect: when another player |")))) == {
        "plays", "places", "uses", "raises", "produces", "adds", "sends", "gains", "harms", "becomes"}
    top = _labels(_complete(editor, tmp_path, BARN.format("vp: 1") + "|"))
    assert set(top) == {"card", "corporation", "standard", "milestone", "award", "board", "resource", "tag",
                        "parameter", "rule", "expansion", "piece", "site", "faction", "government", "mark"}


def test_completion_offers_production_after_protect_the_scorers_of_points_and_the_markers(editor, tmp_path):
    """`protect production from opponents` is a construct of its own: after `protect` the editor offers
    `production` beside the resources; a `vp:` may begin with the players who score it; a marker moved is one the
    content places."""
    protected = set(_labels(_complete(editor, tmp_path, BARN.format("effect: protect |"))))
    assert {"production", "heat", "animal"} <= protected and "city" not in protected
    scorers = set(_labels(_complete(editor, tmp_path, BARN.format("vp: |"))))
    assert {"each player", "each opponent"} <= scorers
    nomads = 'card "Nomads" {\n  type: active  cost: 1\n  play: place marker "Nomad" blocking tiles\n}\n'
    moved = _labels(_complete(editor, tmp_path, nomads + BARN.format('action: move marker "|')))
    assert moved == ["Nomad"]


def test_completion_writes_whole_quantity_phrases_and_names_of_the_right_kind(editor, tmp_path):
    phrases = _labels(_complete(editor, tmp_path, BARN.format("vp: 1 per jov|")))  # the editor filters by `jov`
    assert {"jovian tags", "animals here", "cities on mars", "plant production"} <= set(phrases)
    assert "gain" not in phrases and "jovian" not in phrases
    typed = _complete(editor, tmp_path, BARN.format("vp: 1 per 2 animals |"))
    # phrases of several words (a quoted faction's name may start a term too, and a card has `repeatable action:`)
    phrases = {label for label in _labels(typed) if " " in label and label.islower()} - {"repeatable action",
                                                                                         "once per generation"}
    assert phrases == {"animals here", "animals on cards", "animals removed from opponents this generation"}
    assert "plants" not in _labels(typed) and "play" in _labels(typed)  # or the card's next field
    here = next(item for item in typed if item["label"] == "animals here")
    assert here["textEdit"] == {"range": {"start": {"line": 3, "character": 14}, "end": {"line": 3, "character": 22}},
                                "newText": "animals here"}  # the words typed are replaced by the whole phrase
    excepted = _labels(_complete(editor, tmp_path, BARN.format('effect: when you use standard project except "|')))
    assert "Sell Patents" in excepted and "Livestock" not in excepted and "Mayor" not in excepted
    removed = _labels(_complete(editor, tmp_path, BARN.format("requires: all plants removed |")))
    assert "plants removed from opponents this generation" in removed
    used = _labels(_complete(editor, tmp_path, BARN.format('play: use standard project "|')))
    assert "Aquifer" in used and "Livestock" not in used and "Mayor" not in used
    milestones = _labels(_complete(editor, tmp_path, 'board "Mine" {\n  milestones: "|\n}\n'))
    assert "Mayor" in milestones and "Livestock" not in milestones and "Banker" not in milestones
    reserved = _labels(_complete(editor, tmp_path, BARN.format('play: place city on reserved "|')))
    assert "Noctis City" in reserved and "Livestock" not in reserved


def test_completion_of_the_card_verbs_offers_types_tags_and_zones(editor, tmp_path):
    """`move` and `copy play` take a type or a tag before `card`, then closed lists of zones: completion offers
    exactly those words where the grammar takes a name."""
    before_card = set(_labels(_complete(editor, tmp_path, BARN.format("play: move |"))))
    assert {"active", "automated", "earth", "science"} <= before_card and "megacredits" not in before_card
    assert {"play", "events", "hand"} <= set(_labels(_complete(editor, tmp_path,
                                                               BARN.format("play: move card from |"))))
    assert {"hand", "discard", "another"} <= set(_labels(_complete(editor, tmp_path,
                                                                   BARN.format("play: move card from play to |"))))
    assert {"earth", "space"} <= set(_labels(_complete(editor, tmp_path, BARN.format("play: move card with no |"))))
    # the filters a card lacks (issue 30, trial 2), there and after a discount's `cards`
    assert {"requirements", "vp", "special", "global"} <= set(_labels(_complete(
        editor, tmp_path, BARN.format("play: move card with no |"))))
    assert {"requirements", "no", "vp", "special"} <= set(_labels(_complete(
        editor, tmp_path, BARN.format("effect: discount 2 on cards with |"))))
    # the number of tags (issue 30, trial 7: Spire, Sagitta Frontier Services), then its comparison
    assert "tags" in set(_labels(_complete(editor, tmp_path, BARN.format("effect: when you play card with |"))))
    assert {">=", "=="} <= set(_labels(_complete(editor, tmp_path,
                                                 BARN.format("effect: when you play card with tags |"))))


def test_completion_offers_per_after_every_discount_target(editor, tmp_path):
    """A discount may be scaled by a quantity after any target (issue 30, trial 6: Adhai High Orbit Constructions'
    `per 2 orbitals here`): completion offers `per` there, then the quantities' words."""
    for target in ('standard project "Power Plant" ', "space cards ", "standard projects ",
                   'standard action "Sell Patents" '):
        assert "per" in _labels(_complete(editor, tmp_path, BARN.format(f"effect: discount 1 on {target}|")))
    after_per = set(_labels(_complete(editor, tmp_path, BARN.format('effect: discount 1 on standard projects per |'))))
    assert {"cities", "animals"} & after_per


def test_completion_offers_half_after_protect(editor, tmp_path):
    """`protect half plants from opponents` (issue 30, trial 6: Botanical Experience): completion offers `half` where
    a protection begins, beside the resources."""
    after_protect = set(_labels(_complete(editor, tmp_path, BARN.format("effect: protect |"))))
    assert {"half", "animal"} <= after_protect


def test_completion_of_a_shared_reveal_offers_its_words_and_quantities(editor, tmp_path):
    """`reveal` takes a quantity (`players + 1`) before `cards`, then the words of the picks: completion offers
    them where the grammar takes them."""
    after_reveal = set(_labels(_complete(editor, tmp_path, BARN.format("play: reveal |"))))
    assert {"top", "cards", "players"} <= after_reveal
    assert "cards" in _labels(_complete(editor, tmp_path, BARN.format("play: reveal players + 1 |")))
    assert set(_labels(_complete(editor, tmp_path, BARN.format("play: reveal 3 cards, each |")))) == {"player"}
    assert "until none left" in _labels(_complete(editor, tmp_path,
                                                  BARN.format("play: reveal 3 cards, each player takes 1 |")))


def test_completion_offers_must_after_each_opponent_and_each_player(editor, tmp_path):
    """`each opponent must { }` (issue 30, trial 2: Recession): `must` is offered where the grammar takes it, after
    `each opponent`, `each player` and their `with CONDITION`, beside `with`."""
    for who in ("opponent", "player"):
        offered = set(_labels(_complete(editor, tmp_path, BARN.format(f"play: each {who} |"))))
        assert {"must", "with"} <= offered, offered
        after = set(_labels(_complete(editor, tmp_path, BARN.format(f"play: each {who} with cards in hand >= 5 |"))))
        assert "must" in after, after



def test_completion_offers_actions_after_take_and_a_number(editor, tmp_path):
    """`take 2 actions` (issue 30, trial 3: Head Start): after `take` the grammar takes a number or `role`, after
    the number `action` or `actions`."""
    offered = set(_labels(_complete(editor, tmp_path, BARN.format("play: take 2 |"))))
    assert {"actions", "action"} <= offered and "role" not in offered, offered
    assert "role" in set(_labels(_complete(editor, tmp_path, BARN.format("play: take |"))))


def test_completion_offers_the_deciders_after_decided_by(tmp_path):
    """`decided by first player { place ocean }` (issue 30, trial 3: Icy Impactors): after `decided by` the four
    deciders are offered whole, and nothing else."""
    text = 'card "Icy" #M9 {\n  type: active  cost: 5\n  action: decided by \n}\n'
    analysis = analyse(str(tmp_path / "icy.mars"), text)
    assert {item.label for item in analysis.completions(2, 22)} == {
        "first player", "player to your left", "player to your right", "opponent of your choice"}


def test_completion_offers_that_player_in_a_trigger(editor, tmp_path):
    """`that player { }` (issue 30, trial 4: Splice): `that` begins an effect, and `player` follows it."""
    offered = set(_labels(_complete(editor, tmp_path, BARN.format("effect: when any player plays microbe tag -> |"))))
    assert "that" in offered, offered
    after = set(_labels(_complete(editor, tmp_path,
                                  BARN.format("effect: when any player plays microbe tag -> that |"))))
    assert "player" in after, after


def test_completion_offers_next_to_it_after_a_placement(editor, tmp_path):
    """`place greenery next to it` (issue 30, trial 4: PolderTech Dutch) is offered with the placement filters."""
    offered = set(_labels(_complete(editor, tmp_path, BARN.format("play: place ocean; place greenery |"))))
    assert {"next to it", "next", "isolated"} <= offered, offered


def test_completion_offers_collecting_bonus_after_a_claim(editor, tmp_path):
    """`claim space on land collecting space bonus` (issue 30, trial 10: Survey Mission) is offered after a claim's
    filters, as after a marker's move."""
    offered = set(_labels(_complete(editor, tmp_path, BARN.format("play: claim space on land |"))))
    assert {"collecting bonus", "collecting space bonus", "next"} <= offered, offered


def test_completion_offers_if_you_can_and_that_card(editor, tmp_path):
    """`if you can { }` begins an effect, as `may` does (issue 30, trial 10: Valuable Gases), and `that card` is
    offered after `play card from hand; add 5 microbes to`."""
    offered = set(_labels(_complete(editor, tmp_path, BARN.format("play: gain 1 steel; |"))))
    assert {"if you can", "may"} <= offered, offered
    after = set(_labels(_complete(editor, tmp_path,
                                  BARN.format("play: play card from hand; add 5 microbes to |"))))
    assert "that" in after or "that card" in after, after
    placed = set(_labels(_complete(editor, tmp_path, BARN.format("play: place city |"))))
    assert "building twice" in placed, placed   # a piece's (Vital Colony); on a tile it is E301


def test_completion_offers_less_and_more_after_a_card_price(editor, tmp_path):
    """`buy cards for 1 MC less` (issue 30, trial 4: Quantum Research): `less` and `more` follow the price."""
    offered = set(_labels(_complete(editor, tmp_path, BARN.format("effect: buy cards for 1 MC |"))))
    assert {"less", "more"} <= offered, offered


def test_completion_offers_milestones_and_awards_after_a_discount(editor, tmp_path):
    """`discount 8 on milestones` (issue 30, trial 5: Nirgal Enterprises): the two goals follow `on` with the other
    targets of a discount."""
    offered = set(_labels(_complete(editor, tmp_path, BARN.format("effect: discount 8 on |"))))
    assert {"milestones", "awards", "standard", "starting", "cards"} <= offered, offered


def test_completion_offers_action_of_after_a_discount_and_names_with_actions(editor, tmp_path):
    """`discount 3 on action of "Kelvinists"` (issue 30, trial 8: High Temp Superconductors): `action` follows `on`
    with the other targets, and the quoted name offers the cards and factions that have an action, not the others."""
    offered = set(_labels(_complete(editor, tmp_path, BARN.format("effect: discount 3 on |"))))
    assert "action" in offered, offered
    assert "of" in set(_labels(_complete(editor, tmp_path, BARN.format("effect: discount 3 on action |"))))
    names = set(_labels(_complete(editor, tmp_path, BARN.format('effect: discount 3 on action of "|'))))
    assert {"Kelvinists", "Development Center"} <= names, names
    assert "Comet" not in names   # an event: no action


def test_completion_offers_research_deals_as_a_modifier(editor, tmp_path):
    """`research 5 cards buy up to 4` (issue 30, trial 8: Mars Maths): `research` begins a modifier, and its words
    follow."""
    assert "research" in set(_labels(_complete(editor, tmp_path, BARN.format("effect: |"))))
    assert "cards" in set(_labels(_complete(editor, tmp_path, BARN.format("effect: research 5 |"))))
    assert "buy" in set(_labels(_complete(editor, tmp_path, BARN.format("effect: research 5 cards |"))))
    assert "up to" in set(_labels(_complete(editor, tmp_path, BARN.format("effect: research buy |"))))


def test_completion_offers_reusing_one_after_a_send(editor, tmp_path):
    """`send trade fleet reusing one` (issue 30, trial 8: Huygens Observatory): offered after the piece sent."""
    assert "reusing one" in set(_labels(_complete(editor, tmp_path, BARN.format("play: send trade fleet |"))))
    # `send trade fleet to any site taking every bonus` (issue 30, trial 6: Coordinated Raid)
    offered = set(_labels(_complete(editor, tmp_path, BARN.format("play: send trade fleet |"))))
    assert {"to any site", "taking every bonus"} <= offered, offered


def test_completion_offers_keep_energy_as_a_modifier(editor, tmp_path):
    """`keep energy during production` (issue 30, trial 5: Supercapacitors): `keep` begins a modifier, and its
    words follow one by one."""
    assert "keep" in set(_labels(_complete(editor, tmp_path, BARN.format("effect: |"))))
    assert "during" in set(_labels(_complete(editor, tmp_path, BARN.format("effect: keep energy |"))))


def test_completion_offers_skip_as_a_modifier(editor, tmp_path):
    """`skip first 1 tr step each generation` (issue 30, trial 5: Preservation Program): `skip` begins a modifier,
    `first` follows it, and `each` the steps."""
    assert "skip" in set(_labels(_complete(editor, tmp_path, BARN.format("effect: |"))))
    assert "first" in set(_labels(_complete(editor, tmp_path, BARN.format("effect: skip |"))))
    assert "each" in set(_labels(_complete(editor, tmp_path, BARN.format("effect: skip first 1 tr step |"))))


def test_completion_offers_pass_as_an_effect(editor, tmp_path):
    """`play: pass` (issue 30, trial 5: Red Appeasement): `pass` begins an effect."""
    assert "pass" in set(_labels(_complete(editor, tmp_path, BARN.format("play: gain 1 plant; |"))))


# ---------------------------------------------------------------------------- formatting, navigation, fixes

def _apply(text: str, edits: list[dict]) -> str:
    """The text once an editor applies LSP edits (ASCII text: characters are UTF-16 units)."""
    lines = text.split("\n")

    def offset(position: dict) -> int:
        return sum(len(line) + 1 for line in lines[:position["line"]]) + position["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        text = text[:offset(edit["range"]["start"])] + edit["newText"] + text[offset(edit["range"]["end"]):]
    return text


MESSY = ('// the cows\ncard "Cow Shed" #M2 {\n  cost: 4   type: automated\n  tags: animal,building\n'
         '  play: gain 2 plants   // hay\n}\n')


def test_formatting_is_what_tharsis_fmt_writes(editor, tmp_path):
    from tharsis.designer.fmt import format_text

    uri, _ = _open(editor, tmp_path / "shed.mars", MESSY)
    edits = editor.request("textDocument/formatting", {"textDocument": {"uri": uri},
                                                       "options": {"tabSize": 2, "insertSpaces": True}})
    formatted = _apply(MESSY, edits)
    assert formatted == format_text(MESSY, str(tmp_path / "shed.mars"), with_bundled=True) != MESSY
    assert "// hay" in formatted and formatted.startswith("// the cows\n")
    editor.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": formatted}]})
    assert editor.request("textDocument/formatting", {"textDocument": {"uri": uri},
                                                      "options": {"tabSize": 2, "insertSpaces": True}}) == []
    broken, _ = _open(editor, tmp_path / "broken.mars", MESSY.replace("animal,", "aminal,"))
    assert editor.request("textDocument/formatting", {"textDocument": {"uri": broken},
                                                      "options": {"tabSize": 2, "insertSpaces": True}}) is None
    # two end-of-line comments that would share the canonical line: fmt refuses, and the editor is told why
    crowded, _ = _open(editor, tmp_path / "crowded.mars",
                       'card "X" #M1 {\n  type: active  // one\n  cost: 5  // two\n  play: gain 1 heat\n}\n')
    assert editor.request("textDocument/formatting", {"textDocument": {"uri": crowded},
                                                      "options": {"tabSize": 2, "insertSpaces": True}}) is None
    [message] = [m["params"] for m in editor.seen if m.get("method") == "window/showMessage"]  # came before
    assert message["type"] == 2 and message["message"].startswith("tharsis fmt: not formatted: E805")


def test_a_quick_fix_for_each_fix_the_compiler_knows(editor, tmp_path):
    uri, [diagnostic] = _open(editor, tmp_path / "cows.mars", COWS)
    assert diagnostic["code"] == "E102"  # `aminal`: a single close match, `animal`
    actions = editor.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diagnostic["range"],
        "context": {"diagnostics": [diagnostic], "only": ["quickfix"]}})
    [action] = actions
    assert action["title"] == "Replace 'aminal' with 'animal'" and action["kind"] == "quickfix"
    assert action["isPreferred"] and action["diagnostics"][0]["code"] == "E102"
    assert action["edit"] == {"changes": {uri: [{"range": diagnostic["range"], "newText": "animal"}]}}
    elsewhere = {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 5}}
    assert editor.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": elsewhere,
                                                      "context": {"diagnostics": []}}) == []
    [fix_all] = editor.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": elsewhere,
                                                           "context": {"diagnostics": [], "only": ["source"]}})
    assert fix_all["kind"] == "source.fixAll" and fix_all["edit"] == action["edit"]
    editor.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"text": _apply(COWS, action["edit"]["changes"][uri])}]})
    assert editor.notification("textDocument/publishDiagnostics")["diagnostics"] == []


def test_go_to_definition_finds_declarations_and_definitions_bundled_or_yours(editor, tmp_path):
    from tharsis.compiler import bundled_cards_path

    declarations = tmp_path / "declarations.mars"
    declarations.write_text("// the farm's words\nresource moo\ntag farm\n", encoding="utf-8")
    text = ('card "Space Cows" #M1 {\n  type: active  cost: 5  tags: farm, building\n  holds: moo\n'
            '  action: add 1 moo here\n  vp: 1 per 2 moos here\n'
            '  effect: discount 1 on standard project "Power Plant"\n}\n')
    uri, diagnostics = _open(editor, tmp_path / "cows.mars", text)
    assert diagnostics == []

    def definition(line: int, character: int):
        return editor.request("textDocument/definition", {"textDocument": {"uri": uri},
                                                          "position": {"line": line, "character": character}})

    moo = [{"uri": declarations.as_uri(), "range": {"start": {"line": 1, "character": 9},
                                                    "end": {"line": 1, "character": 12}}}]
    assert definition(2, 10) == definition(3, 17) == definition(4, 15) == moo  # `moos` is `moo` too
    assert definition(1, 34) == [{"uri": declarations.as_uri(), "range": {"start": {"line": 2, "character": 4},
                                                                          "end": {"line": 2, "character": 8}}}]
    assert definition(1, 40) is None  # `building` is printed on cards, declared nowhere
    [power] = definition(5, 45)
    projects = bundled_cards_path() / "standard" / "standard-projects.mars"
    line = projects.read_text(encoding="utf-8").split("\n").index('standard project "Power Plant" {')
    assert power == {"uri": projects.resolve().as_uri(), "range": {"start": {"line": line, "character": 17},
                                                                  "end": {"line": line, "character": 30}}}


def test_the_outline_lists_the_definitions_and_their_fields(editor, tmp_path):
    text = ('resource moo\n' + COWS.replace("aminal", "animal") +
            'milestone "Herder" { requires: animal tags >= 3 }\n')
    uri, _ = _open(editor, tmp_path / "farm.mars", text)
    symbols = editor.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [(s["name"], s["kind"]) for s in symbols] == [("moo", 22), ("Space Cows", 5), ("Herder", 24)]
    cows = symbols[1]
    assert cows["detail"] == "active card, 5 MC" and cows["selectionRange"]["start"] == {"line": 1, "character": 5}
    assert cows["range"] == {"start": {"line": 1, "character": 0}, "end": {"line": 7, "character": 1}}
    assert [field["name"] for field in cows["children"]] == ["type", "cost", "tags", "holds", "play", "action",
                                                             "vp"]
    assert cows["children"][4]["detail"] == "gain 2 plants"


def _decoded(data: list[int], legend: dict) -> list[tuple]:
    """LSP's relative semantic tokens as (line, character, length, type, modifiers)."""
    tokens, line, character = [], 0, 0
    for index in range(0, len(data), 5):
        delta_line, delta_start, length, kind, bits = data[index:index + 5]
        line, character = line + delta_line, (character if delta_line == 0 else 0) + delta_start
        modifiers = tuple(m for n, m in enumerate(legend["tokenModifiers"]) if bits & (1 << n))
        tokens.append((line, character, length, legend["tokenTypes"][kind], modifiers))
    return tokens


def test_semantic_tokens_colour_each_word_by_what_the_grammar_makes_of_it(tmp_path):
    client = Editor(tmp_path)
    capabilities = client.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(),
                                                 "capabilities": {}})["capabilities"]
    client.notify("initialized", {})
    legend = capabilities["semanticTokensProvider"]["legend"]
    text = ('tag farm  // a new tag\ncard "Greenhouse" #M4 {\n  type: automated  cost: 6  tags: plant, farm\n'
            '  play: gain 2 plants; oxygen +1\n  effect: discount 2 on standard project "Greenery"\n}\n')
    uri, _ = _open(client, tmp_path / "greenhouse.mars", text)
    tokens = _decoded(client.request("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})["data"],
                      legend)
    lines = text.split("\n")
    by_text = {(lines[line][start:start + length], line): (kind, modifiers)
               for line, start, length, kind, modifiers in tokens}
    assert by_text[("tag", 0)] == ("keyword", ()) and by_text[("farm", 0)] == ("type", ("declaration",))
    assert by_text[("// a new tag", 0)] == ("comment", ())
    assert by_text[('"Greenhouse"', 1)] == ("class", ("declaration",)) and by_text[("#M4", 1)][0] == "number"
    assert by_text[("tags:", 2)] == ("property", ()) and by_text[("plant", 2)] == ("type", ("defaultLibrary",))
    assert by_text[("farm", 2)] == ("type", ())  # declared, not printed
    assert by_text[("plants", 3)] == ("enumMember", ("defaultLibrary",))  # the same word, a resource here
    assert by_text[("oxygen", 3)] == ("variable", ("defaultLibrary",)) and by_text[("+1", 3)][0] == "number"
    assert by_text[('"Greenery"', 4)] == ("class", ())  # refers to the standard project
    assert client.close() == 0


def test_a_project_is_rooted_at_the_folder_that_holds_tool_tharsis(editor, tmp_path):
    """`tharsis check` at the root checks the `cards` of [tool.tharsis] together: the editor compiles a file of
    those folders with all of them, and a file elsewhere with its own folder."""
    (tmp_path / "pyproject.toml").write_text('[tool.tharsis]\ncards = ["cards"]\n', encoding="utf-8")
    (tmp_path / "cards" / "words").mkdir(parents=True)
    (tmp_path / "cards" / "herd").mkdir()
    (tmp_path / "scratch").mkdir()
    words = tmp_path / "cards" / "words" / "declarations.mars"
    words.write_text("resource moo\n", encoding="utf-8")
    text = COWS.replace("aminal", "animal").replace("holds: animal", "holds: moo").replace("1 animal", "1 moo") \
        .replace("per animal here", "per moo here")
    uri, diagnostics = _open(editor, tmp_path / "cards" / "herd" / "cows.mars", text)
    assert diagnostics == []
    assert editor.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": {
        "line": 2, "character": 10}})[0]["uri"] == words.as_uri()
    _, outside = _open(editor, tmp_path / "scratch" / "cows.mars", text)
    assert {d["code"] for d in outside} == {"E101"}  # not in the project's cards: `moo` is declared nowhere near


def _mars_texts(repo: Path):
    """Every bundled card file and every card text example of the docs."""
    from tharsis.compiler import bundled_cards_path

    for path in sorted(bundled_cards_path().rglob("*.mars")):
        yield str(path), path.read_text(encoding="utf-8")
    for doc in sorted((repo / "docs").glob("*.md")):
        for index, block in enumerate(re.findall(r"```mars\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)):
            yield f"{doc.name}#{index + 1}", block


def test_every_name_of_the_bundled_content_and_the_docs_is_understood(repo):
    """Each name and quoted name has a role (roles.py) from the grammar rule that holds it, so completion, colours
    and go-to-definition know it; a word of a quantity may be a linking word (`on`, `here`)."""
    from tharsis.designer.lsp import grammar_context, roles

    for name, text in _mars_texts(repo):
        for definition in grammar_context.definitions(text):
            reading = grammar_context.read(definition)
            assert reading.complete or definition.kind is None, (name, definition.line)
            for token in reading.tokens:
                if token.type in ("NAME", "STRING"):
                    assert roles.role(token.holders, token.type), (name, token)


def test_every_rule_of_the_grammar_that_holds_a_name_gives_it_a_role():
    """A new rule in grammar/tharsis.lark that takes a name needs a line in roles.py, or completion, colours and
    go-to-definition would not know what its names are."""
    from collections import defaultdict

    from tharsis.compiler.parser import lark_parser
    from tharsis.designer.lsp import grammar_context, roles

    rules = lark_parser().rules
    users = defaultdict(list)
    for rule in rules:
        for symbol in rule.expansion:
            users[symbol.name].append(rule)

    def holders(rule, seen=()):  # the rules whose tree nodes hold the symbols of `rule`
        if not grammar_context.transparent(rule):
            return [rule]
        return [h for user in users[rule.origin.name] if user not in seen for h in holders(user, seen + (rule,))]

    missing = set()
    for rule in rules:
        for index, symbol in enumerate(rule.expansion):
            if symbol.name not in ("NAME", "STRING"):
                continue
            table = roles.NAME_ROLES if symbol.name == "NAME" else roles.STRING_ROLES
            ordinal = sum(1 for s in rule.expansion[:index] if s.name == "NAME")
            for holder in holders(rule):
                name = str(holder.alias or holder.origin.name)
                if name in table or f"{name}#{ordinal}" in table:
                    continue
                parents = {str(p.alias or p.origin.name) for user in users[holder.origin.name]
                           for p in holders(user)}
                keys = {f"{name}<{parent}" for parent in parents} or {name}
                missing |= {(symbol.name, key) for key in keys if key not in table}
    assert missing == set()


# ---------------------------------------------------------------------------- a burst of edits compiles once

def test_a_burst_of_edits_compiles_once_and_hover_sees_the_latest_text(editor, tmp_path):
    """50 rapid edits to an 11 KB file used to compile 50 times (3.6-7 s before a hover answered): the changes are
    coalesced, and the hover compiles the latest text first."""
    uri = (tmp_path / "herd.mars").as_uri()
    cows = COWS.replace("aminal", "animal")
    text = "".join(cows.replace("Space Cows", f"Cows {n}").replace("#M1", f"#M{n}") for n in range(75))
    assert len(text) > 11_000
    editor.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "tharsis", "version": 1,
                                                            "text": text}})
    assert editor.notification("textDocument/publishDiagnostics")["version"] == 1
    name_end = {"line": 0, "character": len('card "Cows 0')}
    burst = b"".join(frame({"method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": version},
        "contentChanges": [{"range": {"start": name_end, "end": name_end}, "text": "x"}]}})
        for version in range(2, 52))
    start = len(editor.seen)
    editor.send_bytes(burst)
    hover = editor.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": 0, "character": 8}})
    assert hover["contents"]["value"].startswith("**Cows 0" + "x" * 50 + " (#M0)")
    time.sleep(1.5)  # longer than the server waits for a pause: any compile still due has published by now
    editor.drain()
    published = [m["params"]["version"] for m in editor.seen[start:]
                 if m.get("method") == "textDocument/publishDiagnostics"]
    assert published[-1:] == [51] and len(published) <= 2, published  # 1, or 2 on a slow machine; it was 50


def test_diagnostics_follow_a_change_without_any_request(editor, tmp_path):
    uri = (tmp_path / "cows.mars").as_uri()
    editor.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "tharsis", "version": 1,
                                                            "text": COWS.replace("aminal", "animal")}})
    assert editor.notification("textDocument/publishDiagnostics")["diagnostics"] == []
    editor.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": COWS}]})
    published = editor.notification("textDocument/publishDiagnostics")
    assert published["version"] == 2 and [d["code"] for d in published["diagnostics"]] == ["E102"]


# ---------------------------------------------------------------------------- the lifecycle

def test_exit_without_shutdown_exits_with_1(editor):
    editor.notify("exit", None)
    assert editor.wait() == 1


def test_requests_after_shutdown_are_answered_invalid_request_and_exit_then_exits_with_0(editor, tmp_path):
    assert editor.request("shutdown", None) is None
    uri = (tmp_path / "cows.mars").as_uri()
    refused = editor.answer("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": 0, "character": 0}})
    assert refused["error"]["code"] == -32600 and "shut down" in refused["error"]["message"]
    assert editor.answer("shutdown", None)["error"]["code"] == -32600
    editor.notify("exit", None)
    assert editor.wait() == 0


def test_the_end_of_the_input_ends_the_server(editor):
    editor.process.stdin.close()
    assert editor.wait() == 1  # the editor went away without shutdown


# ---------------------------------------------------------------------------- broken frames

SHUTDOWN = frame({"id": 99, "method": "shutdown"})
BROKEN_FRAMES = {
    "no Content-Length": (b"Content-Type: application/vscode-jsonrpc\r\n\r\n{}", "without a Content-Length"),
    "Content-Length abc": (b"Content-Length: abc\r\n\r\n{}", "not a number of bytes: 'abc'"),
    "Content-Length -5": (b"Content-Length: -5\r\n\r\n{}", "not a number of bytes: '-5'"),
    "a body shorter than its length": (b"Content-Length: 60\r\n\r\n{}", "not a header field"),
    "a body longer than its length": (b"Content-Length: 1\r\n\r\n{}", "(Name: value): '}Content-Length"),
    "a Content-Length of 5,000 digits": (b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n{}", "longer than 1024 bytes"),
    "a Content-Length of 40 digits": (b"Content-Length: " + b"9" * 40 + b"\r\n\r\n{}", "of 40 digits, over the limit"),
    "a message over the limit": (b"Content-Length: 1000000000\r\n\r\n{}", "1,000,000,000 bytes, over the limit"),
    "a header line without its name": (b": 5\r\n\r\n{}", "not a header field"),
    "two lengths": (b"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", "two Content-Length headers"),
    "a bare carriage return": (b"Content-Length: 2\rX\r\n\r\n{}", "not a header field"),
}


@pytest.mark.parametrize("case", BROKEN_FRAMES)
def test_a_broken_frame_ends_the_server_with_E722_not_a_hang(editor, case):
    data, why = BROKEN_FRAMES[case]
    editor.send_bytes(data + SHUTDOWN)  # the editor goes on, and would wait for this answer forever
    assert editor.wait() == 1
    stderr = editor.stderr()
    assert "error[E722]: the language server's input is not LSP" in stderr and why in stderr, stderr
    assert "internal error" not in stderr


def test_a_well_framed_message_that_is_not_json_rpc_is_answered_and_the_session_goes_on(editor):
    editor.send_bytes(b"Content-Length: 5\r\n\r\nhello" + frame({"id": 7, "method": "textDocument/hover",
                                                                  "params": {"textDocument": 3}}))
    parse_error = editor._wait(lambda m: "error" in m and m.get("id") is None)
    assert parse_error["error"]["code"] == -32700 and "not JSON" in parse_error["error"]["message"]
    invalid_params = editor._wait(lambda m: m.get("id") == 7)
    assert invalid_params["error"]["code"] == -32602
    for body, code in ((b"[1, 2]", -32600), (b'{"jsonrpc": "2.0", "id": NaN}', -32700), (b"[" * 100_000, -32700),
                       (b'{"jsonrpc": "2.0", "id": 1e999, "method": "shutdown"}', -32600)):
        editor.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        assert editor._wait(lambda m: "error" in m)["error"]["code"] == code, body[:40]
    editor.notify("textDocument/didOpen", {"textDocument": {"uri": "untitled:Untitled-1", "languageId": "tharsis",
                                                            "version": 1, "text": COWS}})
    assert editor.notification("textDocument/publishDiagnostics")["diagnostics"][0]["code"] == "E102"


# ---------------------------------------------------------------------------- in this process: stalls and fuzzing

class Served:
    """The server on two pipes in this process, with a short stall limit: many short sessions cost milliseconds
    each, where a subprocess costs most of a second. `outcome` gets what `tharsis lsp` would end with: its exit
    code, "E722" for a refused input, or the exception that the command would report as an internal error."""

    def __init__(self, stall: float = 0.5):
        from tharsis.designer.lsp.server import serve

        server_in, self._to_server = os.pipe()
        self._from_server, server_out = os.pipe()
        self.messages: queue.Queue = queue.Queue()
        self.outcome: queue.Queue = queue.Queue()

        def run() -> None:
            with open(server_in, "rb") as stdin, open(server_out, "wb") as stdout:
                try:
                    self.outcome.put(serve(stdin, stdout, stall=stall))
                except ProblemError as exc:
                    self.outcome.put(exc.problems[0].code if exc.exit_code == 1 else exc)
                except BaseException as exc:  # noqa: B036 (whatever it is, the test reports it)
                    self.outcome.put(exc)

        threading.Thread(target=run, daemon=True).start()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with open(self._from_server, "rb") as stream:
            while True:
                header = stream.readline()
                if not header:
                    return
                assert header.startswith(b"Content-Length: "), header
                length = int(header.split(b":")[1])
                while stream.readline() not in (b"\r\n", b""):
                    pass
                self.messages.put(json.loads(stream.read(length)))

    def send(self, data: bytes) -> None:
        os.write(self._to_server, data)

    def close(self) -> None:
        os.close(self._to_server)

    def answer_or_end(self, wanted_id, timeout: float):
        """The response to `wanted_id`, or else how the server ended; None when neither came in `timeout` s."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                message = self.messages.get(timeout=0.05)
                if message.get("id") == wanted_id and "method" not in message:
                    return message
            except queue.Empty:
                pass
            if not self.outcome.empty():
                return self.outcome.get()
        return None


INITIALIZE = frame({"id": 0, "method": "initialize", "params": {"processId": None, "rootUri": None,
                                                                 "capabilities": {}}})


def test_a_message_that_stops_short_ends_the_server_after_the_stall_limit():
    served = Served(stall=0.5)
    served.send(INITIALIZE)
    assert served.answer_or_end(0, TIMEOUT)["result"]["capabilities"]
    served.send(b"Content-Length: 500\r\n\r\n" + frame({"id": 1, "method": "shutdown"}))
    assert served.answer_or_end(1, TIMEOUT) == "E722"  # not answered: read as the rest of the first message
    served.close()


def test_the_end_of_the_input_inside_a_message_is_E722():
    for broken in (b"Content-Length: 500\r\n\r\n{}", b"Content-Len", b"Content-Length: 2\r\n"):
        served = Served(stall=TIMEOUT)
        served.send(broken)
        served.close()
        assert served.answer_or_end(None, TIMEOUT) == "E722", broken


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                     lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children,
                                                                                        max_size=3), max_leaves=8)
_MESSAGES = st.fixed_dictionaries({"jsonrpc": st.sampled_from(["2.0", "2.0", "1.0"])}, optional={
    "id": st.none() | st.integers(-2, 2**40) | st.text(max_size=5) | st.booleans() | st.floats(),
    "method": st.sampled_from(["initialize", "initialized", "shutdown", "exit", "textDocument/didOpen",
                               "textDocument/didChange", "textDocument/hover", "textDocument/completion",
                               "textDocument/definition", "textDocument/formatting", "textDocument/codeAction",
                               "textDocument/documentSymbol", "textDocument/semanticTokens/full",
                               "textDocument/didClose", "$/cancelRequest", "nonsense"]) | st.text(max_size=5),
    "params": _JSON | st.fixed_dictionaries({
        "textDocument": st.fixed_dictionaries({"uri": st.sampled_from(["untitled:u", "file:///nowhere/a.mars", "x"])},
                                              optional={"text": st.text(max_size=40), "version": st.integers(),
                                                        "languageId": st.just("tharsis")}),
        "position": st.fixed_dictionaries({"line": st.integers(-1, 3), "character": st.integers(-1, 50)})}),
    "result": _JSON})
_BODIES = st.one_of(
    _MESSAGES.map(lambda m: json.dumps(m, allow_nan=True).encode()),
    _JSON.map(lambda value: json.dumps(value).encode()),
    st.binary(max_size=60))
_LINE_ENDS = st.sampled_from([b"\r\n"] * 6 + [b"\n", b"", b"\r"])


@st.composite
def _frames(draw) -> bytes:
    """A frame as a confused or hostile client might send it: a header of fitting, wrong or absurd lengths and odd
    fields and line ends, and a body that may be a message, any JSON, or bytes."""
    body = draw(_BODIES)
    length = draw(st.sampled_from([str(len(body))] * 4 + [None]))  # mostly the right length, so bodies are read
    if length is None:
        length = draw(st.integers(-3, len(body) + 40).map(str) | st.integers(1, 5000).map(lambda n: "9" * n) |
                      st.text(max_size=6))
    fields = [b"Content-Length: " + length.encode("utf-8", "surrogatepass")]
    fields += draw(st.lists(st.sampled_from([b"Content-Type: application/vscode-jsonrpc; charset=utf-8",
                                             b"X-Thing: 1", b"Content-Length: 2", b""]) | st.binary(max_size=30),
                            max_size=2))
    order = draw(st.permutations(fields))
    return b"".join(field + draw(_LINE_ENDS) for field in order) + draw(_LINE_ENDS) + body


FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                max_examples=int(os.environ.get("THARSIS_FUZZ_EXAMPLES", "60")))


_PIECES = ['card "A" #M1 {', 'corporation "B" {', 'standard project "P" {', 'board "B" {', 'resource moo',
           'tag farm', '}', '{', '(', ')', '"', '"x"', 'type:', 'cost:', 'tags:', 'play:', 'action:', 'effect:',
           'requires:', 'vp:', 'first action:', 'row:', 'gain', 'place', 'city', 'next to', 'on reserved',
           'when you play', 'per', '2', '-1', '+1', 'X', 'choose', '|', ';', '->', 'animal', 'plants', 'jovian tags',
           '>=', '9%', '\n', '\n  ', ' ', '// tharsis: ignore[W102]', '#', '🐄', '\t', 'land(2 steel)', 'except',
           'discount 1 on standard project', 'use', 'here', 'as', 'megacredits', '\r\n']


@FUZZ
@given(pieces=st.lists(st.sampled_from(_PIECES), max_size=40), spots=st.lists(st.tuples(
    st.integers(0, 12), st.integers(0, 80)), min_size=1, max_size=4))
def test_fuzz_every_feature_answers_on_any_text_at_any_position(pieces, spots):
    """Half-written card text, as an editor sends it while you type: every feature answers (possibly with
    nothing), never an exception."""
    analysis = analyse("untitled:fuzz", " ".join(pieces), on_disk=False)
    analysis.diagnostics()
    analysis.semantic_tokens()
    analysis.symbols()
    analysis.formatted()
    for line, character in spots:
        analysis.completions(line, character)
        analysis.definition(line, character)
        analysis.hover(line, character)
        analysis.fixes(Range(line, 0, line, character))


@FUZZ
@given(frames=st.lists(_frames(), min_size=1, max_size=3))
def test_fuzz_random_frames_are_answered_or_end_the_server_never_a_hang_nor_an_internal_error(frames):
    """After any frames, a request is answered, or the server has ended with 0, 1 or E722, within a bound time
    (the stall limit is half a second here): never silence, never an internal error (exit 3)."""
    served = Served(stall=0.5)
    try:
        served.send(INITIALIZE)
        assert served.answer_or_end(0, TIMEOUT) is not None
        served.send(b"".join(frames) + frame({"id": "probe", "method": "shutdown"}))
        outcome = served.answer_or_end("probe", 10)
        assert outcome is not None, "neither an answer nor an end in 10 s"
        assert isinstance(outcome, dict) or outcome in (0, 1, "E722"), outcome
    finally:
        served.close()


def test_completion_offers_who_harmed_you_after_a_steal(editor, tmp_path):
    """`steal 3 megacredits from any player who harmed you this generation` (issue 30, trial 4: Law Suit): the filter
    is offered whole after `from any player`."""
    offered = set(_labels(_complete(editor, tmp_path, BARN.format("play: steal 3 megacredits from any player |"))))
    assert "who harmed you this generation" in offered, offered


def test_completion_offers_the_harm_trigger_give_and_turning_face_down(editor, tmp_path):
    """`when any player harms another player -> give up to 3 megacredits to the victim` (Mons Insurance) and `turn
    this card face down` (Pharmacy Union), issue 30, trial 4: the event after the subject, the recipients whole after
    `to`, and the verbs where an effect begins."""
    events = set(_labels(_complete(editor, tmp_path, BARN.format("effect: when any player |"))))
    assert "harms" in events, events
    whom = set(_labels(_complete(editor, tmp_path, BARN.format("effect: when any player harms |"))))
    assert {"another", "you"} <= whom, whom
    recipients = set(_labels(_complete(editor, tmp_path, BARN.format(
        "effect: when any player harms another player -> give up to 3 megacredits to |"))))
    assert {"the victim", "that player"} <= recipients, recipients
    verbs = set(_labels(_complete(editor, tmp_path, BARN.format("action: |"))))
    assert {"give", "turn"} <= verbs, verbs
    after_turn = set(_labels(_complete(editor, tmp_path, BARN.format("action: turn |"))))
    assert after_turn == {"this"}, after_turn


def test_completion_offers_this_card_and_that_players_events_after_move(editor, tmp_path):
    """`move this card to that player's events` (issue 30, trial 4: Law Suit): `this card` is offered after `move`,
    and the destination whole after `to`."""
    after_move = set(_labels(_complete(editor, tmp_path, BARN.format("play: steal 3 megacredits from any player; "
                                                                     "move |"))))
    assert "this card" in after_move, after_move
    after_to = set(_labels(_complete(editor, tmp_path, BARN.format("play: steal 3 megacredits from any player; move "
                                                                   "this card to |"))))
    assert "that player's events" in after_to, after_to


def test_completion_offers_here_as_a_destination_and_the_kept_playable_effect(editor, tmp_path):
    """Cards kept on a card (issue 30, trial 4: Self-Replicating Robots): `here` is offered as where a card moves,
    `resources` after `with N`, and the passive whole at an `effect:`."""
    destination = set(_labels(_complete(editor, tmp_path, BARN.format("action: move card from hand to |"))))
    assert "here" in destination, destination
    kept = set(_labels(_complete(editor, tmp_path, BARN.format("action: move card from hand to here with 2 |"))))
    assert "resources" in kept, kept
    passive = set(_labels(_complete(editor, tmp_path, BARN.format("effect: |"))))
    assert "cards here may be played as if from hand" in passive, passive


def test_completion_offers_the_words_of_the_leader_trigger_one_by_one(tmp_path):
    """`when you become leader of a faction` (issue 30, trial 5): after `become` only `leader`, then `of`, then
    `a faction`, from the grammar."""
    base = 'card "Whip" #M9 {\n  type: active  cost: 5\n  effect: when you become '
    for written, offered in (("", {"leader"}), ("leader ", {"of"}), ("leader of ", {"a faction"})):
        text = base + written + "\n}\n"
        analysis = analyse(str(tmp_path / "whip.mars"), text)
        assert {item.label for item in analysis.completions(2, len(base) - base.rindex("\n") - 1 + len(written))} \
            == offered


def test_completion_offers_the_words_of_playing_from_zones_and_revealing_one_by_one(editor, tmp_path):
    """Playing from elsewhere than the hand (issue 30, trial 9: Odyssey, Oumuamua Type Object Survey): the zones after
    `play event from`, `then discard` after the zone, `one by one` after `reveal 2 cards`, `for free` and `ignoring
    requirements` after `play it`, and the events' tags passive whole at an `effect:`, all from the grammar."""
    zones = set(_labels(_complete(editor, tmp_path, BARN.format("action: play event from |"))))
    assert {"hand", "events"} <= zones, zones
    after = set(_labels(_complete(editor, tmp_path, BARN.format("action: play event from events |"))))
    assert "then discard" in after, after
    order = set(_labels(_complete(editor, tmp_path, BARN.format("action: reveal 2 cards |"))))
    assert "one by one" in order, order
    played = set(_labels(_complete(editor, tmp_path, BARN.format(
        "action: reveal 2 cards one by one { with space tag -> play it | }"))))
    assert {"for free", "ignoring requirements"} <= played, played
    passive = set(_labels(_complete(editor, tmp_path, BARN.format("effect: |"))))
    assert "your events' tags count" in passive, passive
