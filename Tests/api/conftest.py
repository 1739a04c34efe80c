"""Starts the real `diary serve` on a fresh database for each test.

The binary is `<repo>/.build/debug/diary` unless DIARY_BIN names another.
Each test gets its own server and SQLite file, so tests never see each
other's entries. When the test is done the server is sent SIGTERM and must
exit 0 within 10 seconds (graceful shutdown).

The `api` fixture is a small client whose every response has been held to
the OpenAPI document (see openapi_check.py) before the test sees it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

import pytest
import requests

from diary_api import AUTH, TESTER, Api

# The fake Open-Meteo lives beside both test folders (Tests/fake_open_meteo.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fake_open_meteo import FakeOpenMeteo  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("DIARY_BIN", REPO / ".build/debug/diary"))
START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`diary serve` with weather off, unless `open_meteo_url` names a (local, fake)
    Open-Meteo: no test ever reaches the internet."""

    def __init__(self, workdir: Path, open_meteo_url: Optional[str] = None, extra_args: tuple = (),
                 extra_env: Optional[dict] = None, host: str = "127.0.0.1"):
        if not BINARY.exists():
            pytest.fail(f"no server binary at {BINARY}: build it (swift build) or set DIARY_BIN")
        self.port = _free_port()
        self.database = workdir / "diary.sqlite"
        self.log_path = workdir / "server.log"
        self.base_url = f"http://{host}:{self.port}"
        self._log = open(self.log_path, "wb")
        env = {k: v for k, v in os.environ.items() if not k.startswith("DIARY_")}
        env["DIARY_BCRYPT_COST"] = "4"  # a quick hash: tests log in often
        env.update(extra_env or {})
        if open_meteo_url:
            weather = ["--weather", "open-meteo"]
            env["DIARY_OPEN_METEO_URL"] = open_meteo_url
        else:
            weather = ["--weather", "off"]
        self.process = subprocess.Popen(
            [str(BINARY), "serve", "--host", host, "--port", str(self.port),
             "--database", str(self.database), *weather, *extra_args],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=workdir,
            env=env,
        )

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")[-4000:]

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"server exited with {self.process.returncode} while starting:\n{self.log()}")
            # Our server says where it listens once it does; until then an answer on the port could
            # be another program's, one that took the port between _free_port() and now.
            if "Diary is at" not in self.log():
                time.sleep(0.05)
                continue
            try:
                requests.get(f"{self.base_url}/api/v1/entries", timeout=1)
                return
            except requests.ConnectionError:
                time.sleep(0.1)
        self.kill()
        pytest.fail(f"server did not answer within {START_TIMEOUT:.0f} s:\n{self.log()}")

    def log_in(self) -> None:
        """Makes the diary's first account through /api/v1/setup, which logs in as it; every
        client of this server then sends that session (see diary_api.AUTH). A server without
        accounts answers 404 there and needs no login."""
        # Behind a trusted proxy (--trust-proxy), the proxy must name its client for the server to
        # know it is on this computer; a server without one ignores the header.
        response = requests.post(f"{self.base_url}/api/v1/setup", json=TESTER, timeout=30,
                                 headers={"X-Forwarded-For": "127.0.0.1"})
        if response.status_code == 404:
            return
        assert response.status_code in (200, 201), f"setup failed: {response.status_code} {response.text}"
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in response.cookies.items())}
        token = response.json().get("csrfToken")
        if token:
            headers["X-CSRF-Token"] = token
        AUTH[self.base_url] = headers

    def stop(self) -> Optional[int]:
        """SIGTERM; the exit code, or None if it did not exit in time (then killed)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.kill()
                return None
        self._log.close()
        return self.process.returncode

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._log.close()


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path)
    srv.wait_ready()
    srv.log_in()
    yield srv
    code = srv.stop()
    assert code == 0, (
        f"server did not shut down gracefully on SIGTERM: "
        f"{'still running after %.0f s' % STOP_TIMEOUT if code is None else 'exit code %d' % code}\n{srv.log()}"
    )


@pytest.fixture
def open_meteo():
    fake = FakeOpenMeteo()
    yield fake
    fake.close()


@pytest.fixture
def weather_api(tmp_path, open_meteo) -> Api:
    """A client for a server whose weather comes from the fake Open-Meteo."""
    srv = Server(tmp_path, open_meteo_url=open_meteo.url)
    srv.wait_ready()
    srv.log_in()
    client = Api(srv.base_url)
    yield client
    client.session.close()
    assert srv.stop() == 0, srv.log()


def _starter(folder):
    """start(*extra_args, log_in=True, env=None) -> a running Server on a new diary; and the list of them."""
    started = []

    def start(*extra_args: str, log_in: bool = True, env: Optional[dict] = None, host: str = "127.0.0.1") -> Server:
        srv = Server(folder(), extra_args=tuple(extra_args), extra_env=env, host=host)
        started.append(srv)
        srv.wait_ready()
        if log_in:
            srv.log_in()
        return srv

    return start, started


def _stop_all(started) -> None:
    for srv in started:
        assert srv.stop() == 0, f"server did not shut down gracefully on SIGTERM:\n{srv.log()}"


@pytest.fixture
def start_server(tmp_path_factory):
    """Starts more servers (say with --trust-proxy, or without an account: log_in=False, or
    listening on another address: host=…)."""
    start, started = _starter(lambda: tmp_path_factory.mktemp("server"))
    yield start
    _stop_all(started)


@pytest.fixture(scope="module")
def start_module_server(tmp_path_factory):
    """As start_server, for servers a whole test module shares."""
    start, started = _starter(lambda: tmp_path_factory.mktemp("server"))
    yield start
    _stop_all(started)


@pytest.fixture
def base_url(server) -> str:
    return server.base_url


@pytest.fixture
def api(base_url) -> Api:
    client = Api(base_url)
    yield client
    client.session.close()
