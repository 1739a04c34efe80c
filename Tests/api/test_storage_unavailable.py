"""When the database cannot be used, every operation answers 503 `storage_unavailable` with a
message (as the OpenAPI document says), at once, and the server stays up.

On PostgreSQL the database is taken away under a running server (dropped, its connections
ended), which is what a client sees while PostgreSQL is down or restarting; the tests with
several instances (Tests/instances) stop and start PostgreSQL itself and watch the recovery.
Runs with DIARY_TEST_BACKEND=postgres (scripts/test runs the API suite on both backends).
"""

from __future__ import annotations

import subprocess
import time

import pytest

import diary_harness
from diary_api import Api, assert_error

pytestmark = pytest.mark.skipif(diary_harness.BACKEND != "postgres", reason="takes a PostgreSQL database away")


def drop(database_url: str) -> None:
    server, name = database_url.rsplit("/", 1)
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", f"{server}/postgres", "-c",
                    f"DROP DATABASE {name} WITH (FORCE)"], check=True, capture_output=True, timeout=60)


def test_every_operation_answers_503_with_a_message_while_the_database_is_away(server):
    api = Api(server.base_url)
    kept = api.create("Written before", "while the database was there")
    drop(server.database)

    asked = [
        ("GET", "/api/v1/entries", None),
        ("POST", "/api/v1/entries", {"title": "Not now", "body": ""}),
        ("GET", f"/api/v1/entries/{kept['id']}", None),
        ("PUT", f"/api/v1/entries/{kept['id']}", {"title": "Changed", "body": ""}),
        ("DELETE", f"/api/v1/entries/{kept['id']}", None),
        ("GET", "/api/v1/trash", None),
        ("GET", "/api/v1/search?q=written", None),
        ("GET", "/api/v1/session", None),
    ]
    for method, path, body in asked:
        started = time.monotonic()
        headers = {"If-Match": f'"{kept["version"]}"'} if method in ("PUT", "DELETE") else None
        response = api.request(method, path, json=body, headers=headers)  # held to the document
        waited = time.monotonic() - started
        payload = assert_error(response, 503, "storage_unavailable")
        assert "nothing was changed" in payload["message"], payload
        assert server.database.rsplit("/", 1)[1] not in response.text, "a client is told what to do, not where the database is"
        assert response.headers.get("Retry-After", "").isdigit(), response.headers
        assert waited < 10, f"{method} {path} took {waited:.1f} s to be refused"
    assert server.running(), "the server stays up while its database is away"
    # The operator's log says what failed and where.
    assert "does not exist" in server.log() or "Cannot reach PostgreSQL" in server.log(), server.log()[-2000:]

