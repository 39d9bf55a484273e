"""Errors of the write path. Each carries a sentence a player can read."""

from django.utils.translation import gettext_lazy as _


class ActionError(Exception):
    """An action was refused; nothing was written."""

    default = _("That is not possible now.")
    status = 400

    def __init__(self, message=None):
        self.message = message or self.default
        super().__init__(str(self.message))


class StaleMove(ActionError):
    default = _("Someone moved first: the table has changed since your page was drawn.")
    status = 409


class NotYourSeat(ActionError):
    default = _("You do not have a seat at this table.")
    status = 403


class NotYourDecision(ActionError):
    default = _("It is not your decision now.")
    status = 409


class TableClosed(ActionError):
    default = _("This table is not running.")
    status = 409
