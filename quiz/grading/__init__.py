"""Grading: scores, verdicts and the tolerance rule; `grade.grade` applies a type's own rule."""
