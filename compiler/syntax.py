"""The abstract syntax tree: the parse tree with every node carrying its source span.

Pipeline place: parser.py (text -> Lark tree) -> **syntax.py** (Lark tree -> AST) -> checker.py (AST -> compiled
definitions). The tree keeps the grammar's rule names as node kinds; the checker gives them meaning. Nodes are
generic (a kind, children, a span) because the checker, not the tree, owns the schema of each kind.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator, Union

import attrs
from lark import Token, Tree

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


Child = Union[Leaf, Node]


def _span_of_children(path: str, children) -> Span:
    spans = [c.span for c in children if isinstance(c, (Leaf, Node))]
    if not spans:
        return Span(path, 1, 1, 1, 2)
    return Span(path, spans[0].line, spans[0].column, spans[-1].end_line, spans[-1].end_column)


def build(tree: Tree, path: str) -> Node:
    """Lark tree -> Node, token -> Leaf, keeping positions. Recursive: the parser bounds the nesting depth
    before we get here. (A plain function: a third faster than a lark.Transformer on the bundled cards.)"""

    def convert(item):
        if isinstance(item, Token):
            return Leaf(item.type, str(item), Span(path, item.line, item.column, item.end_line, item.end_column))
        children = tuple(convert(child) for child in item.children)
        meta = item.meta
        if meta.empty:
            span = _span_of_children(path, children)
        else:
            span = Span(path, meta.line, meta.column, meta.end_line, meta.end_column)
        return Node(str(item.data), children, span)

    return convert(tree)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run a phase that builds trees (parsing, checking) with Python's cyclic garbage collector paused.

    Those phases allocate an object or more per token and make no reference cycles, yet every allocation counts
    towards the collector, whose full collections walk every live object, the growing trees included: on a long
    file (a 250 KB `requires:` chain) they took 40% of the compile and made its time grow faster than the file
    (n^1.5). Paused, the phase is linear; what the collector would have found it finds afterwards. A caller that
    had turned the collector off keeps it off; nested pauses are harmless."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
