"""A small client for /api/v1 whose every response is held to the OpenAPI document."""

from __future__ import annotations

import json as jsonlib
import socket
from typing import Any, Optional
from urllib.parse import urljoin

import requests

from openapi_check import check


# The diary's first account, made through /api/v1/setup on every test server.
TESTER = {"name": "tester", "password": "correct horse battery staple"}

# The diary is private. Per server (its base URL), the headers of a logged-in client: the
# session cookie and the CSRF token every write echoes. Filled in by conftest.py.
AUTH: dict = {}


def auth_headers(base_url: str) -> dict:
    return dict(AUTH.get(base_url.rstrip("/"), {}))


def half_sent(base_url: str, path: str, content_type: str, start: bytes):
    """A POST to `path` whose body is promised at 1,000,000 bytes and only begun (`start`), its
    sender slow: the open socket, holding whatever place the server gives an upload under way."""
    address = base_url.removeprefix("http://").rstrip("/")
    host, port = address.rsplit(":", 1)
    head = "".join(f"{name}: {value}\r\n" for name, value in auth_headers(base_url).items())
    connection = socket.create_connection((host, int(port)), timeout=10)
    connection.sendall(f"POST {path} HTTP/1.1\r\nHost: {address}\r\n{head}"
                       f"Content-Type: {content_type}\r\nContent-Length: 1000000\r\n\r\n".encode() + start)
    return connection


class Api:
    """A client for /api/v1 whose every response is checked against the document."""

    def __init__(self, base_url: str):
        self.base_url = base_url
        self.session = requests.Session()
        self.session.headers.update(auth_headers(base_url))

    def url(self, path: str) -> str:
        return urljoin(self.base_url, path)

    def request(self, method: str, path: str, *, json: Any = None, data: Any = None,
                headers: Optional[dict] = None, params: Optional[dict] = None,
                timeout: float = 30) -> requests.Response:
        headers = dict(headers or {})
        if json is not None:
            data = jsonlib.dumps(json, ensure_ascii=False).encode("utf-8")
            headers.setdefault("Content-Type", "application/json")
        response = self.session.request(method, self.url(path), data=data, headers=headers,
                                        params=params, timeout=timeout)
        check_exchange(response)
        return response

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, **kw):
        return self.request("POST", path, **kw)

    def put(self, path, **kw):
        return self.request("PUT", path, **kw)

    def delete(self, path, **kw):
        return self.request("DELETE", path, **kw)

    def patch(self, path, **kw):
        return self.request("PATCH", path, **kw)

    # Helpers for the steps many tests take.

    def create(self, title: str = "A title", body: str = "A body", **fields) -> dict:
        response = self.post("/api/v1/entries", json={"title": title, "body": body, **fields})
        assert response.status_code == 201, response.text
        return response.json()

    def list_all(self, path: str = "/api/v1/entries", limit: int = 100) -> list:
        rows, cursor = [], None
        for _ in range(1000):
            params = {"limit": limit, **({"cursor": cursor} if cursor else {})}
            response = self.get(path, params=params)
            assert response.status_code == 200, response.text
            page = response.json()
            rows += page["entries"]
            cursor = page["nextCursor"]
            if cursor is None:
                return rows
        raise AssertionError("paging never ended")


def check_exchange(response: requests.Response) -> None:
    """Holds one request and its response (made with any requests client) to the document."""
    sent = response.request
    body = sent.body.encode("utf-8") if isinstance(sent.body, str) else sent.body
    check(sent.method, sent.url, sent.headers, body,
          response.status_code, response.headers, response.content)


def assert_error(response: requests.Response, status: int, code: str) -> dict:
    """The response is the documented error: this status, this code, a message."""
    assert response.status_code == status, f"expected {status} {code}, got {response.status_code}: {response.text[:500]}"
    assert response.headers.get("Content-Type", "").startswith("application/json")
    payload = response.json()
    assert payload.get("error") == code, payload
    assert isinstance(payload.get("message"), str) and payload["message"].strip(), payload
    return payload
