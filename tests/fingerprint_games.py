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

from tharsis.runtime.bots import BOTS, play_out
from tharsis.runtime.game import Game, GameOptions, load_library

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
    1: '45b737b08c954b3b',
    2: '791b4a964c8301f4',
    3: 'fa4fa72ec2271a16',
    4: '234bf41671abd331',
    5: 'd032e6bf24538d1d',
    6: 'c756b01d0435d927',
    7: 'f442ff738b5ba7dd',
    8: '6354ad9259b3ee00',
    9: '212c5b68a7e559cf',
    10: '38f70f2801ad8e2a',
    11: 'd5afbd5b312b2e16',
    12: 'ee5601ce9f984727',
    13: 'f595442a53647cdc',
    14: '7882a058e30ff68d',
    15: '70798cc43be175a6',
    16: 'febce53e05968992',
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
