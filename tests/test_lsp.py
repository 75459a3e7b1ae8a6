"""`tharsis lsp` as an editor meets it: the server runs as a subprocess and we speak LSP JSON-RPC on its stdio.

A designer opens a card file with a typo, sees the diagnostic under the word with its code, fixes it and sees the
diagnostic go; hovers a card's name for its rules text and a word for its meaning; completes names.
"""

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server is an optional extra: pip install 'tharsis[lsp]'")

from tharsis.cli import main  # noqa: E402
from tharsis.compiler import compile_text  # noqa: E402
from tharsis.compiler.checker import FIELDS  # noqa: E402
from tharsis.lsp import glossary  # noqa: E402
from tharsis.lsp.analysis import analyse  # noqa: E402

TIMEOUT = 30


class Editor:
    """The client side of LSP: Content-Length framed JSON-RPC over the server's stdin and stdout."""

    def __init__(self, cwd: Path):
        self.process = subprocess.Popen([sys.executable, "-m", "tharsis", "lsp"], cwd=cwd, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue = queue.Queue()
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
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        message = self._wait(lambda m: m.get("id") == self.next_id and "method" not in m)
        assert "error" not in message, message
        return message["result"]

    def notification(self, method: str) -> dict:
        return self._wait(lambda m: m.get("method") == method)["params"]

    def _wait(self, wanted) -> dict:
        while True:
            try:
                message = self.messages.get(timeout=TIMEOUT)
            except queue.Empty:
                raise AssertionError(f"no answer from the server in {TIMEOUT} s; stderr: "
                                     f"{self.process.stderr.read1(4000).decode(errors='replace')}") from None
            if wanted(message):
                return message

    def close(self) -> int:
        self.request("shutdown", None)
        self.notify("exit", None)
        try:
            return self.process.wait(TIMEOUT)
        finally:
            if self.process.poll() is None:
                self.process.kill()


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


def test_hover_shows_rules_text_and_word_meanings_and_completion_offers_names(editor, tmp_path):
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
    assert fields["holds"]["insertText"] == "holds: " and "first action" in fields and "gain" not in fields

    quoted = editor.request("textDocument/completion", position(9, 45))["items"]
    power = next(item for item in quoted if item["label"] == "Power Plant")
    assert power["textEdit"] == {"range": {"start": {"line": 9, "character": 42}, "end": {"line": 9, "character": 45}},
                                 "newText": 'Power Plant"'}
    assert [item["detail"] for item in quoted if item["label"] == "Power Plant"] == [
        "Power Plant — standard project, 11 MC"]  # not the card of the same name: a standard project is named
    assert "Livestock" not in {item["label"] for item in quoted}
    names = editor.request("textDocument/completion", position(0, 7))["items"]
    assert any(item["label"] == "Livestock" and "Action: Add 1 animal" in item["documentation"]["value"]
               for item in names)


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
    monkeypatch.delitem(sys.modules, "tharsis.lsp.server", raising=False)
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
        text = (f'card "Q" #Q1 {{\n  type: active  cost: 1  holds: {holds}\n  play: place city\n'
                f'  vp: 1 per {phrase}\n}}\n')
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
