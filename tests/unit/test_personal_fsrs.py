"""Personal FSRS: fitting the learner's reviews with fsrs-rs, choosing the better set, keeping it in
the history file, the desired retention; on real SQLite files and histories drawn from a known
memory model (tests/support/synthetic_reviews.py)."""

from __future__ import annotations

import sys
from datetime import datetime, time, timedelta, timezone

import pytest
from fsrs import Scheduler, State

from history_records import DAY_MS, attempt, open_store
from quiz.history import cards, personal
from quiz.history.personal import MIN_REVIEWS, REFIT_AFTER, Fit, refit
from quiz.history.records import to_ms
from quiz.history.scheduling import ReviewScheduler
from synthetic_reviews import LEARNER, synthetic_attempts


def _store(tmp_path, name, attempts):
    history = open_store(tmp_path / name)
    history.add_attempts([(a, False) for a in attempts])
    return history


def test_on_a_history_drawn_from_other_parameters_the_fitted_set_predicts_better_and_schedules(tmp_path):
    with _store(tmp_path, "h.sqlite3", synthetic_attempts(2000, seed=3)) as history:
        question = "synthetic-00000"
        due_before = history.card(question).due
        result = refit(history)
        assert result.status == "fitted" and result.uses_fitted
        assert result.reviews >= MIN_REVIEWS
        assert result.fitted.log_loss < result.default.log_loss
        assert tuple(history.parameters().parameters) == result.parameters
        assert history.card(question).due != due_before  # every card was rebuilt with the new set
    with open_store(tmp_path / "h.sqlite3") as again:  # kept in the file
        assert tuple(again.parameters().parameters) == result.parameters
        assert personal.stored_fit(again) == result


def test_the_fitted_set_comes_closer_to_the_learner_s_than_the_defaults(tmp_path):
    with _store(tmp_path, "h.sqlite3", synthetic_attempts(4000, seed=8)) as history:
        fitted = refit(history).parameters
    decay = 20  # the forgetting curve's shape: the learner forgets faster than the defaults say
    assert abs(fitted[decay] - LEARNER[decay]) < abs(Scheduler().parameters[decay] - LEARNER[decay])


def test_a_history_too_short_keeps_the_defaults_and_says_how_many_reviews_are_needed(tmp_path):
    with _store(tmp_path, "h.sqlite3", synthetic_attempts(40, seed=1)) as history:
        result = refit(history)
        assert result.status == "too_few" and not result.uses_fitted
        assert result.reviews < MIN_REVIEWS == result.needed == 64
        assert result.fitted is None and result.default is not None
        assert history.parameters().parameters == Scheduler().parameters


def test_the_fit_is_deterministic(tmp_path):
    attempts = synthetic_attempts(1500, seed=5)
    with _store(tmp_path, "a.sqlite3", attempts) as first, _store(tmp_path, "b.sqlite3", attempts) as second:
        one = refit(first)
        assert refit(second) == one
        assert refit(first).parameters == one.parameters


def test_without_the_optimizer_the_defaults_stay_and_the_fit_says_why(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "fsrs_rs_python", None)  # import fails, as on a platform without a wheel
    assert personal.optimizer() is None
    with _store(tmp_path, "h.sqlite3", synthetic_attempts(1000, seed=2)) as history:
        result = refit(history)
        assert result.status == "no_optimizer"
        assert result.default is None and result.fitted is None and result.reviews >= MIN_REVIEWS
        assert history.parameters().parameters == Scheduler().parameters


def test_the_app_refits_after_every_refit_after_new_attempts(tmp_path):
    attempts = synthetic_attempts(200, seed=4)
    with _store(tmp_path, "h.sqlite3", attempts) as history:
        assert personal.needs_refit(history)  # never fitted
        refit(history)
        assert not personal.needs_refit(history)
        last = max(a.at_ms for a in attempts)
        for n in range(REFIT_AFTER):
            assert not personal.needs_refit(history)
            history.record(attempt("later", last + (n + 1) * DAY_MS))
        assert personal.needs_refit(history)


def test_the_desired_retention_schedules_the_cards_and_is_kept(tmp_path):
    with _store(tmp_path, "h.sqlite3", synthetic_attempts(100, seed=6)) as history:
        due = history.card("synthetic-00000").due
        personal.set_desired_retention(history, 0.8)
        assert history.parameters().desired_retention == 0.8
        assert history.card("synthetic-00000").due > due  # remembering less surely: later reviews
        for wrong in (0.69, 0.98):
            with pytest.raises(ValueError, match=r"0\.7 to 0\.97"):
                personal.set_desired_retention(history, wrong)
    with open_store(tmp_path / "h.sqlite3") as again:
        assert personal.scheduling_parameters(again).desired_retention == 0.8


def test_a_stored_fit_reads_back_and_a_damaged_one_is_ignored(tmp_path):
    with _store(tmp_path, "h.sqlite3", synthetic_attempts(300, seed=7)) as history:
        result = refit(history)
        assert Fit.from_json(history.setting(personal.FIT_SETTING)) == result
        history.save_setting(personal.FIT_SETTING, '{"status": "fitted"}')
        assert personal.stored_fit(history) is None
        assert personal.needs_refit(history)


def test_an_attempt_recorded_while_the_cards_are_rebuilt_is_in_its_card(tmp_path):
    with _store(tmp_path, "h.sqlite3", synthetic_attempts(200, seed=9)) as history:
        scheduler = ReviewScheduler(Scheduler(parameters=LEARNER, enable_fuzzing=False))
        built = cards.rebuilt_cards(history.connection(), scheduler)  # before the write transaction
        last = max(state.card.last_review for state in built)
        history.record(attempt("synthetic-00003", to_ms(last) + DAY_MS))  # meanwhile, at the old set
        history.record(attempt("new-question", to_ms(last) + DAY_MS))
        connection = history.connection()
        connection.execute("BEGIN IMMEDIATE")
        cards.store_rebuilt_cards(connection, scheduler, built)
        connection.execute("COMMIT")
        for question in ("synthetic-00003", "new-question", "synthetic-00004"):
            reviews = dict(history.review_logs())[question]
            expected, count = scheduler.rebuild(question, reviews)
            assert history.card(question).card.to_dict() == expected.to_dict() and history.card(question).reviews == count


NOW = datetime(2025, 9, 1, 20, 0, tzinfo=timezone(timedelta(hours=9)))


def test_the_daily_load_counts_what_is_due_and_falls_with_the_desired_retention(tmp_path):
    with _store(tmp_path, "h.sqlite3", synthetic_attempts(600, seed=10)) as history:
        load = personal.daily_load(history, 0.9, NOW)
        assert load == personal.daily_load(history, 0.9, NOW)  # seeded: the same every time
        assert len(load.per_day) == personal.LOAD_DAYS
        end_of_today = datetime.combine(NOW.date() + timedelta(days=1), time(), NOW.tzinfo)
        due_today = sum(1 for state in history.cards() if state.due < end_of_today)  # overdue and today's
        assert due_today <= load.per_day[0]  # with the relearning steps of those forgotten
        assert due_today < load.per_day[0] <= due_today * (1 + len(Scheduler().relearning_steps))
        low, high = personal.daily_load(history, 0.7, NOW), personal.daily_load(history, 0.97, NOW)
        assert low.mean < load.mean < high.mean
        assert load.peak == max(load.per_day) and load.mean == sum(load.per_day) / personal.LOAD_DAYS


def test_a_card_rescheduled_at_the_retention_it_had_keeps_its_due_time(tmp_path):
    with _store(tmp_path, "h.sqlite3", synthetic_attempts(300, seed=12)) as history:
        parameters = history.parameters()
        states = [state for state in history.cards() if state.card.state == State.Review]
        assert len(states) > 10
        for state in states:
            assert personal.due_at_retention(parameters, state.card, 0.9).due == state.due
            assert personal.due_at_retention(parameters, state.card, 0.8).due > state.due


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_before_any_fit_the_status_says_whether_the_reviews_are_enough(lang):
    few = personal.status_text(personal.Standing(None, MIN_REVIEWS - 1, MIN_REVIEWS, 0.9), lang)
    enough = personal.status_text(personal.Standing(None, 168, MIN_REVIEWS, 0.9), lang)
    assert few != enough
    if lang == "en":
        assert few.startswith(f"Not fitted yet: {MIN_REVIEWS - 1} reviews so far; a fit needs {MIN_REVIEWS} ")
        assert enough.startswith(f"Not fitted yet: 168 reviews so far, enough for a fit ({MIN_REVIEWS} needed;")
