"""`tharsis replay LOG`: a game log or a save replayed choice by choice, verified, and told move by move.

The telling is `play`'s own (tharsis/terminal/moves.py, one `Narrator` driven by the same decisions), so a replayed log
reads exactly as the game did when it was played, bots' secret purchases still secret; then the final board, the score
table and each player's VP from cards. `--until GEN` tells the game up to the end of generation GEN (its production
phase included) and shows the state there, without the result; `--step` waits for Enter after each move when it runs on
a terminal (piped in or out, it tells the whole story at once); `--lang zh` tells it in Chinese, as `play --lang zh`
played it. Reading and checking the file is
tharsis/games/saves.py's: every choice is replayed as a legal choice of its player and the end is compared with the
file's (E714, E716), whatever part of the game is told.
"""

from __future__ import annotations

import sys
from typing import Optional, TextIO

from ..games import saves
from ..problems import usage_error
from . import prompts, style, view
from .messages import Words, words_for
from .moves import Narrator, vp_breakdown


def replay(path: str, until: Optional[int] = None, step: bool = False, generations: bool = False,
           stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None, language: str = "en") -> tuple[int, list]:
    """Replay, tell and verify the game in `path`; (exit code, warnings). Raises ProblemError (E7xx) for a file
    that cannot be read or replayed, E750 for a generation `until` that no game has."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    if until is not None and until < 1:
        raise usage_error("E750", f"--until {until}: generations are numbered from 1",
                          "tharsis replay LOG --until 3 tells generations 1 to 3")
    record = saves.read(path)
    teller = _Teller(record, until, step and _is_terminal(stdin) and _is_terminal(stdout), generations, stdin, stdout,
                     language)
    loaded = saves.build(record, before_choice=teller.before_choice)
    game = loaded.game
    teller.finish(game)
    words = words_for(game, language)   # with the content's names, now that the game is built
    if teller.stopped_at is None:
        if game.over:   # play's own ending, coloured alike on a terminal (tharsis/terminal/style.py)
            paint = style.for_stream(stdout)
            teller.say("", view.globals_line(game, language), view.board(game, paint=paint, language=language), "",
                       view.final_table(game.result, paint, language), vp_breakdown(game.result, words, game))
        else:
            waiting = game.pending()
            asked = waiting.prompt if words.english else prompts.question(game, waiting, language)
            teller.say(words("replay_stops", kind=words("the_" + record.kind), generation=game.state.generation,
                             name=game.state.players[waiting.player].name, prompt=asked, path=path))
    if record.result is not None:
        teller.say(words("replay_verified_result"))
    elif record.state is not None:
        teller.say(words("replay_verified_state"))
    return 0, loaded.warnings


class _Teller:
    """What `saves.build` calls before each choice: the narration, stopped at `until`, paced by `step`."""

    def __init__(self, record, until: Optional[int], step: bool, generations: bool, stdin: TextIO, stdout: TextIO,
                 language: str = "en"):
        seats = record.seats or []
        self.narrator = Narrator([seat.kind != "human" for seat in seats] or [False] * len(record.options.players),
                                 language)
        self.until, self.step, self.generations = until, step, generations
        self.stdin, self.stdout = stdin, stdout
        self.stopped_at: Optional[int] = None   # the generation the telling stopped at (`until`)
        self.words: Words = words_for(None, language)   # with the content's names once the game is built
        words = self.words
        shown = words.join(words("replay_seat", name=seat.name, kind=words("kind_" + seat.kind)) for seat in seats)
        self.say(words("replay_start", path=record.path, seed=record.options.seed, seats=shown))

    def say(self, *lines: str) -> None:
        print(style.shown("\n".join(lines)), file=self.stdout)

    def before_choice(self, game, choice) -> None:
        decision = game.pending()
        if decision is None:   # a choice after the end: saves.build reports it
            return
        self._asked(game, decision)
        self.narrator.choose(game, decision, choice.label)

    def finish(self, game) -> None:
        """After the last choice: the last move, or, when the file stops before the end, what play showed before
        the question it stopped at (the move that question ended, a new generation's header)."""
        if not game.over:
            self._asked(game, game.pending())
        if self.stopped_at is None:
            self._tell(self.narrator.finish(game), pause=False)

    def _asked(self, game, decision) -> None:
        """What `play` tells when `decision` comes up (`Narrator.before`), unless `until` has stopped the telling."""
        if self.stopped_at is not None:
            return
        self._tell(self.narrator.ended(game, decision))
        if self.until is not None and game.state.generation > self.until:
            self._stop(game)
            return
        header = self.narrator.header(game)
        if header:
            self.say(*header)
            if self.generations:
                self.say(_generation_state(game, self.words))
        self._tell(self.narrator.prologue(game))

    def _tell(self, lines: list[str], pause: bool = True) -> None:
        if not lines:
            return
        self.say(*lines)
        if pause and self.step:
            self.stdout.write(self.words("replay_step"))
            self.stdout.flush()
            answer = self.stdin.readline()
            if not answer or answer.strip().lower().startswith("q"):
                self.step = False

    def _stop(self, game) -> None:
        self.stopped_at = game.state.generation
        self.say("", self.words("replay_after", n=self.until), _generation_state(game, self.words),
                 self.words("replay_goes_on"))


def _generation_state(game, words: Words) -> str:
    """The global parameters, every player's TR, money, production and cards in play, and the board."""
    language = words.language
    lines = [view.globals_line(game, language)]
    for player in game.state.players:
        production = words.join((f"{r} {v}" if words.english else words.counted(v, r))   # megacredits 2, 2 M€
                                for r, v in player.production.items() if v)
        lines.append(words("replay_player", name=player.name, tr=player.tr, mc=player.resources["megacredits"],
                           production=production, played=words("cards_in_play", n=len(player.played))))
    lines.append(view.board(game, language=language))
    return "\n".join(lines)


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
