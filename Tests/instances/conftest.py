"""Fixtures for several `diary serve` instances on one PostgreSQL database, behind HAProxy.

`cluster` is a PostgreSQL cluster of this suite's own (scripts/postgres, in a temporary folder):
the tests stop and start it, so it is not the one the other suites share. `diary` is three
instances on a new database of it, with the first account made, and HAProxy in front of them
(round robin, health checks). Everything is stopped afterwards, whatever happens.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

import diary_harness
from diary_harness import Server, wait_for

REPO = Path(__file__).resolve().parents[2]
TESTER = {"name": "tester", "password": "correct horse battery staple"}


class Cluster:
    """A throwaway PostgreSQL cluster: its URL, its password, and stop/start (same port)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.url = self._run("start")
        self.password = (folder / "password").read_text().strip()

    def _run(self, command: str) -> str:
        done = subprocess.run([str(REPO / "scripts/postgres"), command, str(self.folder)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"scripts/postgres {command}: {done.stderr}"
        return done.stdout.strip()

    def stop(self) -> None:
        self._run("stop")

    def start(self) -> None:
        assert self._run("start") == self.url, "PostgreSQL came back on another port"

    def new_database(self) -> str:
        name = "diary_many_" + uuid.uuid4().hex[:12]
        subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", self.url, "-c", f"CREATE DATABASE {name}"],
                       check=True, capture_output=True, timeout=60, env={**os.environ, "PGPASSWORD": self.password})
        return self.url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(scope="session")
def cluster():
    diary_harness.require_binary()
    parent = Path(tempfile.mkdtemp(prefix="diary-many-"))
    parent.chmod(0o755)  # as root, the cluster belongs to the postgres user, who must reach it
    made = Cluster(parent / "cluster")
    try:
        yield made
    finally:
        subprocess.run([str(REPO / "scripts/postgres"), "stop", str(made.folder)], capture_output=True, timeout=120)
        shutil.rmtree(parent, ignore_errors=True)


def request(method: str, url: str, body=None, headers=None, timeout: float = 30):
    """One HTTP exchange on its own connection: (status, headers, JSON or None)."""
    data = None if body is None else json.dumps(body).encode()
    sent = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(sent, timeout=timeout) as response:
            raw = response.read()
            return response.status, response.headers, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            payload = json.loads(raw) if raw else None
        except ValueError:
            payload = raw.decode(errors="replace")
        return error.code, error.headers, payload


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HAProxy:
    """HAProxy on loopback in front of `servers`: round robin, a health check of each."""

    def __init__(self, servers, folder: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        backends = "\n".join(f"    server i{n} 127.0.0.1:{s.port} check inter 500ms fall 2 rise 2"
                             for n, s in enumerate(servers))
        config = folder / "haproxy.cfg"
        config.write_text(f"""global
    maxconn 1024
defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    retries 2
    option redispatch
    option forwardfor
frontend diary
    bind 127.0.0.1:{self.port}
    default_backend instances
backend instances
    balance roundrobin
    option httpchk
    http-check send meth GET uri / hdr Host localhost
{backends}
""")
        check = subprocess.run(["haproxy", "-c", "-f", str(config)], capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr
        with open(folder / "haproxy.log", "ab") as log:
            self.process = subprocess.Popen(["haproxy", "-db", "-f", str(config)], stdout=log, stderr=log)
        wait_for(lambda: self._answers(), timeout=20, message="HAProxy to answer")

    def _answers(self) -> bool:
        try:
            return urllib.request.urlopen(self.url + "/", timeout=2).status == 200
        except Exception:
            return False

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Diary:
    """Three instances on one database, HAProxy in front, and the first account's session."""

    def __init__(self, cluster: Cluster, folder: Path, count: int = 3):
        self.cluster = cluster
        self.database = cluster.new_database()
        self.servers = []
        for n in range(count):
            server = Server(self.database, workdir=folder / f"instance-{n}", extra_args=["--trust-proxy"],
                            extra_env={"PGPASSWORD": cluster.password})
            server.workdir.mkdir(parents=True, exist_ok=True)
            server.log_path = server.workdir / "server.log"
            self.servers.append(server)
        self.proxy = None
        try:
            self._start()
        except BaseException:
            self.stop()  # whatever did start
            raise

    def _start(self) -> None:
        for server in self.servers:
            server.start()
        # Behind a trusted proxy, the server knows its own computer by the proxy's word.
        status, headers, session = request("POST", self.servers[0].base_url + "/api/v1/setup", TESTER,
                                           {"X-Forwarded-For": "127.0.0.1"})
        assert status in (200, 201), (status, session)
        cookie = "; ".join(c.split(";")[0] for c in headers.get_all("Set-Cookie") or [])
        self.auth = {"Cookie": cookie, "X-CSRF-Token": session["csrfToken"]}
        self.proxy = HAProxy(self.servers, self.servers[0].workdir.parent)

    def api(self, server_or_url, method: str, path: str, body=None, headers=None, timeout: float = 30):
        base = server_or_url if isinstance(server_or_url, str) else server_or_url.base_url
        return request(method, base + "/api/v1/" + path, body, {**self.auth, **(headers or {})}, timeout)

    def logs(self) -> str:
        return "\n".join(f"--- instance {n}:\n{s.log(tail=1500)}" for n, s in enumerate(self.servers))

    def stop(self) -> None:
        if self.proxy:
            self.proxy.stop()
        for server in self.servers:
            server.stop()


@pytest.fixture
def diary(cluster, tmp_path):
    made = Diary(cluster, tmp_path)
    try:
        yield made
    finally:
        made.stop()


@pytest.fixture(scope="session")
def browser():
    with diary_harness.chromium() as chromium:
        yield chromium


@pytest.fixture
def context(browser, diary):
    """A browser logged in (its own session, kept in the database, so every instance knows it)."""
    made = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US", timezone_id="UTC")
    response = made.request.post(diary.servers[0].base_url + "/api/v1/session", data=TESTER)
    assert response.ok, (response.status, response.text())
    yield made
    made.close()


def until(check, timeout: float, message: str, every: float = 0.1):
    return wait_for(check, timeout=timeout, message=message, every=every)

