"""The answer input of code questions: a Python editor whose checks run off the event loop.

The editor starts from the learner's draft, or the question's starter. Every change is handed to
a `DraftSaver`, which commits it to the history file on a thread of its own (or, while that file
cannot be used, to a file the learner is told about), so a crash loses nothing typed.

Ctrl+S asks the screen to submit; the screen first calls `prepare`, which runs the checks in a
thread worker (the sandbox takes from a fraction of a second to its time limit) while the app
stays responsive, and posts `Submitted` when they are done, so the screen grades a response that
is already computed. A file that cannot be run is shown here at its line and nothing is
recorded. Leaving the question or quitting stops a run and kills its process. F9 opens the code
in `$EDITOR` with the app suspended and loads it back on return.

Once graded the editor stays open: Ctrl+S runs the checks again on the code as edited, as often as
the candidate likes, and posts each run as `Ran` for the screen to show. Those runs are practice
beside the one graded submission, which stays the attempt (docs/authoring.md, `code`).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Final

from textual import events, on, work
from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static, TextArea

from quiz import code
from quiz.answer_text import Invalid
from quiz.locale.i18n import tr
from quiz.practice.drafts import DraftNote, DraftSaver, DraftStore, read_draft_text
from quiz.types.code import CodeAnswer, run_answer, starter_of
from quiz.ui.answer_widgets.base import AnswerWidget
from quiz.ui.messages import DraftElsewhere
from quiz.ui.translate import with_group_title
from quiz.variants.variant import Variant

EDITOR_VARIABLE: Final = "EDITOR"
STOP_WAIT_SECONDS: Final = 2.0
"""How long leaving waits for a stopped run to kill and reap its child (it takes about 50 ms)."""
SAVE_WAIT_SECONDS: Final = 5.0
"""How long leaving waits for the last draft to be committed (a locked history file waits up to 5 s)."""


@dataclass(frozen=True)
class _Run:
    """One run of the checks: `stop` asks it to end; `done` is set when its thread has finished."""

    stop: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)


def _keys(bindings: Iterable[Binding]) -> set[str]:
    """Every key the bindings name (a binding may name several: `home,ctrl+a`)."""
    return {key for b in bindings for key in b.key.split(",")}


def _is_function_key(key: str) -> bool:
    """Whether a key is F1 to F24, which the app and its screens keep for their own actions."""
    return key[:1] == "f" and key[1:].isdigit()


# TextArea's F6 (select line) and F7 (select all) are dropped: an F-key the screen leaves idle
# would otherwise reach the editor, and F7's select-all let the next key typed replace the code.
_EDITING = [b for b in TextArea.BINDINGS if isinstance(b, Binding) and not any(map(_is_function_key, _keys([b])))]
# The scrolling keys TextArea inherits and does not redefine (Ctrl+PageUp/PageDown).
_SCROLLING = [b for b in ScrollableContainer.BINDINGS if isinstance(b, Binding) and not _keys([b]) & _keys(_EDITING)]
INDENT_STEP: Final = "    "
"""What Enter adds after a line that opens a block (PEP 8's four spaces)."""


def _opens_block(line: str) -> bool:
    """Whether a line of Python ends with `:` once trailing spaces and a trailing comment go."""
    # The whole line first, so a `#` inside a string (`if s == "#":`) does not hide its colon.
    return line.rstrip().endswith(":") or line.split("#", 1)[0].rstrip().endswith(":")


class CodeArea(TextArea, inherit_bindings=False):
    """Textual's TextArea without its F-keys, so the app's win, and with Python's auto-indent on Enter."""

    BINDINGS: ClassVar[list[BindingType]] = [*_EDITING, *_SCROLLING]

    async def _on_key(self, event: events.Key) -> None:
        """Enter keeps the line's indentation, one step deeper after a `:`, as Python needs."""
        if event.key != "enter" or self.read_only:
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()
        self._restart_blink()
        start, end = self.selection
        first = min(start, end)
        before = self.document[first[0]][: first[1]]  # the line up to the cursor: what is left above
        indent = before[: len(before) - len(before.lstrip(" \t"))]
        self._replace_via_keyboard("\n" + indent + (INDENT_STEP if _opens_block(before) else ""), start, end)


class CodeEditorAnswer(AnswerWidget):
    """Write the function in an editor pane; Ctrl+S runs the checks, F9 opens your own editor."""

    HELP = "ui.help_answer_code"
    # F9, as the screen takes F2 to F8.
    BINDINGS: ClassVar[list[BindingType]] = [Binding("f9", "external_editor", "ui.key_editor")]
    _confinement_said: ClassVar[bool] = False  # that code runs without bubblewrap here: said once per app run

    class DraftNoted(Message):
        """The draft saver's word on a save, from its thread (None: saved in the history file)."""

        def __init__(self, note: DraftNote | None) -> None:
            super().__init__()
            self.note = note

    def __init__(self, variant: Variant, lang: str) -> None:
        super().__init__(variant, lang)
        self._run: _Run | None = None  # the checks running now
        self._ready: tuple[str, CodeAnswer] | None = None  # the checked source and its answer
        self._sealed = False
        self._graded: CodeAnswer | None = None  # the graded submission, once sealed
        self._runs = 1  # runs of the checks since the question opened: the graded one is the first
        self._store = DraftStore()
        self._saver: DraftSaver | None = None
        self._note: str | None = None  # the draft note last shown, in English, so it is said once

    @property
    def question_id(self) -> str:
        return self.variant.question.id

    @property
    def running(self) -> bool:
        """The checks are running on the editor's text."""
        return self._run is not None

    def compose(self) -> ComposeResult:
        loaded = self._store.load(self.question_id)
        self._show_note(loaded.note)
        text = loaded.text if loaded.text is not None else starter_of(self.variant)
        self.editor = CodeArea.code_editor(text, language="python", id="code-editor")
        yield with_group_title(self.editor, self.lang)
        yield Static(id="code-status", markup=False)

    def on_mount(self) -> None:
        self._say("")
        self._saver = DraftSaver(self._store, self.question_id, lambda note: self.post_message(self.DraftNoted(note)))

    def on_unmount(self) -> None:
        # Leaving the question or quitting: the child process must not outlive the app, and the
        # last keys typed must reach the disk, so wait (briefly) for both.
        self._stop_checks(wait=True)
        if self._saver is not None:
            self._saver.close(SAVE_WAIT_SECONDS)
        self._store.close()

    def input_widget(self) -> Widget:
        return self.editor

    def footer_omits(self, narrow: bool) -> frozenset[str]:
        # Enter is a new line here, so Ctrl+S always shows. F5 draws the checks' inputs afresh and
        # keeps the code (its draft): shown once graded, when F2 and F3 have left room and new inputs
        # test a fix. On a narrow terminal it and F9 give way (the help lists them).
        if narrow:
            return frozenset({"fresh_variant", "external_editor"})
        return frozenset() if self.runs_again else frozenset({"fresh_variant"})

    def typed(self) -> str | None:
        return self.editor.text

    # -- the draft --------------------------------------------------------------------------

    @on(TextArea.Changed, "#code-editor")
    def _changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self._ready = None
        if self._saver is not None:
            self._saver.save(self.editor.text)
        self.post_message(self.Changed())

    @on(DraftNoted)
    def _draft_noted(self, event: DraftNoted) -> None:
        event.stop()
        self._show_note(event.note)

    def _show_note(self, note: DraftNote | None) -> None:
        """Say a note about the draft once, until a save says something else. A draft in a file
        because history cannot be used is the app's to say, with why answers are not saved either."""
        said = note.message() if note is not None else None
        if note is not None and said != self._note:
            if note.reason is not None:
                self.post_message(DraftElsewhere(note))
            else:
                self.notify(note.message(self.lang), severity="error", timeout=15)
        self._note = said

    # -- running the checks -----------------------------------------------------------------

    @property
    def runs_again(self) -> bool:
        return self._graded is not None

    def prepare(self) -> bool:
        """Start the checks on the editor's text unless their result is ready; True while they run.
        Once graded they always run (the candidate asked for another run)."""
        if self._sealed and self._graded is None:
            return False
        source = self.editor.text
        if self._graded is None and self._ready is not None and self._ready[0] == source:
            return False
        if self.running:
            return True
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
        from quiz.code import confinement_note  # the sandbox's module, loaded with the run

        note = confinement_note(self.lang) if not CodeEditorAnswer._confinement_said else None  # probed by the run
        if note is not None:
            CodeEditorAnswer._confinement_said = True
            self.app.call_from_thread(self.notify, note, severity="warning", timeout=20)
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
            return
        self._say("")
        if self._graded is not None:
            self._ran(result)
            return
        self._ready = (source, result)
        self.post_message(self.Submitted())

    def _ran(self, answer: CodeAnswer) -> None:
        """A run after the graded submission: the editor opens again and the screen shows the run."""
        from quiz.ui.widgets.feedback import indented  # loaded with the feedback, after the first frame

        self.editor.read_only = False
        self._runs += 1
        graded = self._graded
        assert graded is not None
        passed = sum(check.passed for check in graded.outcome.checks)
        title = tr("ui.code_run_title", self.lang, n=self._runs, passed=passed, total=len(graded.outcome.checks))
        self.post_message(self.Ran(title, indented(code.render_checklist(answer.outcome, self.lang))))
        self.editor.focus(scroll_visible=False)

    def _stop_checks(self, wait: bool = False) -> None:
        run, self._run = self._run, None
        if run is not None:
            run.stop.set()
            if wait:
                run.done.wait(STOP_WAIT_SECONDS)

    def response(self) -> CodeAnswer | Invalid:
        source = self.editor.text
        if self._ready is None or self._ready[0] != source:
            return Invalid("ui.code_run_first")
        return self._ready[1]

    def seal(self) -> None:
        # The graded code stays the attempt; the editor stays open for runs that are not graded.
        # Given up, nothing was graded: the code is only shown, read-only.
        self._sealed = True
        self._stop_checks()
        self._say("")
        self._graded = self._ready[1] if self._ready is not None else None
        self.editor.read_only = self._graded is None
        self.add_class("-sealed")
        if self._graded is not None:
            # The next step is fixing the code: the keys go to it (PageUp/PageDown still scroll the feedback).
            self.editor.focus(scroll_visible=False)
        self.refresh_bindings()

    def _say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#code-status", Static)
        status.update(text)
        status.display = bool(text)
        status.set_class(error, "invalid")

    # -- the learner's own editor -----------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "external_editor":
            return not (self.editor.read_only or self.running)
        return True

    def action_external_editor(self) -> None:
        """Open the code in $EDITOR with the app suspended, and load what was saved there."""
        command = shlex.split(os.environ.get(EDITOR_VARIABLE, ""))
        if not command:
            self.notify(tr("ui.code_no_editor", self.lang), severity="warning")
            return
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
            try:
                text, _ = read_draft_text(path)
            except (OSError, ValueError) as exc:
                reason = getattr(exc, "strerror", None) or str(exc)
                self.notify(tr("ui.code_reload_failed", self.lang, reason=reason), severity="error")
                return
        if text != self.editor.text:
            # One edit over the whole text, so Ctrl+Z takes the editor's changes back; the
            # TextArea's Changed saves the draft.
            self.editor.replace(text, (0, 0), self.editor.document.end)
        self.editor.focus(scroll_visible=False)
