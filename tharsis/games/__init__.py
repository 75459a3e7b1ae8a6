"""Game files and batch runs: the options of a game, its saves and logs, and many games at once.

options.py (a game's options and seats checked, from flags or a file), saves.py and recorded_cards.py (saves and
logs, with the designer's card text they were played with), records.py (one bot game and its record),
simulate.py, ray_backend.py and results_files.py (`tharsis simulate`: processes or a Ray cluster, JSONL or CSV),
balance.py and report.py (the balance report), paired.py, effects.py and intervals.py (`simulate --effect CARD`: what
difference a card makes, from paired games with and without it), and the measuring tools benchmark.py, bot_match.py and
determinize_bench.py (`python -m tharsis.games.benchmark ...`, docs/benchmarks.md).

May import: the engine and the compiler, and tharsis/problems.py. It sits under the terminal game and the designer
tools, which both read and write games through it, and imports neither.
"""
