"""The Textual app: a thin layer of screens and widgets over the quiz core."""
