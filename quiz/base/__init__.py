"""The floor below everything: generic records, number formatting, file safety, the user's folders
and terminal-safe text. It imports nothing else of the quiz."""
