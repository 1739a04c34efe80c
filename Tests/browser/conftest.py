"""Fixtures for the browser tests: a real `diary serve` on a fresh database,
Debian's Chromium driven by Playwright, and a check that no page logged an error.

The server runs with `--weather off`, so no test reaches the internet; a test that
uses the `open_meteo` fixture gets a server whose weather comes from that local fake."""

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

# The fake Open-Meteo lives beside both test folders (Tests/fake_open_meteo.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fake_open_meteo import FakeOpenMeteo  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
DIARY_BIN = os.environ.get("DIARY_BIN", str(REPO / ".build" / "debug" / "diary"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2)
DESKTOP = dict(viewport={"width": 1280, "height": 800})


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(check, timeout=10.0, message="condition"):
    """Polls `check` until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {message}")
        time.sleep(0.1)


# The diary is private: each server's first account, made through /api/v1/setup.
TESTER = {"name": "tester", "password": "correct horse battery staple"}


class Server:
    """A `diary serve` process; stop() and start() keep its port and database (and its
    account and sessions). The first start makes the account and logs this helper in."""

    def __init__(self, folder, open_meteo_url=None, account=True):
        self.open_meteo_url = open_meteo_url
        self.account = account  # False: a new diary, left for its setup page
        self.port = free_port()
        self.database = Path(folder) / "diary.sqlite"
        self.log_path = Path(folder) / "server.log"
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.auth = {}  # the session cookie and CSRF token api() sends
        self.extra_args = []  # more options for `diary serve` (say --trust-proxy)

    def start(self):
        log = open(self.log_path, "ab")
        # A restart appends to the same log: only what this start writes says it is listening.
        log_start = self.log_path.stat().st_size if self.log_path.exists() else 0
        env = {k: v for k, v in os.environ.items() if not k.startswith("DIARY_")}
        env["DIARY_BCRYPT_COST"] = "4"  # a quick hash: tests log in often
        weather = ["--weather", "off"]
        if self.open_meteo_url:
            weather = ["--weather", "open-meteo"]
            env["DIARY_OPEN_METEO_URL"] = self.open_meteo_url
        self.process = subprocess.Popen(
            [DIARY_BIN, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--database", str(self.database),
             *weather, *self.extra_args],
            stdout=log, stderr=subprocess.STDOUT, env=env,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                # Our server says where it listens once it does; until then an answer on the port
                # could be another program's, one that took the port after it was picked.
                if "Diary is at" not in self.log_path.read_bytes()[log_start:].decode(errors="replace"):
                    raise ConnectionError("not listening yet")
                with urllib.request.urlopen(self.url + "/", timeout=2):
                    break
            except (urllib.error.URLError, ConnectionError, OSError):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"diary serve did not start:\n{self.log_path.read_text()}")
                time.sleep(0.1)
        if not self.auth and self.account:
            self.set_up()

    def set_up(self):
        """Makes the diary's account, logged in as it. A server without accounts answers 404."""
        request = urllib.request.Request(self.url + "/api/v1/setup", data=json.dumps(TESTER).encode(), method="POST")
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                session = json.loads(response.read())
                cookies = [c.split(";")[0] for c in response.headers.get_all("Set-Cookie") or []]
        except urllib.error.HTTPError as error:
            if error.code == 404:
                return
            raise
        self.auth = {"Cookie": "; ".join(cookies)}
        if session.get("csrfToken"):
            self.auth["X-CSRF-Token"] = session["csrfToken"]

    def log_in(self, context):
        """Logs a browser context in (its own session), as the login form would."""
        if not self.auth:
            return
        response = context.request.post(self.url + "/api/v1/session", data=TESTER)
        assert response.ok, (response.status, response.text())

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    # The JSON API, to set up a diary and to check what the server holds.
    def api(self, method, path, body=None, headers=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + "/api/v1/" + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        for key, value in self.auth.items():
            request.add_header(key, value)
        for key, value in (headers or {}).items():
            request.add_header(key, value)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as error:
            raw = error.read()
            return error.code, json.loads(raw) if raw else None

    def create(self, title, body=""):
        status, entry = self.api("POST", "entries", {"title": title, "body": body})
        assert status == 201, (status, entry)
        return entry

    def entry(self, entry_id):
        status, entry = self.api("GET", f"entries/{entry_id}")
        return entry if status == 200 else None

    def entries(self):
        found, cursor = [], None
        while True:
            path = "entries?limit=100" + (f"&cursor={urllib.request.quote(cursor)}" if cursor else "")
            status, page = self.api("GET", path)
            assert status == 200, (status, page)
            found += page["entries"]
            cursor = page["nextCursor"]
            if not cursor:
                return found

    def trash(self):
        status, page = self.api("GET", "trash?limit=100")
        assert status == 200, (status, page)
        return page["entries"]

    def load_sample(self):
        status, body = self.api("POST", "sample")
        assert status == 201, (status, body)

    def weather_of(self, entry_id, timeout=10.0):
        """The weather the server attached to the entry, waiting for it."""
        return wait_for(lambda: (self.entry(entry_id) or {}).get("weather"), timeout, "the entry's weather")


@pytest.fixture
def open_meteo():
    fake = FakeOpenMeteo()
    yield fake
    fake.close()


@pytest.fixture
def server(request):
    # A test that asks for the fake Open-Meteo gets a server that uses it; one marked
    # `fresh_diary` gets a diary with no account yet (its setup page).
    fake = request.getfixturevalue("open_meteo") if "open_meteo" in request.fixturenames else None
    account = request.node.get_closest_marker("fresh_diary") is None
    with tempfile.TemporaryDirectory(prefix="diary-browser-") as folder:
        srv = Server(folder, open_meteo_url=fake.url if fake else None, account=account)
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


class Pages:
    """Opens pages in fresh contexts (separate browsers, as far as storage goes)
    and collects every console error and uncaught exception they produce."""

    def __init__(self, browser, server):
        self.browser = browser
        self.server = server
        self.contexts = []
        self.errors = []
        self.allowed = []

    def allow_errors(self, pattern):
        """Errors the test causes on purpose, e.g. a refused connection."""
        self.allowed.append(re.compile(pattern))

    def context(self, locale="en-US", log_in=True, **options):
        """A fresh browser context, logged in to the diary unless log_in is False."""
        settings = {**DESKTOP, "locale": locale, "timezone_id": "UTC", "base_url": self.server.url, **options}
        context = self.browser.new_context(**settings)
        self.contexts.append(context)
        context.on("page", self.watch)
        if log_in:
            self.server.log_in(context)
        return context

    def watch(self, page):
        page.on("console", lambda m: m.type == "error" and self.errors.append(f"{m.text} ({m.location.get('url')})"))
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))

    def open(self, path="/", locale="en-US", **options):
        page = self.context(locale, **options).new_page()
        page.goto(path)
        return page

    def unexpected_errors(self):
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]

    def close(self):
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser, server):
    opened = Pages(browser, server)
    yield opened
    opened.close()
    assert opened.unexpected_errors() == [], "the pages logged errors"
