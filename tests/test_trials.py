"""docs/trials/ stays true: the cards of each trial check clean and are formatted, and their scenarios pass (a card
that does not work as printed has its scenario marked `xfail` with the reason, and the run fails when it starts
passing, so the table in docs/trials/README.md is kept honest). Also the scenario runner's inline `cards:` beside
`--cards` folders, which the trial met."""

import pytest

from tharsis.cli import main


@pytest.fixture(scope="module")
def trials(repo):
    return repo / "docs" / "trials"


def test_the_trial_cards_check_clean_and_are_formatted(trials):
    assert main(["check", str(trials)]) == 0
    assert main(["fmt", "--check", str(trials)]) == 0


def test_the_trial_scenarios_pass(trials, capsys):
    assert main(["test", str(trials / "scenarios"), "--cards", str(trials)]) == 0, capsys.readouterr().out


def test_a_scenarios_inline_cards_join_the_cards_folders(tmp_path, capsys):
    """A scenario's own `cards:` text is compiled with the `--cards` folders: its cards and theirs are both in play,
    and it may use what they declare (a card resource here)."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "cards.mars").write_text('resource datum\n\ncard "Archive" #M1 {\n  set: mine  type: active  cost: 1\n'
                                     '  holds: datum\n  action: add 1 datum here\n}\n', encoding="utf-8")
    (tmp_path / "s.yaml").write_text("""
- name: an inline card beside a card of the folder
  cards: |
    card "Backup" #M2 { set: mine  type: active  cost: 1  holds: datum  play: add 2 datum here }
  setup:
    players:
      alice: {resources: {megacredits: 2}, hand: [Archive, Backup]}
  steps:
    - play: Archive
    - play: Backup
    - action: Archive
  expect:
    players:
      alice: {card resources: {Archive: 1, Backup: 2}}
""", encoding="utf-8")
    assert main(["test", str(tmp_path / "s.yaml"), "--cards", str(mine)]) == 0, capsys.readouterr().out


SCENARIO_WITH_AN_ORDER = """
- name: offers checks the card picked, not the order of the card's effects
  cards: |
    card "Twice Back" #TB1 {
      set: trial  type: event  cost: 0
      play: move event from events to hand; may { move event from events to hand }
    }
  setup:
    players:
      alice: {hand: [Twice Back], events: [Comet, Asteroid]}
  steps:
    - play: Twice Back
      %s: [move Comet]
      choose: [move Comet, "no"]
  expect:
    players:
      alice: {hand: [Comet]}
"""


@pytest.mark.parametrize(("key", "passes"), [("offers", True), ("does not offer", False)])
def test_offers_is_not_about_the_order_of_the_effects(tmp_path, capsys, key, passes):
    """The two `move` effects are offered in an order question whose options begin with `move` too (answered as
    written); `offers: [move Comet]` is about the card picked, which is offered."""
    (tmp_path / "s.yaml").write_text(SCENARIO_WITH_AN_ORDER % key, encoding="utf-8")
    assert (main(["test", str(tmp_path / "s.yaml")]) == 0) == passes, capsys.readouterr().out
