"""Screenshots of each screen, phone and desktop, English and Korean, light and
dark, written to Tests/browser/screenshots/ for a person to look at.

Besides the sample diary (no weather), a few entries are written with a place, so
the fake Open-Meteo gives each its weather: rows with and without an icon."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import DESKTOP, PHONE, wait_for

SHOTS = Path(__file__).parent / "screenshots"

# (title, body, Open-Meteo's current weather), oldest first.
WEATHER_ENTRIES = [
    ("Snow on the roofs", "The whole street was white before breakfast.",
     {"weather_code": 73, "is_day": 1, "temperature_2m": -2.6}),
    ("A clear evening", "Walked home under a sky full of stars.",
     {"weather_code": 0, "is_day": 0, "temperature_2m": 11.2}),
    ("Thunder in the afternoon", "The power went out for an hour; we read by the window.",
     {"weather_code": 95, "is_day": 1, "temperature_2m": 24.8}),
    ("Rain in Seoul", "Cold and wet, and the umbrella broke on the bridge.",
     {"weather_code": 61, "is_day": 0, "temperature_2m": 3.4}),
]


def write_with_weather(server, open_meteo):
    for title, body, current in WEATHER_ENTRIES:
        open_meteo.current = {**open_meteo.current, **current}
        status, entry = server.api("POST", "entries", {
            "title": title, "body": body, "location": {"latitude": 37.57, "longitude": 126.98}})
        assert status == 201, entry
        server.weather_of(entry["id"])


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_screenshots(pages, server, open_meteo, device, locale, scheme):
    SHOTS.mkdir(exist_ok=True)
    server.load_sample()
    trashed = server.entries()[3]
    server.api("DELETE", f"entries/{trashed['id']}")
    write_with_weather(server, open_meteo)
    options = PHONE if device == "phone" else DESKTOP
    page = pages.open("/", locale=locale, color_scheme=scheme, **options)
    name = lambda screen: str(SHOTS / f"{screen}-{device}-{locale}-{scheme}.png")

    expect(page.locator(".row")).to_have_count(18)
    expect(page.locator(".row img.weather")).to_have_count(len(WEATHER_ENTRIES))
    # Polled from Python: wait_for_function evaluates its predicate in the page, which the
    # app's Content-Security-Policy (no eval) refuses.
    wait_for(lambda: page.evaluate("[...document.querySelectorAll('.row img.weather')].every((i) => i.complete)"),
             message="the weather icons to load")
    page.screenshot(path=name("list"))
    page.locator(".row-link").first.click()
    expect(page.locator(".title-field")).not_to_have_value("")
    expect(page.locator(".entry-weather")).to_be_visible()
    wait_for(lambda: page.evaluate("document.querySelector('.entry-weather img').complete"),
             message="the editor's weather icon to load")
    page.screenshot(path=name("editor"))
    page.get_by_role("button", name="More" if locale == "en-US" else "더 보기").click()
    page.wait_for_timeout(300)
    page.screenshot(path=name("menu"))
    page.keyboard.press("Escape")
    page.goto("/#/trash")
    expect(page.locator(".trash-row")).to_have_count(1)
    page.screenshot(path=name("trash"))
    page.goto("/")
    page.get_by_role("searchbox").fill("serenity")
    expect(page.locator("mark").first).to_be_visible()
    page.screenshot(path=name("search"))


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_screenshots_while_the_diary_cannot_be_reached(pages, server, device, locale):
    """The page loaded but its server does not answer: the note, the list of what waits in this
    browser, and the editor, light and dark."""
    SHOTS.mkdir(exist_ok=True)
    pages.allow_errors(r"Failed to load resource: net::ERR_INTERNET_DISCONNECTED")
    options = PHONE if device == "phone" else DESKTOP
    page = pages.context(locale, **options).new_page()
    page.route("**/api/v1/**", lambda route: route.abort("internetdisconnected"))
    page.goto("/#/new")
    note = page.locator(".offline-note")
    expect(note).to_be_visible()
    page.locator(".title-field").type("A walk by the river" if locale == "en-US" else "강가 산책")
    page.keyboard.press("Enter")
    page.keyboard.type("The water was high after the rain." if locale == "en-US" else "비가 온 뒤라 물이 불어 있었다.")
    page.locator(".title-field").focus()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        name = lambda screen: str(SHOTS / f"offline-{screen}-{device}-{locale}-{scheme}.png")
        page.screenshot(path=name("editor"))
        page.locator(".bar .icon-button").first.click()  # back to the list
        expect(page.locator(".row")).to_have_count(1)
        # Nothing sticks out sideways.
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        page.screenshot(path=name("list"))
        results = Axe().run(page)
        assert results.violations_count == 0, results.generate_report()
        page.locator(".row-link").click()
        expect(note).to_be_visible()
