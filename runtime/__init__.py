"""The game engine: executes compiled definitions (tharsis.compiler.effects); never imports the parser."""
