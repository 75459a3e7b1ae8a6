"""The syntax tree's named children (compiler/syntax.py CHILDREN, and each verb's `@compiles`) agree with the
grammar: every node of the bundled content, the docs' examples and every effect verb's example matches its rule's
entry exactly, so the checker's `node["resource"]` reads what the grammar put there, and a rule of the table is a
rule of the grammar."""

import re
from pathlib import Path

import pytest

from tharsis.compiler import (
    bundled_cards_path,
    check_effects,  # noqa: F401  (the checkers of effect verbs name their rules' children)
)
from tharsis.compiler.diagnostics import Diagnostics
from tharsis.compiler.effects import REGISTRY
from tharsis.compiler.parser import lark_parser, parse
from tharsis.compiler.syntax import CHILDREN, Leaf, Node

DOCS = Path(__file__).resolve().parents[1] / "docs"
# what neither the content nor the docs write
MORE = '''card "More" {
  type: active  cost: 1
  needs: venus
  play: add 2 animals to any cards; reveal cards until 1 holding animal; add 1 animal to each card;
        add 1 microbe to each card with resources
  effect: when you add animal -> gain 1 plant
  effect: when you gain a new tag -> gain 1 plant
  effect: when another player harms you -> gain 1 plant
  effect: discount 1 on standard projects per cities
}
'''


def _texts():
    for path in sorted(bundled_cards_path().rglob("*.mars")):
        yield str(path), path.read_text(encoding="utf-8")
    for name in ("language.md", "designing-cards.md"):
        for index, block in enumerate(re.findall(r"```mars\n(.*?)```", (DOCS / name).read_text(encoding="utf-8"),
                                                 re.S)):
            yield f"{name}#{index}", block
    for name, cls in REGISTRY.items():  # every verb, as its example writes it
        field = "effect" if cls.category in ("triggers", "modifiers") and name != "next_card" else "play"
        yield name, f'card "Example" {{\n  type: active  cost: 1\n  {field}: {cls.example}\n}}\n'
    yield "more", MORE


def _nodes(node):
    yield node
    for child in node.children:
        if isinstance(child, Node):
            yield from _nodes(child)


def test_every_node_matches_the_named_children_of_its_rule():
    seen = set()
    for path, text in _texts():
        diagnostics = Diagnostics()
        for definition in parse(path, text, diagnostics):
            for node in _nodes(definition):
                if node.kind in CHILDREN:
                    named = node.named()   # raises when the children and the table disagree
                    assert set(named) == {part.split(":")[0].rstrip("?*+") for part in CHILDREN[node.kind].split()}
                    seen.add(node.kind)
        assert diagnostics.items == [], path
    assert sorted(set(CHILDREN) - seen) == [], "a rule of the table that no text here writes"


def test_every_rule_of_the_table_is_a_rule_of_the_grammar():
    names = {str(rule.alias or rule.origin.name) for rule in lark_parser().rules}
    assert sorted(set(CHILDREN) - names) == []


@pytest.mark.parametrize("text, kind, name, expected", [
    ("remove up to 2 plants from any player", "remove", "up_to", "up to"),
    ("remove 2 animals here", "remove", "up_to", None),
    ("remove 2 animals here", "remove", "count", "2"),
    ('place 2 special "Lava" on volcanic', "place", "name", '"Lava"'),
    ("place city", "place", "count", None),
])
def test_a_child_is_found_by_its_name_whatever_comes_before_it(text, kind, name, expected):
    (card,) = parse("<t>", f'card "T" {{\n  type: automated  cost: 1\n  holds: animal\n  play: {text}\n}}\n',
                    Diagnostics())
    node = next(n for n in _nodes(card) if n.kind == kind)
    found = node[name]
    assert (found.text if isinstance(found, Leaf) else found) == expected


def test_a_name_the_rule_does_not_have_is_an_error_not_a_silent_none():
    (card,) = parse("<t>", 'card "T" {\n  type: automated  cost: 1\n  play: gain 1 plant\n}\n', Diagnostics())
    gain = next(n for n in _nodes(card) if n.kind == "gain")
    with pytest.raises(KeyError):
        gain["amount"]
    with pytest.raises(KeyError, match="no names"):
        next(n for n in _nodes(card) if n.kind == "effects")["first"]
