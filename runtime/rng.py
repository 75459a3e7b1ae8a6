"""The game's random numbers: splitmix64 over a plain integer state, so copying a game copies its RNG for free.

`GameState.rng` holds the state (an int); every function here takes it and returns the new state with the result.
Python's `random.Random` would be exact too, but its 2.5 KB state makes every clone and save pay for it.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
OFFSET = 0x2545F4914F6CDD1D


def seeded(seed: int) -> int:
    """The state for a seed (any int, negative or huge: it is folded into 64 bits)."""
    return (seed * GOLDEN + OFFSET) & MASK


def next64(state: int) -> tuple[int, int]:
    """(new state, a uniform 64-bit number): one step of splitmix64."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, a number in range(n)) by Lemire's multiply-shift; the bias is below 2**-50 for any deck.
    `next64` is written out here (the same steps): shuffles and bots call this tens of thousands of times a game."""
    state = (state + GOLDEN) & MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, ((z ^ (z >> 31)) * n) >> 64


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates shuffle of `items` in place; returns the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


class Stream:
    """A small stateful wrapper for callers that own their numbers (bots): `random()`, `below(n)`, `choice`."""

    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = seeded(seed)

    def below(self, n: int) -> int:
        state = self.state = (self.state + GOLDEN) & MASK  # `below`, written out (bots call it per option tried)
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return ((z ^ (z >> 31)) * n) >> 64

    def random(self) -> float:
        self.state, z = next64(self.state)
        return (z >> 11) * (1.0 / (1 << 53))

    def getrandbits(self, bits: int) -> int:
        self.state, z = next64(self.state)
        return z >> (64 - bits) if bits < 64 else z

    def choice(self, items):
        return items[self.below(len(items))]
