"""Screenshots of each screen, phone and desktop, English and Korean, light and
dark, written to Tests/browser/screenshots/ for a person to look at.

Besides the sample diary (no weather), a few entries are written with a place, so
the fake Open-Meteo gives each its weather: rows with and without an icon."""

from pathlib import Path

import pytest
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
