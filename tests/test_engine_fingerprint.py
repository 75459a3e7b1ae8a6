"""Optimisations of the engine must not change any game: 16 fixed-seed bot games (random and greedy bots, 2 and 4
players, all three boards, with and without Corporate Era and drafting) end in exactly the recorded final state,
log of choices and event log. The games and their fingerprints are in tests/fingerprint_games.py.
If a rules change is meant to change games, re-record with `python tests/fingerprint_games.py` and say why in the
commit message."""

import pytest
from fingerprint_games import EXPECTED, GAMES, fingerprint


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: "-".join(map(str, spec)))
def test_a_fixed_seed_game_ends_exactly_as_recorded(spec):
    assert fingerprint(*spec) == EXPECTED[spec[-1]]


def test_the_written_out_random_draws_agree_with_their_generators():
    """`rng.shuffle` draws eight words per hash and `Stream.below` inlines `splitmix64` for speed; they must draw
    exactly what `rng.below` and `splitmix64` give."""
    from tharsis.runtime.core import rng

    state = rng.seeded(42)
    for n in (1, 2, 7, 208, 10**6, 2**40):
        for _ in range(50):
            after, z = rng.next64(state)
            assert rng.below(state, n) == (after, (z * n) >> 64)
            stream = rng.Stream(0)
            stream.state = state & rng.MASK
            mixed, word = rng.splitmix64(state & rng.MASK)
            assert (stream.below(n), stream.state) == ((word * n) >> 64, mixed)
            state = after
    for start in range(9):   # from every place in a block of eight words
        for size in (0, 1, 2, 9, 17, 208):
            shuffled, drawn, state = list(range(size)), list(range(size)), rng.seeded(7) + start
            after = rng.shuffle(state, shuffled)
            for i in range(size - 1, 0, -1):
                state, j = rng.below(state, i + 1)
                drawn[i], drawn[j] = drawn[j], drawn[i]
            assert (shuffled, after) == (drawn, state)


def test_a_bots_stream_is_seeded_by_blake2b_of_its_seed_as_written():
    """`Stream` hashes a copy of a BLAKE2b made once with its parameters (8 bytes, person "tharsis bot"): the state
    must be that hash of the seed's bytes, for any seed, negative and huge ones too."""
    import hashlib

    from tharsis.runtime.core import rng

    for seed in (0, 1, 255, 256, -1, -129, 2**63, 10**40, 17 * 1_000_003 + 5):
        expected = hashlib.blake2b(rng._seed_bytes(seed), digest_size=8, person=b"tharsis bot").digest()
        assert rng.Stream(seed).state == int.from_bytes(expected, "little")


def test_a_streams_random_float_is_splitmix64_written_out():
    """`Stream.random` writes `splitmix64` out as `below` does: the same state and the same float."""
    from tharsis.runtime.core import rng

    stream, state = rng.Stream(3), rng.Stream(3).state
    for _ in range(200):
        state, word = rng.splitmix64(state)
        assert stream.random() == (word >> 11) * (1.0 / (1 << 53)) and stream.state == state
