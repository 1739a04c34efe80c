"""What the reliability tests share: the real `diary` binary, a diary file with an account
and a bearer token, and a `diary serve` that a test can stop, kill -9 and restart (the shared
harness's, Tests/harness/diary_harness.py).
(The fixtures built on these are in conftest.py; this module has a name of its own so that
`from reliability_support import ...` is never confused with another folder's conftest.)

Every server listens on 127.0.0.1 only, on a port the system picks, with weather off, and
bcrypt at cost 4 (DIARY_BCRYPT_COST) so accounts are quick to make.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest
import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "harness"))
import diary_harness  # noqa: E402
from diary_harness import BINARY  # noqa: E402

PASSWORD = "long enough pw"


def diary_env() -> dict:
    """The environment of every `diary` we run (see diary_harness.diary_env), and no weather."""
    return diary_harness.diary_env({"DIARY_WEATHER": "off"})


def require_binary() -> None:
    try:
        diary_harness.require_binary()
    except diary_harness.NoBinary as error:
        pytest.fail(str(error))


def run_cli(*args: str, database: Path, input: Optional[str] = None, timeout: float = 60,
            check: bool = True) -> subprocess.CompletedProcess:
    """Runs `diary ARGS --database DATABASE`; fails the test on a non-zero exit if `check`."""
    require_binary()
    result = subprocess.run(
        [str(BINARY), *args, "--database", str(database)],
        input=input, capture_output=True, text=True, timeout=timeout,
        env=diary_env(), cwd=database.parent if isinstance(database, Path) else None,
    )
    if check and result.returncode != 0:
        pytest.fail(f"`diary {' '.join(args)}` exited {result.returncode}:\n"
                    f"stdout: {result.stdout}\nstderr: {result.stderr}")
    return result


def integrity_check(database) -> str:
    """`sqlite3 DB 'PRAGMA integrity_check'`, as an administrator would run it. On PostgreSQL,
    whose pages are its own to check, that every entry row reads back ("ok" when it does)."""
    if not isinstance(database, Path):
        result = subprocess.run(["psql", "-X", "-q", "-At", str(database), "-c", "SELECT count(*) FROM entry"],
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"psql failed on {database}: {result.stderr}"
        return "ok"
    sqlite3 = shutil.which("sqlite3")
    if sqlite3 is None:
        pytest.fail("the sqlite3 shell is missing: apt-get install sqlite3")
    result = subprocess.run([sqlite3, str(database), "PRAGMA integrity_check"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"sqlite3 failed on {database}: {result.stderr}"
    return result.stdout.strip()


class Account:
    """A diary file holding one user, `tester`, and a personal access token for them."""

    def __init__(self, database: Path):
        self.database = database
        run_cli("user", "add", "tester", database=database, input=PASSWORD + "\n")
        out = run_cli("token", "create", "reliability", database=database).stdout
        self.token = out.splitlines()[0].strip()
        assert self.token, f"`diary token create` printed no token: {out!r}"

    @property
    def headers(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"}


class ServerProcess(diary_harness.Server):
    """`diary serve` on a database (weather off), started as often as a test likes.

    stop() is a graceful SIGTERM, kill() is `kill -9`. The port stays the same across
    restarts, so clients just reconnect. The output of every run goes to server.log.
    `api` is the address of its JSON API."""

    def __init__(self, database, port: Optional[int] = None, extra_args: tuple[str, ...] = (), workdir: Optional[Path] = None):
        require_binary()
        super().__init__(database, port=port or 0, extra_args=extra_args, extra_env={"DIARY_WEATHER": "off"}, workdir=workdir)

    @property
    def api(self) -> str:
        return f"{self.base_url}/api/v1"

    def start(self) -> None:
        try:
            super().start()
        except diary_harness.ServerFailed as error:
            pytest.fail(str(error))


def error_body(response: requests.Response) -> dict:
    """The {error, message} body of a 4xx, asserted to be JSON of that shape."""
    assert "application/json" in response.headers.get("Content-Type", ""), (
        f"{response.status_code} is not JSON: {response.headers.get('Content-Type')!r} {response.text[:300]!r}")
    body = response.json()
    assert isinstance(body.get("error"), str) and body["error"], body
    assert isinstance(body.get("message"), str) and body["message"], body
    return body
