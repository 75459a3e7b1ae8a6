"""`tharsis play`: a game in the terminal between humans and bots, with a log, saving, loading and undo.

Humans answer the same pending decisions bots do (runtime/core/decisions.py), through the public decision API only
(`pending`, `apply`, `clone`, `events`): they see the state, every move as it happens (tharsis/terminal/moves.py), and
the legal options; spaces are chosen by board id and card offers as one multi-select (tharsis/terminal/buying.py).
Leaving saves. Every game writes a JSONL log (the options it started with, the seats, then one line per choice, and the
result), which `tharsis replay` reproduces.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Optional, TextIO

import attrs

from tharsis.compiler import rules_text
from tharsis.compiler.source import on_disk, why_unusable
from tharsis.runtime.api import Decision, EndlessGame, Option
from tharsis.runtime.api.game import Game
from tharsis.runtime.bots import BOTS

from ..games.options import Seat
from ..problems import Problem, ProblemError, shorten, usage_error
from . import buying, line_editing, moves, prompts, style, view
from .messages import Words, path_refusal, words_for


class GameLog:
    """The JSONL log of one game: a start line, one line per choice, an end line. Rewritten whole on undo."""

    def __init__(self, path: Optional[Path], choosers: Optional[list[str]] = None):
        self.path = path
        self.choosers = list(choosers or [])   # who made each choice so far (a loaded game's, then this session's)

    def start(self, game: Game, seats: list[Seat]) -> None:
        """The log rewritten whole (a resumed game's and after an undo): into a file beside it, then renamed over
        it, so that a full disk or a kill in the middle leaves the old log whole (compiler/writing.py)."""
        del self.choosers[len(game.log):]       # an undo took the later choices back
        if self.path is None:
            return
        from tharsis.compiler.writing import replacing
        from tharsis.games.saves import log_start

        try:
            with replacing(self.path) as handle:
                handle.write(json.dumps(log_start(game, seats)) + "\n")
                for number, label in enumerate(game.log, start=1):
                    who = {"player": self.choosers[number - 1]} if number <= len(self.choosers) else {}
                    handle.write(json.dumps({"event": "choice", "n": number, **who, "label": label}) + "\n")
        except OSError as exc:
            kept = "the log is as it was before this game started: nothing in it was lost"
            raise self._unwritten(exc, kept) from None

    def choice(self, game: Game, player: str) -> None:
        if len(self.choosers) == len(game.log) - 1:
            self.choosers.append(player)
        if self.path is None:
            return
        self._append({"event": "choice", "n": len(game.log), "player": player, "label": game.log[-1]})

    def end(self, result: dict) -> None:
        if self.path is None:
            return
        self._append({"event": "end", "result": result})

    def _append(self, event: dict) -> None:
        """One line added at the end: an append, never a rewrite (at worst the new line is cut, which loading
        forgives: W702)."""
        try:
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(event, ensure_ascii=False) + "\n")
        except OSError as exc:
            raise self._unwritten(exc, "the log holds every choice before this one") from None

    def _unwritten(self, error: OSError, kept: str) -> ProblemError:
        reason, hint = why_unusable(error)
        return ProblemError([Problem("E708", f"cannot write the game log: {reason}; {kept}",
                                     hint or f"free some space, then resume with tharsis play --load {self.path}",
                                     str(self.path))])


INTERRUPTED = 130                    # the exit code of a program stopped by Ctrl-C (128 + SIGINT)
LEAVE, UNDONE = object(), object()   # what `ask` returns besides a label: the player leaves / took a choice back
CARD_CHOICES = ("corporation", "draft", "keep")  # choices of new cards: each shown with its whole rules text


UNDO_DEPTH = 100                     # copies kept of each human's last answers; undo replays to older ones


@attrs.frozen
class Turn:
    """A human's answer or a bot's choice: who, and where in the log it starts (for undo)."""

    player: int
    start: int


class Session:
    def __init__(self, game: Game, seats: list[Seat], log: GameLog, stdin: Optional[TextIO] = None,
                 stdout: Optional[TextIO] = None, autosave: Optional[Path] = None, language: str = "en"):
        self.game = game
        self.language = language              # of everything the session says (`--lang`): tharsis/terminal/messages.py
        self.words: Words = words_for(game, language)
        self.seats = seats
        self.log = log
        self.stdin, self.stdout = stdin or sys.stdin, stdout or sys.stdout
        self.bots = {i: BOTS[s.kind](game.options.seed * 10 + i) for i, s in enumerate(seats) if s.kind != "human"}
        self.turns: list[Turn] = _turns_so_far(game)
        self.before: dict[int, Game] = {}     # copies of the game before the humans' answers (undo goes back to one)
        self.planned: dict[str, str] = {}     # card -> "buy X" / "discard X": a multi-select being fed to the engine
        self.autosave = autosave              # where leaving saves when there is no log (see `leave`)
        self.written: set[Path] = {autosave.resolve()} if autosave else set()
        self.narrator = moves.Narrator([s.kind != "human" for s in seats], language)   # tells every move as made

    def say(self, message: str = "") -> None:
        print(style.shown(message), file=self.stdout)

    def run(self) -> int:
        game = self.game
        words = self.words
        if game.log:
            self.say(words("resuming", seed=game.options.seed, n=len(game.log)))
        else:
            self.say(words("seed", seed=game.options.seed))
        self.say(words("type_help"))
        self.log.start(game, self.seats)
        try:
            if not self.play():
                return self.leave()
        except KeyboardInterrupt:
            # an interrupted choice may have stopped half done: rebuild from the log
            self.game = Game.replay(self.game.options, self.game.log, self.game.content)
            self.say(words("interrupted"))
            self.leave()
            return INTERRUPTED
        game = self.game
        self.log.end(game.result)
        self.say()
        self.say(view.globals_line(game, self.language))
        self.say(view.board(game, paint=self.paint, language=self.language))
        self.say()
        self.say(view.final_table(game.result, self.paint, self.language))
        self.say(moves.vp_breakdown(game.result, self.words, game))
        return 0

    def play(self) -> bool:
        """Deal with decisions until the game ends (True) or a human leaves (False)."""
        narrator = self.narrator
        while not self.game.over:
            game = self.game  # undo replaces the game
            decision = game.pending()
            self.tell(narrator.before(game, decision))   # the move that just ended, a new generation
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
                    self.tell(narrator.finish(self.game))
                    return False
                if answer is UNDONE:
                    narrator.forget()
                    continue
                label = answer
            if new_turn:
                self.remember(decision.player)
            narrator.choose(game, decision, label)
            try:
                game.apply(label)
            except EndlessGame:   # the choice that set the content looping is logged too: a replay stops there
                self.log.choice(game, self.seats[decision.player].name)
                raise
            self.log.choice(game, self.seats[decision.player].name)
        self.tell(narrator.finish(self.game))
        return True

    def tell(self, lines: list[str]) -> None:
        """Print the narration's lines (tharsis/terminal/moves.py: the same `replay` prints)."""
        if lines:
            self.say("\n".join(lines))

    def leave(self) -> int:
        """Leaving keeps the game: its log already holds every choice; without a log it is saved to a file (the
        last `save FILE`, the save it was loaded from, or a new tharsis-save-SEED.json)."""
        if self.log.path is not None:
            self.say(self.words("saved_in_log", path=self.log.path))
            return 0
        path = self.autosave or _free_path(f"tharsis-save-{self.game.options.seed}", ".json")
        saved, message = self._save(str(path), leaving=True)
        self.say(self.words("saved_to", path=path) if saved else message)
        return 0

    # ------------------------------------------------------------------ the human's prompt

    def ask(self, decision: Decision):
        """The human's answer to `decision`: an option's label, LEAVE or UNDONE (commands are answered here)."""
        if decision.kind == "buy":
            return self.ask_buy(decision)
        self.show(decision)
        index = decision.player
        asked = prompts.question(self.game, decision, self.language)
        while True:
            answer = self.read(self._prompt(index, asked, decision.for_player), decision)
            if answer is LEAVE or answer is UNDONE:
                return answer
            if answer is None:
                continue
            option, message = resolve(decision, answer, self.language)
            shown = decision.kind not in ("space", "action", "x") or (decision.kind == "action"
                                                                     and not self.words.english)
            if option is None and shown:  # the words shown: rules text, and every label in another language
                option, said = _by_shown_text(self.game, decision, answer, self.language)
                message = said if option is None and not self.words.english else message
            if option is not None:
                return option.label
            self.say(_pass_refused(self.game, decision, answer, self.words)
                     or _play_refused(self.game, decision, answer, self.words) or message)

    def _prompt(self, index: int, asked: str, for_player: Optional[int] = None) -> str:
        """`ann: action 1 of 2`, ann：第1个行动…: the player asked, then the question; `bob, deciding for ann: ...`
        when the choice is made for another player (`decided by ... { }`), whose tile or cards it is about."""
        name = self.paint.player(self.seats[index].name, index)
        if for_player is not None:
            owner = self.paint.player(self.seats[for_player].name, for_player)
            return self.words("prompt_for", name=name, owner=owner, asked=asked)
        return self.words("prompt", name=name, asked=asked)

    @property
    def paint(self) -> style.Paint:
        """Colour on a terminal (unless NO_COLOR), plain text for pipes, files and tests (tharsis/terminal/style.py)."""
        return style.for_stream(self.stdout)

    def show(self, decision: Decision) -> None:
        # what is shown is from the side of the player the choice is for (their spaces' bonuses, their panel)
        game, index, paint, language = self.game, decision.acting, self.paint, self.language
        self.say()
        if decision.kind == "action":
            self.say(view.panel(game, index, paint, language))
        elif decision.kind == "space":
            spaces = [_space_of(o.label) for o in decision.options]
            self.say(view.board(game, highlight=tuple(spaces), paint=paint, language=language))
            self.say(self.words("legal_spaces"))
            self.say(view.space_choices(game, spaces, index, language))
            return
        elif decision.kind == "corporation":
            preview = buying.upcoming(_past_setup(game, index), index)
            if preview.cards:
                self.say(self.words("starting_cards", n=len(preview.cards)))
                self.say(view.compact_cards(game, preview.cards, paint, language))
                self.say()
            self.show_dealt(index)
        if decision.kind in CARD_CHOICES and all(_card_named(game, o.label) for o in decision.options):
            self.say("\n".join(view.card_block(game, _card_named(game, o.label), n, self.language, paint)
                               for n, o in enumerate(decision.options, start=1)))
        else:
            self.say(_numbered(game, decision, self.language, paint))

    def show_dealt(self, index: int) -> None:
        """The cards of declared kinds (preludes) dealt to the player with the corporations: the printed rules deal
        them together, so they are in view while the corporation is chosen and the starting cards bought."""
        dealt = self.game.state.kept[index] if self.game.state.kept else ()
        if dealt:
            self.say(self.words("dealt_with_corporations", n=len(dealt)))
            self.say(view.compact_cards(self.game, dealt, self.paint, self.language))
            self.say()

    def ask_buy(self, decision: Decision):
        """All the cards offered in a row as one multi-select; the engine then gets one answer per card."""
        game, index = self.game, decision.player
        offer = buying.upcoming(game, index)
        self.say()
        self.show_dealt(index)
        self.say(_offer_text(game, offer, self.language, self.paint))
        words = self.words
        while True:
            answer = self.read(self._prompt(index, words("which_cards"), decision.for_player), decision)
            if answer is LEAVE or answer is UNDONE:
                return answer
            if answer is None:
                continue
            chosen = buying.parse(answer, offer, self.language)
            if isinstance(chosen, str):
                self.say(chosen)
                continue
            problem = buying.check(game, offer, chosen, self.language)
            if problem:
                self.say(problem)
                continue
            cost = words("buying_cost", mc=len(chosen) * offer.price) if offer.price is not None else ""
            self.say(words("buying", cards=words("cards_count", n=len(chosen)), cost=cost,
                           names=words.join(words.name(game.library[card]) for card in chosen))
                     if chosen else words("buying_none"))
            self.planned = buying.plan(offer, chosen)
            return self.planned.pop(offer.cards[0])

    def read(self, prompt: str, decision: Decision):
        """One line from the player: None after a command (answered here), LEAVE, UNDONE, or an answer."""
        self.say()
        self.say(prompt)
        if self.editor is None:
            self.stdout.write("> ")
            self.stdout.flush()
            line = self.stdin.readline()
        else:  # a terminal: the arrows, the history of answers and Tab completion (tharsis/terminal/line_editing.py)
            line = self.editor.read("> ", lambda: self.completions(decision))
        if not line:
            self.say(self.words("input_ended"))
            return LEAVE
        if not _is_terminal(self.stdin):  # scripted input: show it, so transcripts read like a session
            self.stdout.write(line if line.endswith("\n") else line + "\n")
        answer = line.strip()
        if not answer:
            return None
        if any(o.label.lower() == answer.lower() for o in decision.options):
            return answer  # an option's whole label answers even when it starts like a command ("card Birds")
        command, _, argument = answer.partition(" ")
        command, argument = _command_words(command, argument)
        if command != answer.partition(" ")[0] and decision.kind != "buy" and any(
                prompts.label_text(self.game, decision, o.label, self.words) == answer for o in decision.options):
            return answer  # and so does an option's whole text as shown (玩家 bob), though 玩家 is a command
        result = self.command(command.lower(), argument.strip(), decision)
        if result is NOT_A_COMMAND:
            return answer
        if result is LEAVE or result is UNDONE:
            return result
        self.say(result)
        return None

    @functools.cached_property
    def editor(self) -> Optional[line_editing.LineEditor]:
        return line_editing.for_streams(self.stdin, self.stdout)

    def completions(self, decision: Decision) -> list[str]:
        """What Tab completes at this prompt: the commands, `card NAME` and `player NAME`, and this decision's
        answers (its options, a space's id, a card selection)."""
        game = self.game
        words = list(COMMANDS) + [f"card {name}" for name in game.library]
        words += [f"player {p.name}" for p in game.state.players]
        if not self.words.english:  # the Chinese commands, and the cards by their Chinese names
            words += [alias + ("" if command in COMMANDS else " ") for alias, command in ALIASES.items()]
            words += [f"卡牌 {shown}" for shown in _shown_names(game, self.words) if shown not in game.library]
        if decision.kind == "space":
            words += [_space_of(o.label) for o in decision.options]
        elif decision.kind == "buy":
            words += ["buy all", "buy none"]
        else:
            words += [o.label for o in decision.options]
        return words

    def command(self, command: str, argument: str, decision: Decision):
        game, index = self.game, decision.player
        if command in ("help", "?", "h"):
            return self.words("help")
        if command in ("quit", "exit"):
            return LEAVE
        if command == "undo":
            before = self.game
            message = self.undo(index)
            if self.game is not before:  # taken back: the game is the copy from before the answer
                self.say(message)
                return UNDONE
            return message
        if command == "save":
            return self.save(argument)
        if command == "card" and argument:
            return self.card_text(argument)
        if command == "player" and argument:
            return self.player_text(argument)
        paint, language = self.paint, self.language
        lookups = {
            "view": lambda: view.panel(game, index, paint, language),
            "board": lambda: view.board(game, paint=paint, language=language),
            "hand": lambda: view.hand(game, index, paint, language),
            "opponents": lambda: "\n".join(view.player_sheet(game, p.index, paint, language)
                                           for p in game.state.players if p.index != index),
            "projects": lambda: view.standard_projects(game, index, language),
            "milestones": lambda: view.milestones(game, index, language),
            "awards": lambda: view.awards(game, index, language),
            "history": lambda: moves.history(game, language=language) or self.words("nothing_yet"),
            "options": lambda: (_offer_text(game, buying.upcoming(game, index), self.language, paint)
                                if decision.kind == "buy"
                                else _numbered(game, decision, self.language, paint)),
        }
        if command in ("card", "player") and not argument:
            return self._needs_a_name(command)
        if command in lookups and not argument:
            return lookups[command]()
        return NOT_A_COMMAND

    def _needs_a_name(self, command: str) -> str:
        """`card needs a name: card Birds`, with an example of the game's own in another language (a card with a
        name in it, a player of this game)."""
        words = self.words
        if words.english:
            return words("needs_a_name", command=command, example="Birds" if command == "card" else "bob")
        if command == "card":
            example = next((shown for shown in _shown_names(self.game, words) if shown not in self.game.library),
                           "Birds")
            return words("needs_a_name", command="卡牌", example=example)
        return words("needs_a_name", command="玩家", example=self.game.state.players[-1].name)

    def card_text(self, name: str) -> str:
        """A card's rules text, by the start of its name (its name in the session's language too: 畜牧)."""
        game, words = self.game, self.words
        # the face-up cards of kinds with stages too (a global event), whose names are their kind's
        face_up = {card: game.elements.staged_cards[kind][card] for kind, cards in game.state.stages.items()
                   for card in cards if card is not None}
        cards = {**face_up, **game.library}
        shown = {words.name(definition): definition.name for definition in cards.values()}
        found = _by_start(name, list(dict.fromkeys(list(cards) + list(shown))))
        if isinstance(found, list):  # a card found by both its names is one card
            found = list(dict.fromkeys(shown.get(n, n) for n in found))
            found = found[0] if len(found) == 1 else [words.name(cards[n]) for n in found]
        if found is None:
            return self._not_a_card(name) or words("no_card_starts", name=name)
        if isinstance(found, list):  # `card aquifer`: cards start so, and a standard project is so called
            elsewhere = self._not_a_card(name, exact=True)
            return _ambiguous(name, found, self.language) + (f"\n{elsewhere}" if elsewhere else "")
        found = shown.get(found, found)
        texts = [rules_text.card(definition, self.language, game.content.names)
                 for definition in (game.library.get(found), face_up.get(found)) if definition is not None]
        return "\n\n".join(texts)   # a project card and a face-up card of a kind with stages may share a name

    def _not_a_card(self, name: str, exact: bool = False) -> Optional[str]:
        """For `card Terraformer`: the milestone, award, standard project or conversion that `name` starts (`exact`:
        that `name` is), and the command that looks it up (they are not cards, so `card` cannot show them); None
        when there is none."""
        game, words = self.game, self.words
        command_word = {command: word for word, command in ALIASES.items()}
        for table, kind, command in ((game.milestones, "kind_milestone", "milestones"),
                                     (game.awards, "kind_award", "awards"),
                                     (game.standard_projects, "kind_project", "projects"),
                                     (game.standard_actions, "kind_conversion", "projects")):
            shown = {words.name(definition): key for key, definition in table.items()}
            found = _by_start(name, list(dict.fromkeys(list(table) + list(shown))))
            if isinstance(found, list):
                found = found[0]
            if found is not None and (not exact or found.lower() == name.lower()):
                return words("not_a_card", name=words.name(table[shown.get(found, found)]), kind=words(kind),
                             command=command if words.english else command_word[command])
        return None

    def player_text(self, name: str) -> str:
        players = self.game.state.players
        found = _by_start(name, [p.name for p in players])
        if found is None:
            return self.words("no_player", name=name, players=self.words.join(p.name for p in players))
        if isinstance(found, list):
            return _ambiguous(name, found, self.language)
        return view.player_sheet(self.game, next(p.index for p in players if p.name == found), self.paint,
                                 self.language)

    def save(self, filename: str, leaving: bool = False) -> str:
        """Save to `filename`, or say why not (the game goes on either way): a name the system refuses (over 255
        bytes, a NUL character, a folder that does not exist) is checked before anything is written."""
        return self._save(filename, leaving)[1]

    def _save(self, filename: str, leaving: bool = False) -> tuple[bool, str]:
        """(whether the game was saved, what to tell the player)."""
        words = self.words
        if not filename:
            return False, words("save_needs_name")
        path, look = Path(filename), on_disk(filename)
        if look.kind == "unusable":
            return False, words("could_not_save", path=shorten(filename),
                                reason=path_refusal(words, look.reason, look.hint))
        if look.kind != "missing" and path.resolve() not in self.written and not leaving:
            return False, words("exists", path=filename)
        from tharsis.compiler.writing import replace_file
        from tharsis.games.saves import save_data

        data = save_data(self.game, self.seats)
        try:
            replace_file(path, json.dumps(data, ensure_ascii=False))
        except (OSError, ValueError) as exc:  # an earlier save of that name is kept whole (compiler/writing.py)
            return False, words("could_not_save_kept" if look.kind == "file" else "could_not_save",
                                path=shorten(filename),
                                reason=path_refusal(words, *why_unusable(exc)))
        self.written.add(path.resolve())
        self.autosave = path
        return True, words("saved", path=filename)

    def remember(self, player: int) -> None:
        """An answer starts here: noted for undo, with a copy of the game before it when a human gives it (the
        bots' choices are found again by asking the bots: they choose the same in the same position)."""
        game = self.game
        self.turns.append(Turn(player, len(game.log)))
        if self.seats[player].kind == "human":
            self.before[len(game.log)] = game.clone()
            kept = [t.start for t in self.turns if t.player == player and t.start in self.before]
            for start in kept[:-UNDO_DEPTH]:
                del self.before[start]

    def undo(self, index: int) -> str:
        """Back to before `index`'s last answer, with every bot's choice since, when no other human chose since."""
        words = self.words
        mine = [i for i, turn in enumerate(self.turns) if turn.player == index]
        if not mine:
            return words("nothing_to_undo")
        last = mine[-1]
        humans = list(dict.fromkeys(self.seats[t.player].name for t in self.turns[last + 1:]
                                    if self.seats[t.player].kind == "human"))
        if humans:
            return words("cannot_undo", n=len(humans), humans=words("and").join(humans))
        start = self.turns[last].start
        copy = self.before.pop(start, None)
        if copy is None:  # an answer older than the copies kept, or given before the game was loaded: the game is
            # dealt again and replayed up to it
            copy = Game.replay(self.game.options, self.game.log.to_list()[:start], self.game.content)
        choices = self.game.choices()[start:]
        bots = [self.seats[player].name for player, _, _ in choices if player != index]
        move = self._move_named(copy, *choices[0][1:]) if choices else words("undone_nothing")
        self.game = copy
        self.before = {n: kept for n, kept in self.before.items() if n < start}
        self.turns = self.turns[:last]
        self.planned = {}
        self.log.start(self.game, self.seats)
        also = words("undone_also", n=len(bots), choices=words("choices_count", n=len(bots)),
                     bots=words("and").join(dict.fromkeys(bots))) if bots else ""
        return words("undone", move=move, generation=copy.state.generation, also=also)

    def _move_named(self, game: Game, kind: str, label: str) -> str:
        """The answer undo takes back, as the player gave it: `'play Comet'`, the cards bought in one answer."""
        if kind == "buy":
            return self.words("undone_buying")
        decision = game.pending()
        return self.words("undone_choice", label=prompts.label_text(game, decision, label, self.words).rstrip("。."))


def _turns_so_far(game: Game) -> list[Turn]:
    """The answers of a loaded game, for undo: each choice, but a run of one player's card purchases (one
    multi-select at the prompt) is one answer."""
    turns, previous = [], None
    for start, (player, kind, _) in enumerate(game.choices() if game.log else ()):
        if not (kind == "buy" and previous == (player, "buy")):
            turns.append(Turn(player, start))
        previous = (player, kind)
    return turns


NOT_A_COMMAND = object()
COMMANDS = ("help", "view", "board", "hand", "card ", "options", "player ", "opponents", "history", "projects",
            "milestones", "awards", "undo", "save ", "quit")
# the commands in Chinese (`--lang zh` shows these in its help); the English ones are understood in every language
ALIASES = {"帮助": "help", "查看": "view", "版图": "board", "手牌": "hand", "卡牌": "card", "选项": "options",
           "玩家": "player", "对手": "opponents", "历史": "history", "项目": "projects", "里程碑": "milestones",
           "奖励": "awards", "撤销": "undo", "保存": "save", "退出": "quit"}


def _command_words(command: str, argument: str) -> tuple[str, str]:
    """A typed command and its argument in English: 卡牌 畜牧 is `card 畜牧`, and so is 卡牌畜牧 (Chinese is written
    without spaces)."""
    if command in ALIASES:
        return ALIASES[command], argument
    for alias in ("卡牌", "玩家", "保存"):
        if command.startswith(alias) and len(command) > len(alias):
            rest = command[len(alias):] + (" " + argument if argument else "")
            return ALIASES[alias], rest
    return command, argument


def _shown_names(game, words: Words) -> list[str]:
    """Every card's name as the session's language says it (its Chinese name, or its own)."""
    return [words.name(definition) for definition in game.library.values()]


def resolve(decision: Decision, answer: str, language: str = "en"):
    """(the option an answer names, None) or (None, why it names none): a space by its board id, otherwise the
    option's number, its label or the start of its label (or of any word in it; for an answer in Chinese, which is
    written without spaces, any part of it); ambiguity is reported."""
    words = words_for(None, language)
    options = decision.options
    if decision.kind == "space":
        wanted = answer.lower().removeprefix("space").strip()
        wanted = wanted.removeprefix("区域").strip()
        for option in options:
            space = _space_of(option.label)
            if wanted == space.lower() or (buying.number(wanted) is not None
                                           and buying.number(wanted) == buying.number(space)):
                return option, ""
        if buying.not_a_number(wanted):
            return None, buying.not_a_number(wanted, language)
        if buying.number(wanted) is not None:
            return None, words("not_a_legal_space", space=shorten(wanted, 20),
                               legal=" ".join(_space_of(o.label) for o in options))
    elif (number := buying.number(answer)) is not None:
        if 1 <= number <= len(options):
            return options[number - 1], ""
        return None, words("no_option", answer=shorten(answer, 20), n=len(options))
    elif buying.not_a_number(answer):
        return None, buying.not_a_number(answer, language)
    lowered = answer.lower()
    tiers = [lambda label: label == lowered, lambda label: label.startswith(lowered),
             lambda label: any(label.startswith(lowered, i + 1) for i, ch in enumerate(label) if ch == " ")]
    if not lowered.isascii():
        tiers.append(lambda label: lowered in label)
    for tier in tiers:
        matches = [o for o in options if tier(o.label.lower())]
        labels = list(dict.fromkeys(o.label for o in matches))
        if len(labels) == 1:
            return matches[0], ""
        if len(labels) > 1:
            return None, _ambiguous(answer, labels, language)
    return None, words("not_an_option", answer=answer)


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


def _ambiguous(answer: str, candidates: list[str], language: str = "en") -> str:
    words = words_for(None, language)
    shown = words.join(candidates[:8]) + (words("ambiguous_more", n=len(candidates)) if len(candidates) > 8 else "")
    return words("ambiguous", answer=answer, shown=shown)


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
        if look.kind == "other":  # a pipe with no reader would block the game's first write: a hang
            raise usage_error("E708", f"cannot write the game log to {shorten(requested)}: it is not a regular "
                                      "file (a pipe, a device or a socket)", "use --log FILE, or --no-log")
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


def _offer_text(game: Game, offer: buying.Offer, language: str = "en", paint: style.Paint = style.PLAIN) -> str:
    """The cards of an offer, numbered, with the price and what the player can afford."""
    words = words_for(game, language)
    money = game.state.players[offer.buyer].resources["megacredits"]
    price = words("price_each", price=offer.price) if offer.price is not None else words("priced_as_shown")
    enough = words("enough_for", n=min(len(offer.cards), money // offer.price)) if offer.price else ""
    return "\n".join([words("offered", cards=words("cards_count", n=len(offer.cards)), price=price, mc=money,
                            enough=enough)]
                     + [view.card_block(game, card, n, language, paint)
                        for n, card in enumerate(offer.cards, start=1)])


def _numbered(game: Game, decision: Decision, language: str = "en", paint: style.Paint = style.PLAIN) -> str:
    """The options, one per line (tharsis/terminal/prompts.py): the action menu with each entry's price, effects in
    rules text, targets with their facts, cards with their type, cost and tags."""
    return prompts.numbered(game, decision, language, paint)


def _by_shown_text(game: Game, decision: Decision, answer: str, language: str):
    """(the option whose shown text (rules text, tharsis/terminal/prompts.py) the answer is or starts (or starts a word
    of), when its label does not: `decrease` for an option shown as `Decrease your MC production 2 steps ...`,
    None) or (None, why none is); in Chinese 蓄水 for 标准项目「蓄水」 (a part of the text)."""
    words = words_for(game, language)
    if decision.kind == "action":  # the menu's entries as shown (their facts are columns of their own)
        shown = tuple(Option(prompts.label_text(game, decision, o.label, words), o) for o in decision.options)
    else:
        shown = tuple(Option(prompts.option_text(game, decision, o, language), o) for o in decision.options)
    option, message = resolve(Decision(decision.player, decision.kind, decision.prompt, shown), answer, language)
    return (option.value, "") if option is not None else (None, message)


def _pass_refused(game: Game, decision: Decision, answer: str, words: Words) -> Optional[str]:
    """Why `pass` is not on the menu after an action (the printed rules: a player who has acted this turn ends the
    turn, and passes only instead of an action), and which option ends the turn; None for another answer."""
    labels = [o.label for o in decision.options] if decision.kind == "action" else []
    if "pass" in labels or "end turn" not in labels:
        return None
    typed = answer.strip().casefold()
    if typed not in ("pass", prompts.label_text(game, decision, "pass", words).casefold()):
        return None
    return words("pass_is_end_turn", n=labels.index("end turn") + 1,
                 end_turn=prompts.label_text(game, decision, "end turn", words))


def _play_refused(game: Game, decision: Decision, answer: str, words: Words) -> Optional[str]:
    """Why a card of the hand that `play NAME` names is not on the menu (its requirement, its cost, which of its
    effects cannot be carried out and what that lacks), as the hand lists it; None for another answer."""
    verb, _, typed = answer.strip().partition(" ")
    if decision.kind != "action" or verb.casefold() not in ("play", "打出") or not typed:
        return None
    hand = game.state.players[decision.player].hand
    name = next((card for card in hand if typed.casefold() in (card.casefold(), words.name(card).casefold())), None)
    if name is None or any(o.label == f"play {name}" for o in decision.options):
        return None
    return words("cannot_play", card=words.name(name), reason=view.play_refusal(game, decision.player, name, words))


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
