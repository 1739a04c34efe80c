"""Fixtures for the browser tests: a real `diary serve` on a fresh database,
Debian's Chromium driven by Playwright, and a check that no page logged an error."""

import json
import os
import re
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

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


class Server:
    """A `diary serve` process; stop() and start() keep its port and database."""

    def __init__(self, folder):
        self.port = free_port()
        self.database = Path(folder) / "diary.sqlite"
        self.log_path = Path(folder) / "server.log"
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self):
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [DIARY_BIN, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--database", str(self.database)],
            stdout=log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2):
                    return
            except (urllib.error.URLError, ConnectionError, OSError):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"diary serve did not start:\n{self.log_path.read_text()}")
                time.sleep(0.1)

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


@pytest.fixture
def server():
    with tempfile.TemporaryDirectory(prefix="diary-browser-") as folder:
        srv = Server(folder)
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

    def context(self, locale="en-US", **options):
        settings = {**DESKTOP, "locale": locale, "timezone_id": "UTC", "base_url": self.server.url, **options}
        context = self.browser.new_context(**settings)
        self.contexts.append(context)
        context.on("page", self.watch)
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
