"""What the writer sees when the connection fails after the diary opened: the save status
never covers what can be tapped, and the list keeps the rows it showed."""

import re

import pytest
from playwright.sync_api import expect

from conftest import DESKTOP, NO_WORKER, PHONE, wait_for


def fail_saves(route):
    if route.request.method in ("PUT", "POST"):
        return route.fulfill(status=503, content_type="application/json",
                             body='{"error": {"code": "unavailable", "message": "Down"}}')
    route.fallback()


def overlaps(a, b):
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_failed_save_status_covers_neither_the_search_field_nor_the_rows(pages, server, device):
    pages.allow_errors(r"503|Failed to load resource")
    server.create("An older entry", "Written before the trouble.")
    page = pages.context(**device, **NO_WORKER).new_page()
    page.goto("/")
    page.route("**/api/v1/entries**", fail_saves)
    page.get_by_role("link", name="New entry").click()
    title = page.get_by_role("textbox", name="Title")
    title.type("Not sent")
    status = page.get_by_role("status").filter(has_text="Not saved yet")
    expect(status).to_be_visible(timeout=5000)
    assert not overlaps(status.bounding_box(), title.bounding_box())

    page.get_by_role("link", name="Back to the list").click()
    search = page.get_by_role("searchbox", name="Search")
    first = page.get_by_role("link", name=re.compile("An older entry"))
    expect(first).to_be_visible()
    expect(status).to_be_visible()
    for covered in (search, first):
        assert not overlaps(status.bounding_box(), covered.bounding_box())
    search.click()  # nothing lies over it
    expect(search).to_be_focused()

    page.mouse.wheel(0, 2000)  # the status stays in view on a scrolled list
    expect(status).to_be_in_viewport()


def test_back_to_the_list_offline_shows_the_rows_it_showed(pages, server):
    # Back from an entry, the list shows the rows it had without asking the server for them
    # again: the connection being down changes nothing there.
    pages.allow_errors(r"ERR_INTERNET_DISCONNECTED|Failed to load resource")
    server.create("First of two", "One.")
    server.create("Second of two", "Two.")
    page = pages.open("/", **NO_WORKER)
    expect(page.get_by_role("link", name=re.compile("Second of two"))).to_be_visible()
    page.get_by_role("link", name=re.compile("First of two")).click()
    expect(page.get_by_role("textbox", name="Title")).to_have_value("First of two")

    page.route("**/api/v1/entries**", lambda route: route.abort("internetdisconnected"))
    page.get_by_role("link", name="Back to the list").click()
    expect(page).to_have_url(re.compile(r"/(#/)?$"))
    expect(page.get_by_role("link", name=re.compile("First of two"))).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("Second of two"))).to_be_visible()
    expect(page.get_by_text("Check the connection")).to_have_count(0)
    expect(page.get_by_text("These are the entries as last shown")).to_have_count(0)


def test_the_list_drawn_again_offline_shows_the_rows_it_showed_and_tries_again(pages, server):
    # The list asked for afresh (an Undo drew it again) while the connection is down: the rows
    # last shown, under a note that says so, with Try again.
    pages.allow_errors(r"ERR_INTERNET_DISCONNECTED|Failed to load resource")
    server.create("First of two", "One.")
    server.create("Second of two", "Two.")
    page = pages.open("/", **PHONE, **NO_WORKER)
    expect(page.get_by_role("link", name=re.compile("Second of two"))).to_be_visible()
    page.get_by_role("button", name="More for “First of two”").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    page.get_by_role("dialog", name="Delete this entry?").get_by_role("button", name="Delete").click()
    expect(page.get_by_role("link", name=re.compile("First of two"))).to_have_count(0)
    page.route("**/api/v1/entries?**", lambda route: route.abort("internetdisconnected"))
    page.get_by_role("button", name="Undo").click()
    expect(page.get_by_role("status").filter(has_text="These are the entries as last shown")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("Second of two"))).to_be_visible()
    expect(page.get_by_text("Check the connection")).to_have_count(0)

    page.unroute("**/api/v1/entries?**")
    page.get_by_role("button", name="Try again").click()
    expect(page.get_by_text("These are the entries as last shown")).to_have_count(0)
    expect(page.get_by_role("link", name=re.compile("First of two"))).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("Second of two"))).to_be_visible()


def test_another_writer_never_sees_the_rows_shown_before(pages, server):
    # The rows are kept for who saw them: logged out, and the list fails for the next person,
    # they get the error, not the last writer's entries.
    pages.allow_errors(r"ERR_INTERNET_DISCONNECTED|Failed to load resource")
    server.create("Private to the first writer")
    page = pages.open("/", **NO_WORKER)
    expect(page.get_by_role("link", name=re.compile("Private to the first writer"))).to_be_visible()
    page.route("**/api/v1/entries**", lambda route: route.abort("internetdisconnected"))
    page.evaluate("() => import('./js/list.js').then((m) => m.showList(document.getElementById('app'), { user: 'someone else' }))")
    expect(page.get_by_text("Could not reach the diary. Check the connection.")).to_be_visible()
    expect(page.get_by_text("These are the entries as last shown")).to_have_count(0)


def later_pages(url):
    return "/api/v1/entries?" in url and "cursor=" in url


def lists(url):
    return "/api/v1/entries?" in url


def test_a_later_page_that_fails_says_so_below_the_rows_and_tries_again(pages, server):
    # Scrolled down, the next page does not come: the note sits where it would have appeared,
    # the rows shown stay, and Try again loads that page.
    pages.allow_errors(r"503|Failed to load resource")
    for n in range(1, 26):
        server.create(f"Entry {n}", f"Body {n}")
    page = pages.open("/", **PHONE, **NO_WORKER)
    rows = page.locator(".row-title")
    expect(rows).to_have_count(20)
    page.route(later_pages, lambda route: route.fulfill(
        status=503, content_type="application/json",
        body='{"error": {"code": "unavailable", "message": "Down"}}'))
    page.mouse.wheel(0, 20000)
    note = page.get_by_role("status").filter(has_text="Could not load more entries.")
    expect(note).to_be_visible()
    expect(rows).to_have_count(20)
    assert note.bounding_box()["y"] > page.locator(".row").last.bounding_box()["y"]
    expect(page.get_by_text("Check the connection")).to_have_count(0)

    page.unroute(later_pages)
    note.get_by_role("button", name="Try again").click()
    expect(rows).to_have_count(25)
    expect(rows.last).to_have_text("Entry 1")
    expect(note).to_have_count(0)


def test_a_later_page_that_fails_is_said_in_korean_too(pages, server):
    pages.allow_errors(r"ERR_INTERNET_DISCONNECTED|Failed to load resource")
    for n in range(1, 26):
        server.create(f"Entry {n}")
    page = pages.open("/", locale="ko-KR", **PHONE, **NO_WORKER)
    expect(page.locator(".row")).to_have_count(20)
    page.route(later_pages, lambda route: route.abort("internetdisconnected"))
    page.mouse.wheel(0, 20000)
    note = page.get_by_role("status").filter(has_text="일기를 더 불러오지 못했어요.")
    expect(note.get_by_role("button", name="다시 시도")).to_be_visible()


def test_back_to_the_list_offline_shows_what_was_saved_since(pages, server):
    # The kept rows show the title and first line just saved, not those fetched before.
    pages.allow_errors(r"ERR_INTERNET_DISCONNECTED|Failed to load resource")
    entry = server.create("Old title", "Old first line")
    server.create("Another entry", "Untouched.")
    page = pages.open("/", **NO_WORKER)
    page.get_by_role("link", name=re.compile("Old title")).click()
    page.get_by_role("textbox", name="Title").fill("New title")
    page.get_by_role("textbox", name="Write here").fill("\nNew first line\nand more")
    wait_for(lambda: (server.entry(entry["id"]) or {}).get("body") == "\nNew first line\nand more",
             message="the edit saved")

    page.route(lists, lambda route: route.abort("internetdisconnected"))
    page.get_by_role("link", name="Back to the list").click()
    expect(page).to_have_url(re.compile(r"/(#/)?$"))
    row = page.locator(".row").filter(has=page.get_by_role("link", name=re.compile("New title")))
    expect(row.locator(".row-excerpt")).to_have_text("New first line")
    expect(page.get_by_text("Old title")).to_have_count(0)
    expect(page.get_by_role("link", name=re.compile("Another entry"))).to_be_visible()


def test_back_to_the_list_offline_shows_the_edit_kept_in_the_browser(pages, server):
    # Offline the edit waits in this browser: its row shows it all the same.
    pages.allow_errors(r"ERR_INTERNET_DISCONNECTED|Failed to load resource")
    server.create("Old title", "Old first line")
    page = pages.open("/", **NO_WORKER)
    page.get_by_role("link", name=re.compile("Old title")).click()
    expect(page.get_by_role("textbox", name="Title")).to_have_value("Old title")
    page.route("**/api/v1/entries**", lambda route: route.abort("internetdisconnected"))
    page.get_by_role("textbox", name="Title").fill("Title written offline")
    page.get_by_role("link", name="Back to the list").click()
    expect(page).to_have_url(re.compile(r"/(#/)?$"))
    expect(page.get_by_role("link", name=re.compile("Title written offline"))).to_be_visible()
    expect(page.get_by_text("Old title")).to_have_count(0)


def test_the_words_kept_in_the_browser_show_at_once_while_the_entry_is_slow_to_come(pages, server):
    # A reload while the server is slow to answer (its database restarting, say): the edit kept in
    # this browser shows at once and can be written on, and the entry's late answer replaces none
    # of it. (Empty fields meanwhile once took the typing, and then saved it over the kept words.)
    pages.allow_errors(r"ERR_INTERNET_DISCONNECTED|Failed to load resource")
    entry = server.create("Old title", "Old body")
    page = pages.open(f"/#/entry/{entry['id']}", **NO_WORKER)
    title = page.get_by_role("textbox", name="Title")
    expect(title).to_have_value("Old title")
    # One handler throughout, so no save slips through between two: offline first (the edit
    # stays a draft), then the server is slow: what is asked of the entry (its words, and the
    # save of the draft the reload sends) is held until the test lets it through. (A save let
    # through would race the editor: once it is stored, there is no draft left to show.)
    mode = {"now": "offline"}
    held = []

    def network(route):
        if mode["now"] == "offline":
            return route.abort("internetdisconnected")
        if mode["now"] == "hold" and route.request.url.endswith(f"/entries/{entry['id']}"):
            return held.append(route)
        route.fallback()

    page.route("**/api/v1/entries**", network)
    title.fill("Kept title")
    page.get_by_role("textbox", name="Write here").fill("Kept body")
    mode["now"] = "hold"
    page.reload()
    # (The entry's answer is held until the test lets it through below, so the words showing at
    # all prove they did not wait for it; the time a reload takes on a loaded machine is no part
    # of that: CI once took more than 1.5 s.)
    expect(title).to_have_value("Kept title", timeout=10_000)
    expect(page.get_by_role("textbox", name="Write here")).to_have_value("Kept body")
    wait_for(lambda: any(r.request.method == "GET" for r in held), message="the entry to be asked for")
    title.press("End")
    title.type(" and more")
    mode["now"] = "through"
    for route in held:
        route.continue_()
    expect(title).to_have_value("Kept title and more")
    # Waiting in the page (not in time.sleep), so that Playwright's route handler lets the save
    # through: the sync API runs handlers only while the test is inside one of its calls.
    for _ in range(100):
        if (server.entry(entry["id"]) or {}).get("title") == "Kept title and more":
            break
        page.wait_for_timeout(100)
    assert server.entry(entry["id"])["title"] == "Kept title and more", "the words typed while the entry was on its way were not saved"
    assert server.entry(entry["id"])["body"] == "Kept body"


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_an_entry_opened_before_shows_its_kept_words_while_the_server_is_slow(pages, server, locale):
    # A phone on a connection that hangs rather than fails: an entry opened on it before shows the
    # words it kept at once, to read (not to write on: the server's may be newer), and the
    # server's words once they come.
    entry = server.create("Packing list", "Passport.")
    page = pages.open("/", locale=locale, **PHONE, **NO_WORKER)
    page.locator(".row-link").click()
    title = page.locator(".title-field")
    body = page.locator(".body-field")
    expect(body).to_have_value("Passport.")
    page.go_back()  # to the list, as a phone's back button
    expect(page.locator(".row")).to_have_count(1)
    status, _ = server.api("PUT", f"entries/{entry['id']}", {"title": "Packing list", "body": "Passport. Charger."},
                           headers={"If-Match": '"1"'})
    assert status == 200

    held = []
    page.route(f"**/api/v1/entries/{entry['id']}",
               lambda route: held.append(route) if route.request.method == "GET" else route.fallback())
    page.locator(".row-link").click()
    expect(body).to_have_value("Passport.")
    expect(title).to_have_value("Packing list")
    expect(body).not_to_be_editable()
    page.wait_for_function("() => true")  # the handler runs while the test is in a call
    assert len(held) == 1, "the entry is still on its way"

    held[0].continue_()
    expect(body).to_have_value("Passport. Charger.")
    expect(body).to_be_editable()
