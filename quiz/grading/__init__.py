"""Grading's shared parts: scores, verdicts and the tolerance rule (each type's own rule is in `quiz/types/`,
and `quiz.types.grade` applies it)."""
