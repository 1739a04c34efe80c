"""Screenshots of each screen, phone and desktop, English and Korean, light and
dark, written to Tests/browser/screenshots/ for a person to look at."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from conftest import DESKTOP, PHONE

SHOTS = Path(__file__).parent / "screenshots"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_screenshots(pages, server, device, locale, scheme):
    SHOTS.mkdir(exist_ok=True)
    server.load_sample()
    trashed = server.entries()[3]
    server.api("DELETE", f"entries/{trashed['id']}")
    options = PHONE if device == "phone" else DESKTOP
    page = pages.open("/", locale=locale, color_scheme=scheme, **options)
    name = lambda screen: str(SHOTS / f"{screen}-{device}-{locale}-{scheme}.png")

    expect(page.locator(".row")).to_have_count(14)
    page.screenshot(path=name("list"))
    page.locator(".row-link").first.click()
    expect(page.locator(".title-field")).not_to_have_value("")
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
