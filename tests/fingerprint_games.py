"""The fixed-seed games behind tests/test_engine_fingerprint.py: 16 bot games (random and greedy bots, 2 to 4
players, all three boards, with and without Corporate Era and drafting) and the fingerprint each ends in (its final
state, log of choices and event log, hashed).

Kept apart from the test (no pytest here) so that any installed engine can play them: tests/test_install.py runs
`python tests/fingerprint_games.py --check` in a fresh non-editable install, whose engine is compiled (setup.py).

    python tests/fingerprint_games.py           print EXPECTED anew (to re-record: say why in the commit message)
    python tests/fingerprint_games.py --check   play every game; exit 1 and name those that differ
"""

import hashlib
import json
import sys

from tharsis.runtime.api.game import Game, GameOptions, load_library
from tharsis.runtime.bots import BOTS, play_out

LIBRARY = load_library()

# (bot, players, board, corporate_era, draft, seed)
GAMES = [
    ("random", 2, "Tharsis", True, False, 1),
    ("random", 2, "Tharsis", True, False, 2),
    ("random", 2, "Hellas", True, False, 3),
    ("random", 2, "Elysium", False, False, 4),
    ("random", 4, "Tharsis", True, False, 5),
    ("random", 4, "Hellas", True, True, 6),
    ("random", 4, "Elysium", True, False, 7),
    ("random", 3, "Tharsis", False, True, 8),
    ("greedy", 2, "Tharsis", True, False, 9),
    ("greedy", 2, "Tharsis", True, False, 10),
    ("greedy", 2, "Hellas", True, True, 11),
    ("greedy", 2, "Elysium", False, False, 12),
    ("greedy", 4, "Tharsis", True, False, 13),
    ("greedy", 4, "Hellas", True, False, 14),
    ("greedy", 4, "Elysium", True, True, 15),
    ("greedy", 3, "Tharsis", True, False, 16),
]

EXPECTED = {
    1: '97f31d8932cfb380',
    2: 'f9ff813c6c2811b0',
    3: 'af7c58a7ec29b1d7',
    4: '45562d3e3f56dde6',
    5: '4270efb928502ed3',
    6: '49135e44bce91a15',
    7: '908948c508f45a65',
    8: '2c1ff69edf2e8e7f',
    9: '6ab73598628c9e95',
    10: '4158da6d423cc6d9',
    11: 'b84e18060c814553',
    12: '98f9a4369d2dbfb0',
    13: '1f2518968298142b',
    14: '7cb38ca2b5995b3b',
    15: '3180ee1dfc2b9b3e',
    16: 'd83098e769e1f2db',
}


def fingerprint(bot: str, players: int, board: str, corporate_era: bool, draft: bool, seed: int) -> str:
    names = tuple(f"p{i}" for i in range(players))
    game = Game(GameOptions(players=names, seed=seed, board=board, corporate_era=corporate_era, draft=draft),
                LIBRARY)
    play_out(game, {i: BOTS[bot](seed * 10 + i) for i in range(players)})
    data = {"state": game.snapshot(), "log": game.log.to_list(), "events": list(game.events)}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        differing = [spec for spec in GAMES if fingerprint(*spec) != EXPECTED[spec[-1]]]
        for spec in differing:
            print(f"game {spec[-1]} {spec} ends differently from the recorded one")
        print(f"{len(GAMES) - len(differing)} of {len(GAMES)} games end as recorded")
        return 1 if differing else 0
    for spec in GAMES:
        print(f"    {spec[-1]}: {fingerprint(*spec)!r},")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
