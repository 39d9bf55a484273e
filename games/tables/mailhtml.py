"""The HTML part of every mail: a template with a <style> block, inlined by css-inline.

A mail kind may have its own `tables/email/<kind>.html`; a kind with only its
text template gets `tables/email/generic.html`: its text as paragraphs, then
the card of its table (game, whose turn, the deadline, a button). css-inline
(a maintained Rust inliner with Python wheels) moves the <style> rules onto
the elements, since many mail clients drop <style>.
"""

from __future__ import annotations

import css_inline
from django.template import TemplateDoesNotExist
from django.template.loader import get_template, render_to_string

_INLINER = css_inline.CSSInliner(keep_style_tags=False, load_remote_stylesheets=False)


def paragraphs(text: str) -> list[str]:
    """The text body's paragraphs, without the signature block ("-- " and after)."""
    text = text.replace("\r\n", "\n")
    if "\n-- \n" in text:
        text = text.split("\n-- \n", 1)[0]
    return [p.strip("\n") for p in text.split("\n\n") if p.strip()]


def inline(html: str) -> str:
    return _INLINER.inline(html)


def render_html(template: str, context: dict, text: str) -> str:
    """The HTML part of a mail whose text part is `text` (the active language and zone)."""
    name = f"tables/email/{template}.html"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        name = "tables/email/generic.html"
    return inline(render_to_string(name, {**context, "paragraphs": paragraphs(text)}))


def generic_html(text: str, subject: str = "") -> str:
    """The HTML part of a mail written elsewhere (allauth's), from its text."""
    return inline(render_to_string("tables/email/generic.html",
                                   {"paragraphs": paragraphs(text), "subject": subject}))
