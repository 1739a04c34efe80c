"""What every Python test suite (api, browser, reliability) and the benchmarks share: the
`diary` binary, the environment it runs in, a `diary serve` that a test can start, stop
(SIGTERM), kill -9 and start again, and waiting on a condition instead of a fixed sleep.

A server listens on `--port 0`: the system picks a free port and the server says which in its
first line ("Diary is at http://HOST:PORT/ ..."), so no two tests can race for the same port.
A restart asks for the same port again, because clients (a browser page, writer threads) keep
the address they were given.

With DIARY_TEST_BACKEND=postgres (and DIARY_TEST_POSTGRES, the URL of a database on a server
from which others can be made, its password in PGPASSWORD: `scripts/test` starts a throwaway
cluster), a server asked for a diary file gets a new, empty PostgreSQL database instead, and
`Server.database` is its URL: the same suites then run against the second backend.

The binary is $DIARY_BIN if set, else <repo>/.build/debug/diary; its resource bundle
(Diary_DiaryServer.resources) must sit beside it. Each suite puts this folder on its path
(its pytest.ini's `pythonpath`), and the suite's conftest.py builds its fixtures on Server.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Optional

REPO = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("DIARY_BIN") or REPO / ".build/debug/diary")
FIXTURES = REPO / "Tests/fixtures"
SEED_SAMPLE = FIXTURES / "seed-sample.json"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0

# The line `diary serve` writes once it listens (Sources/diary/Commands/ServeCommand.swift).
# The host shown may be a --host-name or an IPv6 address in brackets: only the port is read.
LISTENING = re.compile(r"Diary is at http://\S+:(\d+)/ \(database: ")


# Which backend a server's diary is kept in: "sqlite" (a file, the default) or "postgres".
BACKEND = os.environ.get("DIARY_TEST_BACKEND", "sqlite")
POSTGRES = os.environ.get("DIARY_TEST_POSTGRES", "")


def new_postgres_database() -> str:
    """The URL of a new, empty database on the test's PostgreSQL server (made with psql)."""
    assert POSTGRES, "DIARY_TEST_BACKEND=postgres needs DIARY_TEST_POSTGRES (scripts/test sets both)"
    name = "diary_test_" + uuid.uuid4().hex[:16]
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", POSTGRES, "-c", f"CREATE DATABASE {name}"],
                   check=True, capture_output=True, timeout=60)
    return POSTGRES.rsplit("/", 1)[0] + "/" + name


def fresh_database(path: Path):
    """Where a test's new diary goes: the file `path`, or with DIARY_TEST_BACKEND=postgres the URL
    of a new PostgreSQL database (a str). Give it to the CLI's --database and to Server alike."""
    return new_postgres_database() if BACKEND == "postgres" else Path(path).absolute()


def wait_for(check: Callable, timeout: float = 10.0, message: str = "condition", every: float = 0.1):
    """Polls `check` until it returns something truthy, and returns that; fails (AssertionError)
    after `timeout` seconds, naming `message`."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {message}")
        time.sleep(every)


@contextmanager
def chromium():
    """Debian's Chromium, driven by Playwright, for the suites that use a browser. (Never
    `playwright install`: it downloads a browser of its own.)"""
    from playwright.sync_api import sync_playwright  # only the browser suites need it
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        try:
            yield browser
        finally:
            browser.close()


def diary_env(extra: Optional[dict] = None) -> dict:
    """The environment of every `diary` we run: none of the caller's DIARY_* settings (a
    developer's DIARY_DATABASE must never be touched), and a quick bcrypt, since tests log in often."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIARY_")}
    # A folder of web files to serve instead of the binary's bundle: the web app's files as they
    # are in this checkout, served by a prebuilt binary (no Swift build for a change to JS or CSS).
    if os.environ.get("DIARY_WEB_ROOT"):
        env["DIARY_WEB_ROOT"] = os.environ["DIARY_WEB_ROOT"]
    env["DIARY_BCRYPT_COST"] = "4"
    # The one setting passed on: a folder of web files to serve instead of the binary's own, so
    # the browser tests can try a change to the web app without building the binary again.
    if os.environ.get("DIARY_WEB_ROOT"):
        env["DIARY_WEB_ROOT"] = os.environ["DIARY_WEB_ROOT"]
    env.update(extra or {})
    return env


class NoBinary(Exception):
    pass


def require_binary(binary: Path = BINARY) -> None:
    if not binary.exists():
        raise NoBinary(f"no diary binary at {binary}: build it (swift build) or set DIARY_BIN")


class ServerFailed(Exception):
    """The server exited while starting, or did not say it listens in time (the message has its log)."""


class Server:
    """`diary serve` on one database, started as often as a test likes.

    Weather is off unless `open_meteo_url` names a (local, fake) Open-Meteo: no test ever reaches
    the internet. The database file is kept across starts (the server makes it if it does not
    exist yet); the output of every start is appended to `log_path` (server.log beside the
    database unless given). `port` 0 lets the system pick; once bound, the same port is asked
    for again on every later start. `binary` and `env` (the whole environment) are for the
    benchmarks, which run another build in the caller's environment."""

    def __init__(self, database, *, host: str = "127.0.0.1", port: int = 0, extra_args=(),
                 extra_env: Optional[dict] = None, open_meteo_url: Optional[str] = None,
                 log_path: Optional[Path] = None, binary: Optional[Path] = None, env: Optional[dict] = None,
                 workdir: Optional[Path] = None):
        # Absolute: the server runs in the database's folder.
        self.binary = Path(binary).absolute() if binary else BINARY.absolute()
        require_binary(self.binary)
        # The folder the server runs in and logs to. The database is a URL given as such (see
        # fresh_database), or a file: with DIARY_TEST_BACKEND=postgres, a file asked for becomes
        # a new PostgreSQL database's URL.
        if isinstance(database, str) and "://" in database:
            self.database = database
            self.workdir = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="diary-server-"))
        else:
            self.workdir = Path(workdir) if workdir else Path(database).absolute().parent
            self.database = new_postgres_database() if BACKEND == "postgres" else Path(database).absolute()
        self.host = host
        self.port = port
        self.extra_args = list(extra_args)
        self.extra_env = dict(extra_env or {})
        self.open_meteo_url = open_meteo_url
        self.env = env  # the whole environment, as given (the benchmarks: the caller's own)
        self.log_path = Path(log_path) if log_path else self.workdir / "server.log"
        self.log_offset = 0
        self.process: Optional[subprocess.Popen] = None
        self.starts = 0

    @property
    def base_url(self) -> str:
        """Where clients reach it: the address it listens on (loopback for a wildcard one)."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::") else self.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    def command(self) -> list:
        if self.open_meteo_url:
            weather = ["--weather", "open-meteo"]
        else:
            weather = ["--weather", "off"]
        return [str(self.binary), "serve", "--host", self.host, "--port", str(self.port),
                "--database", str(self.database), *weather, *self.extra_args]

    def environment(self) -> dict:
        env = dict(self.env) if self.env is not None else diary_env(self.extra_env)
        if self.open_meteo_url:
            env["DIARY_OPEN_METEO_URL"] = self.open_meteo_url
        return env

    def start(self, timeout: float = START_TIMEOUT) -> None:
        """Starts it and returns once it says it listens. A restart right after a kill -9 may
        find the port not yet free: it tries again until `timeout`."""
        assert not self.running(), "already running"
        deadline = time.monotonic() + timeout
        while True:
            self.log_offset = self.log_path.stat().st_size if self.log_path.exists() else 0
            with open(self.log_path, "ab") as log:
                self.process = subprocess.Popen(
                    self.command(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                    cwd=self.workdir, env=self.environment(),
                )
            self.starts += 1
            port = self._wait_listening(deadline, timeout)
            if port is not None:
                self.port = port
                return
            if "Address already in use" not in self.log(since_start=True) or time.monotonic() > deadline:
                raise ServerFailed(f"diary serve exited with {self.process.returncode} while starting:\n{self.log()}")
            time.sleep(0.2)

    def _wait_listening(self, deadline: float, timeout: float) -> Optional[int]:
        """The port this start says it listens on; None if it exited first. Only what this start
        wrote counts: a restart appends to the same log."""
        while True:
            found = LISTENING.search(self.log(since_start=True, tail=None))
            if found:
                return int(found.group(1))
            if self.process.poll() is not None:
                return None
            if time.monotonic() > deadline:
                self.kill()
                raise ServerFailed(f"diary serve did not say it listens within {timeout:g} s:\n{self.log()}")
            time.sleep(0.02)

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = STOP_TIMEOUT) -> Optional[int]:
        """SIGTERM (a graceful stop); the exit code, or None if it had not exited within
        `timeout` (then it is killed)."""
        if not self.running():
            return None if self.process is None else self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def kill(self) -> None:
        """kill -9: no chance to flush, close or finish a response."""
        if self.running():
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def log(self, since_start: bool = False, tail: Optional[int] = 4000) -> str:
        """The end of the log (`tail` characters, all if None); with since_start, only what
        the latest start wrote."""
        try:
            with open(self.log_path, "rb") as f:
                if since_start:
                    f.seek(self.log_offset)
                text = f.read().decode(errors="replace")
        except FileNotFoundError:
            return ""
        return text if tail is None else text[-tail:]
