"""A shared browser: when the writer's session there ends from anywhere else (signed out from
another device, a new password, or by time), the next person who opens the diary in that
browser, online or offline, finds none of the writer's entries or photos."""

from playwright.sync_api import expect

from conftest import NO_WORKER, TESTER, wait_for

OFFLINE_EMPTY = "Your entries will appear here when the connection is back."
KEPT = "import('./js/device.js').then((device) => device.count('tester'))"


def read_on_this_browser(pages, server):
    """A writer's browser that has read an entry: the device keeps its row and its text."""
    entry = server.create("Secret of the last writer", "Words the next person must not read.")
    context = pages.context(**NO_WORKER)
    page = context.new_page()
    page.goto("/")
    page.get_by_role("link", name="Secret of the last writer").click()
    expect(page.get_by_role("textbox", name="Write here")).to_have_value("Words the next person must not read.")
    page.get_by_role("link", name="Back to the list").click()
    wait_for(lambda: page.evaluate(KEPT) >= 1, timeout=10, message="the entry kept on the device")
    return context, page, entry


def offline_start_shows_nothing(context, entry):
    page = context.new_page()
    page.route("**/api/v1/**", lambda route: route.abort("internetdisconnected"))
    page.goto("/")
    expect(page.get_by_text(OFFLINE_EMPTY)).to_be_visible()
    expect(page.get_by_text("Secret of the last writer")).to_have_count(0)
    expect(page.locator(".row")).to_have_count(0)
    page.goto(f"/#/entry/{entry['id']}")
    expect(page.get_by_text("Could not reach the diary. Check the connection.")).to_be_visible()
    assert "Words the next person must not read." not in page.content()
    assert page.evaluate(KEPT) == 0
    page.close()


def test_a_session_ended_from_another_device_leaves_nothing_of_the_writer_online_or_offline(pages, server):
    pages.allow_errors(r"net::ERR_INTERNET_DISCONNECTED|401")
    context, page, entry = read_on_this_browser(pages, server)
    # From another device: a new password ends every other session, this browser's too.
    status, _ = server.api("POST", "account/password", {"currentPassword": TESTER["password"], "newPassword": "another long password"})
    assert status == 200
    page.reload()
    expect(page.get_by_role("button", name="Log in")).to_be_visible()
    expect(page.get_by_text("Secret of the last writer")).to_have_count(0)
    wait_for(lambda: page.evaluate(KEPT) == 0, timeout=10, message="the writer's copy let go")
    # The server said so with the cookies and the browser's cache of the site.
    assert not [c for c in context.cookies() if c["name"] in ("diary_session", "diary_device")]
    page.close()
    offline_start_shows_nothing(context, entry)


def test_a_session_over_by_time_shows_nothing_of_the_writer_at_an_offline_start(pages, server):
    pages.allow_errors(r"net::ERR_INTERNET_DISCONNECTED")
    context, page, entry = read_on_this_browser(pages, server)
    page.close()
    # The browser drops both of the session's cookies when it ends by time; the server cannot
    # be reached to say anything.
    context.clear_cookies()
    offline_start_shows_nothing(context, entry)


def test_a_session_still_alive_opens_offline_with_the_writers_entries(pages, server):
    # The binding takes nothing from the writer: their own browser still opens offline.
    pages.allow_errors(r"net::ERR_INTERNET_DISCONNECTED")
    context, page, entry = read_on_this_browser(pages, server)
    page.close()
    page = context.new_page()
    page.route("**/api/v1/**", lambda route: route.abort("internetdisconnected"))
    page.goto("/")
    expect(page.get_by_text("Secret of the last writer")).to_be_visible()
