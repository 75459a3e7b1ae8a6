"""Designer tools: what someone writing cards uses between the editor and a game.

Checking and reporting (sarif.py, junit.py, suppressions.py and code_filter.py: which codes a run reports;
config.py: `[tool.tharsis]` in pyproject.toml), formatting and fixing (fmt.py, fixes.py), the card gallery
(gallery.py), scenarios that prove a card does what it says (scenario_format.py, scenarios.py) and the language
server for editors (lsp/).

May import: the compiler and the engine (a scenario plays a sandbox game), tharsis/games/ for the options a game
may have (a scenario's players and seed, the expansions a gallery shows) and tharsis/problems.py. Not the terminal
game, and nothing of the command line: each tool is a function the CLI (tharsis/cli/) and the language server call.
"""
