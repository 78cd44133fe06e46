"""Grading: one response to one variant gives a score, a verdict, marks and feedback."""

from quiz.grading.grade import correct_options, give_up, grade, grade_numeric, longest_ordered_run
from quiz.grading.result import Result, Verdict
from quiz.grading.tolerance import allowed_error, within

__all__ = [
    "Result",
    "Verdict",
    "allowed_error",
    "correct_options",
    "give_up",
    "grade",
    "grade_numeric",
    "longest_ordered_run",
    "within",
]
