"""HEAD works wherever GET does: the same status and headers, and no body (RFC 9110 §9.3.2).
Link checkers, caches and monitoring ask HEAD; a 404 or 405 there would say the address is wrong.
Each GET is held to the OpenAPI document; the HEAD beside it is compared with it."""

from __future__ import annotations

import pytest
import requests

from diary_api import auth_headers

# HEAD beside GET, the same answer either way: not run again on PostgreSQL (conftest.py).
pytestmark = pytest.mark.same_on_every_backend

# Headers that say what the body would be; `Date` and the like may differ between two answers.
SAME = ["Content-Type", "Content-Length", "Content-Encoding", "ETag", "Cache-Control", "Vary", "Allow"]


def same_but_bodiless(get: requests.Response, head: requests.Response, what: str) -> None:
    assert head.status_code == get.status_code, (what, head.status_code, get.status_code)
    for name in SAME:
        assert head.headers.get(name) == get.headers.get(name), (what, name, head.headers.get(name), get.headers.get(name))
    assert head.content == b"", (what, head.content[:100])


def test_head_answers_as_get_for_the_web_app_and_the_api(api, base_url):
    entry = api.create("Heads up", "A body to weigh.")
    for path in ["/", "/index.html", "/js/main.js", "/api/v1/openapi.yaml", "/api/v1/entries",
                 "/api/v1/entries?limit=1", f"/api/v1/entries/{entry['id']}", "/api/v1/search?q=heads",
                 "/api/v1/trash", "/api/v1/session"]:
        for encoding in ("gzip", "identity"):
            headers = {"Accept-Encoding": encoding}
            # The API's GETs are held to the document; the web app's files are not in it.
            get = api.get(path, headers=headers) if path.startswith("/api/") else api.session.get(api.url(path), headers=headers, timeout=30)
            head = api.session.head(api.url(path), headers=headers, timeout=30)
            same_but_bodiless(get, head, f"{path} ({encoding})")
            assert get.status_code == 200, (path, get.status_code)


def test_head_answers_as_get_when_the_answer_is_an_error(api, base_url):
    for path, headers in [("/api/v1/entries", {}), ("/api/v1/entries/00000000-0000-4000-8000-000000000000", None),
                          ("/api/v1/nowhere", None)]:
        headers = auth_headers(base_url) if headers is None else headers
        get = requests.get(f"{base_url}{path}", headers=headers, timeout=30)
        head = requests.head(f"{base_url}{path}", headers=headers, timeout=30)
        assert get.status_code >= 400
        same_but_bodiless(get, head, path)
