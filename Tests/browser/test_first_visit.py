"""The first visit stays small: what the page needs for the list comes with it (compressed), and
the screens that need the server anyway (the trash, the account's menu, the login form) load
only when opened. bench/server_bench.py measures the same on the 100,000-entry diary."""

from playwright.sync_api import expect

FIRST_VISIT_KB = 30
ON_DEMAND = ("/js/trash.js", "/js/account.js", "/js/conflict.js")


def test_the_first_visit_is_under_30_kb_and_leaves_the_other_screens_for_later(pages, server):
    for n in range(25):  # a full first page of the list, with long bodies
        server.create(f"An evening, number {n}", "We walked along the river until the lights came on. " * 8)
    context = pages.context()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    transferred = []
    cdp.on("Network.loadingFinished", lambda e: transferred.append(e["encodedDataLength"]))
    requested = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto("/")
    expect(page.locator(".row")).to_have_count(20)
    page.wait_for_load_state("networkidle")

    assert sum(transferred) / 1024 < FIRST_VISIT_KB, f"{sum(transferred) / 1024:.1f} KB on a first visit"
    assert not [url for url in requested if url.endswith(ON_DEMAND)]

    # Opened, they come.
    page.get_by_role("button", name="Account").click()
    expect(page.get_by_role("dialog", name="Logged in as tester")).to_be_visible()
    assert [url for url in requested if url.endswith("/js/account.js")]
