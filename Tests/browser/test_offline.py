"""Offline: after one visit the service worker keeps the app's files, so a reload without a
connection opens the diary (the app's own screen, not the browser's error page), and the worker
leaves the API to the network."""

import json
import re
import urllib.request

from playwright.sync_api import expect

from conftest import PHONE, kept_for_offline, wait_for

OFFLINE_NOTE = "Could not reach the diary. What you write is kept in this browser and sent when the connection is back."


def controlled(page):
    """Waits until the service worker controls the page (installed and activated) and has kept
    the rest of the app (the editor, the outbox), which it fetches a few seconds after a visit."""
    kept_for_offline(page)


def test_after_a_first_visit_the_worker_controls_the_page(pages, server):
    page = pages.open("/")
    expect(page.get_by_role("link", name="New entry")).to_be_visible()
    controlled(page)
    # Its scope is the whole app.
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)") == server.url + "/"


def test_offline_a_reload_opens_the_diary_and_a_new_entry_waits_for_the_connection(pages, server):
    server.create("Before the tunnel", "Still online")
    context = pages.context(**PHONE)
    page = context.new_page()
    page.goto("/")
    expect(page.get_by_role("link", name="Before the tunnel")).to_be_visible()
    controlled(page)

    pages.allow_errors(r"Failed to load resource|ERR_INTERNET_DISCONNECTED|Failed to fetch")
    context.set_offline(True)
    page.reload()
    # The app's own screen, in its own words: not Chromium's "No internet".
    expect(page.get_by_role("link", name="New entry")).to_be_visible()
    expect(page.get_by_role("status").filter(has_text=OFFLINE_NOTE)).to_be_visible(timeout=10000)
    assert page.title() == "Diary"

    page.get_by_role("link", name="New entry").click()
    page.get_by_role("textbox", name="Title").fill("Written in the tunnel")
    page.get_by_role("textbox", name="Write here").fill("No signal here.")
    context.set_offline(False)
    wait_for(lambda: [e["title"] for e in server.entries()] == ["Written in the tunnel", "Before the tunnel"],
             timeout=20, message="the entry written offline, on the server")


def test_offline_the_list_screen_opens_in_korean_too(pages, server):
    context = pages.context(locale="ko-KR")
    page = context.new_page()
    page.goto("/")
    expect(page.get_by_role("link", name="새 일기")).to_be_visible()
    controlled(page)
    pages.allow_errors(r"Failed to load resource|ERR_INTERNET_DISCONNECTED|Failed to fetch")
    context.set_offline(True)
    page.reload()
    expect(page.get_by_role("link", name="새 일기")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text("일기장")


def test_the_worker_leaves_the_api_to_the_network(pages, server):
    """Requests for /api/ are not answered by the worker: a route the test sets (as other tests
    do to play a slow or failing server) still sees them, and nothing is kept of them."""
    server.create("The real entry")
    context = pages.context()
    page = context.new_page()
    page.goto("/")
    controlled(page)
    served_by_worker = []
    page.on("response", lambda r: "/api/" in r.url and r.from_service_worker and served_by_worker.append(r.url))
    faked = {"entries": [{"id": "00000000-0000-4000-8000-000000000001", "title": "From the route", "excerpt": "",
                          "createdAt": "2020-12-22T10:00:00Z", "updatedAt": "2020-12-22T10:00:00Z", "version": 1,
                          "weather": None}], "nextCursor": None}
    page.route(re.compile(r"/api/v1/entries\?"), lambda route: route.fulfill(json=faked))
    page.reload()
    expect(page.get_by_role("link", name="From the route")).to_be_visible()
    page.unroute(re.compile(r"/api/v1/entries\?"))
    page.reload()
    expect(page.get_by_role("link", name="The real entry")).to_be_visible()
    assert served_by_worker == []
    kept = page.evaluate("""async () => {
      const urls = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      }
      return urls;
    }""")
    assert kept and not [url for url in kept if "/api/" in url], kept


def test_the_worker_is_served_for_each_release_to_replace_it(server):
    with urllib.request.urlopen(server.url + "/sw.js", timeout=5) as response:
        assert response.headers["Content-Type"].startswith("text/javascript")
        assert response.headers["Cache-Control"] == "no-cache"
        worker = response.read().decode()
    release = json.loads(re.search(r"^const RELEASE = (\{.*\});$", worker, re.M).group(1))
    assert re.fullmatch(r"[0-9a-f]+", release["version"])
    # Every file the page opens with is in the release, with the ETag the server sends for it.
    for path in ("/", "/app.css", "/js/main.js", "/js/strings.en.js", "/manifest.webmanifest", "/icons/diary-192.png"):
        with urllib.request.urlopen(server.url + path, timeout=5) as response:
            assert release["files"][path] == response.headers["ETag"], path
    assert "/sw.js" not in release["files"] and not any("/api/" in path for path in release["files"])
