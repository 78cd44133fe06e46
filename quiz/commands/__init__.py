"""The `quiz` subcommands, one module each; each exposes `add_parser` and `run`."""


class CommandError(Exception):
    """Stops a subcommand with a message on stderr and an exit code."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
