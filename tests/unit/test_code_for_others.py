"""Code from someone other than the machine's own user runs only where bubblewrap confines it (issue 28).

`quiz serve` marks the sessions it runs for others (logins of its own, or beyond loopback) with
QUIZ_CODE_FOR_OTHERS=1; there a run without bubblewrap is refused with a message saying why,
and the terminal app of the machine's own user runs code as before.
"""

from __future__ import annotations

import numpy as np
import pytest

from quiz.code import bubblewrap
from quiz.code.report import describe_error
from quiz.code.sandbox import FOR_OTHERS_ENV, Call, run_calls

SOURCE = "import numpy as np\n\ndef double(x):\n    return 2 * x\n"
CALLS = [Call("double", (np.arange(3.0),))]


def test_code_for_others_is_refused_where_bubblewrap_cannot_confine_it(monkeypatch):
    monkeypatch.setenv(FOR_OTHERS_ENV, "1")
    monkeypatch.setattr(bubblewrap, "probe", lambda: (None, "bubblewrap (bwrap) is not installed"))
    result = run_calls(SOURCE, CALLS)
    assert result.load_error is not None and result.load_error.kind == "unisolated"
    assert result.calls == ()
    message = describe_error(result.load_error, "en")
    assert message.startswith("This quiz is served to other people, and code runs here only where bubblewrap confines it")
    assert "(bubblewrap (bwrap) is not installed)" in message
    assert describe_error(result.load_error, "ja").startswith("このクイズはほかの人にも公開されていて")


def test_the_machines_own_user_runs_code_without_bubblewrap_as_before(monkeypatch):
    monkeypatch.delenv(FOR_OTHERS_ENV, raising=False)
    monkeypatch.setattr(bubblewrap, "probe", lambda: (None, "bubblewrap (bwrap) is not installed"))
    result = run_calls(SOURCE, CALLS)
    assert result.load_error is None and not result.isolated
    np.testing.assert_array_equal(result.calls[0].arrays[0], [0.0, 2.0, 4.0])


BWRAP, WHY = bubblewrap.probe()


@pytest.mark.skipif(BWRAP is None, reason=f"no bubblewrap confinement here: {WHY}")
def test_code_for_others_runs_confined_where_bubblewrap_is(monkeypatch):
    monkeypatch.setenv(FOR_OTHERS_ENV, "1")
    result = run_calls(SOURCE, CALLS)
    assert result.load_error is None and result.isolated
