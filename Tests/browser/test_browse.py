"""The diary by its days and tags in the web app: the month's calendar, the year at a glance,
the tags (renamed and merged), the list narrowed by a filter that lives in the address, and on
this day at the top of the list."""

import re
from datetime import datetime, timedelta, timezone

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import PHONE, wait_for


def audit(page):
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


def write(server, title, at, body="", **fields):
    status, entry = server.api("POST", "entries", {"title": title, "body": body, "createdAt": at, **fields})
    assert status == 201, entry
    return entry


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_calendar_marks_the_days_written_and_a_day_opens_its_entries(pages, server, scheme):
    write(server, "Just after midnight in Seoul", "2024-05-01T00:30:00+09:00", "one two")
    write(server, "Morning", "2024-05-03T09:00:00+09:00")
    write(server, "Evening", "2024-05-03T22:00:00+09:00")
    write(server, "June", "2024-06-02T12:00:00+09:00")
    page = pages.open("/#/calendar/2024-05", timezone_id="Asia/Seoul", color_scheme=scheme, **PHONE)
    expect(page.get_by_role("heading", name="May 2024")).to_be_visible()
    written = page.locator(".day-written")
    expect(written).to_have_text(["1", "3"])
    expect(page.get_by_role("link", name="May 3, 2024: 2 entries")).to_be_visible()
    expect(page.get_by_text("3 entries, 9 words, 2 days written")).to_be_visible()
    audit(page)

    page.get_by_role("link", name="May 3, 2024: 2 entries").click()
    expect(page).to_have_url("/#/browse?from=2024-05-03&to=2024-05-03")
    expect(page.locator(".row-title")).to_have_text(["Evening", "Morning"])
    page.go_back()
    expect(page.get_by_role("heading", name="May 2024")).to_be_visible()
    page.get_by_role("link", name="Next month").click()
    expect(page.get_by_role("heading", name="June 2024")).to_be_visible()
    expect(page.locator(".day-written")).to_have_text(["2"])

    # A year at a time, too: the same month of the year before.
    page.get_by_role("link", name="Previous year").click()
    expect(page.get_by_role("heading", name="June 2023")).to_be_visible()
    expect(page.locator(".day-written")).to_have_count(0)

    # In New York the first entry is still April's.
    there = pages.open("/#/calendar/2024-05", timezone_id="America/New_York", **PHONE)
    expect(there.locator(".day-written")).to_have_text(["2", "3"])


def test_the_list_opens_the_calendar_in_korean(pages, server):
    write(server, "Today", datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))
    page = pages.open("/", locale="ko-KR")
    page.get_by_role("link", name="달력").click()
    expect(page.get_by_role("navigation").get_by_role("link", name="달력")).to_have_attribute("aria-current", "page")
    expect(page.locator(".day-written")).to_have_count(1)
    expect(page.get_by_role("columnheader")).to_have_text(["일", "월", "화", "수", "목", "금", "토"])
    audit(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_year_at_a_glance_draws_the_days_months_and_streaks(pages, server, scheme):
    for day in ("01", "02", "03"):
        write(server, f"Day {day}", f"2024-03-{day}T20:00:00Z", "a few words here")
    write(server, "Later", "2024-07-14T08:00:00Z", "more")
    page = pages.open("/#/year/2024", color_scheme=scheme, **PHONE)
    expect(page.get_by_text("4 entries, 20 words, 4 days written")).to_be_visible()
    heatmap = page.get_by_role("img", name="Days written in 2024")
    expect(heatmap).to_be_visible()
    assert heatmap.locator("rect").count() == 366  # a leap year's days, each a square
    assert heatmap.locator("rect.level-1").count() == 4
    expect(heatmap.locator("rect title", has_text="March 2, 2024: 1 entry")).to_have_count(1)
    # Big enough to read on a phone: the squares, and the months' names over them.
    square, label = heatmap.locator("rect").first.bounding_box(), heatmap.locator("text").first.bounding_box()
    assert square["width"] >= 9 and label["height"] >= 10, (square, label)
    expect(heatmap.locator("text")).to_have_text(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"])
    expect(page.get_by_text("3 days · March 1, 2024 – March 3, 2024")).to_be_visible()
    expect(page.locator(".month-bars li")).to_have_count(12)
    expect(page.locator(".month-bars a").nth(2)).to_have_attribute("aria-label", "March: 3 entries, 18 words")
    audit(page)
    page.get_by_role("link", name="Previous year").click()
    expect(page.get_by_text("0 entries, 0 words, 0 days written")).to_be_visible()


def test_tags_are_listed_renamed_and_merged_and_open_their_entries(pages, server):
    write(server, "One", "2024-01-01T12:00:00Z", tags=["trip", "food"])
    write(server, "Two", "2024-01-02T12:00:00Z", tags=["Travel"])
    page = pages.open("/#/tags", **PHONE)
    expect(page.locator(".tag-row .tag")).to_have_text(["food", "Travel", "trip"])
    audit(page)
    page.get_by_role("button", name="Rename the tag trip").click()
    dialog = page.get_by_role("dialog", name="Rename the tag trip")
    dialog.get_by_role("textbox", name="New name").fill("travel")
    dialog.get_by_role("button", name="Rename").click()
    expect(page.get_by_role("status").filter(has_text="Renamed on 2 entries.")).to_be_visible()
    expect(page.locator(".tag-row .tag")).to_have_text(["travel", "food"])
    assert sorted(e["title"] for e in server.entries() if "travel" in e["tags"]) == ["One", "Two"]

    page.get_by_role("link", name="travel 2 entries").click()
    expect(page).to_have_url("/#/browse?tag=travel")
    expect(page.locator(".row-title")).to_have_text(["Two", "One"])


def test_a_filtered_list_lives_in_the_address_and_searches_within_itself(pages, server):
    write(server, "Sea", "2020-06-01T12:00:00Z", "the sea in 2020", tags=["travel"])
    write(server, "Sea again", "2024-06-01T12:00:00Z", "the sea in 2024", tags=["travel"], starred=True)
    write(server, "Home", "2024-07-01T12:00:00Z", "no sea here")
    page = pages.open("/#/browse?tag=travel&starred=true", **PHONE)
    expect(page.locator(".row-title")).to_have_text(["Sea again"])
    audit(page)
    page.reload()  # bookmarked, or reloaded: the same filter
    expect(page.locator(".row-title")).to_have_text(["Sea again"])
    page.get_by_role("link", name="Show all, not only ★ Starred").click()
    expect(page).to_have_url("/#/browse?tag=travel")
    expect(page.locator(".row-title")).to_have_text(["Sea again", "Sea"])
    field = page.get_by_role("searchbox", name="Search these entries")
    field.fill("2020")
    field.press("Enter")
    expect(page.locator(".results .row-title")).to_have_text(["Sea"])
    expect(page.locator(".results mark")).to_have_text(["2020"])
    # An entry opened from it, then Back: the filter is there still.
    page.locator(".results .row-link").first.click()
    expect(page.get_by_role("textbox", name="Title")).to_have_value("Sea")
    page.go_back()
    expect(page.locator(".results .row-title")).to_have_text(["Sea"])
    page.get_by_role("link", name="Show all, not only #travel").click()
    expect(page).to_have_url("/#/browse?q=2020")


def test_on_this_day_starts_the_list(pages, server):
    now = datetime.now(timezone.utc)
    write(server, "A year ago today", now.replace(year=now.year - 1).strftime("%Y-%m-%dT%H:%M:%SZ"), "We went to the sea.")
    write(server, "Five years ago today", now.replace(year=now.year - 5).strftime("%Y-%m-%dT%H:%M:%SZ"))
    write(server, "Not this day", (now - timedelta(days=40)).strftime("%Y-%m-%dT%H:%M:%SZ"))
    write(server, "Written now", now.strftime("%Y-%m-%dT%H:%M:%SZ"))
    page = pages.open("/", **PHONE)
    memories = page.get_by_role("region", name="On this day")
    expect(memories.get_by_role("heading", level=3)).to_have_text(["1 year ago", "5 years ago"])
    expect(memories.locator(".row-title")).to_have_text(["A year ago today", "Five years ago today"])
    audit(page)
    # Each year's newest entry; all of that day a link away.
    expect(memories.get_by_role("link", name="All of that day, 1 year ago")).to_have_attribute(
        "href", f"#/browse?from={now.year - 1:04d}-{now:%m-%d}&to={now.year - 1:04d}-{now:%m-%d}")
    # Opened and left again, the list starts with them still.
    memories.locator(".row-link").first.click()
    expect(page.get_by_role("textbox", name="Title")).to_have_value("A year ago today")
    page.get_by_role("link", name="Back to the list").click()
    expect(page.get_by_role("region", name="On this day").locator(".row-title")).to_have_count(2)
    # A search hides them with the rest of the journal.
    page.get_by_role("searchbox", name="Search").fill("sea")
    expect(page.get_by_role("region", name="On this day")).to_be_hidden()


def test_on_this_day_speaks_korean(pages, server):
    # The browser's clock on May 15, 2026: on this day is of the writer's today.
    write(server, "바다에 간 날", "2025-05-15T03:00:00Z", "파도가 높았다.")
    write(server, "첫눈", "2023-05-15T12:00:00Z")
    write(server, "다른 날", "2025-05-16T12:00:00Z")
    page = pages.context("ko-KR", timezone_id="Asia/Seoul", **PHONE).new_page()
    page.clock.set_system_time(datetime(2026, 5, 15, 9, tzinfo=timezone.utc))
    page.goto("/")
    memories = page.get_by_role("region", name="오늘의 추억")
    expect(memories.get_by_role("heading", level=3)).to_have_text(["1년 전", "3년 전"])
    expect(memories.locator(".row-title")).to_have_text(["바다에 간 날", "첫눈"])
    expect(memories.locator(".row-weekday")).to_have_text(["목", "월"])  # May 15 of 2025 and 2023
    expect(memories.get_by_role("link", name="1년 전 그날의 일기 모두")).to_have_text("그날의 일기 모두")
    expect(memories.get_by_role("link", name="3년 전 그날의 일기 모두")).to_have_attribute(
        "href", "#/browse?from=2023-05-15&to=2023-05-15")
    audit(page)


def test_a_diary_without_earlier_years_shows_no_on_this_day(pages, server):
    server.create("Only today", "")
    page = pages.open("/", **PHONE)
    expect(page.locator(".row-title")).to_have_text(["Only today"])
    page.wait_for_load_state("networkidle")
    expect(page.get_by_role("region", name="On this day")).to_have_count(0)


def test_a_span_of_days_is_chosen_with_date_pickers(pages, server):
    for day in ("2024-04-30", "2024-05-01", "2024-05-15", "2024-05-31", "2024-06-01"):
        write(server, f"On {day}", f"{day}T12:00:00Z")
    page = pages.open("/#/browse?starred=false", **PHONE)
    dates = page.get_by_role("form", name="Between two days")
    dates.get_by_label("From").fill("2024-05-01")
    dates.get_by_label("To").fill("2024-05-31")
    dates.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"from=2024-05-01&to=2024-05-31"))
    expect(page.locator(".row-title")).to_have_text(["On 2024-05-31", "On 2024-05-15", "On 2024-05-01"])
    expect(page.get_by_role("link", name="Show all, not only May 1, 2024 – May 31, 2024")).to_be_visible()
    audit(page)
    page.go_back()
    expect(page.locator(".row-title")).to_have_count(5)


def test_on_this_day_shows_the_nearest_years_and_the_earlier_ones_when_asked(pages, server):
    now = datetime.now(timezone.utc)
    for years in (1, 2, 3, 7, 12):
        write(server, f"{years} years back", now.replace(year=now.year - years).strftime("%Y-%m-%dT%H:%M:%SZ"))
    write(server, "Written now", now.strftime("%Y-%m-%dT%H:%M:%SZ"))
    page = pages.open("/", **PHONE)
    memories = page.get_by_role("region", name="On this day")
    # Today's entries stay near the top: three years, then a button for the rest.
    expect(memories.locator(".row-title")).to_have_text(["1 years back", "2 years back", "3 years back"])
    earlier = memories.get_by_role("button", name="Earlier years")
    audit(page)
    earlier.click()
    expect(memories.locator(".row-title")).to_have_text(
        ["1 years back", "2 years back", "3 years back", "7 years back", "12 years back"])
    expect(memories.get_by_role("heading", level=3)).to_have_text(
        ["1 year ago", "2 years ago", "3 years ago", "7 years ago", "12 years ago"])
    expect(earlier).to_have_count(0)
    # Back from an entry, all of them are still there.
    memories.locator(".row-link").last.click()
    expect(page.get_by_role("textbox", name="Title")).to_have_value("12 years back")
    page.get_by_role("link", name="Back to the list").click()
    expect(page.get_by_role("region", name="On this day").locator(".row-title")).to_have_count(5)
