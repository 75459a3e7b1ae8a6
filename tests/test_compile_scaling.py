"""Compiling is linear in the file: a long `requires:` chain (issue 18, L1).

A 250 KB `requires: a >= 1 and b >= 2 and ...` took 3.7 s and grew as n^1.5. Every phase did linear work (the
calls per term are the same at 25 KB and 250 KB); the excess was Python's cyclic garbage collector, whose full
collections walk every live object, the growing parse tree and AST included, again and again: 40% of the time at
250 KB. Parsing and checking now run with the collector paused (compiler/syntax.py, `collector_paused`).
"""

from __future__ import annotations

import gc
import string
import sys

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


def test_a_ten_times_longer_chain_makes_ten_times_the_calls():
    """Counted, not timed (a timed bound failed on a busy machine): every Python and C function call made while
    compiling, which grows as the work does, whatever else the machine is doing. The collector's share, which made
    compiling superlinear once, is the test above."""
    def calls(text: str) -> int:
        count = 0

        def profile(frame, event, arg):
            nonlocal count
            if event in ("call", "c_call"):
                count += 1

        sys.setprofile(profile)
        try:
            compile_text(text, "chain.mars")
        finally:
            sys.setprofile(None)
        return count

    compile_text(_requires_chain(1_000), "warm.mars")  # the grammar and the vocabularies, loaded once
    ratio = calls(_requires_chain(60_000)) / calls(_requires_chain(6_000))
    assert ratio < 11, f"10x the chain made {ratio:.1f}x the calls"
