"""The answer input of code questions: a Python editor whose checks run off the event loop.

The editor starts from the learner's draft, or the question's starter. Every change is saved as
the draft (`quiz.practice.drafts`), so a crash loses nothing typed. Ctrl+S asks the screen to
submit; the screen first calls `prepare`, which runs the checks in a thread worker (the sandbox
takes from a fraction of a second to the time limit) while the app stays responsive, and posts
`Submitted` when they are done, so the screen grades a response that is already computed. A
file that cannot be run is shown here at its line and nothing is recorded. F7 opens the code
in `$EDITOR` with the app suspended and loads it back on return.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from textual import on, work
from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import Binding
from textual.widgets import Static, TextArea

from quiz.answers import Invalid
from quiz.code import get_task
from quiz.i18n import tr
from quiz.practice.drafts import MAX_DRAFT_BYTES, load_draft, save_draft
from quiz.types.code import CodeAnswer, run_answer, starter_of
from quiz.ui.answers.base import AnswerWidget
from quiz.ui.translate import with_group_title
from quiz.variants.variant import Variant

EDITOR_VARIABLE: Final = "EDITOR"
STOP_WAIT_SECONDS: Final = 2.0
"""How long leaving waits for a stopped run to kill and reap its child (it takes about 50 ms)."""


@dataclass(frozen=True)
class _Run:
    """One run of the checks: `stop` asks it to end; `done` is set when its thread has finished."""

    stop: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)


class CodeEditorAnswer(AnswerWidget):
    """Write the function in an editor pane; Ctrl+S runs the checks, F7 opens your own editor."""

    # priority: the TextArea inside binds F7 to "select all", and the learner's own editor wins.
    BINDINGS = [Binding("f7", "external_editor", "ui.key_editor", priority=True)]

    def __init__(self, variant: Variant, lang: str) -> None:
        super().__init__(variant, lang)
        self._run: _Run | None = None  # the checks running now
        self._ready: tuple[str, CodeAnswer] | None = None  # the checked source and its answer
        self._sealed = False
        self._save_due = False
        self._draft_problem: str | None = None

    @property
    def question_id(self) -> str:
        return self.variant.question.id  # type: ignore[no-any-return]

    @property
    def running(self) -> bool:
        """The checks are running on the editor's text."""
        return self._run is not None

    def compose(self) -> ComposeResult:
        draft = load_draft(self.question_id)
        self._draft_problem = draft.problem
        text = draft.text if draft.text is not None else starter_of(self.variant)
        functions = ", ".join(f.signature.removeprefix("def ") for f in get_task(self.variant.question.task).functions)
        yield Static(tr("ui.code_help", self.lang, functions=functions), id="code-help", markup=False)
        # Kept as an attribute: the text is still read (to save it) after the pane is unmounted.
        self.editor = TextArea.code_editor(text, language="python", id="code-editor")
        yield with_group_title(self.editor, self.lang)
        yield Static(id="code-status", markup=False)

    def on_mount(self) -> None:
        self.editor.focus(scroll_visible=False)
        self._say("")
        if self._draft_problem:
            self.notify(tr("ui.code_draft_unreadable", self.lang, problem=self._draft_problem), severity="warning", timeout=10)

    def on_unmount(self) -> None:
        # Leaving the question or quitting: the child process must not outlive the app, so wait
        # (briefly) until the stopped run has killed it.
        self._stop_checks(wait=True)
        if self._save_due:
            self._save_draft()

    # -- the draft --------------------------------------------------------------------------

    @on(TextArea.Changed, "#code-editor")
    def _changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self._ready = None
        # The pane takes the keys itself, so they never reach on_key: bring it into view here
        # (a question opens at its prompt, and on a short terminal the pane starts below it).
        self.editor.scroll_visible(animate=False)
        if not self._save_due:  # one save per frame, however many keys arrived in it
            self._save_due = True
            self.call_after_refresh(self._save_draft)

    def _save_draft(self) -> None:
        if not self._save_due:
            return
        self._save_due = False
        problem = save_draft(self.question_id, self.editor.text)
        if problem is not None and problem != self._draft_problem:
            self.notify(tr("ui.code_draft_not_saved", self.lang, problem=problem), severity="error", timeout=10)
        self._draft_problem = problem

    # -- running the checks -----------------------------------------------------------------

    def prepare(self) -> bool:
        """Start the checks on the editor's text unless their result is ready; True while they run."""
        if self._sealed:
            return False
        source = self.editor.text
        if self._ready is not None and self._ready[0] == source:
            return False
        if self.running:
            return True
        self._save_draft()
        self._run = _Run()
        self.editor.read_only = True  # what is checked is what is on screen
        self._say(tr("ui.code_running", self.lang))
        self._run_checks(source, self._run)
        self.refresh_bindings()
        return True

    @work(thread=True, exclusive=True, group="code-checks")
    def _run_checks(self, source: str, run: _Run) -> None:
        """Run the sandbox in a thread: it blocks for up to its time limits."""
        try:
            result = run_answer(self.variant, source, stop=run.stop)
        finally:
            run.done.set()
        if not run.stop.is_set():
            self.app.call_from_thread(self._checked, source, result, run)

    def _checked(self, source: str, result: CodeAnswer | Invalid, run: _Run) -> None:
        if run is not self._run or run.stop.is_set():  # stopped, or superseded by a newer run
            return
        self._run = None
        self.refresh_bindings()
        if isinstance(result, Invalid):
            self.editor.read_only = False
            self._say(result.message(self.lang), error=True)
            self.editor.focus(scroll_visible=False)
            self.query_one("#code-status").scroll_visible(animate=False)
            return
        self._ready = (source, result)
        self._say("")
        self.post_message(self.Submitted())

    def _stop_checks(self, wait: bool = False) -> None:
        run, self._run = self._run, None
        if run is not None:
            run.stop.set()
            if wait:
                run.done.wait(STOP_WAIT_SECONDS)

    def response(self) -> Any | Invalid:
        source = self.editor.text
        if self._ready is None or self._ready[0] != source:
            return Invalid("ui.code_run_first")
        return self._ready[1]

    def seal(self) -> None:
        self._sealed = True
        self._stop_checks()
        self._say("")
        self.editor.read_only = True
        self.refresh_bindings()

    def _say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#code-status", Static)
        status.update(text)
        status.display = bool(text)
        status.set_class(error, "invalid")

    # -- the learner's own editor -----------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "external_editor":
            return not (self._sealed or self.running)
        return True

    def action_external_editor(self) -> None:
        """Open the code in $EDITOR with the app suspended, and load what was saved there."""
        command = shlex.split(os.environ.get(EDITOR_VARIABLE, ""))
        if not command:
            self.notify(tr("ui.code_no_editor", self.lang), severity="warning")
            return
        self._save_draft()
        with tempfile.TemporaryDirectory(prefix="quiz-edit-") as folder:
            path = Path(folder) / f"{self.question_id}.py"
            path.write_text(self.editor.text, encoding="utf-8")
            try:
                with self.app.suspend():
                    status = subprocess.run([*command, str(path)]).returncode
            except SuspendNotSupported:
                self.notify(tr("ui.code_cannot_suspend", self.lang), severity="warning")
                return
            except OSError as exc:
                self.notify(tr("ui.code_editor_failed", self.lang, editor=command[0], reason=exc.strerror or exc), severity="error")
                return
            if status != 0:
                self.notify(tr("ui.code_editor_status", self.lang, editor=command[0], status=status), severity="warning")
                return
            text = _read_back(path)
        if isinstance(text, Invalid):
            self.notify(text.message(self.lang), severity="error")
            return
        if text != self.editor.text:
            self.editor.load_text(text)
            self._save_due = True
            self._save_draft()
        self.editor.focus(scroll_visible=False)


def _read_back(path: Path) -> str | Invalid:
    """The file the editor saved, or why it cannot be loaded into the pane."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return Invalid("ui.code_reload_failed", {"reason": exc.strerror or str(exc)})
    if len(raw) > MAX_DRAFT_BYTES:
        return Invalid("ui.code_reload_failed", {"reason": f"larger than {MAX_DRAFT_BYTES:,} bytes"})
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Invalid("ui.code_reload_failed", {"reason": f"not UTF-8 text (byte {exc.start})"})
