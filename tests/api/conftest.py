"""Fixtures of the API tests: tokens and an API client that sends them."""

from __future__ import annotations

import json

import pytest
from django.test import Client


class ApiClient:
    """Django's test client with a bearer token and JSON bodies."""

    def __init__(self, raw: str | None):
        self.raw = raw
        self.client = Client(HTTP_HOST="localhost")

    def _headers(self, extra):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {self.raw}"} if self.raw else {}
        headers.update(extra)
        return headers

    def get(self, path, **extra):
        return self.client.get("/api/v1" + path, **self._headers(extra))

    def post(self, path, body=None, **extra):
        return self.client.post("/api/v1" + path, json.dumps(body or {}),
                                content_type="application/json", **self._headers(extra))


@pytest.fixture
def token_for(db):
    """A factory: a raw token of `user` with `scopes`."""
    from api.tokens import check_create_token

    def make(user, scopes=("read", "play")) -> str:
        _token, raw = check_create_token(user=user, name="test", scopes=list(scopes))
        return raw

    return make


@pytest.fixture
def api_for(token_for):
    def make(user, scopes=("read", "play")) -> ApiClient:
        return ApiClient(token_for(user, scopes))

    return make
