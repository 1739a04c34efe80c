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
import time
from pathlib import Path
from typing import Optional

import pytest
import requests

from diary_api import Api

REPO = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("DIARY_BIN", REPO / ".build/debug/diary"))
START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, workdir: Path):
        if not BINARY.exists():
            pytest.fail(f"no server binary at {BINARY}: build it (swift build) or set DIARY_BIN")
        self.port = _free_port()
        self.database = workdir / "diary.sqlite"
        self.log_path = workdir / "server.log"
        self.base_url = f"http://127.0.0.1:{self.port}"
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [str(BINARY), "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--database", str(self.database)],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=workdir,
        )

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")[-4000:]

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"server exited with {self.process.returncode} while starting:\n{self.log()}")
            try:
                requests.get(f"{self.base_url}/api/v1/entries", timeout=1)
                return
            except requests.ConnectionError:
                time.sleep(0.1)
        self.kill()
        pytest.fail(f"server did not answer within {START_TIMEOUT:.0f} s:\n{self.log()}")

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
    yield srv
    code = srv.stop()
    assert code == 0, (
        f"server did not shut down gracefully on SIGTERM: "
        f"{'still running after %.0f s' % STOP_TIMEOUT if code is None else 'exit code %d' % code}\n{srv.log()}"
    )


@pytest.fixture
def base_url(server) -> str:
    return server.base_url


@pytest.fixture
def api(base_url) -> Api:
    client = Api(base_url)
    yield client
    client.session.close()
