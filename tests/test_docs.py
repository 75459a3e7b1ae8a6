"""The documentation stays true: every example compiles, the reference matches the registry, every code is listed."""

import re
from pathlib import Path

import pytest

from tharsis.compiler import compile_text
from tharsis.compiler.effects import REGISTRY, walk
from tharsis.compiler.reference import BEGIN, END, generate, main as reference_main


def _blocks(text: str):
    return re.findall(r"```mars\n(.*?)```", text, re.S)


def test_language_doc_has_examples(repo):
    blocks = _blocks((repo / "docs" / "language.md").read_text(encoding="utf-8"))
    assert len(blocks) >= 15


DOCS = Path(__file__).resolve().parents[1] / "docs"
# the language reference, and the designers' guide with its worked expansion (a parameter, a kind of card, a rule)
EXAMPLES = [(name, index) for name in ("language.md", "designing-cards.md")
            for index in range(len(_blocks((DOCS / name).read_text(encoding="utf-8"))))]


@pytest.mark.parametrize("doc, index", EXAMPLES)
def test_every_card_text_example_of_the_docs_compiles(doc, index):
    blocks = _blocks((DOCS / doc).read_text(encoding="utf-8"))
    result = compile_text(blocks[index], f"docs/{doc}#example{index + 1}")
    assert result.diagnostics == [], [d.message for d in result.diagnostics]
    assert result.library.definitions


def test_generated_reference_is_up_to_date(repo):
    text = (repo / "docs" / "language.md").read_text(encoding="utf-8")
    committed = text[text.index(BEGIN):text.index(END) + len(END)]
    assert committed == generate(), "run: python -m tharsis.compiler.reference docs/language.md"


def test_reference_tool_refuses_bad_arguments_with_a_message(tmp_path, capsys):
    """The regenerating tool is run by hand: a wrong path or file says so (exit 2), never a traceback."""
    assert reference_main(["--help"]) == 0 and "usage:" in capsys.readouterr().out
    assert reference_main([str(tmp_path / "missing.md")]) == 2
    assert "cannot rewrite" in capsys.readouterr().err
    plain = tmp_path / "plain.md"
    plain.write_text("# no markers\n", encoding="utf-8")
    assert reference_main([str(plain)]) == 2
    assert "no generated reference section" in capsys.readouterr().err
    assert plain.read_text(encoding="utf-8") == "# no markers\n"


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_effect_kind_example_compiles(name):
    cls = REGISTRY[name]
    line = cls.example
    field = "effect" if cls.category in ("triggers", "modifiers") and name != "next_card" else "play"
    held = next((r for r in ("animal", "microbe", "science") if r + "s here" in line or r + " here" in line), "science")
    holds = f"  holds: {held}\n" if "here" in line else ""
    body = line if "X" not in line or name == "choose_x" else f"choose X up to heat {{ {line} }}"
    kind = "event" if cls.event_only else "active"   # `move this card to that player's events`
    text = f'card "Example" #1 {{\n  type: {kind}  cost: 1\n{holds}  {field}: {body}\n}}\n'
    text += 'card kind "mission" { deal: 0 keep 0  stages: far, near }\n'  # effects that name a declared kind
    text += 'piece "outpost" { }\npiece "shuttle" { supply: 1 }\n'  # for the effects that name declared pieces
    text += 'piece "envoy" { supply: 7  neutral: 3 }\nfaction "Blue Party" { }\n'  # and factions, of a government
    text += 'government "Blue Council" { factions: "Blue Party"  pieces: envoy }\n'
    text += 'mark cathedral\n'   # for the effects that name a declared mark on tiles
    result = compile_text(text, f"<{name}>")
    assert not result.errors, [(d.code, d.message) for d in result.errors]
    card = result.library.cards[0]
    compiled = card.passives if field == "effect" else card.play
    assert any(type(effect) is cls for effect in walk(compiled)), f"{line!r} did not compile to {cls.__name__}"


def test_every_diagnostic_code_is_documented(repo):
    used = set()
    for path in list((repo / "compiler").glob("*.py")) + list((repo / "tharsis").rglob("*.py")):
        used |= set(re.findall(r'"([EW]\d{3})"', path.read_text(encoding="utf-8")))
    documented = set(re.findall(r"^\| ([EW]\d{3}) \|", (repo / "docs" / "errors.md").read_text(encoding="utf-8"),
                                re.M))
    assert used <= documented, f"undocumented codes: {sorted(used - documented)}"


API_DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"
_OPTIONAL = ("numpy", "pettingzoo", "gymnasium", "pyspiel", "open_spiel")


@pytest.mark.parametrize("index", range(len(re.findall(r"```python\n", API_DOC.read_text(encoding="utf-8")))))
def test_every_python_example_of_the_api_doc_runs_on_its_own(index):
    """Each ```python block of docs/api.md runs as written, in a fresh namespace (a reader copies one block);
    a block that needs an optional library (the `rl` extra) is skipped when it is not installed."""
    block = re.findall(r"```python\n(.*?)```", API_DOC.read_text(encoding="utf-8"), re.S)[index]
    try:
        exec(compile(block, f"docs/api.md#python{index + 1}", "exec"), {"__name__": "__docs__"})
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in _OPTIONAL:
            raise
        pytest.skip(f"needs {error.name}")


def test_every_document_the_readme_and_the_docs_name_is_in_the_repository(repo):
    """A user has the repository only: each `.md` file the README or a page of docs/ names (a path from the
    repository's root or the page's folder, or a bare file name found somewhere in it) must be there, never in a
    folder beside it."""
    root = repo.resolve()
    skipped = {".git", "node_modules", ".venv", ".venv-dev"}
    present = {p.name for p in root.rglob("*.md") if not skipped & set(p.relative_to(root).parts)}
    missing = []
    for page in [root / "README.md", *sorted((root / "docs").rglob("*.md"))]:
        for named in sorted(set(re.findall(r"[\w./-]*\w\.md\b", page.read_text(encoding="utf-8")))):
            if "/" not in named:
                found = named in present
            else:
                found = any(place.resolve().is_relative_to(root) and place.exists()
                            for place in (root / named, page.parent / named))
            if not found:
                missing.append(f"{page.relative_to(root)} names {named}")
    assert missing == []
