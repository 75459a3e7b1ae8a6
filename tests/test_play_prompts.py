"""What `tharsis play` asks and shows, as a player reads it: prompts in rules text with the facts needed to decide,
menu prices that are what the engine charges, the board's legend, the verdict of a tie, plural agreement, colour
only on a terminal, and the solo game's `--max-generations`."""

import io
import re

import pytest

from tharsis.games.options import Seat
from tharsis.runtime.api.game import Game, GameOptions  # first: the engine's modules import one another in an order
from tharsis.runtime.bots import BOTS, play_out
from tharsis.runtime.core.decisions import Decision, Option
from tharsis.runtime.core.state import CardInPlay
from tharsis.runtime.handlers import actions, effects
from tharsis.terminal import prompts, style, view
from tharsis.terminal.play import GameLog, Session, _numbered


def _edited(game: Game) -> Game:
    """The game after its state was edited by hand, seen through a fresh action menu: a decision is a view of one
    moment (core/decisions.py), and the menu the turn asked has already reached verdicts on the state before the
    edit (its "anything but pass?" settles whole kinds of action at once). A clone binds its own."""
    return game.clone()


def _to_first_action(options: GameOptions) -> Game:
    game = Game(options)
    bot = BOTS["greedy"](1)
    while game.pending().kind != "action":
        game.apply(bot.choose(game, game.pending()))
    return game


# ------------------------------------------------------------------ prices: shown = charged

class _Charged:
    """Records every amount the engine's `pay` is asked for (the one function that charges money), in order."""

    def __init__(self, monkeypatch):
        self.amounts: list[int] = []
        original = actions.pay

        def recording(game, player, cost, *args, **kwargs):
            self.amounts.append(cost)
            return original(game, player, cost, *args, **kwargs)

        monkeypatch.setattr(actions, "pay", recording)
        monkeypatch.setattr(effects, "pay", recording)


def _check_menu_prices(game: Game, decision: Decision, charged: _Charged) -> int:
    """Take every priced entry of the menu on a copy of the game; the first amount charged must be the menu's price
    (a card action with several options: each option's price, once chosen). Returns the entries checked."""
    checked = 0
    for option in decision.options:
        price = prompts.menu_price(game, decision.player, option)
        if price is None:
            continue
        copy = game.clone()
        kind, name = option.value[0], option.value[1]
        before = dict(copy.state.players[decision.player].resources)
        charged.amounts.clear()
        copy.apply(option.label)
        if kind == "convert":  # paid in plants or heat, taken at once, before any bonus of the placement
            conversion = game.standard_actions[name]
            spent = before[conversion.cost_resource] - copy.state.players[decision.player].resources[
                conversion.cost_resource]
            # (when the conversion ended the generation, its production came in since: not the conversion's)
            if copy.pending() is not None and copy.pending().player == decision.player and \
                    copy.state.generation == game.state.generation and copy.state.phase == game.state.phase:
                assert f"{spent} " in price.text and price.text.startswith(str(spent)), (option.label, price, spent)
            checked += 1
            continue
        asked = copy.pending()
        if kind == "card_action" and len(game.library[name].actions) > 1 and asked is not None and \
                asked.kind == "option" and asked.player == decision.player and not charged.amounts:
            for chosen in asked.options:
                again = copy.clone()
                charged.amounts.clear()
                again.apply(chosen.label)
                expected = prompts.action_option_price(game, decision.player, name, chosen.value)
                assert charged.amounts[:1] == ([expected.megacredits] if expected.megacredits is not None else []), \
                    (option.label, chosen.label, expected, charged.amounts)
                checked += 1
            continue
        if price.megacredits is None:
            assert not charged.amounts, (option.label, price, charged.amounts)  # free, or paid in something else
        else:
            assert charged.amounts[:1] == [price.megacredits], (option.label, price, charged.amounts)
            assert f"{price.megacredits} MC" in price.text
        checked += 1
    return checked


@pytest.mark.parametrize("seed, variant", [(3, {}), (8, {"corporate_era": True}), (13, {"board": "Hellas"}),
                                           (21, {"corporate_era": True, "expansions": ("venus", "prelude")}),
                                           (34, {"corporate_era": True, "expansions": ("venus",)})])
def test_every_priced_menu_entry_costs_what_the_menu_says(seed, variant, monkeypatch):
    """Issue 21: the menu showed a card's printed cost for its action (Aquifer Pumping: 18 MC; it costs 8) and no
    price for projects and awards. Every entry of random games' menus is taken on a copy of the game: the engine
    charges exactly the menu's price."""
    charged = _Charged(monkeypatch)
    game = Game(GameOptions(players=("ann", "bob", "cy"), seed=seed, **variant))
    bots = {i: BOTS["random"](seed * 10 + i) for i in range(3)}
    checked, kinds = 0, set()
    while not game.over:
        decision = game.pending()
        if decision.kind == "action":
            checked += _check_menu_prices(game, decision, charged)
            kinds.update(o.value[0] for o in decision.options if prompts.menu_price(game, decision.player, o))
        game.apply(bots[decision.player].choose(game, decision))
    assert checked > 500
    assert {"play", "project", "award", "card_action"} <= kinds


def test_a_card_actions_price_is_its_own_not_the_cards(monkeypatch):
    charged = _Charged(monkeypatch)
    game = _to_first_action(GameOptions(players=("ann", "bob"), seed=1))
    player = game.state.players[game.pending().player]
    player.played += [CardInPlay("Aquifer Pumping"), CardInPlay("Electro Catapult")]
    player.resources["plant"], player.resources["megacredits"] = 2, 30
    game = _edited(game)
    decision = game.pending()
    menu = _numbered(game, decision)
    assert re.search(r"action Aquifer Pumping +8 MC \(or steel\)  Place an ocean tile\.\n", menu)  # not 18 MC
    assert re.search(r"action Electro Catapult +1 plant or 1 steel  Gain 7 MC\.\n", menu)
    assert re.search(r"standard project Aquifer +18 MC  Place an ocean tile\.\n", menu)
    assert _check_menu_prices(game, decision, charged) >= 5


# ------------------------------------------------------------------ prompts in rules text, with facts

def test_a_production_attack_asks_in_rules_text_with_every_targets_production():
    game = _to_first_action(GameOptions(players=("ann", "bob", "cy"), seed=2))
    attack = next(e for e in game.library["Hackers"].play if type(e).__name__ == "AnyProduction")
    from tharsis.compiler import text

    production = [p.production["megacredits"] for p in game.state.players]
    decision = Decision(0, "player", "Whose production decreases? " + text.effect(attack),
                        tuple(Option(f"player {p.name}", p.index) for p in game.state.players))
    assert prompts.question(game, decision) == ("Whose production decreases? Decrease any player's MC production "
                                                "2 steps.")
    assert _numbered(game, decision).splitlines() == [
        f"    1. player ann (you; MC production {production[0]})",
        f"    2. player bob (MC production {production[1]})",
        f"    3. player cy (MC production {production[2]})"]


def test_questions_and_options_that_name_effects_say_them_in_rules_text():
    game = Game(GameOptions(players=("ann", "bob"), seed=5))
    x = Decision(0, "x", "Choose X: production(heat -X, megacredits +X)", (Option("X=1", 1),))
    assert prompts.question(game, x) == ("Choose X: Decrease your heat production X steps, increase your MC "
                                         "production X steps.")
    order = Decision(0, "order", "Which effect of the card first?",
                     (Option("production(megacredits -2, heat +3)", 0), Option("place ocean", 1)))
    assert _numbered(game, order).splitlines() == [
        "    1. Decrease your MC production 2 steps, increase your heat production 3 steps.",
        "    2. Place an ocean tile."]
    game.state.players[1].resources["plant"] = 4
    remove = Decision(0, "player", "remove up to 3 plants from any player",
                      (Option("player bob", 1), Option("remove nothing", None)))
    assert prompts.question(game, remove) == "Remove up to 3 plants from any player (optional). Which player?"
    assert _numbered(game, remove).splitlines() == ["    1. player bob (has 4 plants)", "    2. remove nothing"]
    game.state.players[0].played.append(CardInPlay("Birds", resources=2))
    gets = Decision(0, "card", "Which card gets add 1 animal to another card?", (Option("card Birds", "Birds"),))
    assert prompts.question(game, gets) == "Which card gets it? Add 1 animal to another of your cards."
    assert _numbered(game, gets) == "    1. card Birds (2 animals)"
    actions_of = Decision(0, "option", "Which action of Electro Catapult?",
                          (Option("spend 1 plant -> gain 7 megacredits", 0),))
    assert _numbered(game, actions_of) == "    1. Spend 1 plant. -> Gain 7 MC."
    plain = Decision(0, "option", "Convert plants into a greenery?", (Option("done", None),))
    assert prompts.question(game, plain) == "Convert plants into a greenery?"      # no effect named: as it was


def test_an_answer_may_be_the_start_of_the_rules_text_shown():
    game = Game(GameOptions(players=("ann", "bob"), seed=5))
    session = Session(game, [Seat("ann", "human"), Seat("bob", "human")], GameLog(None),
                      stdin=io.StringIO("place\n"), stdout=io.StringIO())
    order = Decision(0, "order", "Which effect of the card first?",
                     (Option("production(megacredits -2, heat +3)", 0), Option("place ocean", 1)))
    assert session.ask(order) == "place ocean"
    session.stdin = io.StringIO("decrease\n")
    assert session.ask(order) == "production(megacredits -2, heat +3)"


# ------------------------------------------------------------------ the board, the verdict, plurals

def test_every_letter_on_the_board_is_in_its_legend():
    for board in ("Tharsis", "Hellas", "Elysium"):
        game = Game(GameOptions(players=("ann",), seed=3, board=board))  # solo: neutral cities and greeneries
        game.apply(0)
        drawn = view.board(game)
        grid, legend = drawn.split("\noff Mars:")
        explained = set()
        for line in legend.splitlines():
            for entry in line.replace("players:", "").replace("bonuses:", "").split("  "):
                word = entry.strip().split("=")[0].split(" ")[0]
                if word:
                    explained.update(word)
        shown = {ch for ch in grid if ch.isalpha() or ch in "~^·≈"}
        assert shown <= explained, (board, shown - explained)
        assert "bonuses: " in legend and "s steel" in legend and "(a letter twice: 2 of it)" in legend
    assert "h heat" in view.board(Game(GameOptions(players=("a", "b"), board="Hellas")))


def _result(*rows):
    players = [{"name": n, "tr": t, "milestones": 0, "awards": 0, "greeneries": 0, "cities": 0, "cards": 0,
                "total": t, "megacredits": mc} for n, t, mc in rows]
    top = max(players, key=lambda r: (r["total"], r["megacredits"]))
    return {"players": players, "winner": top["name"], "generations": 12,
            "tie_break": sum(1 for r in players if r["total"] == top["total"]) > 1}


def test_the_verdict_says_what_broke_a_tie_and_a_tie_on_megacredits_too_is_shared():
    assert view.final_table(_result(("ann", 80, 3), ("bob", 70, 9))).splitlines()[-2] == "winner: ann"
    assert view.final_table(_result(("ann", 80, 30), ("bob", 80, 41))).splitlines()[-2] == (
        "winner: bob (tied on 80 points with ann; megacredits broke the tie: bob 41, ann 30)")
    assert view.final_table(_result(("ann", 80, 30), ("bob", 80, 30), ("cy", 60, 99))).splitlines()[-2] == (
        "tied: ann and bob (80 points and 30 MC each: megacredits, the tie-break, are equal too)")


def test_one_card_is_one_card():
    game = Game(GameOptions(players=("ann", "bob"), seed=3))
    game.state.players[1].hand = ["Birds"]
    assert "bob: TR 20, 0 MC (+1), 1 card in hand, 0 in play" in view.others(game, 0)
    assert view.player_sheet(game, 1).startswith("--- bob (no corporation yet), TR 20, 1 card in hand")
    assert view.counted(2, "card") == "2 cards" and view.counted(0, "card") == "0 cards"


def test_the_panel_shows_the_players_own_tags():
    game = _to_first_action(GameOptions(players=("ann", "bob"), seed=1))
    index = game.pending().player
    game.state.players[index].played.append(CardInPlay("Birds"))
    assert f"tags: {view.tag_counts(game, index)}" in view.panel(game, index)
    assert "animal 1" in view.tag_counts(game, index)


# ------------------------------------------------------------------ colour

def test_colour_is_only_for_terminals_and_takes_nothing_away_from_the_text():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert style.for_stream(io.StringIO(), {}) is style.PLAIN
    assert style.for_stream(Tty(), {}) == style.COLOUR
    assert style.for_stream(Tty(), {"NO_COLOR": "1"}) is style.PLAIN
    assert style.for_stream(Tty(), {"TERM": "dumb"}) is style.PLAIN
    assert style.for_stream(io.StringIO(), {"FORCE_COLOR": "1"}) == style.COLOUR
    assert style.for_stream(io.StringIO(), {"FORCE_COLOR": "1", "NO_COLOR": "1"}) is style.PLAIN
    game = _to_first_action(GameOptions(players=("ann", "bob"), seed=1, corporate_era=True))
    index = game.pending().player
    for plain, coloured in [(view.panel(game, index), view.panel(game, index, style.COLOUR)),
                            (_numbered(game, game.pending()), _numbered(game, game.pending(), "en", style.COLOUR)),
                            (view.player_sheet(game, 1 - index), view.player_sheet(game, 1 - index, style.COLOUR)),
                            (view.card_block(game, "Birds", 1), view.card_block(game, "Birds", 1, "en",
                                                                                  style.COLOUR))]:
        assert "\x1b[" in coloured and "\x1b[" not in plain
        assert style.strip(coloured) == plain
    assert style.COLOUR.card("Birds", "active") == "\x1b[34mBirds\x1b[0m"        # active cards are blue
    assert style.COLOUR.player("ann", 0) != style.COLOUR.player("bob", 1)


# ------------------------------------------------------------------ the solo game's generation limit

def test_max_generations_stops_a_solo_game_too():
    game = Game(GameOptions(players=("solo",), seed=4, max_generations=3))
    play_out(game, {0: BOTS["greedy"](4)})
    assert game.over and game.state.generation == 3
    assert game.result["solo_won"] is False and game.result["winner"] is None
    longer = Game(GameOptions(players=("solo",), seed=4, max_generations=30))  # never past the rules' 14
    play_out(longer, {0: BOTS["greedy"](4)})
    assert longer.state.generation == 14


# ------------------------------------------------------------------ a standard project that would do nothing

def _oceans_all_placed() -> tuple[Game, Decision]:
    game = _to_first_action(GameOptions(players=("ann", "bob"), seed=5))
    game.state.oceans = 9
    game.state.players[game.pending().player].resources["megacredits"] = 40
    game = _edited(game)
    return game, game.pending()


def test_the_ocean_project_after_the_last_ocean_is_offered_with_a_warning_in_the_menu_and_the_lookup():
    game, decision = _oceans_all_placed()
    aquifer = next(line for line in _numbered(game, decision).splitlines() if "Aquifer" in line)
    assert aquifer.endswith("18 MC  Place an ocean tile. (does nothing now: oceans at the maximum)")
    assert "Place an ocean tile. (does nothing now: oceans at the maximum)" in view.standard_projects(game, 0)
    assert "放置1个海洋板块。（现在没有效果：海洋已达上限）" in view.standard_projects(game, 0, "zh")
    city = next(line for line in _numbered(game, decision).splitlines() if "project City" in line)
    assert "does nothing" not in city


def test_no_bot_buys_a_standard_project_that_would_do_nothing():
    from tharsis.runtime.bots.search import SearchBot

    game, decision = _oceans_all_placed()
    options = tuple(o for o in decision.options if o.value in (("project", "Aquifer"), ("pass",)))
    assert len(options) == 2
    only = Decision(decision.player, "action", decision.prompt, options)
    assert BOTS["greedy"](1).choose(game, only).value == ("pass",)
    assert [o.value for o in SearchBot(1)._candidates(game, only)] == [("pass",)]
    game.state.oceans = 8   # one ocean left: the same project is worth buying again
    assert BOTS["greedy"](1).choose(game, only).value == ("project", "Aquifer")


def test_card_names_a_milestone_award_or_standard_project_and_points_to_its_lookup():
    game = Game(GameOptions(players=("ann", "bob"), seed=5))
    seats = [Seat("ann", "human"), Seat("bob", "human")]
    session = Session(game, seats, GameLog(None), stdin=io.StringIO(), stdout=io.StringIO())
    assert session.card_text("Terraformer") == "Terraformer is a milestone, not a card: type milestones"
    assert session.card_text("Bank") == "Banker is an award, not a card: type awards"
    assert session.card_text("aquifer") == ("'aquifer' is ambiguous: Aquifer Pumping, Aquifer Turbines; type more of "
                                            "it\nAquifer is a standard project, not a card: type projects")
    assert session.card_text("Aquifer P").startswith("Aquifer Pumping")
    assert session.card_text("Heat to") == "Heat to temperature is a conversion (a standard action), not a card: " \
                                           "type projects"
    assert session.card_text("Zzyzx") == "no card starts with 'Zzyzx'"
    assert session.card_text("Livestock").startswith("Livestock")
    chinese = Session(game, seats, GameLog(None), stdin=io.StringIO(), stdout=io.StringIO(), language="zh")
    assert chinese.card_text("蓄水") == "「蓄水」是标准项目，不是牌：请输入「项目」"


# ------------------------------------------------------------------ questions that say why and whose

def _session_at(game: Game, answers: str, language: str = "en") -> str:
    """What a session of two humans says to `answers` from where `game` stands."""
    out = io.StringIO()
    Session(game, [Seat("ann", "human"), Seat("bob", "human")], GameLog(None), stdin=io.StringIO(answers),
            stdout=out, autosave=None, language=language).play()
    return out.getvalue()


def test_pass_after_an_action_is_refused_with_the_option_that_ends_the_turn():
    game = _to_first_action(GameOptions(players=("ann", "bob"), seed=5))
    player = game.pending().player
    game.apply("standard project Sell Patents")
    while game.pending().prompt != "action 2 of 2":   # X=1, and the card to discard
        game.apply(0)
    assert game.pending().player == player and game.pending().prompt == "action 2 of 2"
    end = [o.label for o in game.pending().options].index("end turn") + 1
    said = _session_at(game.clone(), "pass\n")
    assert (f"you have taken an action this turn, so you cannot pass now: 'end turn' ({end}) ends your turn (pass "
            "instead of your first action of a later turn to stop for this generation)") in said
    assert f"现在不能跳过：「结束回合」（{end}）结束你的回合" in _session_at(game.clone(), "跳过\n", "zh")


def test_a_rules_choice_says_whose_rule_it_is_and_that_it_is_made_for_nobody():
    from tharsis.runtime.api.queries import for_nobody

    game = Game(GameOptions(players=("ann", "bob"), seed=3, expansions=("venus",)))
    bot = BOTS["greedy"](1)
    while not for_nobody(game):
        game.apply(bot.choose(game, game.pending()))
    decision = game.pending()
    assert decision.prompt == "Choose one"   # the engine's words, which logs and bots keep
    assert prompts.question(game, decision) == ("World Government Terraforming (a rule of Venus Next), for nobody (no "
                                                "TR, no bonuses, only any-player effects trigger): Choose one")
    assert prompts.question(game, decision, "zh").startswith("「World Government Terraforming」（金星扩展的规则），"
                                                             "不为任何玩家执行（不提升改造度")
    # a player's own move asks as before
    plain = _to_first_action(GameOptions(players=("ann", "bob"), seed=3))
    assert prompts.question(plain, plain.pending()) == "action 1 of 2"


def _unplayable_hand() -> Game:
    game = _to_first_action(GameOptions(players=("ann", "bob"), seed=3))
    player = game.state.players[game.pending().player]
    player.hand[:] = ["Moss", "Domed Crater", "Kelp Farming"]
    player.production["energy"], player.resources["plant"], player.resources["megacredits"] = 0, 0, 50
    game.state.oceans = 3
    return game


def test_a_card_whose_effects_cannot_all_be_carried_out_says_which_and_what_it_lacks():
    game = _unplayable_hand()
    index = game.pending().player
    hand = view.hand(game, index)
    assert ("Moss [automated, 4 MC, plant]  requires oceans >= 3  (its effects cannot all be carried out: 'Lose 1 "
            "plant (you must have them)' needs 1 plant (you have 0 plants))") in hand
    assert ("(its effects cannot all be carried out: 'Decrease your energy production 1 step, increase your MC "
            "production 3 steps' cannot be carried out (when a decrease") in hand
    assert "需要1点植物（你有0点植物）" in view.hand(game, index, language="zh")
    said = _session_at(game, "play Moss\nplay kelp farming\n")
    assert "Moss cannot be played now: its effects cannot all be carried out: 'Lose 1 plant" in said
    assert "Kelp Farming cannot be played now: requires oceans >= 6\n" in said
    assert "现在无法打出「Moss」：它的效果无法全部执行：「失去1点植物" in _session_at(game, "打出 Moss\n", "zh")
