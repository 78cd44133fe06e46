"""A code question's two solutions once it is passed or given up: the candidate's and the reference,
side by side on a wide terminal (120 columns or more) and one below the other on a narrower one."""

from __future__ import annotations

from rich.syntax import Syntax
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from quiz.locale.i18n import tr


class CodeListing(Static):
    """Python with its line numbers and highlighting, wrapped to the pane; `code` is the text shown."""

    def __init__(self, code: str, *, id: str | None = None) -> None:
        super().__init__(Syntax(code, "python", line_numbers=True, word_wrap=True, theme="ansi_dark", background_color="default"), id=id)
        self.code = code


class CodeComparison(Vertical):
    """The candidate's code (when they wrote any) beside the task's reference solution."""

    def __init__(self, yours: str | None, reference: str, lang: str) -> None:
        super().__init__(id="code-compare")
        self.yours = yours
        self.reference = reference
        self.lang = lang

    def compose(self) -> ComposeResult:
        if self.yours is not None:
            with Vertical(classes="code-pane"):
                yield Static(tr("ui.code_yours", self.lang), classes="section-title", markup=False)
                yield CodeListing(self.yours, id="your-solution")
        with Vertical(classes="code-pane"):
            yield Static(tr("ui.code_reference", self.lang), classes="section-title", markup=False)
            yield CodeListing(self.reference, id="reference-solution")
