"""Starts the real `diary serve` on a fresh database for each test.

The server is the shared harness's (Tests/harness/diary_harness.py: the binary is
`<repo>/.build/debug/diary` unless DIARY_BIN names another; it listens on a port the system
picks). Each test gets its own server and SQLite file, so tests never see each other's
entries. When the test is done the server is sent SIGTERM and must exit 0 within 10 seconds
(graceful shutdown).

The `api` fixture is a small client whose every response has been held to
the OpenAPI document (see openapi_check.py) before the test sees it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import pytest
import requests

from diary_api import AUTH, TESTER, Api

# The harness and the fake Open-Meteo are shared by the test folders (Tests/harness, Tests/).
TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS / "harness"), str(TESTS)]
import diary_harness  # noqa: E402
from diary_harness import STOP_TIMEOUT  # noqa: E402
from fake_open_meteo import FakeOpenMeteo  # noqa: E402


# The PostgreSQL run (DIARY_TEST_BACKEND=postgres) leaves out the modules marked
# `same_on_every_backend`: what they test is settled before a request reaches storage (parsing
# and limits, hosts and proxies, HEAD, the served document, the setup code, the file formats the
# importer reads), and the storage calls they make are the ones every other module makes on
# PostgreSQL too. Some of them run the command line on a file of their own: SQLite either way.
def pytest_configure(config):
    config.addinivalue_line("markers", "same_on_every_backend: not run again on PostgreSQL (see conftest.py)")


def pytest_collection_modifyitems(config, items):
    if diary_harness.BACKEND != "postgres":
        return
    left_out = [item for item in items if item.get_closest_marker("same_on_every_backend")]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if not item.get_closest_marker("same_on_every_backend")]


class Server(diary_harness.Server):
    """`diary serve` on `workdir`/diary.sqlite, its output in `workdir`/server.log."""

    def __init__(self, workdir: Path, open_meteo_url: Optional[str] = None, extra_args: tuple = (),
                 extra_env: Optional[dict] = None, host: str = "127.0.0.1"):
        try:
            super().__init__(workdir / "diary.sqlite", host=host, extra_args=extra_args, extra_env=extra_env,
                             open_meteo_url=open_meteo_url)
        except diary_harness.NoBinary as error:
            pytest.fail(str(error))

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


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path)
    srv.start()
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
    srv.start()
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
        srv.start()
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
