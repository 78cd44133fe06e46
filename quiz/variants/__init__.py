"""Variants: what a drawn question is (its seed, parameters, answer key) and its worked values;
drawing one runs its type's key, so it is `quiz.types.draw`."""
