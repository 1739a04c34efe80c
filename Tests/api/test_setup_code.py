"""Who may make a new diary's first account: someone on the server's own computer (a loopback
address), or whoever brings the one-time code that `diary serve` printed on its terminal.

A client on another computer is played by this machine's own non-loopback address: a server
listening there sees a connection to it come from that address, not from loopback. Behind a
trusted proxy, the client is the one X-Forwarded-For names."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import threading

import pytest
import requests

from diary_api import TESTER, check_exchange
from diary_cli import BINARY, cli

# Who may set up, settled before storage (the setup itself runs on PostgreSQL in test_sessions):
# not run again on PostgreSQL (conftest.py).
pytestmark = pytest.mark.same_on_every_backend

SETUP_NAME = {"name": "owner", "password": "the owner's long password"}


def other_address() -> str:
    """An IPv4 address of this machine that is not loopback, or a skip."""
    try:
        found = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=10).stdout.split()
    except (OSError, subprocess.SubprocessError):
        found = []
    for address in found:
        try:
            socket.inet_pton(socket.AF_INET, address)
        except OSError:
            continue
        if not address.startswith("127."):
            return address
    pytest.skip("this machine has no IPv4 address besides loopback to play another computer from")


def printed_code(server) -> str:
    match = re.search(r"one-time code: ([0-9A-Z]{4}(?:-[0-9A-Z]{4}){3})", server.log())
    assert match, f"diary serve printed no setup code:\n{server.log()}"
    return match.group(1)


def get(url: str, path: str, **kw) -> requests.Response:
    response = requests.get(f"{url}{path}", timeout=30, **kw)
    check_exchange(response)
    return response


def set_up(url: str, body: dict, **kw) -> requests.Response:
    response = requests.post(f"{url}/api/v1/setup", json=body, timeout=30, **kw)
    check_exchange(response)
    return response


@pytest.fixture
def remote(start_server):
    """A server on a new diary, reached from another computer."""
    address = other_address()
    # Listening beyond loopback needs the name the server answers to (here its address).
    return start_server("--host-name", address, log_in=False, host=address)


def test_from_another_computer_setup_needs_the_code_diary_serve_printed(remote):
    url = remote.base_url
    assert get(url, "/api/v1/session").json() == {"user": None, "csrfToken": None, "setupNeeded": True, "setupCodeNeeded": True, "weather": False}
    assert get(url, "/api/v1/setup").json() == {"needed": True, "codeNeeded": True}
    code = printed_code(remote)

    for body in (SETUP_NAME, {**SETUP_NAME, "setupCode": ""}, {**SETUP_NAME, "setupCode": "2345-6789-ABCD-EFGH"}):
        refused = set_up(url, body)
        assert refused.status_code == 403, refused.text
        assert refused.json()["error"] == "setup_code"
        assert "diary serve" in refused.json()["message"]
        assert "Set-Cookie" not in refused.headers
    assert get(url, "/api/v1/session").json()["setupNeeded"] is True

    # Typed in lower case and without its dashes, it is still the code.
    made = set_up(url, {**SETUP_NAME, "setupCode": code.replace("-", "").lower()})

    assert made.status_code == 201, made.text
    assert made.json()["user"] == {"name": SETUP_NAME["name"]}
    assert get(url, "/api/v1/session").json() == {"user": None, "csrfToken": None, "setupNeeded": False, "weather": False}
    again = set_up(url, {"name": "intruder", "password": "intruder's password", "setupCode": code})
    assert again.status_code == 404, again.text


def test_a_setup_that_fails_for_its_password_leaves_the_code_usable(remote):
    code = printed_code(remote)

    short = set_up(remote.base_url, {"name": "owner", "password": "short", "setupCode": code})
    made = set_up(remote.base_url, {**SETUP_NAME, "setupCode": code})

    assert short.status_code == 400, short.text
    assert made.status_code == 201, made.text


def test_on_this_computer_setup_needs_no_code_and_none_is_asked(start_server):
    local = start_server(log_in=False)

    assert "setupCodeNeeded" not in get(local.base_url, "/api/v1/session").json()
    assert get(local.base_url, "/api/v1/setup").json() == {"needed": True}
    assert set_up(local.base_url, TESTER).status_code == 201


def test_a_server_started_on_a_diary_with_an_account_prints_no_code(tmp_path):
    database = tmp_path / "diary.sqlite"
    cli(database, "user", "add", SETUP_NAME["name"], input=SETUP_NAME["password"] + "\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIARY_")}
    server = subprocess.Popen([str(BINARY), "serve", "--port", "0", "--database", str(database), "--weather", "off"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, text=True)
    # A deadline on the reading: a server that never says it listens is killed, which ends it.
    deadline = threading.Timer(30, server.kill)
    deadline.start()
    try:
        said = ""
        while "Diary is at" not in said:
            line = server.stdout.readline()
            assert line, f"diary serve stopped before listening (or within 30 s said nothing more):\n{said}"
            said += line
    finally:
        deadline.cancel()
        server.terminate()
        said += server.communicate(timeout=30)[0]

    assert "code" not in said, said


def test_behind_a_trusted_proxy_the_forwarded_client_must_be_local_too(start_server):
    proxied = start_server("--trust-proxy", log_in=False)
    code = printed_code(proxied)
    from_afar = {"X-Forwarded-For": "203.0.113.9"}

    assert get(proxied.base_url, "/api/v1/session", headers=from_afar).json()["setupCodeNeeded"] is True
    refused = set_up(proxied.base_url, SETUP_NAME, headers=from_afar)
    assert refused.status_code == 403 and refused.json()["error"] == "setup_code", refused.text
    # A client that forges a loopback hop in front of its real address is still from afar.
    forged = set_up(proxied.base_url, SETUP_NAME, headers={"X-Forwarded-For": "127.0.0.1, 203.0.113.9"})
    assert forged.status_code == 403, forged.text

    made = set_up(proxied.base_url, {**SETUP_NAME, "setupCode": code}, headers=from_afar)
    assert made.status_code == 201, made.text
