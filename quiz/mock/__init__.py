"""Timed mock interviews: composing one, keeping its time, and what is printed for it."""
