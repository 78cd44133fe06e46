"""Variants: a question's parameters drawn for a seed, its answer key, and its worked values."""
