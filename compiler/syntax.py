"""The abstract syntax tree: the parse tree with every node carrying its source span.

Pipeline place: parser.py (text -> Lark tree) -> **syntax.py** (Lark tree -> AST) -> checker.py (AST -> compiled
definitions). The tree keeps the grammar's rule names as node kinds; the checker gives them meaning. Nodes are
generic (a kind, children, a span) because the checker, not the tree, owns the schema of each kind.
"""

from __future__ import annotations

from typing import Iterator, Union

import attrs
from lark import Token, Transformer, Tree

from .diagnostics import Span


@attrs.frozen
class Leaf:
    """One token: `type` is the grammar terminal (NAME, INT, STRING, ...), `text` its source text."""

    type: str
    text: str
    span: Span

    @property
    def value(self) -> str:
        return self.text[1:-1] if self.type == "STRING" else self.text


@attrs.frozen
class Node:
    kind: str
    children: tuple["Child", ...]
    span: Span

    def leaves(self, type_: str | None = None) -> list[Leaf]:
        return [c for c in self.children if isinstance(c, Leaf) and (type_ is None or c.type == type_)]

    def nodes(self, kind: str | None = None) -> list["Node"]:
        return [c for c in self.children if isinstance(c, Node) and (kind is None or c.kind == kind)]

    def first(self, type_: str) -> Leaf | None:
        for child in self.children:
            if isinstance(child, Leaf) and child.type == type_:
                return child
        return None

    def walk(self) -> Iterator["Node"]:
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(c for c in reversed(node.children) if isinstance(c, Node))


Child = Union[Leaf, Node]


def span_of(path: str, meta_or_token) -> Span:
    m = meta_or_token
    if getattr(m, "empty", False):
        return Span(path, 1, 1, 1, 2)
    return Span(path, m.line, m.column, m.end_line, m.end_column)


class _Builder(Transformer):
    """Turns every Lark tree into a Node and every token into a Leaf, keeping positions."""

    def __init__(self, path: str):
        super().__init__(visit_tokens=True)
        self.path = path

    def __default__(self, data, children, meta):
        span = span_of(self.path, meta) if not meta.empty else _span_of_children(self.path, children)
        return Node(str(data), tuple(children), span)

    def __default_token__(self, token: Token):
        return Leaf(token.type, str(token), span_of(self.path, token))


def _span_of_children(path: str, children) -> Span:
    spans = [c.span for c in children if isinstance(c, (Leaf, Node))]
    if not spans:
        return Span(path, 1, 1, 1, 2)
    return Span(path, spans[0].line, spans[0].column, spans[-1].end_line, spans[-1].end_column)


def build(tree: Tree, path: str) -> Node:
    # Transformer.transform walks bottom-up; the parser bounds nesting depth before we get here.
    return _Builder(path).transform(tree)
