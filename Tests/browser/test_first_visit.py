"""The first visit stays small: what the page needs for the list comes with it (compressed), and
the screens that need the server anyway (the trash, the account's menu, the login form) load
only when opened. Counted as the issue counts it: the page's requests, the service worker's
script and the manifest, icons aside. bench/server_bench.py measures the same on the
100,000-entry diary."""

import urllib.request

from playwright.sync_api import expect

FIRST_VISIT_KB = 30
# The screens that need the server anyway, and what only writing needs: the drafts' sender and
# the weather's place (they come with the editor, or with drafts waiting to be sent).
ON_DEMAND = ("/js/trash.js", "/js/account.js", "/js/conflict.js", "/js/settings.js", "/settings.css",
             "/js/sending.js", "/js/weather.js", "/js/editor.js")


def test_the_first_visit_is_under_30_kb_and_leaves_the_other_screens_for_later(pages, server):
    for n in range(25):  # a full first page of the list, with long bodies
        server.create(f"An evening, number {n}", "We walked along the river until the lights came on. " * 8)
    context = pages.context()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    transferred = []
    urls = {}
    cdp.on("Network.responseReceived", lambda e: urls.__setitem__(e["requestId"], e["response"]["url"]))
    cdp.on("Network.loadingFinished", lambda e: transferred.append((urls.get(e["requestId"], ""), e["encodedDataLength"])))
    requested = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto("/")
    expect(page.locator(".row")).to_have_count(20)
    page.wait_for_load_state("networkidle")

    page_bytes = sum(n for url, n in transferred if "/icons/" not in url)
    total = page_bytes + sent(server.url + "/sw.js") + sent(server.url + "/manifest.webmanifest")
    assert total / 1024 < FIRST_VISIT_KB, f"{total / 1024:.1f} KB on a first visit"
    assert not [url for url in requested if url.endswith(ON_DEMAND)]

    # Opened, they come.
    page.get_by_role("button", name="Account").click()
    expect(page.get_by_role("dialog", name="Logged in as tester")).to_be_visible()
    assert [url for url in requested if url.endswith("/js/account.js")]


def sent(url):
    """The bytes a browser gets for `url` (Brotli asked for), with the response's head."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    with urllib.request.urlopen(request, timeout=10) as response:
        head = f"HTTP/1.1 {response.status} {response.reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in response.headers.items())
        return len(head.encode()) + 2 + len(response.read())
