"""Runs before main.py on a board. Nothing here may block or touch the
journal: main.py boots the store (its own self-tests) before any play or
external communication. Keep the REPL on USB untouched for development."""
import gc

gc.collect()
