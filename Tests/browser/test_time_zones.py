"""Time zones: an entry keeps the zone its writer's clock was in, and shows its day and time
there, wherever it is read: under the month and on the day it was written, in the list, the
editor, a search, what is shared and the device's copy for offline. What the app writes takes the
browser's zone with it. (The browser's zone stays for Today and Yesterday: the reader's today.)"""

import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import DESKTOP, NO_WORKER, PHONE, kept_for_offline, wait_for

SHOTS = Path(__file__).parent / "screenshots"
OFFLINE_ERRORS = r"Failed to load resource|ERR_INTERNET_DISCONNECTED|Failed to fetch"
CAPTURE_SHARE = "window.sharedData = []; navigator.share = async (data) => { window.sharedData.push(data); };"

# Breakfast in Seoul on 1 May 2024: in London it was still 30 April, 23:30.
IN_SEOUL = "2024-05-01T07:30:00+09:00"


def write(server, title, at, zone=None, body=""):
    fields = {"title": title, "body": body, "createdAt": at, **({"timeZone": zone} if zone else {})}
    status, entry = server.api("POST", "entries", fields)
    assert status == 201, entry
    return entry


def month(page, name):
    """The month header's group of rows."""
    return page.locator(".month-group", has=page.get_by_role("heading", level=2, name=name, exact=True))


def row(page, title):
    """The journal's row of the entry (not a search result's)."""
    return page.locator(".journal .row", has=page.locator(".row-title", has_text=title))


def test_an_entry_shows_under_the_month_and_day_and_at_the_time_where_it_was_written(pages, server):
    zoned = write(server, "Breakfast in Seoul", IN_SEOUL, "Asia/Seoul", "Rice and soup before the train.")
    write(server, "No zone known", IN_SEOUL)
    assert zoned["timeZone"] == "Asia/Seoul"
    context = pages.context(timezone_id="Europe/London", **PHONE)
    context.add_init_script(CAPTURE_SHARE)
    page = context.new_page()
    page.goto("/")

    # Its own zone's day: 1 May at 7:30 in the morning, under May 2024. (The list keeps the order of
    # the moments: the two were written at the same one.)
    expect(page.get_by_role("heading", level=2)).to_have_count(2)
    seoul = month(page, "May 2024").locator(".row")
    expect(seoul.locator(".row-title")).to_have_text(["Breakfast in Seoul"])
    expect(seoul.locator(".row-date")).to_have_text("1")
    expect(seoul.locator(".row-weekday")).to_have_text("Wed")
    expect(seoul.locator(".row-time")).to_have_text("7:30 AM")
    expect(seoul.locator("time")).to_have_text("May 1, 2024, 7:30 AM")  # a screen reader's date
    # One whose zone is not known shows in the browser's: 30 April, 23:30 in London.
    london = month(page, "April 2024").locator(".row")
    expect(london.locator(".row-title")).to_have_text(["No zone known"])
    expect(london.locator(".row-date")).to_have_text("30")
    expect(london.locator(".row-weekday")).to_have_text("Tue")
    expect(london.locator(".row-time")).to_have_text("11:30 PM")

    # A search result says its whole date, where it was written.
    page.get_by_role("searchbox", name="Search").fill("rice")
    found = page.get_by_role("list", name="Search").locator(".row")
    expect(found.locator(".row-title")).to_have_text(["Breakfast in Seoul"])
    expect(found.locator(".row-when")).to_have_text("May 1, 2024")
    page.get_by_role("searchbox", name="Search").fill("")

    # The entry's page, and what it shares.
    row(page, "Breakfast in Seoul").locator(".row-link").click()
    expect(page.get_by_role("textbox", name="Title")).to_have_value("Breakfast in Seoul")
    expect(page.locator(".entry-date")).to_have_text("Wednesday, May 1, 2024")
    expect(page.locator(".entry-time")).to_have_text("7:30 AM")
    page.get_by_role("button", name="More", exact=True).click()
    page.get_by_role("dialog", name="More").get_by_role("button", name="Share").click()
    shared = wait_for(lambda: page.evaluate("window.sharedData"), message="navigator.share")
    assert shared[0]["text"] == "Breakfast in Seoul\nMay 1, 2024\n\nRice and soup before the train."


def test_korean_dates_follow_the_entrys_zone_too(pages, server):
    write(server, "서울의 아침", IN_SEOUL, "Asia/Seoul")
    page = pages.open("/", locale="ko-KR", timezone_id="Europe/London", **PHONE)
    expect(page.get_by_role("heading", level=2)).to_have_text(["2024년 5월"])
    expect(page.locator(".row-date")).to_have_text("1")
    expect(page.locator(".row-weekday")).to_have_text("수")
    expect(page.locator(".row-time")).to_have_text("오전 7:30")


def test_today_and_yesterday_are_the_readers_days(pages, server):
    # Kiritimati is a whole day ahead of Honolulu: an entry written there now is on Honolulu's
    # tomorrow, and one written there a day ago is on Honolulu's today.
    now = datetime.now(timezone.utc)
    stamp = lambda moment: moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    write(server, "A day ago in Kiritimati", stamp(now - timedelta(days=1)), "Pacific/Kiritimati")
    write(server, "Now in Kiritimati", stamp(now), "Pacific/Kiritimati")
    write(server, "Now, zone unknown", stamp(now))
    page = pages.open("/", timezone_id="Pacific/Honolulu")
    expect(row(page, "Now, zone unknown").locator(".row-near")).to_have_text("Today")
    expect(row(page, "A day ago in Kiritimati").locator(".row-near")).to_have_text("Today")
    expect(row(page, "Now in Kiritimati").locator(".row-near")).to_have_count(0)


def test_a_zone_this_browser_does_not_know_shows_in_the_browsers_own(pages, server):
    write(server, "From a newer world", IN_SEOUL, "Asia/Seoul")
    context = pages.context(timezone_id="Europe/London", **NO_WORKER)
    page = context.new_page()

    def unknown_zone(route):
        rows = route.fetch().json()
        for entry in rows["entries"]:
            entry["timeZone"] = "Mars/Olympus_Mons"
        route.fulfill(status=200, content_type="application/json", body=json.dumps(rows))

    page.route("**/api/v1/entries?*", unknown_zone)
    page.goto("/")
    expect(page.get_by_role("heading", level=2)).to_have_text(["April 2024"])
    expect(page.locator(".row-time")).to_have_text("11:30 PM")


@pytest.mark.parametrize("offline", [False, True], ids=["online", "offline"])
def test_an_entry_written_in_the_app_keeps_the_browsers_zone(pages, server, offline):
    context = pages.context(timezone_id="Asia/Seoul", **PHONE)
    page = context.new_page()
    page.goto("/")
    page.get_by_role("link", name="New entry").click()
    title = page.get_by_role("textbox", name="Title")
    expect(title).to_be_focused()
    if offline:
        # Written with no connection: the outbox sends it once it is back.
        pages.allow_errors(OFFLINE_ERRORS)
        context.set_offline(True)
    title.fill("Written in Seoul")
    page.get_by_role("textbox", name="Write here").fill("On the bus to Jongno.")
    if offline:
        expect(page.locator("#save-status")).to_have_text(re.compile("^Not saved yet"), timeout=10000)
        context.set_offline(False)
    entry = wait_for(lambda: next((e for e in server.entries() if e["title"] == "Written in Seoul"), None),
                     timeout=20, message="the entry on the server")
    assert entry.get("timeZone") == "Asia/Seoul", entry
    assert server.entry(entry["id"])["timeZone"] == "Asia/Seoul"


def test_a_new_date_and_time_from_the_picker_takes_the_browsers_zone(pages, server):
    entry = write(server, "Breakfast in Seoul", IN_SEOUL, "Asia/Seoul")
    page = pages.open(f"/#/entry/{entry['id']}", timezone_id="Europe/London", **PHONE)
    expect(page.locator(".entry-time")).to_have_text("7:30 AM")
    page.get_by_role("button", name="More", exact=True).click()
    page.get_by_role("dialog").get_by_role("button", name="Change the date and time").click()
    dialog = page.get_by_role("dialog", name="Change the date and time")
    # The picker speaks the browser's clock, and so does the time chosen.
    expect(dialog.get_by_label("Written on")).to_have_value("2024-04-30T23:30")
    dialog.get_by_label("Written on").fill("2024-05-02T08:00")
    dialog.get_by_role("button", name="Change").click()
    wait_for(lambda: server.entry(entry["id"])["createdAt"] == "2024-05-02T07:00:00.000Z", message="the new moment saved")
    assert server.entry(entry["id"])["timeZone"] == "Europe/London"
    expect(page.locator(".entry-date")).to_have_text("Thursday, May 2, 2024")
    expect(page.locator(".entry-time")).to_have_text("8:00 AM")


# A time the clocks skip is dated as far later as they go forward, one they show twice the first
# time: the rule `diary new --date` and a jrnl import follow (Tests/DiaryCoreTests/ClockChangeTests).
CLOCK_CHANGES = [
    ("America/New_York", "2026-03-08T02:30", "2026-03-08T07:30:00.000Z", "3:30 AM"),  # skipped
    ("America/New_York", "2026-11-01T01:30", "2026-11-01T05:30:00.000Z", "1:30 AM"),  # repeated
    ("Europe/Berlin", "2026-10-25T02:30", "2026-10-25T00:30:00.000Z", "2:30 AM"),  # repeated
    ("Australia/Sydney", "2026-04-05T02:30", "2026-04-04T15:30:00.000Z", "2:30 AM"),  # repeated
    ("Australia/Lord_Howe", "2026-10-04T02:15", "2026-10-03T15:45:00.000Z", "2:45 AM"),  # skipped, 30 minutes
    ("Asia/Seoul", "2026-03-08T02:30", "2026-03-07T17:30:00.000Z", "2:30 AM"),  # no summer time
]


def test_the_picker_reads_a_time_the_clocks_skip_or_repeat_as_the_command_line_does(pages, server):
    for zone, typed, moment, shown in CLOCK_CHANGES:
        entry = write(server, f"Late in {zone}", IN_SEOUL, "Asia/Seoul")
        page = pages.open(f"/#/entry/{entry['id']}", timezone_id=zone, **PHONE)
        expect(page.get_by_role("textbox", name="Title")).to_have_value(f"Late in {zone}")
        page.get_by_role("button", name="More", exact=True).click()
        page.get_by_role("dialog").get_by_role("button", name="Change the date and time").click()
        dialog = page.get_by_role("dialog", name="Change the date and time")
        dialog.get_by_label("Written on").fill(typed)
        dialog.get_by_role("button", name="Change").click()
        wait_for(lambda: server.entry(entry["id"])["createdAt"] == moment, message=f"{typed} in {zone} saved as {moment}")
        assert server.entry(entry["id"])["timeZone"] == zone
        expect(page.locator(".entry-time")).to_have_text(shown)


def test_offline_the_devices_rows_show_where_the_entries_were_written(pages, server):
    pages.allow_errors(OFFLINE_ERRORS)
    opened = write(server, "Opened in Seoul", IN_SEOUL, "Asia/Seoul")
    write(server, "Listed in Seoul", "2024-05-01T07:00:00+09:00", "Asia/Seoul")
    context = pages.context(timezone_id="Europe/London")
    page = context.new_page()
    page.goto("/")
    expect(page.locator(".row")).to_have_count(2)
    # One row as the list gave it, one as the device makes it from the whole entry.
    row(page, "Opened in Seoul").locator(".row-link").click()
    expect(page.locator(".entry-time")).to_have_text("7:30 AM")
    page.get_by_role("link", name="Back to the list").click()
    kept_for_offline(page)
    kept = wait_for(lambda: page.evaluate(f"""async () => {{
      const db = await (await import('./js/device.js')).open();
      return new Promise((resolve) => {{
        const found = db.transaction('entries').objectStore('entries').getAll();
        found.onsuccess = () => resolve(found.result.find((e) => e.id === '{opened["id"]}' && e.entry));
      }});
    }}"""), message="the opened entry, kept on the device")
    assert kept["row"]["timeZone"] == "Asia/Seoul"

    context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", level=2)).to_have_text(["May 2024"])
    expect(page.locator(".row-time")).to_have_text(["7:30 AM", "7:00 AM"])


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_screenshot_of_the_list_with_an_entry_from_another_zone(pages, server, size, locale):
    SHOTS.mkdir(exist_ok=True)
    server.load_sample()
    write(server, "서울의 아침" if locale == "ko-KR" else "Breakfast in Seoul", IN_SEOUL, "Asia/Seoul",
          "밥과 국을 먹고 기차를 탔다." if locale == "ko-KR" else "Rice and soup before the train.")
    write(server, "런던의 저녁" if locale == "ko-KR" else "An evening in London", "2024-04-30T20:00:00+01:00", "Europe/London",
          "비가 그쳤다." if locale == "ko-KR" else "The rain stopped at last.")
    page = pages.open("/", locale=locale, timezone_id="Europe/London", **(PHONE if size == "phone" else DESKTOP))
    expect(page.locator(".row")).to_have_count(17)
    page.screenshot(path=str(SHOTS / f"list-time-zones-{size}-{locale}.png"))
    assert Axe().run(page).violations_count == 0
