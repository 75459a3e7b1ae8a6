"""The game's random numbers: a plain integer state, so copying a game copies its RNG for free.

Deals (`seeded`, `next64`, `below`, `shuffle`) come from BLAKE2b in counter mode keyed by the seed: the state is
one int, `key << 64 | position`, where the key (128 bits) is a hash of the seed and the position counts the 64-bit
words drawn so far. Word p is word `p % 8` of BLAKE2b(key, p // 8), so one hash gives eight draws. Unlike a
linear or invertible generator (the splitmix64 used here before), the words a game deals say nothing about the key
nor about the words still to come, so a player who sees their own cards cannot work out the deck; and since a
default seed has 63 bits from the operating system (tharsis/cli/), nor can a scan of seeds find it.

`Stream` is a bot's own numbers (its random choices, the worlds a search samples): splitmix64, fast, seeded through
a hash, so that what a bot does tells nothing about the seed it was given (which `play` and `simulate` derive from
the game's). `GameData.rng` holds the deal state; every function here takes it and returns the new state with the
result. Python's `random.Random` would be exact too, but its 2.5 KB state makes every clone and save pay for it.
"""

from __future__ import annotations

import hashlib
import struct

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15

_blake2b = hashlib.blake2b
_words = struct.Struct("<8Q").unpack   # a 64-byte digest as eight 64-bit words
_BOT_HASH = _blake2b(digest_size=8, person=b"tharsis bot")   # never updated: `Stream` hashes copies of it
_from_bytes = int.from_bytes


def _seed_bytes(seed: int) -> bytes:
    """Any int, negative or huge, as distinct bytes."""
    return seed.to_bytes(seed.bit_length() // 8 + 1, "little", signed=True)


def seeded(seed: int) -> int:
    """The deal state for a seed (any int: negative and huge ones are as good as any): its key, at position 0."""
    key = int.from_bytes(_blake2b(_seed_bytes(seed), digest_size=16, person=b"tharsis deal").digest(), "little")
    return key << 64


def _block(state: int) -> tuple:
    """The eight words of the block holding the state's position: BLAKE2b of (key, position // 8)."""
    return _words(_blake2b((state & ~7).to_bytes(24, "little")).digest())


def next64(state: int) -> tuple[int, int]:
    """(new state, a uniform 64-bit number)."""
    return state + 1, _block(state)[state & 7]


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, a number in range(n)) by Lemire's multiply-shift; the bias is below 2**-50 for any deck."""
    return state + 1, (_block(state)[state & 7] * n) >> 64


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates shuffle of `items` in place, one hash per eight cards; returns the new state."""
    key, position = state & ~MASK, state & MASK   # the position alone is counted: a small int is quicker
    i = len(items) - 1
    while i > 0:
        for word in _block(key | position)[position & 7:]:
            j = (word * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
            position += 1
            i -= 1
            if not i:
                break
    return key | position


def splitmix64(state: int) -> tuple[int, int]:
    """(new state, a uniform 64-bit number): one step of splitmix64, the generator of `Stream`."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


class Stream:
    """A small stateful wrapper for callers that own their numbers (bots): `random()`, `below(n)`, `choice`."""

    __slots__ = ("state",)

    def __init__(self, seed: int):
        # BLAKE2b(`_seed_bytes(seed)`, 8 bytes, person "tharsis bot"), from a copy of the hash made once with its
        # parameters: a bot makes a stream at every decision, and passing the parameters cost twice the hashing
        # A seed of 0 or more (the bots' seeds and a game's progress) is written unsigned: the same bytes, since
        # `_seed_bytes`'s length leaves its top bit clear, without the keyword argument's cost.
        hashed = _BOT_HASH.copy()
        length = seed.bit_length() // 8 + 1
        hashed.update(seed.to_bytes(length, "little") if seed >= 0 else seed.to_bytes(length, "little", signed=True))
        self.state = _from_bytes(hashed.digest(), "little")

    def below(self, n: int) -> int:
        state = self.state = (self.state + GOLDEN) & MASK  # `splitmix64`, written out (bots call it per option tried)
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return ((z ^ (z >> 31)) * n) >> 64

    def random(self) -> float:
        state = self.state = (self.state + GOLDEN) & MASK  # `splitmix64`, written out as in `below`
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return ((z ^ (z >> 31)) >> 11) * (1.0 / (1 << 53))

    def getrandbits(self, bits: int) -> int:
        self.state, z = splitmix64(self.state)
        return z >> (64 - bits) if bits < 64 else z

    def choice(self, items):
        return items[self.below(len(items))]
