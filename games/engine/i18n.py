"""Marking strings for translation without importing Django.

Rules engines are pure Python, but their option labels and error messages reach
players. ``_`` returns its argument unchanged; ``makemessages`` still extracts
every ``_("...")`` literal, and the Django side translates at render time.
"""


def _(text: str) -> str:
    """Mark `text` for translation; return it unchanged."""
    return text


gettext_noop = _
