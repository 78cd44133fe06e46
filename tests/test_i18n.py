"""The interface catalogues: Japanese covers every English text, with the same placeholders."""

from __future__ import annotations

import string

from quiz.i18n import LANGUAGES, catalogue


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_language_has_every_key_with_the_same_placeholders():
    english = catalogue("en")
    for lang in LANGUAGES:
        texts = catalogue(lang)
        assert texts.keys() == english.keys(), lang
        for key, text in english.items():
            assert fields(texts[key]) == fields(text), (lang, key)

