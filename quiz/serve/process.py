"""One app process per browser session: textual-serve's AppService, with the session's own
environment (a user's folders) and an end that is certain (killed when it does not quit in time)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from typing import Any, Final

from textual_serve.app_service import AppService

QUIT_GRACE: Final = 3.0
"""Seconds an app has to quit when asked (it saves nothing then: every answer is saved as graded)."""


class SessionProcess(AppService):
    """textual-serve's app process for one websocket, run for `user` with `environment` added."""

    def __init__(self, command: str, *, user: str, environment: Mapping[str, str], **kwargs: Any) -> None:
        super().__init__(command, **kwargs)
        self.user = user
        self.environment = dict(environment)

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        return super()._build_environment(width, height) | self.environment

    @property
    def pid(self) -> int | None:
        """The app process's id while it runs (tests look for orphans by it)."""
        return None if self._process is None else self._process.pid

    async def stop(self) -> None:
        """Ask the app to quit, and kill it when it has not within QUIT_GRACE seconds."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(super().stop(), QUIT_GRACE)
        process = self._process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
