"""Sharing the bank outside the app: Anki decks."""
