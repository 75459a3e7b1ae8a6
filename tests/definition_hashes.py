"""What every bundled definition means, hashed as saves and logs record it (tharsis/games/recorded_cards.py).

A save or a log names each definition its game could use with that hash and is refused (E741) when one it drew has
changed. A compiler change that alters what an unedited card compiles to (a verb that gains a field, a renamed
step) therefore breaks every save of every game that used it, although no designer edited a card.
tests/test_definition_hashes.py compares the bundled content with tests/definition_hashes.json, written by this
script:

    .venv-dev/bin/python tests/definition_hashes.py --write   # after a deliberate edit of a bundled card
    .venv-dev/bin/python tests/definition_hashes.py --check

A verb that gains a field declares it with `compiler.effects.added(default)`: the field is then left out of the hash
while it holds its default, and the cards that do not use it keep their hashes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tharsis.games.recorded_cards import _hashes, record_key, staged_kinds
from tharsis.runtime.api.game import load_library

RECORDED = Path(__file__).with_name("definition_hashes.json")


def current() -> dict[str, str]:
    library = load_library()
    hashes, staged = _hashes(library), staged_kinds(library)
    found: dict[str, str] = {}
    for definition in library.definitions:
        kind, name = record_key(definition, staged)
        found[f"{kind} {name}"] = hashes[id(definition)]
    return dict(sorted(found.items()))


def changes(recorded: dict[str, str], now: dict[str, str]) -> list[str]:
    lines = [f"changed: {key}" for key in recorded if key in now and now[key] != recorded[key]]
    lines += [f"gone: {key}" for key in recorded if key not in now]
    lines += [f"new: {key}" for key in now if key not in recorded]
    return lines


def main(argv: list[str]) -> int:
    if argv == ["--write"]:
        RECORDED.write_text(json.dumps(current(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return 0
    if argv == ["--check"]:
        found = changes(json.loads(RECORDED.read_text(encoding="utf-8")), current())
        print("\n".join(found) or "every bundled definition means what it meant")
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
