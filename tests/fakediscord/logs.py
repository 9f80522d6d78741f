"""Collect ERROR logs from discord.py (and optionally the bot's loggers): discord.py logs, rather than
raises, exceptions in commands, views and event handlers, so a test must look at the logs to see them."""

from __future__ import annotations

import logging


class ErrorLogCollector(logging.Handler):
    def __init__(self, loggers: tuple[str, ...] = ("discord",), level: int = logging.ERROR) -> None:
        super().__init__(level)
        self.logger_names = loggers
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def install(self) -> ErrorLogCollector:
        for name in self.logger_names:
            logging.getLogger(name).addHandler(self)
        return self

    def uninstall(self) -> None:
        for name in self.logger_names:
            logging.getLogger(name).removeHandler(self)

    def __enter__(self) -> ErrorLogCollector:
        return self.install()

    def __exit__(self, *exc: object) -> None:
        self.uninstall()

    def formatted(self) -> list[str]:
        fmt = logging.Formatter("%(name)s %(levelname)s: %(message)s")
        return [fmt.format(r) for r in self.records]

    def clear(self) -> None:
        self.records.clear()

    def check(self) -> None:
        """Raise AssertionError listing every collected error (with tracebacks)."""
        if self.records:
            raise AssertionError("ERROR logs from discord.py/bot:\n" + "\n".join(self.formatted()))
