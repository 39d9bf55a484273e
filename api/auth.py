"""Token authentication of the API: `Authorization: Bearer <token>`, never the session."""

from __future__ import annotations

from django.utils.translation import gettext as _
from ninja.security import HttpBearer

from . import limits
from .problems import Problem
from .tokens import token_for


class TokenAuth(HttpBearer):
    """A personal token with `scope`; counts the call against the token's limits."""

    def __init__(self, scope: str, *, write: bool = False):
        super().__init__()
        self.scope = scope
        self.write = write

    def authenticate(self, request, token: str):
        found = token_for(token.strip())
        if found is None:
            raise Problem(401, "unauthorized",
                          _("Send a personal API token: Authorization: Bearer <token>. "
                            "Tokens are made on your profile page."))
        if not found.allows(self.scope):
            raise Problem(403, "forbidden",
                          _("This token has no %(scope)s scope.") % {"scope": self.scope})
        request.auth = found
        # The API acts as the token's owner, whatever session cookie came along.
        request.user = found.user
        limits.check(request, write=self.write)
        return found


read = TokenAuth("read")
play = TokenAuth("play", write=True)
