"""A code outcome in words: a ✓/✗ checklist in English or Japanese, and the same as JSON-ready data."""

from __future__ import annotations

from quiz.code.outcome import CheckResult, CodeOutcome, Evidence
from quiz.code.sandbox import RunError, confinement
from quiz.locale.i18n import DEFAULT_LANGUAGE, catalogue, tr


def number(x: float) -> str:
    """A measured error in two significant figures (0 as 0)."""
    return "0" if x == 0 else f"{x:.2g}"


def check_label(check: str, lang: str = "en", policy: dict[str, str] | None = None, task: str | None = None) -> str:
    """The learner-facing name of `check`; the fully-masked-rows label states the policy.

    A task whose inputs for a check differ from the general label's (no L ≠ S where queries and
    keys share one sequence) has a label of its own, `check_<check>_<task>`.
    """
    own = f"code.check_{check}_{task}"
    key = own if task is not None and own in catalogue(DEFAULT_LANGUAGE) else f"code.check_{check}"
    if check == "fully_masked_rows":
        result = tr(f"code.empty_rows_{(policy or {}).get('empty_rows', 'zero')}", lang)
        return tr(key, lang, result=result)
    return tr(key, lang)


def confinement_note(lang: str = "en") -> str | None:
    """What to say, once, where code runs without bubblewrap's namespaces (probes on first use: call it
    off an event loop); None where each solution runs in namespaces of its own."""
    state = confinement()
    return None if state.isolated else tr("code.unconfined", lang, reason=state.reason)


def mistake_sentence(mistake: str, lang: str = "en") -> str:
    """The sentence that names `mistake` to the learner ("Your function computes attention without …")."""
    return tr(f"code.mistake_{mistake}", lang)


def mistake_label(mistake: str, lang: str = "en") -> str:
    """`mistake` in a few words ("forgot the 1/√dₖ scale"), as a question's misconception label."""
    return tr(f"code.label_{mistake}", lang)


def describe_error(error: RunError, lang: str = "en", function: str | None = None) -> str:
    """Why code did not run or return, located at the candidate's line where one is known.

    `function` names the function called, for errors that arise outside the candidate's lines.
    """
    params = {
        "detail": error.detail,
        "limit": error.limit,
        "function": error.function or function or "",
        "got": error.got,
        "count": error.count if error.count is not None else "",
    }
    key = f"code.run_{error.kind}_{error.detail}" if error.kind == "bad_return" else f"code.run_{error.kind}"
    message = tr(key, lang, **params)
    if key == message:  # a kind this version does not know: show what the child said
        message = error.detail or error.kind
    if error.line is None:
        return message
    if error.kind == "syntax" and error.column is not None:
        where = tr("code.where_column", lang, line=error.line, column=error.column)
    elif error.function and error.function != "<module>":
        where = tr("code.where_function", lang, line=error.line, function=error.function)
    else:
        where = tr("code.where_line", lang, line=error.line)
    located = tr("code.located", lang, where=where, message=message)
    return f"{located}\n    {error.text}" if error.text else located


def evidence_text(evidence: Evidence, lang: str = "en") -> str:
    """What the check saw, in one line (or a located error with its source line)."""
    if evidence.error is not None:
        return describe_error(evidence.error, lang, evidence.function)
    if evidence.mismatch is not None:
        m = evidence.mismatch
        return tr(f"code.wrong_{m.kind}", lang, function=evidence.function or "", got=m.got, expected=m.expected)
    if evidence.changed_after is not None:
        if evidence.leak_position is None:
            return tr("code.no_leak", lang, after=evidence.changed_after)
        return tr("code.leak", lang, after=evidence.changed_after, position=evidence.leak_position)
    if evidence.nonfinite:
        return tr("code.nonfinite", lang, dtype=evidence.dtype or "float64")
    if evidence.differing is not None:
        return tr("code.differing", lang, count=evidence.differing, total=evidence.entries)
    if evidence.row_sum_error is not None:
        return tr("code.row_sum", lang, error=number(evidence.row_sum_error))
    tolerance = evidence.tolerance
    if evidence.max_error is None or tolerance is None:  # a measured error always comes with its tolerance
        return ""
    rule = tr("code.tolerance_rule", lang, atol=f"{tolerance.atol:g}", rtol=f"{tolerance.rtol:g}", dtype=evidence.dtype)
    return tr("code.separator", lang).join((tr("code.max_error", lang, error=number(evidence.max_error)), rule))


def _check_line(result: CheckResult, outcome: CodeOutcome, lang: str) -> str:
    mark = tr("code.passed" if result.passed else "code.failed", lang)
    label = check_label(result.check, lang, dict(outcome.policy), outcome.task)
    line = f"{mark} {label}"
    if outcome.error is not None:
        return line  # the file's error is stated once, below the list
    details = evidence_text(result.evidence, lang)
    if result.shows_mistake:
        details = tr("code.separator", lang).join(part for part in (details, tr("code.shows_mistake", lang)) if part)
    return f"{line}\n    {details}" if details else line


def render_checklist(outcome: CodeOutcome, lang: str = "en", *, name_mistake: bool = True) -> str:
    """The outcome as text: one ✓/✗ line per check with its evidence, the matched mistake, the score.

    name_mistake=False leaves the mistake's sentence to the caller (a question's feedback says it).
    """
    lines = [_check_line(result, outcome, lang) for result in outcome.checks]
    if outcome.error is not None:
        lines += ["", tr("code.not_run", lang), describe_error(outcome.error, lang)]
    if outcome.misconception is not None and name_mistake:
        sentence = mistake_sentence(outcome.misconception, lang)
        lines += ["", tr("code.misconception", lang, sentence=sentence)]
    passed = sum(result.passed for result in outcome.checks)
    lines += ["", tr("code.score", lang, passed=passed, total=len(outcome.checks))]
    if outcome.output:
        lines += ["", tr("code.printed", lang), outcome.output.rstrip("\n")]
        if outcome.output_truncated:
            lines.append(tr("code.printed_cut", lang))
    return "\n".join(lines)


def _evidence_data(evidence: Evidence, lang: str) -> dict[str, object]:
    data: dict[str, object] = {}
    for name in ("function", "dtype", "max_error", "differing", "entries", "leak_position", "changed_after", "row_sum_error"):
        value = getattr(evidence, name)
        if value is not None:
            data[name] = value
    if evidence.nonfinite:
        data["nonfinite"] = True
    if evidence.tolerance is not None:
        data["tolerance"] = {"atol": evidence.tolerance.atol, "rtol": evidence.tolerance.rtol}
    if evidence.mismatch is not None:
        m = evidence.mismatch
        data["mismatch"] = {"kind": m.kind, "got": m.got, "expected": m.expected}
    if evidence.error is not None:
        data["error"] = _error_data(evidence.error, lang, evidence.function)
    return data


def _error_data(error: RunError, lang: str, function: str | None = None) -> dict[str, object]:
    data: dict[str, object] = {"kind": error.kind, "message": describe_error(error, lang, function)}
    if error.line is not None:
        data["line"] = error.line
    if error.function:
        data["function"] = error.function
    return data


def outcome_to_json(outcome: CodeOutcome, lang: str = "en") -> dict[str, object]:
    """The outcome as plain data for `--json`: ids and numbers, with the texts in `lang`."""
    return {
        "task": outcome.task,
        "seed": outcome.seed,
        "policy": dict(outcome.policy),
        "score": outcome.score,
        "misconception": outcome.misconception,
        "misconception_text": mistake_sentence(outcome.misconception, lang) if outcome.misconception else None,
        "error": _error_data(outcome.error, lang) if outcome.error is not None else None,
        "checks": [
            {
                "id": result.check,
                "label": check_label(result.check, lang, dict(outcome.policy), outcome.task),
                "passed": result.passed,
                "shows_misconception": result.shows_mistake,
                "evidence": _evidence_data(result.evidence, lang),
                "text": evidence_text(result.evidence, lang),
            }
            for result in outcome.checks
        ],
        "output": outcome.output,
        "output_truncated": outcome.output_truncated,
    }
