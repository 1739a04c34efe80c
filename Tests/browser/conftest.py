"""Fixtures for the browser tests: a real `diary serve` on a fresh database,
Debian's Chromium driven by Playwright, and a check that no page logged an error.

The server runs with `--weather off`, so no test reaches the internet; a test that
uses the `open_meteo` fixture gets a server whose weather comes from that local fake."""

import json
import re
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

# The harness and the fake Open-Meteo are shared by the test folders (Tests/harness, Tests/).
TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS / "harness"), str(TESTS)]
import diary_harness  # noqa: E402
from diary_harness import wait_for  # noqa: E402,F401  (the tests import it from here)
from fake_open_meteo import FakeOpenMeteo  # noqa: E402

DIARY_BIN = str(diary_harness.BINARY)

PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2)
DESKTOP = dict(viewport={"width": 1280, "height": 800})
# For a test that routes the API (page.route) and does not test the service worker. In Chromium,
# a route can miss every request of a page the worker took over (clients.claim) about when the
# route was set: the request then reaches the server untouched. So a full-disk test saw its save
# stored, about one run in twelve on a loaded machine. Playwright's docs advise blocking the
# worker when routing.
NO_WORKER = dict(service_workers="block")


# The diary is private: each server's first account, made through /api/v1/setup.
TESTER = {"name": "tester", "password": "correct horse battery staple"}


class Server(diary_harness.Server):
    """A `diary serve` process on `folder`/diary.sqlite; stop() and start() keep its port and
    database (and its account and sessions). The first start makes the account and logs this
    helper in. More options for `diary serve` (say --trust-proxy) go in `extra_args` before start()."""

    def __init__(self, folder, open_meteo_url=None, account=True):
        super().__init__(Path(folder) / "diary.sqlite", open_meteo_url=open_meteo_url)
        self.account = account  # False: a new diary, left for its setup page
        self.auth = {}  # the session cookie and CSRF token api() sends

    @property
    def url(self):
        return self.base_url

    def start(self):
        super().start()
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


# The app's files a service worker keeps a few seconds after a visit, not at its install (sw.js's
# LATER): until then the list opens offline, an entry does not.
KEPT_LATER = ("Promise.all(['js/editor.js', 'editor.css', 'js/outbox.js', 'js/marks.js'].map((f) => caches.match(f)))"
              ".then((found) => found.every(Boolean))")


def kept_for_offline(page):
    """Waits until the service worker controls the page and keeps the whole app, editor included."""
    # (Thirty seconds: the worker's install fetches the whole shell, which took over ten on a CI
    # machine busy with three suites at once.)
    wait_for(lambda: page.evaluate("Boolean(navigator.serviceWorker.controller)"), timeout=30,
             message="the worker to control the page")
    wait_for(lambda: page.evaluate(KEPT_LATER), timeout=15, message="the editor and the outbox, kept for offline")


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
    with diary_harness.chromium() as chromium:
        yield chromium


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
            # A route's handler still running as its context closes (a fetch the page no longer
            # wants) must not raise into the next test: on a busy machine it did, as
            # "Route.fulfill: Fetch response has been disposed" in a test that routes nothing.
            # (A context the test closed itself has nothing left to unroute.)
            try:
                context.unroute_all(behavior="ignoreErrors")
            except PlaywrightError:  # "Target page, context or browser has been closed"
                pass
            context.close()


@pytest.fixture
def pages(browser, server):
    opened = Pages(browser, server)
    yield opened
    opened.close()
    assert opened.unexpected_errors() == [], "the pages logged errors"
