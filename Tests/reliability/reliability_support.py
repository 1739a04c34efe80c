"""What the reliability tests share: the real `diary` binary, a diary file with an account
and a bearer token, and a `diary serve` that a test can stop, kill -9 and restart.
(The fixtures built on these are in conftest.py; this module has a name of its own so that
`from reliability_support import ...` is never confused with another folder's conftest.)

The binary is $DIARY_BIN if set, else <repo>/.build/debug/diary; its resource bundle
(Diary_DiaryServer.resources) must sit beside it. Every server listens on 127.0.0.1 only,
with weather off, and bcrypt at cost 4 (DIARY_BCRYPT_COST) so accounts are quick to make.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Optional

import pytest
import requests

REPO = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("DIARY_BIN") or REPO / ".build/debug/diary")
START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0
PASSWORD = "long enough pw"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def diary_env() -> dict:
    """The environment of every `diary` we run: none of the caller's DIARY_* settings (a
    developer's DIARY_DATABASE must never be touched), fast bcrypt, no weather."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIARY_")}
    env["DIARY_BCRYPT_COST"] = "4"
    env["DIARY_WEATHER"] = "off"
    return env


def require_binary() -> None:
    if not BINARY.exists():
        pytest.fail(f"no diary binary at {BINARY}: build it (swift build) or set DIARY_BIN")


def run_cli(*args: str, database: Path, input: Optional[str] = None, timeout: float = 60,
            check: bool = True) -> subprocess.CompletedProcess:
    """Runs `diary ARGS --database DATABASE`; fails the test on a non-zero exit if `check`."""
    require_binary()
    result = subprocess.run(
        [str(BINARY), *args, "--database", str(database)],
        input=input, capture_output=True, text=True, timeout=timeout,
        env=diary_env(), cwd=database.parent,
    )
    if check and result.returncode != 0:
        pytest.fail(f"`diary {' '.join(args)}` exited {result.returncode}:\n"
                    f"stdout: {result.stdout}\nstderr: {result.stderr}")
    return result


def integrity_check(database: Path) -> str:
    """`sqlite3 DB 'PRAGMA integrity_check'`, as an administrator would run it."""
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


class ServerProcess:
    """`diary serve` on a fixed port and database, started as often as a test likes.

    stop() is a graceful SIGTERM, kill() is `kill -9`. The port stays the same across
    restarts, so clients just reconnect. The output of every run goes to server.log."""

    def __init__(self, database: Path, port: Optional[int] = None, extra_args: tuple[str, ...] = ()):
        require_binary()
        self.database = database
        self.extra_args = list(extra_args)
        # A port the caller chose stays; one picked here may be taken by another program
        # between picking and binding, and then another is picked.
        self.port_chosen = port is not None
        self._use_port(port or free_port())
        self.log_path = database.parent / "server.log"
        self.process: Optional[subprocess.Popen] = None
        self.starts = 0

    def _use_port(self, port: int) -> None:
        self.port = port
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.api = f"{self.base_url}/api/v1"

    def start(self) -> None:
        assert self.process is None or self.process.poll() is not None, "already running"
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            self.log_offset = self.log_path.stat().st_size if self.log_path.exists() else 0
            with open(self.log_path, "ab") as log:
                self.process = subprocess.Popen(
                    [str(BINARY), "serve", "--host", "127.0.0.1", "--port", str(self.port),
                     "--database", str(self.database), "--weather", "off", *self.extra_args],
                    stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                    cwd=self.database.parent, env=diary_env(),
                )
            self.starts += 1
            if self._wait_ready(deadline):
                return
            # It exited while starting (e.g. the port was not free yet after a kill -9): again.
            if "Address already in use" in self.log(since_start=True) and not self.port_chosen:
                self._use_port(free_port())
            if time.monotonic() > deadline:
                pytest.fail(f"server exited with {self.process.returncode} while starting:\n{self.log()}")
            time.sleep(0.2)

    def _wait_ready(self, deadline: float) -> bool:
        """True once this process says it is listening and GET / answers; False if it exited
        first. (Another program on the same port would answer GET / too.)"""
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            if "Diary is at" not in self.log(since_start=True):
                time.sleep(0.05)
                continue
            try:
                requests.get(f"{self.base_url}/", timeout=2)
                return True
            except requests.RequestException:
                time.sleep(0.05)
        self.kill()
        pytest.fail(f"server did not answer within {START_TIMEOUT:.0f} s:\n{self.log()}")

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """kill -9: no chance to flush, close or finish a response."""
        if self.running():
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> Optional[int]:
        """SIGTERM; the exit code, or None if it had not exited within 10 s (then killed)."""
        if not self.running():
            return None if self.process is None else self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def log(self, since_start: bool = False) -> str:
        """The end of server.log; with since_start, what the latest start wrote."""
        try:
            with open(self.log_path, "rb") as f:
                if since_start:
                    f.seek(getattr(self, "log_offset", 0))
                return f.read().decode(errors="replace")[-4000:]
        except FileNotFoundError:
            return ""


def error_body(response: requests.Response) -> dict:
    """The {error, message} body of a 4xx, asserted to be JSON of that shape."""
    assert "application/json" in response.headers.get("Content-Type", ""), (
        f"{response.status_code} is not JSON: {response.headers.get('Content-Type')!r} {response.text[:300]!r}")
    body = response.json()
    assert isinstance(body.get("error"), str) and body["error"], body
    assert isinstance(body.get("message"), str) and body["message"], body
    return body
