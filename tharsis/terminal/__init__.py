"""The terminal game: humans and bots at one terminal, and replaying a game's log as it was told.

play.py (the session: seats, turns, undo, the log being written), view.py (the board and players as text), moves.py
(each move narrated cause by cause), prompts.py and buying.py (questions in rules text, and answering them),
replay.py (`tharsis replay`), and the terminal's means: style.py (colour), widths.py (East Asian widths),
line_editing.py (readline), messages.py and engine_zh.py (the words, in English and Chinese).

May import: the engine's public API and its read-only rules (the view shows costs and legality), tharsis/games/ for
options, saves and logs, and tharsis/problems.py. Not the designer tools: a game reads cards compiled by the engine.
"""
