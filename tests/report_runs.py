"""Shared by the report tests: a designer's folder of cheap cards (so that a few games play some of them) with a
corporation, and the runs of `tharsis simulate` whose results and report the tests read."""

from pathlib import Path

# Cheap cards with no requirement, so that the bots play some of them in a handful of games; names that need
# escaping in HTML and a dollar sign that matplotlib would take for mathematics if it were not told otherwise.
DESIGNER_CARDS = '''\
resource crate

corporation "Dust & Sons" #R0 {
  set: mine  tags: building
  start: 46 megacredits
}

card "Dust <&> Co's Mine" #R1 {
  set: mine  type: automated  cost: 2  tags: building
  play: production(steel +1)
  vp: 1
}

card "Cheap $Steel$" #R2 {
  set: mine  type: automated  cost: 1
  play: gain 2 steel
}

card "Crate Stack" #R3 {
  set: mine  type: active  cost: 3  tags: building
  holds: crate
  action: add 1 crate here
  vp: 1 per 2 crates here
}

card "Quiet Claim" #R4 {
  set: mine  type: event  cost: 1
  play: gain 3 megacredits
}
'''
DESIGNER_NAMES = {"Dust & Sons", "Dust <&> Co's Mine", "Cheap $Steel$", "Crate Stack", "Quiet Claim"}


def designer_folder(root: Path) -> Path:
    folder = root / "mine"
    folder.mkdir(exist_ok=True)
    (folder / "cards.mars").write_text(DESIGNER_CARDS, encoding="utf-8")
    return folder


def simulate_args(folder: Path, games: int, seed: int = 11) -> list[str]:
    """A run with the designer's corporation at one seat (so the corporations chart has a row of theirs)."""
    return ["simulate", "--games", str(games), "--seed", str(seed), "--jobs", "1", "--quiet",
            "--cards", str(folder), "--seat", "me=greedy", "--seat", "rival=greedy",
            "--corporation", "me=Dust & Sons"]
