"""The TextMate grammar (grammar/tharsis.tmLanguage.json) colours every card file an editor opens.

It is generated from the compiler's words (tharsis/designer/lsp/textmate.py), and tokenised here by the engine VS Code
itself runs, vscode-textmate on Oniguruma (tests/textmate/tokenize.js under node), on every bundled card file and
every card text example of the docs. A character is *unknown* when the grammar gives it no scope of its own (only
the root scope `source.tharsis`) or calls it invalid (`invalid.*`): there must be none. Needs node (CI has it) and
`npm ci --prefix tests/textmate`; without node the tokenising tests skip and say why.
"""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tharsis.compiler import bundled_cards_path, vocabulary as v
from tharsis.compiler.pipeline import (
    declarations,
    declared_card_kinds,
    declared_factions,
    declared_marks,
    declared_parameters,
    declared_pieces,
)
from tharsis.designer.lsp import textmate

REPO = Path(__file__).resolve().parents[1]
GRAMMAR = REPO / "grammar" / "tharsis.tmLanguage.json"
TOOLS = Path(__file__).resolve().parent / "textmate"
ROOT = "source.tharsis"
NAME = "variable.other.name.tharsis"   # a word no list of the grammar knows: a name a designer declares


def _texts() -> dict[str, str]:
    texts = {}
    for path in sorted(bundled_cards_path().rglob("*.mars")):
        texts[str(path.relative_to(bundled_cards_path()))] = path.read_text(encoding="utf-8")
    for doc in sorted((REPO / "docs").glob("*.md")):
        for index, block in enumerate(re.findall(r"```mars\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)):
            texts[f"docs/{doc.name} example {index + 1}"] = block
    return texts


def _tokenise(texts: dict[str, str]) -> dict[str, list[tuple[int, str, list[str]]]]:
    """Each text's tokens that hold more than white space: (line, text, scopes)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the TextMate grammar is tokenised by vscode-textmate under node "
                    "(install node 18 or later, then: npm ci --prefix tests/textmate)")
    if not (TOOLS / "node_modules" / "vscode-textmate").is_dir():
        pytest.fail("vscode-textmate is not installed for the TextMate test: run npm ci --prefix tests/textmate")
    run = subprocess.run([node, str(TOOLS / "tokenize.js"), str(GRAMMAR)], input=json.dumps({"texts": texts}),
                         capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert run.returncode == 0, run.stderr
    tokens = {}
    for name, found in json.loads(run.stdout).items():
        lines = texts[name].split("\n")
        tokens[name] = [(line, _utf16_slice(lines[line], start, end), scopes) for line, start, end, scopes in found]
    return tokens


def _utf16_slice(line: str, start: int, end: int) -> str:
    """JavaScript counts columns in UTF-16 units."""
    return line.encode("utf-16-le")[2 * start:2 * end].decode("utf-16-le")


def _unknown(scopes: list[str]) -> bool:
    return scopes == [ROOT] or any(scope.startswith("invalid") for scope in scopes)


def test_the_committed_grammar_is_generated_from_the_compilers_words():
    assert GRAMMAR.read_text(encoding="utf-8") == textmate.render(), \
        "run: python -m tharsis.designer.lsp.textmate grammar/tharsis.tmLanguage.json"


def test_every_bundled_file_and_docs_example_tokenises_with_no_unknown_token():
    texts = _texts()
    assert len([name for name in texts if name.endswith(".mars")]) >= 20 and len(texts) >= 40
    tokens = _tokenise(texts)
    unknown = [(name, line + 1, text, scopes) for name, found in tokens.items()
               for line, text, scopes in found if _unknown(scopes)]
    assert unknown == []


def test_only_declared_names_fall_to_the_generic_name_scope():
    """Every word of the printed language has a scope of its own (a keyword, a field, a resource, a tag, ...);
    only the names the content declares (a tag, a card resource, a parameter, a kind of card, a set, a piece, a
    mark) are plain names. A word of the compiler's vocabulary missing from the grammar would show here."""
    texts = _texts()
    every = list(texts.values())
    tags, card_resources = declarations(every)
    declared = (tags - set(v.TAGS)) | (card_resources - set(v.CARD_RESOURCES)) | set(declared_parameters(every)) | \
        set(declared_card_kinds(every)) | {m for text in every for m in re.findall(r"\bset:\s*(\w+)", text)} | \
        {word for piece in declared_pieces(every) for word in piece.split()} | set(declared_marks(every)) | \
        {word for role in declared_factions(every)[1] for word in role.split()} | \
        {stage.strip() for text in every for line in re.findall(r"\bstages:\s*([^\n}]*)", text)
         for stage in line.split(",")}
    plain = {text for found in _tokenise(texts).values() for _, text, scopes in found if scopes[-1] == NAME}
    assert plain and {word for word in plain if not v.lookup(word, declared)} == set()


def test_what_the_engine_makes_of_a_card():
    text = ('card "Livestock" #184 {  // a blue card\n  type: active  cost: 13  tags: animal\n'
            '  requires: oxygen >= 9%\n  play: production(plants -1, megacredits +2)\n}\n~\n')
    tokens = {(line, token): scopes[-1] for line, token, scopes in _tokenise({"card": text})["card"]}
    assert tokens[(0, "card")] == "storage.type.definition.tharsis"
    assert tokens[(0, '"Livestock"')] == "entity.name.type.definition.tharsis"
    assert tokens[(0, "#184")] == "constant.numeric.card-number.tharsis"
    assert tokens[(0, "//")] == "punctuation.definition.comment.tharsis"
    assert tokens[(0, " a blue card")] == "comment.line.double-slash.tharsis"
    assert tokens[(1, "tags")] == "support.type.property-name.field.tharsis"
    assert tokens[(1, "animal")] == "support.constant.card-resource.tharsis"
    assert tokens[(2, "oxygen")] == "variable.language.parameter.tharsis" and tokens[(2, "9%")].startswith(
        "constant.numeric")
    assert tokens[(3, "production")] == "keyword.control.effect.tharsis"
    assert tokens[(5, "~")].startswith("invalid")  # not a token of the language: what the test calls unknown


# ---------------------------------------------------------------------------- the VS Code extension

EXTENSION = REPO / "grammar" / "vscode"


def test_the_vscode_extension_packs_the_grammar_the_client_and_the_language(tmp_path):
    """`node grammar/vscode/package.js` builds the .vsix that docs/editor.md installs in one step: VS Code reads
    `extension/package.json` in it, so the grammar, the language configuration and the language client must be
    inside, where that manifest says."""
    import zipfile

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the VS Code extension is packed by node (grammar/vscode/package.js)")
    if not (EXTENSION / "node_modules" / "vscode-languageclient").is_dir():
        pytest.fail("the extension's packages are not installed: run npm ci --prefix grammar/vscode")
    assert subprocess.run([node, "--check", str(EXTENSION / "extension.js")]).returncode == 0
    vsix = tmp_path / "tharsis.vsix"
    run = subprocess.run([node, str(EXTENSION / "package.js"), "--out", str(vsix)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    with zipfile.ZipFile(vsix) as archive:
        assert archive.testzip() is None
        names = set(archive.namelist())
        manifest = json.loads(archive.read("extension/package.json"))
        [language] = manifest["contributes"]["languages"]
        [grammar] = manifest["contributes"]["grammars"]
        assert language["id"] == grammar["language"] == "tharsis" and language["extensions"] == [".mars"]
        packed = "extension/" + grammar["path"].removeprefix("./")
        assert archive.read(packed) == GRAMMAR.read_bytes()
        assert json.loads(archive.read(packed))["scopeName"] == grammar["scopeName"] == ROOT
        configuration = json.loads(archive.read("extension/" + language["configuration"].removeprefix("./")))
        assert configuration["comments"]["lineComment"] == "//"
        assert "extension/" + manifest["main"].removeprefix("./") in names
        assert "extension/node_modules/vscode-languageclient/node.js" in names
        assert {"extension.vsixmanifest", "[Content_Types].xml"} <= names
        identity = re.search(r'<Identity [^>]*Id="([^"]+)" Version="([^"]+)" Publisher="([^"]+)"',
                             archive.read("extension.vsixmanifest").decode())
        assert identity.groups() == (manifest["name"], manifest["version"], manifest["publisher"])
