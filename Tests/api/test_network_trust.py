"""Requests can't be steered from outside: the server answers only for the hosts it serves (no
DNS rebinding), and believes X-Forwarded-* only from the proxies it is told to trust, taking as
the client the right-most address in X-Forwarded-For that is not one of them.

These go through plain `requests` and raw sockets: a refused host is answered before any route,
the same on every path (see the document's description)."""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

import pytest
import requests

from diary_api import TESTER

# Hosts and proxies, settled before any route: not run again on PostgreSQL (conftest.py).
pytestmark = pytest.mark.same_on_every_backend

BINARY = Path(os.environ.get("DIARY_BIN") or Path(__file__).resolve().parents[2] / ".build/debug/diary")

PATHS = ["/", "/js/main.js", "/api/v1/entries", "/api/v1/session", "/api/v1/openapi.yaml", "/api/v1/nowhere"]


def error_of(response: requests.Response) -> dict:
    assert response.headers.get("Content-Type", "").startswith("application/json"), response.headers
    body = response.json()
    assert isinstance(body.get("error"), str) and isinstance(body.get("message"), str) and body["message"], body
    return body


def raw(server, request: bytes) -> bytes:
    """Sends `request` as written and returns the whole answer (the server closes after it)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(request)
        s.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    return answer


def log_in(server, headers: dict, person: dict = TESTER) -> requests.Response:
    return requests.post(f"{server.base_url}/api/v1/session", json=person, headers=headers, timeout=30)


# -- DNS rebinding --------------------------------------------------------------------------------

def test_a_request_for_another_host_is_refused_on_every_path(server):
    for path in PATHS:
        refused = requests.get(f"{server.base_url}{path}", headers={"Host": f"evil.example:{server.port}"}, timeout=30)
        assert refused.status_code == 421, (path, refused.status_code, refused.text[:200])
        body = error_of(refused)
        assert body["error"] == "unknown_host" and "--host-name" in body["message"], body


def test_the_loopback_names_are_served_with_or_without_the_port(server):
    for host in ["localhost", f"localhost:{server.port}", "127.0.0.1", f"127.0.0.1:{server.port}",
                 f"[::1]:{server.port}", "LOCALHOST.", f"localhost:{server.port + 1}"]:
        answer = requests.get(f"{server.base_url}/api/v1/entries", headers={"Host": host}, timeout=30)
        assert answer.status_code == 401, (host, answer.status_code, answer.text[:200])


def test_names_that_only_look_like_ours_are_refused(server):
    for host in ["127.0.0.1.evil.example", "localhost.evil.example", "evil.example#@localhost",
                 "localhost:80:80", "localhost:http", "[::1", "0.0.0.0", "127.0.0.2"]:
        answer = requests.get(f"{server.base_url}/", headers={"Host": host}, timeout=30)
        assert answer.status_code in (400, 421), (host, answer.status_code)
        error_of(answer)


def test_a_request_without_a_host_is_refused(server):
    for version in (b"HTTP/1.1", b"HTTP/1.0"):
        answer = raw(server, b"GET /api/v1/entries " + version + b"\r\nConnection: close\r\n\r\n")
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.split(b" ")[1] == b"400", answer[:300]
        assert b'"error":"missing_host"' in body, answer[:300]


def test_two_host_lines_are_refused_and_an_absolute_target_is_answered_for_its_host_line(server):
    for request, status in [
        (b"GET /api/v1/session HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n", b"400"),
        (b"GET /api/v1/session HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n", b"400"),
        (b"GET http://localhost/api/v1/session HTTP/1.1\r\nHost: evil.example\r\n", b"421"),
    ]:
        answer = raw(server, request + b"Connection: close\r\n\r\n")
        assert answer.split(b" ")[1] == status, (request, answer[:300])


def test_host_names_are_served_when_given(start_server):
    named = start_server("--host-name", "Diary.Example", "--host-name", "fd00::7", log_in=False)
    for host in ["diary.example", "diary.example:443", "[fd00::7]:8080", "localhost"]:
        assert requests.get(f"{named.base_url}/", headers={"Host": host}, timeout=30).status_code == 200, host
    assert requests.get(f"{named.base_url}/", headers={"Host": "other.example"}, timeout=30).status_code == 421


def run_serve(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DIARY_")}
    environment.update(env or {})
    return subprocess.run([str(BINARY), "serve", "--port", "0", "--weather", "off", "--database", "/nonexistent/never.sqlite", *args],
                          capture_output=True, text=True, timeout=30, env=environment)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.10"])
def test_listening_beyond_loopback_needs_a_host_name(host):
    refused = run_serve("--host", host)
    assert refused.returncode != 0
    assert "--host-name" in refused.stderr and "DIARY_HOST_NAMES" in refused.stderr, refused.stderr


def test_a_host_name_that_is_not_one_is_refused_at_start():
    for name in ["http://diary.example", "diary.example/path", "two words"]:
        refused = run_serve("--host-name", name)
        assert refused.returncode != 0 and "not a host name" in refused.stderr, (name, refused.stderr)


# -- Proxies --------------------------------------------------------------------------------------

def test_behind_a_trusted_proxy_the_client_is_the_right_most_untrusted_address(start_server):
    # The proxy (on loopback, trusted with --trust-proxy) appends the address it heard from:
    # 203.0.113.7. What the client wrote before it changes with every try, and must not escape
    # the address's lock.
    proxied = start_server("--trust-proxy")
    for n in range(5):
        forged = {"X-Forwarded-For": f"198.51.100.{n}, 203.0.113.7"}
        assert log_in(proxied, forged, {"name": f"guess-{n}", "password": "password123"}).status_code == 401

    locked = log_in(proxied, {"X-Forwarded-For": "198.51.100.200, 203.0.113.7"})
    assert locked.status_code == 429, locked.text
    assert log_in(proxied, {"X-Forwarded-For": "203.0.113.8"}).status_code == 200


def test_forwarded_headers_from_a_peer_that_is_not_a_trusted_proxy_are_ignored(start_server):
    # Only 10.0.0.1 is trusted; the tests connect from 127.0.0.1.
    elsewhere = start_server("--trusted-proxy", "10.0.0.1")
    spoofed = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"}

    logged_in = log_in(elsewhere, spoofed)
    assert logged_in.status_code == 200, logged_in.text
    assert "secure" not in logged_in.headers["Set-Cookie"].lower()

    for n in range(5):
        forged = {"X-Forwarded-For": f"198.51.100.{n}"}
        assert log_in(elsewhere, forged, {"name": f"guess-{n}", "password": "password123"}).status_code == 401
    assert log_in(elsewhere, {"X-Forwarded-For": "203.0.113.99"}).status_code == 429


def test_behind_a_trusted_proxy_the_forwarded_host_is_the_one_checked(start_server):
    proxied = start_server("--trust-proxy", "--host-name", "diary.example", log_in=False)
    served = requests.get(f"{proxied.base_url}/", headers={"X-Forwarded-Host": "diary.example"}, timeout=30)
    assert served.status_code == 200
    refused = requests.get(f"{proxied.base_url}/", headers={"X-Forwarded-Host": "evil.example"}, timeout=30)
    assert refused.status_code == 421 and error_of(refused)["error"] == "unknown_host"


def test_trusted_proxies_and_host_names_come_from_the_environment_too(start_server):
    srv = start_server(log_in=False, env={"DIARY_HOST_NAMES": "diary.example, other.example",
                                          "DIARY_TRUSTED_PROXIES": "127.0.0.1"})
    assert requests.get(f"{srv.base_url}/", headers={"Host": "other.example"}, timeout=30).status_code == 200
    assert requests.get(f"{srv.base_url}/", headers={"X-Forwarded-Host": "diary.example", "Host": "evil.example"},
                        timeout=30).status_code == 200
    assert requests.get(f"{srv.base_url}/", headers={"Host": "evil.example"}, timeout=30).status_code == 421
