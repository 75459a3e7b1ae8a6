"""The grammar of the card language (tharsis.lark), shipped as package data and loaded by compiler/parser.py."""
