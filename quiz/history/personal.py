"""Personal FSRS parameters: fitted to the learner's own reviews with fsrs-rs's optimizer
(`fsrs-rs-python`), and used only when they predict that history better than FSRS's defaults.

The optimizer learns from each question's reviews in order, with the whole days between them
(whole 24-hour periods, as py-fsrs counts them). What it can learn from is a review a day or more
after the question's previous one: those are counted as the learner's reviews. fsrs-rs itself
returns the defaults below 8 of them and fits only the four initial stabilities below 64, so a
fitted set is considered from `MIN_REVIEWS` = 64 on. Both sets are scored on the same history
with fsrs-rs's `evaluate`: the log-loss of the predicted recall of each of those reviews, and the
RMSE over bins of reviews ("RMSE (bins)", the FSRS benchmark's metric). The fitted set is used
only when its log-loss is lower. Fitting is deterministic: fsrs-rs seeds its training itself.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from copy import copy
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from itertools import pairwise
from types import ModuleType
from typing import TYPE_CHECKING, Final, Literal

from fsrs import Card, Rating, Scheduler, State

from quiz.history.cards import REVIEWED
from quiz.history.records import to_ms
from quiz.history.scheduling import Review, ReviewScheduler
from quiz.locale.i18n import tr

if TYPE_CHECKING:
    from quiz.history.store import History

MIN_REVIEWS: Final = 64
"""Reviews (a day or more after the previous one) needed before a fitted set can be used: from
64 on fsrs-rs fits all 21 parameters."""
REFIT_AFTER: Final = 64
"""The app fits again by itself once this many attempts were recorded since the last fit."""
DAY_MS: Final = 86_400_000
FIGURE_DECIMALS: Final = 6
"""Decimals the figures are kept to (see `_figures`)."""
DEFAULT_RETENTION: Final = 0.90
MIN_RETENTION: Final = 0.70
MAX_RETENTION: Final = 0.97
"""The desired retentions the learner may choose: past 0.97 the reviews multiply for little more
remembered, below 0.70 too much is forgotten between them."""
FIT_SETTING: Final = "fsrs_fit"
"""The name of the history file's settings row that keeps the last fit."""

Status = Literal["fitted", "not_better", "too_few", "no_optimizer"]
"""Why the scheduler uses the set it uses: the fitted one is better; it is not; too few reviews;
the optimizer cannot be imported on this platform."""
ReviewLog = Sequence[Review]
"""One question's reviews in time order."""


@dataclass(frozen=True)
class Figures:
    """How well a parameter set predicts the learner's reviews (lower is better for both)."""

    log_loss: float
    rmse: float

    def to_json(self) -> dict[str, float]:
        return {"log_loss": self.log_loss, "rmse": self.rmse}


@dataclass(frozen=True)
class Fit:
    """The outcome of fitting: the figures of both sets, which one schedules, and why."""

    status: Status
    reviews: int  # reviews the optimizer learns from (see the module's docstring)
    attempts: int  # attempts recorded when it ran, for refitting after REFIT_AFTER more
    default: Figures | None
    fitted: Figures | None
    parameters: tuple[float, ...] | None  # the fitted set, when there is one
    needed: int = MIN_REVIEWS

    @property
    def uses_fitted(self) -> bool:
        return self.status == "fitted"

    def chosen(self) -> tuple[float, ...]:
        """The 21 parameters to schedule with."""
        return self.parameters if self.uses_fitted and self.parameters is not None else tuple(Scheduler().parameters)

    def to_json(self) -> dict[str, object]:
        return {
            "status": self.status,
            "used": "fitted" if self.uses_fitted else "default",
            "reviews": self.reviews,
            "needed": self.needed,
            "attempts": self.attempts,
            "default": None if self.default is None else self.default.to_json(),
            "fitted": None if self.fitted is None else self.fitted.to_json(),
            "parameters": None if self.parameters is None else list(self.parameters),
        }

    @classmethod
    def from_json(cls, text: str) -> Fit:
        """A fit as `to_json` stored it; ValueError when it is not one."""
        try:
            raw = json.loads(text)
            figures = {
                name: None if raw[name] is None else Figures(float(raw[name]["log_loss"]), float(raw[name]["rmse"])) for name in ("default", "fitted")
            }
            parameters = None if raw["parameters"] is None else tuple(float(p) for p in raw["parameters"])
            status = raw["status"]
            if status not in ("fitted", "not_better", "too_few", "no_optimizer"):
                raise ValueError(f"unknown status {status!r}")
            return cls(status, int(raw["reviews"]), int(raw["attempts"]), figures["default"], figures["fitted"], parameters, int(raw["needed"]))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a stored fit ({exc!r})") from None


def optimizer() -> ModuleType | None:
    """fsrs-rs's Python module, or None where it cannot be imported (no wheel for the platform)."""
    try:
        import fsrs_rs_python
    except ImportError:
        return None
    return fsrs_rs_python


def fit(logs: Sequence[ReviewLog], attempts: int = 0) -> Fit:
    """Fit FSRS to the learner's reviews (one log per question) and score it against the defaults."""
    rs = optimizer()
    reviews = sum(1 for log in logs for before, after in pairwise(log) if after.at_ms - before.at_ms >= DAY_MS)
    if rs is None:
        return Fit("no_optimizer", reviews, attempts, None, None, None)
    items = training_items(rs, logs)
    defaults = tuple(Scheduler().parameters)
    if reviews < MIN_REVIEWS:
        return Fit("too_few", reviews, attempts, _figures(rs, defaults, items) if items else None, None, None)
    fitted = tuple(float(p) for p in rs.FSRS(list(defaults)).compute_parameters(items))
    Scheduler(parameters=fitted)  # py-fsrs checks the bounds; fsrs-rs keeps within the same ones
    default_figures, fitted_figures = _figures(rs, defaults, items), _figures(rs, fitted, items)
    better = fitted_figures.log_loss < default_figures.log_loss
    return Fit("fitted" if better else "not_better", reviews, attempts, default_figures, fitted_figures, fitted)


def refit(history: History) -> Fit:
    """Fit the history's reviews again, keep the fit in the file, and schedule with the set it
    chooses (every card is rebuilt when that set changes)."""
    attempts = history.review_count()
    result = fit([reviews for _, reviews in history.review_logs()], attempts)
    current = history.parameters()
    row = json.dumps(result.to_json())
    if tuple(current.parameters) == result.chosen():
        history.save_setting(FIT_SETTING, row)
    else:
        history.reschedule(Scheduler.from_dict({**current.to_dict(), "parameters": list(result.chosen())}), {FIT_SETTING: row})
    return result


def stored_fit(history: History) -> Fit | None:
    """The last fit kept in the history file (None before the first, or when it cannot be read)."""
    text = history.setting(FIT_SETTING)
    try:
        return None if text is None else Fit.from_json(text)
    except ValueError:
        return None  # refitting replaces it


def needs_refit(history: History) -> bool:
    """Whether REFIT_AFTER attempts were recorded since the last fit (or since none)."""
    last = stored_fit(history)
    return history.review_count() - (0 if last is None else last.attempts) >= REFIT_AFTER


def scheduling_parameters(history: History) -> Scheduler:
    """The FSRS parameters to schedule `history`'s cards with: the fitted set when it was chosen,
    else the defaults, with the learner's desired retention."""
    return history.parameters()


@dataclass(frozen=True)
class Standing:
    """What the statistics show of personal FSRS: the last fit, the reviews a fit could learn from
    now and how many it needs, and the desired retention."""

    fit: Fit | None
    reviews: int
    needed: int
    desired_retention: float

    def to_json(self) -> dict[str, object]:
        return {
            "reviews": self.reviews,
            "needed": self.needed,
            "desired_retention": self.desired_retention,
            "used": "fitted" if self.fit is not None and self.fit.uses_fitted else "default",
            "fit": None if self.fit is None else self.fit.to_json(),
        }


def standing(history: History) -> Standing:
    """The last fit and the reviews there are now (one SQL pass, no fitting)."""
    # Ordered by time alone, the index answers without a sort; attempts at the same moment have
    # the same time, so their order changes no gap.
    [(reviews,)] = history.read(
        f"""SELECT count(*) FROM (SELECT at_ms - lag(at_ms) OVER (PARTITION BY question ORDER BY at_ms) AS gap
            FROM attempts WHERE {REVIEWED}) WHERE gap >= ?""",
        (DAY_MS,),
    )
    return Standing(stored_fit(history), int(reviews), MIN_REVIEWS, float(history.parameters().desired_retention))


def figure_rows(fit: Fit | None, lang: str) -> list[tuple[str, str, str]]:
    """The two sets' figures side by side, header first, as `quiz stats`, `quiz optimize` and the
    statistics screen show them ("–" where a set was not scored); the set in use is marked."""
    default, fitted = (None, None) if fit is None else (fit.default, fit.fitted)
    uses_fitted = fit is not None and fit.uses_fitted
    rows = [(tr("history.fsrs_set", lang), tr("history.fsrs_log_loss", lang), tr("history.fsrs_rmse", lang))]
    for key, figures, used in (("history.fsrs_default", default, not uses_fitted), ("history.fsrs_fitted", fitted, uses_fitted)):
        name = tr("history.fsrs_in_use", lang, name=tr(key, lang)) if used else tr(key, lang)
        rows.append((name, *(("–", "–") if figures is None else (f"{figures.log_loss:.4f}", f"{figures.rmse:.4f}"))))
    return rows


def status_text(state: Standing, lang: str) -> str:
    """Which set schedules and why, with the reviews there are and needed, in `lang`."""
    counts = {"reviews": state.reviews, "needed": state.needed, "every": REFIT_AFTER}
    if state.fit is None:  # enough reviews or not, the words differ: "168 so far; a fit needs 64" reads as too few
        return tr("history.fsrs_not_fitted_enough" if state.reviews >= state.needed else "history.fsrs_not_fitted", lang, **counts)
    return tr(f"history.fsrs_status_{state.fit.status}", lang, **counts, fitted_on=state.fit.reviews)


def set_desired_retention(history: History, retention: float) -> None:
    """Schedule with `retention` as the desired retention from now on (every card is rebuilt)."""
    if not MIN_RETENTION <= retention <= MAX_RETENTION:
        raise ValueError(f"the desired retention must be from {MIN_RETENTION} to {MAX_RETENTION}")
    history.reschedule(Scheduler.from_dict({**history.parameters().to_dict(), "desired_retention": retention}))


def training_items(rs: ModuleType, logs: Sequence[ReviewLog]) -> list[object]:
    """fsrs-rs items: for each review a day or more after the previous one, the question's reviews
    up to and including it, with the whole days since each one's previous review."""
    items: list[object] = []
    for log in logs:
        sequence: list[object] = []
        previous: int | None = None
        for review in log:
            days = 0 if previous is None else (review.at_ms - previous) // DAY_MS
            sequence.append(rs.FSRSReview(int(review.rating), days))
            if previous is not None and days > 0:
                items.append(rs.FSRSItem(list(sequence)))
            previous = review.at_ms
    return items


def _figures(rs: ModuleType, parameters: Sequence[float], items: list[object]) -> Figures:
    evaluation = rs.FSRS(list(parameters)).evaluate(items)
    # fsrs-rs sums in parallel, in float32: past the sixth decimal the figures vary from run to run.
    return Figures(round(float(evaluation.log_loss), FIGURE_DECIMALS), round(float(evaluation.rmse_bins), FIGURE_DECIMALS))


LOAD_DAYS: Final = 30
"""How far ahead the daily load at a desired retention is simulated."""


@dataclass(frozen=True)
class DailyLoad:
    """Reviews expected on each of the next LOAD_DAYS days at a desired retention (today first,
    with what is overdue), from a forward simulation of the learner's cards."""

    retention: float
    per_day: tuple[int, ...]

    @property
    def mean(self) -> float:
        return sum(self.per_day) / len(self.per_day)

    @property
    def peak(self) -> int:
        return max(self.per_day)


def daily_load(history: History, retention: float, now: datetime, *, days: int = LOAD_DAYS, seed: int = 0) -> DailyLoad:
    """Simulate the cards from `now` at `retention`, with the parameters in use: each review due
    again at the interval that retention gives its stability, recalled with the probability FSRS
    predicts then (a seeded draw: Good when recalled, Again when not). Deterministic."""
    scheduler = ReviewScheduler(Scheduler.from_dict({**history.parameters().to_dict(), "desired_retention": retention, "enable_fuzzing": False}))
    rng = random.Random(seed)
    start = now.date()
    end = datetime.combine(start + timedelta(days=days), time(), now.tzinfo)  # the last day's midnight
    per_day = [0] * days
    for state in history.cards():
        card = due_at_retention(scheduler.parameters, state.card, retention)
        index = state.reviews
        while card.due < end:
            at = max(card.due, now)
            per_day[(at.astimezone(now.tzinfo).date() - start).days] += 1
            recalled = rng.random() < scheduler.retrievability(card, at)
            card = scheduler.review(card, Review(to_ms(at), Rating.Good if recalled else Rating.Again), index)
            index += 1
    return DailyLoad(retention, tuple(per_day))


def due_at_retention(parameters: Scheduler, card: Card, retention: float) -> Card:
    """`card` due when `retention` would have scheduled its last review: FSRS-6's interval
    I = S / F · (R^(1/D) − 1), D = −w20, F = 0.9^(1/D) − 1, in whole days from 1 to the maximum.
    A card still in its (re)learning steps keeps its due time."""
    if card.state != State.Review or card.stability is None or card.last_review is None:
        return card
    decay = -parameters.parameters[20]
    factor = 0.9 ** (1 / decay) - 1
    interval = round(card.stability / factor * (retention ** (1 / decay) - 1))
    rescheduled = copy(card)
    rescheduled.due = card.last_review + timedelta(days=min(max(interval, 1), parameters.maximum_interval))
    return rescheduled
