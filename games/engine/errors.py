"""Errors raised by rules engines."""

from __future__ import annotations


class IllegalMove(Exception):
    """A move the rules refuse; the message is a sentence a player can read.

    `message` is an English template using ``{name}`` placeholders filled from
    `params`; the Django side translates the template and then formats it, so
    mark templates with ``games.engine.i18n._`` where they are written.
    """

    def __init__(self, message: str, *, code: str = "illegal", **params):
        self.template = message
        self.code = code
        self.params = params
        try:
            text = message.format(**params)
        except (KeyError, IndexError, ValueError):
            text = message
        super().__init__(text)

    @property
    def message(self) -> str:
        return str(self)
