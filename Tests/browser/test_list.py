"""The list: a journal under month headers, the empty state and the sample diary, newest first,
paging, search."""

from playwright.sync_api import expect

from conftest import PHONE


def test_an_empty_diary_invites_the_first_entry_and_offers_the_sample_diary_second(pages, server):
    page = pages.open("/", **PHONE)
    expect(page.get_by_role("heading", level=1)).to_have_text("Diary")
    expect(page.get_by_text("Your diary is empty.")).to_be_visible()
    write = page.get_by_role("link", name="Write the first entry")
    sample = page.get_by_role("button", name="Load the sample diary")
    expect(write).to_be_visible()
    # The invitation comes first and stands out; the sample diary is a quieter second choice.
    assert write.bounding_box()["y"] < sample.bounding_box()["y"]
    assert write.evaluate("e => getComputedStyle(e).backgroundColor") != sample.evaluate("e => getComputedStyle(e).backgroundColor")
    sample.click()
    rows = page.locator(".row")
    expect(rows).to_have_count(15)
    # The sample diary was all written on one day: one month, one day.
    expect(page.get_by_role("heading", level=2)).to_have_text(["December 2020"])
    first = rows.first
    expect(first.locator(".row-title")).not_to_be_empty()
    expect(first.locator(".row-date")).to_have_text("22")
    expect(first.locator(".row-weekday")).to_have_text("Tue")
    expect(first.locator("time")).to_contain_text("December 22, 2020")  # said in full to a screen reader
    expect(first.locator(".row-excerpt")).to_contain_text("A wonderful serenity")
    expect(page.get_by_text("Your diary is empty.")).to_be_hidden()


def test_the_first_entry_is_written_from_the_empty_diary(pages, server):
    page = pages.open("/", **PHONE)
    page.get_by_role("link", name="Write the first entry").click()
    page.get_by_role("textbox", name="Title").type("The very first")
    page.get_by_role("link", name="Back to the list").click()
    expect(page.locator(".row-title")).to_have_text(["The very first"])


def test_rows_are_newest_first_and_the_next_page_loads_on_scrolling(pages, server):
    for n in range(1, 46):
        server.create(f"Entry {n}", f"Body {n}")
    page = pages.open("/", **PHONE)
    rows = page.locator(".row-title")
    expect(rows).to_have_count(20)
    expect(rows.first).to_have_text("Entry 45")
    page.mouse.wheel(0, 20000)
    expect(rows).to_have_count(40)
    page.mouse.wheel(0, 20000)
    expect(rows).to_have_count(45)
    expect(rows.last).to_have_text("Entry 1")


def test_entry_text_is_shown_as_text_never_as_markup(pages, server):
    server.create("<img src=x onerror=alert(1)>", "<script>alert(2)</script> & <b>bold</b>")
    page = pages.open("/")
    row = page.locator(".row")
    expect(row.locator(".row-title")).to_have_text("<img src=x onerror=alert(1)>")
    expect(row.locator(".row-excerpt")).to_have_text("<script>alert(2)</script> & <b>bold</b>")
    assert page.locator("#app img, #app b, #app script").count() == 0
    row.locator(".row-link").click()
    expect(page.get_by_role("textbox", name="Title")).to_have_value("<img src=x onerror=alert(1)>")


def test_search_finds_entries_and_highlights_the_words(pages, server):
    server.load_sample()
    server.create("Picnic", "We ate kimbap by the river. 일기를 썼다.")
    page = pages.open("/")
    search = page.get_by_role("searchbox", name="Search")
    search.fill("kimbap")
    results = page.get_by_role("list", name="Search")
    expect(results.locator(".row-title")).to_have_text(["Picnic"])
    expect(results.locator("mark")).to_have_text(["kimbap"])

    search.fill("일기")
    expect(results.locator(".row-title")).to_have_text(["Picnic"])
    expect(results.locator("mark").first).to_have_text("일기")

    search.fill("seren")  # the start of a word finds the whole word
    expect(results.locator("mark").first).to_have_text("seren")
    expect(results.locator(".row")).to_have_count(15)

    search.fill("zzyzx")
    expect(results.get_by_text("Nothing found.")).to_be_visible()
    search.fill("")
    expect(results).to_be_hidden()
    expect(page.locator(".journal .row")).to_have_count(16)
