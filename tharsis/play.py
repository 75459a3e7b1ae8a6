"""`tharsis play`: a game in the terminal between humans and bots, with a log, saving, loading and undo.

Humans answer the same pending decisions bots do (runtime/decisions.py), through the public decision API only
(`pending`, `apply`, `clone`, `events`): they see the state, every move as it happens (tharsis/moves.py), and the
legal options; spaces are chosen by board id and card offers as one multi-select (tharsis/buying.py). Leaving
saves. Every game writes a JSONL log (the options it started with, the seats, then one line per choice, and the
result), which `tharsis replay` reproduces.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional, TextIO

import attrs

from tharsis.compiler import rules_text
from tharsis.compiler.source import on_disk, why_unusable
from tharsis.runtime.bots import BOTS
from tharsis.runtime.decisions import Decision
from tharsis.runtime.game import Game
from tharsis.runtime.prices import card_cost

from . import buying, moves, view
from .problems import shorten, usage_error
from .moves import Move, Snapshot

KINDS = ("human",) + tuple(BOTS)
HELP = """Answer with the number of an option or the start of its text (or of a word in it); a space with its board
id (31); cards to buy with their numbers (buy 1 3 5, buy all, buy none).
Commands:  view (the whole state)   board   hand   card NAME (a card's rules text)   options (this decision's)
           player NAME / opponents (corporation, production, tags, cards in play)   history (the last events)
           projects (standard projects: price, can you)   milestones / awards (who meets / leads them)
           undo (take back your last choice this turn)   save FILE   quit (saves, and says how to resume)"""


@attrs.frozen
class Seat:
    name: str
    kind: str


class GameLog:
    """The JSONL log of one game: a start line, one line per choice, an end line. Rewritten whole on undo."""

    def __init__(self, path: Optional[Path], choosers: Optional[list[str]] = None):
        self.path = path
        self.choosers = list(choosers or [])   # who made each choice so far (a loaded game's, then this session's)

    def start(self, game: Game, seats: list[Seat]) -> None:
        del self.choosers[len(game.log):]       # an undo took the later choices back
        if self.path is None:
            return
        from tharsis.saves import log_start

        with open(self.path, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(log_start(game, seats)) + "\n")
            for number, label in enumerate(game.log, start=1):
                who = {"player": self.choosers[number - 1]} if number <= len(self.choosers) else {}
                handle.write(json.dumps({"event": "choice", "n": number, **who, "label": label}) + "\n")

    def choice(self, game: Game, player: str) -> None:
        if len(self.choosers) == len(game.log) - 1:
            self.choosers.append(player)
        if self.path is None:
            return
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"event": "choice", "n": len(game.log), "player": player,
                                     "label": game.log[-1]}, ensure_ascii=False) + "\n")

    def end(self, result: dict) -> None:
        if self.path is None:
            return
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"event": "end", "result": result}, ensure_ascii=False) + "\n")


INTERRUPTED = 130                    # the exit code of a program stopped by Ctrl-C (128 + SIGINT)
LEAVE, UNDONE = object(), object()   # what `ask` returns besides a label: the player leaves / took a choice back
CARD_CHOICES = ("corporation", "draft", "keep")  # choices of new cards: each shown with its whole rules text


@attrs.frozen
class Turn:
    """A human's answer or a bot's choice: who, in which generation, and where in the log it starts (for undo)."""

    player: int
    generation: int
    start: int


class Session:
    def __init__(self, game: Game, seats: list[Seat], log: GameLog, stdin: Optional[TextIO] = None,
                 stdout: Optional[TextIO] = None, autosave: Optional[Path] = None, language: str = "en"):
        self.game = game
        self.language = language              # of the cards' rules text (`--lang`); the prompts stay English
        self.seats = seats
        self.log = log
        self.stdin, self.stdout = stdin or sys.stdin, stdout or sys.stdout
        self.bots = {i: BOTS[s.kind](game.options.seed * 10 + i) for i, s in enumerate(seats) if s.kind != "human"}
        self.turns: list[Turn] = []
        self.before: dict[int, Game] = {}     # copies of the game at the start of the turns undo may take back
        self.planned: dict[str, str] = {}     # card -> "buy X" / "discard X": a multi-select being fed to the engine
        self.autosave = autosave              # where leaving saves when there is no log (see `leave`)
        self.written: set[Path] = {autosave.resolve()} if autosave else set()
        self.shown_generation = 0

    def say(self, message: str = "") -> None:
        print(message, file=self.stdout)

    def run(self) -> int:
        game = self.game
        if game.log:
            self.say(f"Resuming the game of seed {game.options.seed} after {len(game.log)} choices.")
        else:
            self.say(f"Seed {game.options.seed} (tharsis play --seed {game.options.seed} deals this game again).")
        self.say("Type help for the commands.")
        self.log.start(game, self.seats)
        try:
            if not self.play():
                return self.leave()
        except KeyboardInterrupt:
            # an interrupted choice may have stopped half done: rebuild from the log
            self.game = Game.replay(self.game.options, self.game.log, self.game.content)
            self.say("\n(interrupted)")
            self.leave()
            return INTERRUPTED
        game = self.game
        self.log.end(game.result)
        self.say()
        self.say(view.globals_line(game))
        self.say(view.board(game))
        self.say()
        self.say(view.final_table(game.result))
        return 0

    def play(self) -> bool:
        """Deal with decisions until the game ends (True) or a human leaves (False)."""
        move: Optional[Move] = None
        while not self.game.over:
            game = self.game  # undo replaces the game
            decision = game.pending()
            if move is not None and _move_ends(move, decision, game):
                self.tell(move)
                move = None
            if game.state.generation != self.shown_generation:
                self.shown_generation = game.state.generation
                self.say(f"\n=== Generation {game.state.generation} ===")
            new_turn = True
            if self.seats[decision.player].kind != "human":
                label = self.bots[decision.player].choose(game, decision).label
            elif decision.kind == "buy" and self.planned.get(buying.card_of(decision.labels()[0])):
                label, new_turn = self.planned.pop(buying.card_of(decision.labels()[0])), False
            else:
                if decision.kind != "pay":  # a selection is fed only to its own offers (a payment may come between)
                    self.planned = {}
                answer = self.ask(decision)
                if answer is LEAVE:
                    if move is not None:
                        self.tell(move)
                    return False
                if answer is UNDONE:
                    move = None
                    continue
                label = answer
            if move is None:
                move = Move(decision.player, Snapshot.of(game))
            if new_turn:
                if self.turns and (self.turns[-1].player, self.turns[-1].generation) != \
                        (decision.player, game.state.generation):
                    self.before.clear()  # undo never goes back past another player's choice or an earlier turn
                self.before[len(game.log)] = game.clone()
                self.turns.append(Turn(decision.player, game.state.generation, len(game.log)))
            game.apply(label)
            move.choices.append((decision.kind, label))
            self.log.choice(game, self.seats[decision.player].name)
        if move is not None:
            self.tell(move)
        return True

    def tell(self, move: Move) -> None:
        lines = moves.report(self.game, move, hidden=self.seats[move.player].kind != "human")
        if lines:
            self.say("\n".join(lines))

    def leave(self) -> int:
        """Leaving keeps the game: its log already holds every choice; without a log it is saved to a file (the
        last `save FILE`, the save it was loaded from, or a new tharsis-save-SEED.json)."""
        if self.log.path is not None:
            self.say(f"Game saved in its log {self.log.path} (written after every choice). "
                     f"Resume with: tharsis play --load {self.log.path}")
            return 0
        path = self.autosave or _free_path(f"tharsis-save-{self.game.options.seed}", ".json")
        message = self.save(str(path), leaving=True)
        self.say(message if message.startswith("could not") else
                 f"Game saved to {path}. Resume with: tharsis play --load {path}")
        return 0

    # ------------------------------------------------------------------ the human's prompt

    def ask(self, decision: Decision):
        """The human's answer to `decision`: an option's label, LEAVE or UNDONE (commands are answered here)."""
        if decision.kind == "buy":
            return self.ask_buy(decision)
        self.show(decision)
        while True:
            answer = self.read(f"{self.seats[decision.player].name}: {decision.prompt}", decision)
            if answer is LEAVE or answer is UNDONE:
                return answer
            if answer is None:
                continue
            option, message = resolve(decision, answer)
            if option is not None:
                return option.label
            self.say(message)

    def show(self, decision: Decision) -> None:
        game, index = self.game, decision.player
        self.say()
        if decision.kind == "action":
            self.say(view.panel(game, index))
        elif decision.kind == "space":
            spaces = [_space_of(o.label) for o in decision.options]
            self.say(view.board(game, highlight=tuple(spaces)))
            self.say("Legal spaces by what they give (answer with the space's id):")
            self.say(view.space_choices(game, spaces, index))
            return
        elif decision.kind == "corporation":
            preview = buying.upcoming(_past_setup(game, index), index)
            if preview.cards:
                self.say(f"Your {len(preview.cards)} starting cards (you choose which to buy next):")
                self.say(view.compact_cards(game, preview.cards))
                self.say()
        if decision.kind in CARD_CHOICES and all(_card_named(game, o.label) for o in decision.options):
            self.say("\n".join(view.card_block(game, _card_named(game, o.label), n, self.language)
                               for n, o in enumerate(decision.options, start=1)))
        else:
            self.say(_numbered(game, decision))

    def ask_buy(self, decision: Decision):
        """All the cards offered in a row as one multi-select; the engine then gets one answer per card."""
        game, index = self.game, decision.player
        offer = buying.upcoming(game, index)
        self.say()
        self.say(_offer_text(game, offer, self.language))
        while True:
            answer = self.read(f"{self.seats[index].name}: which cards do you buy? (buy 1 3 5 / buy all / "
                               f"buy none; the rest are discarded)", decision)
            if answer is LEAVE or answer is UNDONE:
                return answer
            if answer is None:
                continue
            chosen = buying.parse(answer, offer)
            if isinstance(chosen, str):
                self.say(chosen)
                continue
            problem = buying.check(game, offer, chosen)
            if problem:
                self.say(problem)
                continue
            cost = f" for {len(chosen) * offer.price} MC" if offer.price is not None else ""
            self.say(f"buying {len(chosen)} card{'s' if len(chosen) != 1 else ''}{cost}: {', '.join(chosen)}"
                     if chosen else "buying no cards")
            self.planned = buying.plan(offer, chosen)
            return self.planned.pop(offer.cards[0])

    def read(self, prompt: str, decision: Decision):
        """One line from the player: None after a command (answered here), LEAVE, UNDONE, or an answer."""
        self.say()
        self.say(prompt)
        self.stdout.write("> ")
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say("(input ended)")
            return LEAVE
        if not _is_terminal(self.stdin):  # scripted input: show it, so transcripts read like a session
            self.stdout.write(line if line.endswith("\n") else line + "\n")
        answer = line.strip()
        if not answer:
            return None
        if any(o.label.lower() == answer.lower() for o in decision.options):
            return answer  # an option's whole label answers even when it starts like a command ("card Birds")
        command, _, argument = answer.partition(" ")
        result = self.command(command.lower(), argument.strip(), decision)
        if result is NOT_A_COMMAND:
            return answer
        if result is LEAVE or result is UNDONE:
            return result
        self.say(result)
        return None

    def command(self, command: str, argument: str, decision: Decision):
        game, index = self.game, decision.player
        if command in ("help", "?", "h"):
            return HELP
        if command in ("quit", "exit"):
            return LEAVE
        if command == "undo":
            message = self.undo(index)
            if message.startswith("undone"):
                self.say(message)
                return UNDONE
            return message
        if command == "save":
            return self.save(argument)
        if command == "card" and argument:
            return self.card_text(argument)
        if command == "player" and argument:
            return self.player_text(argument)
        lookups = {
            "view": lambda: view.panel(game, index),
            "board": lambda: view.board(game),
            "hand": lambda: view.hand(game, index),
            "opponents": lambda: "\n".join(view.player_sheet(game, p.index) for p in game.state.players
                                           if p.index != index),
            "projects": lambda: view.standard_projects(game, index, self.language),
            "milestones": lambda: view.milestones(game, index, self.language),
            "awards": lambda: view.awards(game),
            "history": lambda: "\n".join(game.events[-20:]) or "nothing has happened yet",
            "options": lambda: (_offer_text(game, buying.upcoming(game, index), self.language)
                                if decision.kind == "buy"
                                else _numbered(game, decision)),
        }
        if command in ("card", "player") and not argument:
            return f"{command} needs a name: {command} {'Birds' if command == 'card' else 'bob'}"
        if command in lookups and not argument:
            return lookups[command]()
        return NOT_A_COMMAND

    def card_text(self, name: str) -> str:
        found = _by_start(name, list(self.game.library))
        if found is None:
            return f"no card starts with {name!r}"
        if isinstance(found, list):
            return _ambiguous(name, found)
        return rules_text.card(self.game.library[found], self.language)

    def player_text(self, name: str) -> str:
        players = self.game.state.players
        found = _by_start(name, [p.name for p in players])
        if found is None:
            return f"no player is called {name!r}; players: {', '.join(p.name for p in players)}"
        if isinstance(found, list):
            return _ambiguous(name, found)
        return view.player_sheet(self.game, next(p.index for p in players if p.name == found))

    def save(self, filename: str, leaving: bool = False) -> str:
        """Save to `filename`, or say why not (the game goes on either way): a name the system refuses (over 255
        bytes, a NUL character, a folder that does not exist) is checked before anything is written."""
        if not filename:
            return "save needs a file name: save mygame.json"
        path, look = Path(filename), on_disk(filename)
        if look.kind == "unusable":
            return f"could not save to {shorten(filename)}: {look.reason}" + (f"; {look.hint}" if look.hint else "")
        if look.kind != "missing" and path.resolve() not in self.written and not leaving:
            return f"{filename} already exists: save under another name (a save never overwrites another file)"
        from tharsis.saves import save_data

        data = save_data(self.game, self.seats)
        try:
            path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        except (OSError, ValueError) as exc:
            reason, hint = why_unusable(exc)
            return f"could not save to {shorten(filename)}: {reason}" + (f"; {hint}" if hint else "")
        self.written.add(path.resolve())
        self.autosave = path
        return f"saved to {filename}; resume with: tharsis play --load {filename}"

    def undo(self, index: int) -> str:
        mine = [i for i, turn in enumerate(self.turns) if turn.player == index]
        if not mine:
            return "nothing of yours to undo"
        last = mine[-1]
        if any(turn.player != index for turn in self.turns[last:]):
            return "cannot undo: another player has chosen since your last choice"
        if self.turns[last].generation != self.game.state.generation:  # a new generation means a new turn
            return "cannot undo a choice from an earlier turn"
        start = self.turns[last].start
        self.game = self.before.pop(start)  # the copy taken before that choice (copies are independent)
        self.before = {n: copy for n, copy in self.before.items() if n < start}
        self.turns = self.turns[:last]
        self.planned = {}
        self.log.start(self.game, self.seats)
        return f"undone: back before your choice #{start + 1}"


NOT_A_COMMAND = object()


def resolve(decision: Decision, answer: str):
    """(the option an answer names, None) or (None, why it names none): a space by its board id, otherwise the
    option's number, its label or the start of its label (or of any word in it); ambiguity is reported."""
    options = decision.options
    if decision.kind == "space":
        wanted = answer.lower().removeprefix("space").strip()
        for option in options:
            space = _space_of(option.label)
            if wanted == space.lower() or (buying.number(wanted) is not None
                                           and buying.number(wanted) == buying.number(space)):
                return option, ""
        if buying.not_a_number(wanted):
            return None, buying.not_a_number(wanted)
        if buying.number(wanted) is not None:
            return None, (f"{shorten(wanted, 20)} is not a legal space here; legal: "
                          + " ".join(_space_of(o.label) for o in options))
    elif (number := buying.number(answer)) is not None:
        if 1 <= number <= len(options):
            return options[number - 1], ""
        return None, f"there is no option {shorten(answer, 20)}: the options are numbered 1-{len(options)}"
    elif buying.not_a_number(answer):
        return None, buying.not_a_number(answer)
    lowered = answer.lower()
    for tier in (lambda label: label == lowered, lambda label: label.startswith(lowered),
                 lambda label: any(label.startswith(lowered, i + 1) for i, ch in enumerate(label) if ch == " ")):
        matches = [o for o in options if tier(o.label.lower())]
        labels = list(dict.fromkeys(o.label for o in matches))
        if len(labels) == 1:
            return matches[0], ""
        if len(labels) > 1:
            return None, _ambiguous(answer, labels)
    return None, f"'{answer}' is not one of the options; type options to list them, help for the commands"


def _move_ends(move: Move, decision: Decision, game: Game) -> bool:
    """A move is one player's choices in a row: it ends with another player's decision, a new action, a new
    generation (the production phase is told with the move before it), or the first card offer after an action."""
    last_kind = move.choices[-1][0] if move.choices else None
    return (decision.player != move.player or decision.kind in ("action", "corporation")
            or game.state.generation != move.before.generation
            or (decision.kind == "buy" and last_kind not in ("buy", "pay")))


def _by_start(name: str, names: list[str]):
    """The one of `names` that `name` is (case aside) or starts, None when none does, or the list of those it
    starts when it starts several and is none of them."""
    matches = [n for n in names if n.lower().startswith(name.lower())]
    exact = [n for n in matches if n.lower() == name.lower()]
    if not matches:
        return None
    if len(matches) > 1 and not exact:
        return matches
    return (exact or matches)[0]


def _ambiguous(answer: str, candidates: list[str]) -> str:
    shown = ", ".join(candidates[:8]) + (f", ... ({len(candidates)} in all)" if len(candidates) > 8 else "")
    return f"'{answer}' is ambiguous: {shown}; type more of it"


def _space_of(label: str) -> str:
    """The board id a space option names: "space 31" -> "31" (labels are the engine's stable interface)."""
    return label.removeprefix("space ").strip()


def _card_named(game: Game, label: str) -> Optional[str]:
    name = label.partition(" ")[2]
    return name if name in game.library else None


def _past_setup(game: Game, player: int) -> Game:
    """A copy of the game moved on to `player`'s first card offer (everyone's first options), to preview the deal."""
    copy = game.clone()
    for _ in range(100):
        decision = copy.pending()
        if decision is None or (decision.player == player and decision.kind == "buy"):
            break
        copy.apply(decision.options[0].label)
    return copy


def _free_path(stem: str, suffix: str) -> Path:
    """`stem + suffix`, or `stem-2 + suffix`, ...: the first name no file has, so nothing is overwritten."""
    path, number = Path(stem + suffix), 1
    while path.exists():
        number += 1
        path = Path(f"{stem}-{number}{suffix}")
    return path


def log_path(requested: Optional[str], seed: int) -> Path:
    """Where a new game's log goes (ProblemError, exit 2, when it cannot be written). An existing --log file is
    never overwritten (E718); the default name tharsis-game-SEED.jsonl gets -2, -3, ... when it is taken."""
    if requested:
        path, look = Path(requested), on_disk(requested)
        if look.kind == "unusable":
            raise usage_error("E708", f"cannot write the game log to {shorten(requested)}: {look.reason} "
                                      "(use --log FILE or --no-log)", look.hint)
        if look.kind == "folder" or (look.kind == "file" and look.size > 0):
            raise usage_error("E718", f"--log {requested}: the file already exists and a new game does not "
                                      "overwrite it", "choose another --log FILE, or --no-log; to go on with the "
                                      f"game it holds: tharsis play --load {requested}")
    else:
        path = _free_path(f"tharsis-game-{seed}", ".jsonl")
    return writable_log(path)


def writable_log(path: Path) -> Path:
    """`path`, created if missing, or ProblemError E708 (exit 2) when the game log cannot be written there: a new
    game's log and a resumed log (which goes on being written) are checked alike, before the game starts."""
    try:
        path.touch()
    except (OSError, ValueError) as exc:
        reason, hint = why_unusable(exc)
        raise usage_error("E708", f"cannot write the game log to {shorten(str(path))}: {reason} "
                                  "(use --log FILE or --no-log)", hint) from None
    return path


def _offer_text(game: Game, offer: buying.Offer, language: str = "en") -> str:
    """The cards of an offer, numbered, with the price and what the player can afford."""
    money = game.state.players[offer.player].resources["megacredits"]
    price = f"{offer.price} MC each" if offer.price is not None else "priced as shown"
    enough = f" (enough for {min(len(offer.cards), money // offer.price)})" if offer.price else ""
    return "\n".join([f"{len(offer.cards)} cards offered, {price}; you have {money} MC{enough}:"]
                     + [view.card_block(game, card, n, language) for n, card in enumerate(offer.cards, start=1)])


def _numbered(game: Game, decision: Decision) -> str:
    """The options, one per line; a card to play with your price and its tags, another card named by an option
    (to discard, to add a resource to) with its type, printed cost and tags (`card NAME` gives its text)."""
    if decision.kind == "space":
        return "  " + " ".join(_space_of(o.label) for o in decision.options)
    lines = []
    for n, option in enumerate(decision.options, start=1):
        line = f"  {n:>3}. {option.label}"
        named = _card_named(game, option.label)
        if decision.kind == "action" and named and option.label.startswith("play "):
            card = game.library[named]
            line = (f"{line:<46}{card_cost(game, decision.player, card.name)} MC, "
                    f"{','.join(card.tags) or 'no tags'}")
        elif named and game.library[named].kind == "card":
            card = game.library[named]
            cost = f"{card.cost} MC, " if card.type not in game.elements.card_kinds else ""  # a prelude is free
            line = f"{line:<46}{card.type}, {cost}{','.join(card.tags) or 'no tags'}"
        lines.append(line)
    return "\n".join(lines)


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
