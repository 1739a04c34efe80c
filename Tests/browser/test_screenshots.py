"""Screenshots of each screen, phone and desktop, English and Korean, light and
dark, written to Tests/browser/screenshots/ for a person to look at; axe-core audits every screen
pictured, and finds nothing.

Besides the sample diary (no weather), a few entries are written with a place, so
the fake Open-Meteo gives each its weather: rows with and without an icon."""

from datetime import datetime, timezone
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import DESKTOP, NO_WORKER, PHONE, wait_for

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


def shoot(page, path):
    """The screen's picture, and axe-core finding nothing on it."""
    page.screenshot(path=path)
    results = Axe().run(page)
    assert results.violations_count == 0, f"{Path(path).name}:\n{results.generate_report()}"


def write_with_weather(server, open_meteo):
    for title, body, current in WEATHER_ENTRIES:
        open_meteo.current = {**open_meteo.current, **current}
        # The newest is starred and tagged, so the list and the editor show both.
        marks = {"tags": ["Seoul", "비 오는 날"], "starred": True} if title == "Rain in Seoul" else {}
        status, entry = server.api("POST", "entries", {
            "title": title, "body": body, "location": {"latitude": 37.57, "longitude": 126.98}, **marks})
        assert status == 201, entry
        server.weather_of(entry["id"])


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_screenshots(pages, server, open_meteo, device, locale, scheme):
    SHOTS.mkdir(exist_ok=True)
    english = locale == "en-US"
    options = PHONE if device == "phone" else DESKTOP
    page = pages.open("/", locale=locale, color_scheme=scheme, **options)
    name = lambda screen: str(SHOTS / f"{screen}-{device}-{locale}-{scheme}.png")
    # The empty diary, inviting its first entry.
    expect(page.get_by_role("link", name="Write the first entry" if english else "첫 일기 쓰기")).to_be_visible()
    shoot(page, name("empty"))

    server.load_sample()
    trashed = server.entries()[3]
    server.api("DELETE", f"entries/{trashed['id']}")
    write_with_weather(server, open_meteo)
    page.reload()
    expect(page.locator(".row")).to_have_count(18)
    expect(page.locator(".row img.weather")).to_have_count(len(WEATHER_ENTRIES))
    # Polled from Python: wait_for_function evaluates its predicate in the page, which the
    # app's Content-Security-Policy (no eval) refuses.
    wait_for(lambda: page.evaluate("[...document.querySelectorAll('.row img.weather')].every((i) => i.complete)"),
             message="the weather icons to load")
    shoot(page, name("list"))
    # Scrolled into the sample diary: its month's header stuck under the bar.
    page.locator(".month").last.evaluate("""e => {
        const scroller = e.closest('.pane-list') ?? document.scrollingElement;
        scroller.scrollTop += e.getBoundingClientRect().top + 300;
    }""")
    shoot(page, name("list-scrolled"))
    page.get_by_role("button", name="Account" if english else "계정").click()
    page.wait_for_timeout(300)  # the opening animation ends before the picture (nothing is asserted)
    shoot(page, name("account"))
    page.keyboard.press("Escape")
    page.goto("/")
    page.locator(".row-link").first.click()
    expect(page.locator(".title-field")).not_to_have_value("")
    expect(page.locator(".entry-weather")).to_be_visible()
    wait_for(lambda: page.evaluate("document.querySelector('.entry-weather img').complete"),
             message="the editor's weather icon to load")
    shoot(page, name("editor"))
    page.get_by_role("button", name="More" if english else "더 보기", exact=True).click()
    page.wait_for_timeout(300)  # the opening animation ends before the picture (nothing is asserted)
    shoot(page, name("menu"))
    page.keyboard.press("Escape")
    page.goto("/#/new")
    expect(page.locator(".title-field")).to_be_focused()
    shoot(page, name("new"))
    page.goto("/#/trash")
    expect(page.locator(".trash-row")).to_have_count(1)
    shoot(page, name("trash"))
    page.goto("/")
    page.get_by_role("searchbox").fill("serenity")
    expect(page.locator("mark").first).to_be_visible()
    shoot(page, name("search"))
    # The diary by its days and tags: the sample's month, its year, the tags, a tag's entries.
    page.goto("/#/calendar/2020-12")
    expect(page.locator(".day-written").first).to_be_visible()
    shoot(page, name("calendar"))
    page.goto("/#/year/2020")
    expect(page.locator(".heatmap rect.level-1, .heatmap rect.level-2, .heatmap rect.level-3, .heatmap rect.level-4").first).to_be_attached()
    shoot(page, name("year"))
    page.goto("/#/tags")
    expect(page.locator(".tag-row")).to_have_count(2)
    shoot(page, name("tags"))
    page.goto("/#/browse?tag=Seoul")
    expect(page.locator(".row")).to_have_count(1)
    shoot(page, name("tag"))
    # On this day: an entry of a year ago today (four, on February 29) starts the list.
    now = datetime.now(timezone.utc)
    years = 4 if (now.month, now.day) == (2, 29) else 1
    status, memory = server.api("POST", "entries", {
        "title": "Cherry blossoms at the palace" if english else "궁궐의 벚꽃",
        "body": "We walked slowly and did not talk much." if english else "천천히 걸으며 말을 많이 하지 않았다.",
        "createdAt": now.replace(year=now.year - years).strftime("%Y-%m-%dT%H:%M:%SZ")})
    assert status == 201, memory
    page.goto("/")
    page.reload()  # the list asks for on this day as it loads
    memories = page.get_by_role("region", name="On this day" if english else "오늘의 추억")
    expect(memories.get_by_role("heading", level=3)).to_have_text([(f"{years} year ago" if years == 1 else f"{years} years ago") if english else f"{years}년 전"])
    expect(memories.locator(".row-title")).to_have_text([memory["title"]])
    shoot(page, name("on-this-day"))


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_screenshots_while_the_diary_cannot_be_reached(pages, server, device, locale):
    """The page loaded but its server does not answer: the note, the list of what waits in this
    browser, and the editor, light and dark."""
    SHOTS.mkdir(exist_ok=True)
    pages.allow_errors(r"Failed to load resource: net::ERR_INTERNET_DISCONNECTED")
    options = PHONE if device == "phone" else DESKTOP
    page = pages.context(locale, **options, **NO_WORKER).new_page()
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
        shoot(page, name("editor"))
        page.locator(".bar .icon-button").first.click()  # back to the list
        expect(page.locator(".row")).to_have_count(1)
        # Nothing sticks out sideways.
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        shoot(page, name("list"))
        page.locator(".row-link").click()
        expect(note).to_be_visible()


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_screenshots_of_logging_out_and_of_the_trash_out_of_reach(pages, server, device, locale):
    """Logging out with text not yet sent: the question, then the login form; and the note when
    the trash cannot be opened because the connection dropped. Light and dark."""
    SHOTS.mkdir(exist_ok=True)
    server.load_sample()
    english = locale == "en-US"
    pages.allow_errors(r"net::ERR_INTERNET_DISCONNECTED")
    options = PHONE if device == "phone" else DESKTOP
    for scheme in ("light", "dark"):
        name = lambda screen: str(SHOTS / f"{screen}-{device}-{locale}-{scheme}.png")
        # Without the service worker: the route below plays the connection dropping, and a route
        # does not see what the worker fetches (the trash's module, loaded on demand).
        page = pages.context(locale, color_scheme=scheme, service_workers="block", **options).new_page()
        page.goto("/")
        expect(page.locator(".row")).to_have_count(15)
        # The editor, loaded before the connection drops (the worker, blocked here, keeps it a few
        # seconds after a visit; the page loads it when an entry is first opened).
        page.evaluate("import('./js/editor.js')")
        # The connection drops; later it comes back, but saves still fail.
        down = {"all": True}
        page.route("**/*", lambda route: route.abort("internetdisconnected")
                   if down["all"] or route.request.method == "POST" else route.continue_())
        page.get_by_role("link", name="Trash" if english else "휴지통").click()
        expect(page.locator(".toast button")).to_be_visible()
        # The note's words and its button stay on one line each side, inside the screen.
        toast, button = page.locator(".toast").bounding_box(), page.locator(".toast button").bounding_box()
        assert button["height"] < 48 and toast["x"] >= 0 and toast["x"] + toast["width"] <= options["viewport"]["width"]
        shoot(page, name("trash-unreachable"))

        page.goto("/#/new")  # written while the connection is down: it cannot be sent
        page.get_by_role("textbox", name="Title" if english else "일기 제목").fill("On the train" if english else "기차에서")
        page.get_by_role("link", name="Back to the list" if english else "목록으로").click()
        down["all"] = False
        page.goto("/")
        expect(page.locator(".row")).to_have_count(16)  # the sample diary, and the new entry waiting first
        expect(page.locator(".row").first.locator(".waiting")).to_be_visible()
        page.get_by_role("button", name="Account" if english else "계정").click()
        page.get_by_role("dialog").get_by_role("button", name="Log out" if english else "로그아웃").click()
        question = page.get_by_role("dialog").filter(has_text="Log out anyway?" if english else "그래도 로그아웃할까요?")
        expect(question).to_be_visible()
        page.wait_for_timeout(300)  # the opening animation ends before the picture (nothing is asserted)
        shoot(page, name("log-out-unsent"))
        question.get_by_role("button", name="Log out" if english else "로그아웃").click()
        expect(page.locator("form.account")).to_be_visible()
        shoot(page, name("logged-out"))
        page.context.close()
