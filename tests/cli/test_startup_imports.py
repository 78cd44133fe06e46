"""What the first question waits for: only its own screen's modules are imported before it is on
screen; the help, other answer widgets, other question types' behaviour, the code runner and the
history store come later."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from quiz.code import TASKS
from quiz.code.interfaces import INTERFACES, TASK_IDS

# What a first start does with an empty cache folder is part of what these tests check.
pytestmark = [pytest.mark.cold_cache, pytest.mark.slow]  # slow: fresh interpreters

UNTIL_SHOWN = """
import json, sys

async def until_shown(pilot):
    while type(pilot.app.screen).__name__ != "QuestionScreen" or not pilot.app.screen.query("#answer-input"):
        await pilot.pause()
    print(json.dumps(sorted(sys.modules)), flush=True)
    await pilot.app.workers.wait_for_complete()
    pilot.app.exit()
"""

# The app loading the bank itself (as plain `quiz` does), and `quiz practice --id` as its command
# starts it: the bank loaded first, then `practice.launch`'s app, here run headless.
FIRST_QUESTION = {
    "app": UNTIL_SHOWN
    + """
from quiz.bank import Selection
from quiz.ui.app import make_app

make_app(start=Selection(key="causal-weights-3x3#3"), seed=1).run(headless=True, size=(100, 30), auto_pilot=until_shown)
""",
    "command": UNTIL_SHOWN
    + """
from quiz.cli import main
from quiz.cli import practice

def launch(args, selection, bank=None, mode="practice"):
    practice.open_app(args, selection, bank, mode).run(headless=True, size=(100, 30), auto_pilot=until_shown)
    return 0

practice.launch = launch
sys.exit(main.main(["practice", "--id", "causal-weights-3x3#3"]))
""",
}

LATER = (
    "quiz.ui.screens.help",  # F1
    "quiz.ui.answer_widgets.code",  # a code question's editor
    "quiz.ui.answer_widgets.choice",  # other types' widgets
    "quiz.ui.answer_widgets.explain",
    "quiz.types.choice",  # other types' behaviour: a warm start reads only their models
    "quiz.types.multi",
    "quiz.types.order",
    "quiz.types.truefalse",
    "quiz.types.explain",
    "quiz.types.code",
    "quiz.types.options",
    "textual.widgets._text_area",
    "quiz.code.run",  # running a candidate's file
    "quiz.code.sandbox",
    "quiz.code.tasks",
    "quiz.ui.screens.summary",
    "quiz.ui.screens.stats",
    "yaml",  # a warm start reads every pack from the bank cache, no YAML
    "quiz.format.yaml_events",
    "tomllib",  # the catalogues are read from the cache folder as JSON, not parsed again
    "quiz.answer_text.parse",  # the answer parser: on the first key typed
    "quiz.answer_text.expression",
)


def modules_when_shown(start: str) -> set[str]:
    """The modules imported when the first question is on screen, in a process of its own."""
    shown = subprocess.run([sys.executable, "-c", FIRST_QUESTION[start]], check=True, capture_output=True, text=True, timeout=120)
    return set(json.loads(shown.stdout.splitlines()[0]))


@pytest.mark.parametrize("start", sorted(FIRST_QUESTION))
def test_the_first_question_is_shown_before_what_it_does_not_need_is_imported(start):
    modules_when_shown(start)  # a cold start checks every pack (a code question's task too) and fills the cache
    loaded = modules_when_shown(start)
    assert "quiz.ui.answer_widgets.numeric" in loaded  # the question's own widget
    assert loaded.isdisjoint(LATER), sorted(loaded & set(LATER))


def test_the_task_ids_the_model_names_are_the_tasks_in_order():
    assert tuple(TASKS) == TASK_IDS == tuple(INTERFACES)
    assert all(task.interface is INTERFACES[task_id] for task_id, task in TASKS.items())


def test_loading_the_bank_leaves_markdown_to_what_renders_it():
    """The bank and every question type import without markdown-it: only showing a marked answer
    (or the question screen's own Markdown) needs it."""
    code = "import json, sys, quiz.bank, quiz.types.registry; print(json.dumps(sorted(sys.modules)))"
    shown = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, timeout=60)
    loaded = set(json.loads(shown.stdout))
    assert loaded.isdisjoint({"markdown_it", "quiz.render.mathtext"}), sorted(loaded & {"markdown_it", "quiz.render.mathtext"})


BEHAVIOUR = {f"quiz.types.{name}" for name in ("number", "vector", "matrix", "choice", "multi", "order", "truefalse", "explain", "code", "evidence")}


def test_the_registry_imports_a_types_behaviour_when_it_is_first_looked_up():
    """The bank and the registry bring every model but no type's behaviour; looking a type up
    imports its module alone (matrix brings the numeric types' shared base, not number or vector)."""
    code = (
        "import json, sys, quiz.bank, quiz.types.registry as r; before = sorted(sys.modules); kind = r.TYPES['matrix']; "
        "print(json.dumps([before, sorted(sys.modules), kind.name, sorted(r.TYPES)]))"
    )
    shown = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, timeout=60)
    before, after, name, names = json.loads(shown.stdout)
    assert "quiz.models.questions" in before and BEHAVIOUR.isdisjoint(before), sorted(BEHAVIOUR & set(before))
    assert name == "matrix" and BEHAVIOUR & set(after) == {"quiz.types.matrix"}
    assert "quiz.types.numeric" in after and sorted(names) == sorted(n.rsplit(".", 1)[1] for n in BEHAVIOUR)


LIST = """
import json, sys
from quiz.cli.entry import main

status = main(["list"])
print(json.dumps([status, sorted(sys.modules)]))
"""
"""`quiz list` run as its entry point runs it, then what it imported as the last line of its output."""


def modules_after_list() -> tuple[str, set[str]]:
    """What `quiz list` prints and the modules it imported, in a process of its own."""
    listed = subprocess.run([sys.executable, "-c", LIST], check=True, capture_output=True, text=True, timeout=60)
    *lines, last = listed.stdout.splitlines()
    status, modules = json.loads(last)
    assert status == 0, listed.stderr
    return "\n".join(lines), set(modules)


def test_list_imports_neither_numpy_nor_the_engine_with_a_cold_or_a_warm_cache():
    """Listing reads the questions as loaded: no expression is compiled or evaluated and no variant
    drawn. A cold start converts every pack and checks each type's rules (`quiz.types.rules`), a
    warm one reads them from the cache; neither imports numpy or the engine."""
    cold, cold_loaded = modules_after_list()  # an empty cache folder: it fills it
    warm, warm_loaded = modules_after_list()
    assert warm == cold and " questions" in warm.splitlines()[-1]
    assert "yaml" in cold_loaded - warm_loaded  # the first run did read the packs
    for loaded in (cold_loaded, warm_loaded):
        heavy = {m for m in loaded if m.split(".")[0] in ("numpy", "engine")}
        assert heavy == set(), sorted(heavy)
