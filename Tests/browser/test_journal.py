"""A journal, not a table: months under headers that stick, days that say "Today" and
"Yesterday", a compose button in reach of the thumb and a shortcut on a computer, and axe-core
finding nothing on any screen, light or dark."""

from datetime import datetime, timedelta, timezone

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import PHONE, wait_for


def audit(page):
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


def test_entries_are_grouped_by_month_under_headers_that_stick(pages, server):
    server.load_sample()  # December 2020
    for n in range(1, 6):  # with the sample, one page of the list
        server.create(f"This month {n}", "A line of the day.")
    page = pages.open("/", **PHONE)
    months = page.get_by_role("heading", level=2)
    now = datetime.now(timezone.utc)
    expect(months).to_have_text([now.strftime("%B %Y"), "December 2020"])
    # Each month's rows are a list named by its header.
    expect(page.get_by_role("list", name="December 2020").locator(".row")).to_have_count(15)
    expect(page.get_by_role("list", name=now.strftime("%B %Y")).locator(".row")).to_have_count(5)

    # Scrolled into this month's rows, its header stays in view just under the bar.
    bar = page.locator(".bar").bounding_box()
    under_bar = lambda header: abs(header.bounding_box()["y"] - (bar["y"] + bar["height"])) <= 2
    page.mouse.wheel(0, 200)
    wait_for(lambda: under_bar(months.first), message="this month's header under the bar")
    # Further down, December's header has taken its place.
    page.get_by_role("link", name="This month 1").scroll_into_view_if_needed()
    page.mouse.wheel(0, 1200)
    wait_for(lambda: under_bar(months.last), message="December's header under the bar")


@pytest.mark.parametrize("locale, today, yesterday", [("en-US", "Today", "Yesterday"), ("ko-KR", "오늘", "어제")])
def test_todays_and_yesterdays_entries_say_so(pages, server, locale, today, yesterday):
    entry = server.create("Written just now", "Under a grey sky.")
    page = pages.context(locale, **PHONE).new_page()
    page.goto("/")
    row = page.locator(".row")
    expect(row.locator(".row-near")).to_have_text(today)
    # The time of day beside it, in the browser's language, and the text under the title.
    time = page.evaluate("(at) => new Intl.DateTimeFormat(navigator.languages, {timeStyle: 'short'}).format(new Date(at))",
                         entry["createdAt"])
    expect(row.locator(".row-time")).to_have_text(time)
    expect(row.locator(".row-excerpt")).to_have_text("Under a grey sky.")

    # A day later the same entry is yesterday's.
    tomorrow = page.context.new_page()
    tomorrow.clock.set_system_time(datetime.now(timezone.utc) + timedelta(days=1))
    tomorrow.goto("/")
    expect(tomorrow.locator(".row .row-near")).to_have_text(yesterday)
    # Two days later it says its day and weekday only.
    later = page.context.new_page()
    later.clock.set_system_time(datetime.now(timezone.utc) + timedelta(days=2))
    later.goto("/")
    expect(later.locator(".row .row-title")).to_have_text("Written just now")
    expect(later.locator(".row .row-near")).to_have_count(0)


def test_the_excerpt_shows_two_or_three_lines_of_the_text(pages, server):
    server.create("A long day", "We walked " + "along the river and over the bridge " * 12)
    page = pages.open("/", **PHONE)
    excerpt = page.locator(".row-excerpt")
    expect(excerpt).to_be_visible()
    lines = excerpt.evaluate("e => Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight))")
    assert lines == 3, lines


def test_a_phone_has_a_compose_button_in_reach_of_the_thumb(pages, server):
    server.load_sample()
    page = pages.open("/", **PHONE)
    compose = page.get_by_role("link", name="New entry")
    expect(compose).to_be_visible()
    box = compose.bounding_box()
    # The bottom corner of the screen, a good size to tap, and there while the list scrolls.
    assert box["y"] + box["height"] > 844 * 0.85 and box["x"] + box["width"] > 390 * 0.75, box
    assert box["width"] >= 48 and box["height"] >= 48, box
    page.mouse.wheel(0, 1500)
    assert compose.bounding_box() == box
    compose.click()
    expect(page.get_by_role("textbox", name="Title")).to_be_focused()


def test_a_computer_starts_a_new_entry_with_the_n_key_but_not_while_typing(pages, server):
    server.load_sample()
    page = pages.open("/")
    compose = page.get_by_role("link", name="New entry")
    expect(compose).to_have_attribute("aria-keyshortcuts", "n")
    expect(compose).to_have_attribute("title", "New entry (N)")
    expect(page.locator(".row")).to_have_count(15)

    search = page.get_by_role("searchbox", name="Search")
    search.type("an")  # typed into a field: the letter is a letter
    expect(search).to_have_value("an")
    assert "#/new" not in page.url and "#/entry/" not in page.url
    search.fill("")
    search.blur()

    page.keyboard.press("n")
    title = page.get_by_role("textbox", name="Title")
    expect(title).to_be_focused()
    expect(title).to_have_value("")  # the key was not typed into the new entry


def test_the_n_key_works_on_a_korean_keyboard(pages, server):
    page = pages.open("/", locale="ko-KR")
    expect(page.get_by_role("link", name="새 일기")).to_have_attribute("title", "새 일기 (N)")
    expect(page.get_by_text("아직 쓴 일기가 없어요.")).to_be_visible()
    # Hangul mode types ㅜ on the N key.
    page.dispatch_event("body", "keydown", {"key": "ㅜ", "code": "KeyN"})
    expect(page.get_by_role("textbox", name="일기 제목")).to_be_focused()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_on_any_screen_of_a_phone(pages, server, scheme):
    page = pages.open("/", color_scheme=scheme, **PHONE)
    expect(page.get_by_role("link", name="Write the first entry")).to_be_visible()
    audit(page)  # the empty diary
    server.load_sample()
    server.create("Today's entry", "Written today, with a word to find: kimbap.")
    binned = server.create("Binned", "")
    server.api("DELETE", f"entries/{binned['id']}")
    page.reload()
    expect(page.locator(".row")).to_have_count(16)
    audit(page)  # the list
    page.get_by_role("searchbox").fill("kimbap")
    expect(page.locator("mark").first).to_be_visible()
    audit(page)  # the search
    page.locator(".row-link:visible").first.click()
    expect(page.locator(".title-field")).to_have_value("Today's entry")
    audit(page)  # an entry
    page.goto("/#/trash")
    expect(page.locator(".trash-row")).to_have_count(1)
    audit(page)  # the trash
    login = pages.context(log_in=False, color_scheme=scheme, **PHONE).new_page()
    login.goto("/")
    expect(login.get_by_role("button", name="Log in")).to_be_visible()
    audit(login)  # the login


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_side_by_side(pages, server, scheme):
    page = pages.open("/", color_scheme=scheme)
    expect(page.get_by_role("link", name="Write the first entry")).to_be_visible()
    audit(page)  # the empty diary, and the page beside it
    server.load_sample()
    page.reload()
    expect(page.locator(".row")).to_have_count(15)
    audit(page)
    page.locator(".row-link").nth(2).click()
    expect(page.locator(".title-field")).not_to_have_value("")
    audit(page)  # the list beside an entry, its row marked
