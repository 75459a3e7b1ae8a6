"""The engine's narration in English: a verb that agrees with the player who acts.

Events (`game.events`) and the play view's move reports (tharsis/moves.py) are sentences that start with a
player's name: "ann places city on 31", "bob passes". The human seat of `tharsis play` is called `you` by default, and
"you plays" reads wrong, so every such sentence takes its verbs from `conjugate`. Only narration goes through
here: the game log holds option labels ("standard project City"), which never name a player.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=4096)  # a few seats times a few dozen verbs: every event of a game asks
def conjugate(subject: str, verb: str) -> str:
    """`verb`, given in its plain form ("play", "pass", "set aside"), as it reads after `subject`: "plays" after
    a player's name, "play" after a seat named you (in any case)."""
    if subject.casefold() == "you":
        return verb
    first, space, rest = verb.partition(" ")
    if first == "have":
        first = "has"
    elif first.endswith(("s", "sh", "ch", "x", "z", "o")):
        first += "es"
    elif first.endswith("y") and first[-2:-1] not in ("a", "e", "i", "o", "u"):
        first = first[:-1] + "ies"
    else:
        first += "s"
    return first + space + rest
