"""Helpers of the chat tests."""

from __future__ import annotations

import re

from tests.pages import client_for


def post_chat(user, table, body, *, htmx=False):
    client = client_for(user)
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(f"/tables/{table.pk}/chat/post", {"body": body}, **extra)


def chat_html(html: str) -> str:
    """The chat panel of a table page."""
    match = re.search(r'<details id="chat".*?</details>\s*(?=<details id="notes"|</div>)', html,
                      re.S)
    assert match, "no chat panel on the page"
    return match.group(0)


def texts(html: str) -> list[str]:
    """The texts of the chat messages in some HTML, in order."""
    return re.findall(r'<span class="chat-text">(.*?)</span>', html, re.S)
