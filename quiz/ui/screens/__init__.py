"""Screens of the quiz app, one module each."""
