"""The attention interview quiz: question bank, grading, history and the terminal app."""

__version__ = "0.1.0"
