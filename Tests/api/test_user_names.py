"""Names that look the same are one name: another spelling of a taken name is refused, and logs in
to the one account (NFKC, then full case folding)."""

from __future__ import annotations

import os
import subprocess

import pytest
import requests

from diary_cli import BINARY

PASSWORD = "a long enough password"
SPELLINGS = [
    ["Caf\u00e9", "Cafe\u0301", "CAF\u00c9"],
    ["Stra\u00dfe", "STRASSE", "strasse"],
    ["Mina", "mina", "\uff2d\uff49\uff4e\uff41"],
]


def add_user(database, name: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIARY_")}
    env["DIARY_BCRYPT_COST"] = "4"
    return subprocess.run([str(BINARY), "user", "add", name, "--database", str(database)], input=PASSWORD + "\n",
                          capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize("spellings", SPELLINGS, ids=["accent", "sharp-s", "full-width"])
def test_another_spelling_of_a_name_is_taken_and_logs_in_to_that_account(server, spellings):
    first = spellings[0]
    assert add_user(server.database, first).returncode == 0

    for other in spellings[1:]:
        refused = add_user(server.database, other)
        assert refused.returncode != 0 and "already a user called" in refused.stderr, refused.stderr
    for spelling in spellings:
        logged_in = requests.post(f"{server.base_url}/api/v1/session", json={"name": spelling, "password": PASSWORD}, timeout=30)
        assert logged_in.status_code == 200, logged_in.text
        assert logged_in.json()["user"] == {"name": first}
