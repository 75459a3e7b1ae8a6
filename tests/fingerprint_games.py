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
    1: '0dfd66789df9bf6c',
    2: '958e90a9b814d43a',
    3: 'fa4ad14e754cf488',
    4: '2f06a5fa6baea7af',
    5: '1a306969d69f13a0',
    6: '83e76d40e70682aa',
    7: '824a4b47d1a90c9c',
    8: '66098347e8e6868f',
    9: 'c794d1e1c890bb1a',
    10: '6c36d7a1b7f4d990',
    11: '6db29b493c824ed2',
    12: '2b0272ee9f0f4cf2',
    13: '5504b90501dda720',
    14: 'a91955b7fb739b4a',
    15: '362ff073f791c1bd',
    16: '29305b40377bdc17',
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
