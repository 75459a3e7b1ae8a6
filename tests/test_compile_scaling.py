"""Compiling is linear in the file: a long `requires:` chain (issue 18, L1).

A 250 KB `requires: a >= 1 and b >= 2 and ...` took 3.7 s and grew as n^1.5. Every phase did linear work (the
calls per term are the same at 25 KB and 250 KB); the excess was Python's cyclic garbage collector, whose full
collections walk every live object, the growing parse tree and AST included, again and again: 40% of the time at
250 KB. Parsing and checking now run with the collector paused (compiler/syntax.py, `collector_paused`).
"""

from __future__ import annotations

import gc
import string
import time

from tharsis.compiler import compile_text


def _requires_chain(size: int) -> str:
    """A card whose `requires:` is about `size` characters of unknown quantities: an E104 per term."""
    terms, length = [], 0
    while length < size:
        terms.append(f"{string.ascii_lowercase[len(terms) % 26]} >= {len(terms) % 9 + 1}")
        length += len(terms[-1]) + len(" and ")
    return 'card "Long" #L1 {\n  type: automated  cost: 1\n  requires: ' + " and ".join(terms) + \
        "\n  play: gain 1 plants\n}\n"


def test_no_full_garbage_collection_while_a_long_chain_compiles():
    """Counted, not timed: a full collection walks everything alive; at 120 KB there were three of them."""
    text = _requires_chain(120_000)
    full = []

    def count(phase, info):
        if phase == "start" and info["generation"] == 2:
            full.append(info)

    gc.collect()  # the collector's counters start from zero, whatever ran before
    gc.callbacks.append(count)
    try:
        result = compile_text(text, "chain.mars")
    finally:
        gc.callbacks.remove(count)
    assert {d.code for d in result.diagnostics} == {"E104"}
    assert full == []


def test_a_ten_times_longer_chain_takes_at_most_fifteen_times_as_long():
    """Timed, with a generous bound (linear is 10x): each size at its best of a few runs, in CPU time."""
    def best(text: str, runs: int) -> float:
        times = []
        for _ in range(runs):
            started = time.process_time()
            compile_text(text, "chain.mars")
            times.append(time.process_time() - started)
        return min(times)

    short, long = _requires_chain(12_000), _requires_chain(120_000)
    best(short, 1)  # warm: the grammar and the vocabularies
    ratio = best(long, 2) / best(short, 5)
    assert ratio < 15, f"10x the chain took {ratio:.1f}x the time"
