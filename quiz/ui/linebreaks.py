"""Line breaks for Japanese: between characters, as Japanese is typeset, not only at spaces.

Rich wraps text only at spaces, and Textual's `Content` (Markdown, Static) wraps through Rich.
A Japanese sentence, written without spaces, was therefore one long "word": pushed whole onto
the next line, leaving the line before it half empty after any inline maths or Latin word, then
cut wherever it overflowed. `install` gives Rich's wrapper a word pattern in which a short
Japanese phrase is a word of its own (a run of kanji or katakana with the hiragana after it, or
of hiragana, so a line never breaks inside a word such as 見落とし), with the simplest form of
the JIS X 4051 rules: closing brackets, commas, full stops, small kana and the long-vowel mark
never begin a line, and opening brackets never end one. Text without Japanese is split exactly
as before.

The pattern is the one `quiz show` wraps with (`quiz.render.wrap.WORD`). Rich offers no setting
for this, so `install` replaces the pattern in `rich._wrap`, once per
process. The pinned Rich is tested with it (tests/app/test_linebreaks.py); a Rich without the
pattern would only wrap as before: the app then logs `NOT_INSTALLED`, and those tests fail.
"""

from __future__ import annotations

import re
from functools import cache

import rich._wrap

from quiz.render.wrap import WORD

NOT_INSTALLED = "Japanese line breaking is off: this version of Rich has no rich._wrap.re_word to replace."


@cache
def install() -> bool:
    """Make Rich (and so Textual) break Japanese lines between characters; False if it cannot."""
    if not isinstance(getattr(rich._wrap, "re_word", None), re.Pattern):
        return False
    rich._wrap.re_word = WORD
    return True
