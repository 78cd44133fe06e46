"""Option and item numbers as a learner types them: one checked conversion for every digit class.

`str.isdigit` is true for digits `int` refuses (᧚, ➋, ❹) and for digits that are no one's
option number (० Devanagari, ₁ after NFKC); `int` refuses more than 4,300 digits outright. So
a small number is read only from plain ASCII or full-width digits, without a leading zero,
and its length is checked before anything converts it.
"""

from __future__ import annotations

from typing import Final

_FULL_WIDTH: Final = {ord("０") + n: ord("0") + n for n in range(10)}
_DIGITS: Final = frozenset("0123456789")


def read_small_int(text: str, maximum: int) -> int | None:
    """The number `text` writes, when it is between 1 and `maximum`; None for anything else.

    `text` must be only ASCII or full-width digits (`3`, `３`), with no sign, space or leading zero.
    """
    if not text or len(text) > len(str(maximum)):
        return None
    digits = text.translate(_FULL_WIDTH)
    if not _DIGITS.issuperset(digits) or digits[0] == "0":
        return None
    number = int(digits)
    return number if number <= maximum else None
