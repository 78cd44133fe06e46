"""Variants: a question's parameters drawn for a seed, its answer key, and its worked values."""

from quiz.variants.draw import make_variant, rebuild_variant
from quiz.variants.keys import generator_seed, parse_key
from quiz.variants.shuffle import display_order
from quiz.variants.variant import Variant, VariantError

__all__ = ["Variant", "VariantError", "display_order", "generator_seed", "make_variant", "parse_key", "rebuild_variant"]
