"""Navigation that keeps the writer's place: every screen has its own address, a reload shows it
again, Back from an entry finds the list as it was left (rows and scroll), and the app's own back
arrow goes back in history instead of piling up entries on it. On a wide screen the list and the
entry are side by side."""

import re

from playwright.sync_api import expect

from conftest import NO_WORKER, PHONE, wait_for


def first_page_requests(page):
    """The requests for the list's first page the page makes from now on (GET /api/v1/entries?…
    without a cursor)."""
    seen = []
    page.on("request", lambda r: re.search(r"/api/v1/entries\?", r.url) and "cursor=" not in r.url and seen.append(r.url))
    return seen


def scrolled(page):
    return page.evaluate("document.scrollingElement.scrollTop")


def open_two_pages_down(pages, server):
    """A phone on a diary of 65 entries, scrolled until a second page has come, a row of it in view.
    Returns the page, that row, and how many rows are loaded."""
    for n in range(1, 66):
        server.create(f"Entry {n}", f"Body {n}")
    page = pages.open("/", **PHONE)
    rows = page.locator(".row")
    expect(rows).to_have_count(20)

    def scroll_on():
        page.mouse.wheel(0, 800)
        return rows.count() >= 40

    wait_for(scroll_on, message="the second page")
    row = page.get_by_role("link", name=re.compile(r"^Entry 34\b"))
    row.scroll_into_view_if_needed()
    return page, row, rows.count()


def test_back_from_an_entry_finds_the_list_as_it_was_left(pages, server):
    page, row, loaded = open_two_pages_down(pages, server)
    where = scrolled(page)
    assert where > 2000, where
    top = row.bounding_box()["y"]
    asked = first_page_requests(page)

    row.click()
    expect(page.get_by_role("textbox", name="Title")).to_have_value("Entry 34")
    page.go_back()
    expect(page).to_have_url(re.compile(r"/(#/)?$"))
    # The rows already loaded are there at once, scrolled as they were: the row that was tapped
    # is where it was, and the first page was not fetched again.
    # (A page on its way as the entry opened is kept too.)
    expect(page.locator(".row").nth(loaded - 1)).to_be_attached()
    assert abs(scrolled(page) - where) <= 2, (scrolled(page), where)
    assert abs(row.bounding_box()["y"] - top) <= 2
    assert asked == []
    # Scrolling on brings the next pages, after the rows kept.
    wait_for(lambda: page.mouse.wheel(0, 3000) or page.locator(".row").count() == 65, message="the last page")
    expect(page.locator(".row-title").last).to_have_text("Entry 1")


def test_a_page_that_lands_after_an_entry_opened_keeps_the_lists_scroll(pages, server):
    for n in range(1, 66):
        server.create(f"Entry {n}", f"Body {n}")
    page = pages.open("/", **PHONE, **NO_WORKER)
    rows = page.locator(".row")
    expect(rows).to_have_count(20)
    # The second page comes; the third is asked for and held on its way while the writer opens
    # an entry.
    let_through, held = [], []

    def second_through_third_held(route):
        if let_through:
            held.append(route)
        else:
            let_through.append(route)
            route.continue_()
    page.route(re.compile(r"/api/v1/entries\?.*cursor="), second_through_third_held)
    wait_for(lambda: page.mouse.wheel(0, 800) or held, message="the third page asked for")
    expect(rows).to_have_count(40)
    row = page.get_by_role("link", name=re.compile(r"^Entry 34\b"))
    row.scroll_into_view_if_needed()
    where = scrolled(page)
    row.click()
    expect(page.get_by_role("textbox", name="Title")).to_have_value("Entry 34")
    with page.expect_response(re.compile(r"cursor=")):
        held[0].continue_()
    page.go_back()
    # The rows of the page that came late are there too, and the list is where it was left.
    expect(rows).to_have_count(60)
    assert abs(scrolled(page) - where) <= 2, (scrolled(page), where)


def test_the_apps_back_arrow_goes_back_in_history_instead_of_adding_to_it(pages, server):
    page, row, loaded = open_two_pages_down(pages, server)
    where = scrolled(page)
    before = page.evaluate("history.length")
    row.click()
    expect(page.get_by_role("textbox", name="Title")).to_have_value("Entry 34")
    opened = page.evaluate("history.length")
    assert opened == before + 1
    page.get_by_role("link", name="Back to the list").click()
    expect(page).to_have_url(re.compile(r"/(#/)?$"))
    # (A page on its way as the entry opened is kept too.)
    expect(page.locator(".row").nth(loaded - 1)).to_be_attached()
    assert abs(scrolled(page) - where) <= 2
    assert page.evaluate("history.length") == opened, "the arrow went back, it did not push the list again"
    # Forward goes to the entry again: the arrow went back to the entry before it.
    page.go_forward()
    expect(page.get_by_role("textbox", name="Title")).to_have_value("Entry 34")


def test_the_back_arrow_of_an_entry_opened_by_its_address_goes_to_the_list(pages, server):
    entry = server.create("Opened from a link", "")
    page = pages.open(f"/#/entry/{entry['id']}", **PHONE)
    expect(page.get_by_role("textbox", name="Title")).to_have_value("Opened from a link")
    length = page.evaluate("history.length")
    page.get_by_role("link", name="Back to the list").click()
    expect(page.locator(".row-title")).to_have_text(["Opened from a link"])
    expect(page).to_have_url(re.compile(r"/(#/)?$"))
    assert page.evaluate("history.length") == length


def test_a_reload_shows_the_entry_the_trash_and_the_search_again(pages, server):
    server.load_sample()
    picnic = server.create("Picnic", "We ate kimbap by the river.")
    binned = server.create("Binned", "")
    server.api("DELETE", f"entries/{binned['id']}")
    page = pages.open("/", **PHONE)

    page.get_by_role("link", name=re.compile("^Picnic")).click()
    expect(page).to_have_url(re.compile(f"#/entry/{picnic['id']}$"))
    page.reload()
    expect(page.get_by_role("textbox", name="Title")).to_have_value("Picnic")

    page.goto("/#/trash")
    expect(page.get_by_role("heading", level=1)).to_have_text("Trash")
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Trash")
    expect(page.locator(".trash-row .row-title")).to_have_text(["Binned"])

    page.goto("/#/")
    page.get_by_role("searchbox", name="Search").fill("kimbap river")
    expect(page).to_have_url(re.compile(r"#/search\?q=kimbap%20river$"))
    results = page.get_by_role("list", name="Search")
    expect(results.locator(".row-title")).to_have_text(["Picnic"])
    page.reload()
    expect(page.get_by_role("searchbox", name="Search")).to_have_value("kimbap river")
    expect(results.locator(".row-title")).to_have_text(["Picnic"])
    expect(results.locator("mark").first).to_have_text("kimbap")

    # Back from a result: the results again, not the whole list.
    results.get_by_role("link", name=re.compile("^Picnic")).click()
    expect(page.get_by_role("textbox", name="Title")).to_have_value("Picnic")
    page.go_back()
    expect(page.get_by_role("searchbox", name="Search")).to_have_value("kimbap river")
    expect(results.locator(".row-title")).to_have_text(["Picnic"])

    # Cleared, the search leaves the address too.
    page.get_by_role("searchbox", name="Search").fill("")
    expect(page).to_have_url(re.compile(r"/(#/)?$"))
    expect(page.locator(".journal .row")).to_have_count(16)


def test_a_search_typed_into_the_address_is_searched(pages, server):
    server.create("서울의 비", "Cold and wet in the rain.")
    server.create("부산", "Warm.")
    page = pages.open("/#/search?q=%EC%84%9C%EC%9A%B8%20rain", **PHONE)  # "서울 rain"
    expect(page.get_by_role("searchbox", name="Search")).to_have_value("서울 rain")
    expect(page.get_by_role("list", name="Search").locator(".row-title")).to_have_text(["서울의 비"])


def test_a_wide_screen_shows_the_list_and_the_entry_side_by_side(pages, server):
    for n in range(1, 31):
        server.create(f"Entry {n}", f"Body {n} " + "and a good many words to fill a long line " * 12)
    page = pages.open("/", viewport={"width": 1280, "height": 800})
    rows = page.locator(".row")
    expect(rows).to_have_count(20)
    expect(page.get_by_text("Choose an entry to read, or write a new one.")).to_be_visible()

    page.get_by_role("link", name=re.compile(r"^Entry 28\b")).click()
    title = page.get_by_role("textbox", name="Title")
    expect(title).to_have_value("Entry 28")
    # Side by side: the list on the left, the entry on the right, both in view.
    listed = page.locator(".pane-list").bounding_box()
    entry = page.locator(".editor").bounding_box()
    assert listed["x"] + listed["width"] <= entry["x"] + 1 and listed["width"] >= 320, (listed, entry)
    expect(page.get_by_role("link", name=re.compile(r"^Entry 28\b"))).to_have_attribute("aria-current", "page")
    # A readable line: the entry's text is no wider than about 70 characters.
    body = page.get_by_role("textbox", name="Write here")
    measure = body.evaluate("""e => {
        const probe = document.createElement('span');
        probe.style.font = getComputedStyle(e).font;
        probe.textContent = '0'.repeat(80);
        document.body.append(probe);
        const ch = probe.offsetWidth / 80;
        probe.remove();
        return e.clientWidth / ch;
    }""")
    assert 55 <= measure <= 80, measure

    # The list stays as it was while another entry opens beside it: rows and scroll.
    other = page.get_by_role("link", name=re.compile(r"^Entry 20\b"))
    other.scroll_into_view_if_needed()
    scroll = page.locator(".pane-list").evaluate("e => e.scrollTop")
    assert scroll > 0
    count = rows.count()
    other.click()
    expect(title).to_have_value("Entry 20")
    assert page.locator(".pane-list").evaluate("e => e.scrollTop") == scroll
    assert rows.count() == count

    # What is typed shows in the list beside it.
    title.fill("Entry 20, renamed")
    expect(page.locator(".row-title").filter(has_text="renamed")).to_have_text(["Entry 20, renamed"])

    # Narrowed to a phone's width: one screen at a time, the entry on show.
    page.set_viewport_size({"width": 390, "height": 800})
    expect(page.locator(".pane-list")).to_have_count(0)
    expect(title).to_have_value("Entry 20, renamed")
    expect(page.locator(".row")).to_have_count(0)


def test_a_wide_list_is_as_it_was_left_after_the_trash(pages, server):
    for n in range(1, 31):
        server.create(f"Entry {n}", f"Body {n}")
    page = pages.open("/", viewport={"width": 1280, "height": 800})
    rows = page.locator(".row")
    expect(rows).to_have_count(20)
    pane = page.locator(".pane-list")
    wait_for(lambda: pane.evaluate("e => (e.scrollTop += 400, e.scrollTop)") > 1200 and rows.count() == 30,
             message="the second page")
    scroll = pane.evaluate("e => e.scrollTop")
    page.get_by_role("link", name="Trash").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Trash")
    page.get_by_role("link", name="Back to the list").click()
    expect(rows).to_have_count(30)
    assert page.locator(".pane-list").evaluate("e => e.scrollTop") == scroll


def test_back_from_a_search_result_finds_the_results_scrolled_as_they_were(pages, server):
    server.load_sample()
    page = pages.open("/", **PHONE)
    page.get_by_role("searchbox", name="Search").fill("serenity")
    results = page.get_by_role("list", name="Search")
    expect(results.locator(".row")).to_have_count(15)
    tenth = results.locator(".row-link").nth(9)
    tenth.scroll_into_view_if_needed()
    where = scrolled(page)
    assert where > 1000, where
    title = tenth.locator(".row-title").text_content()
    searches = []
    page.on("request", lambda r: "/api/v1/search" in r.url and searches.append(r.url))
    tenth.click()
    expect(page.get_by_role("textbox", name="Title")).to_have_value(title)
    page.go_back()
    expect(page).to_have_url(re.compile(r"#/search\?q=serenity$"))
    expect(results.locator(".row")).to_have_count(15)
    assert abs(scrolled(page) - where) <= 2, (scrolled(page), where)
    assert searches == [], "the results were kept, not asked for again"
