"""The weather of the moment: a new entry asks the browser once where the writer is,
sends the place rounded to two decimals with its first save (never waiting for it),
and the server's weather, from a local fake Open-Meteo, shows in the list and the editor."""

import re

from playwright.sync_api import expect

from conftest import PHONE, kept_for_offline, wait_for

SEOUL = {"latitude": 37.566535, "longitude": 126.977969}
NOTICE = "Weather needs your location."

# Counts the notices shown in the page (the toast is reused, so its text is watched).
COUNT_NOTICES = """
window.__notices = [];
new MutationObserver(() => {
  const toast = document.getElementById('toast');
  const text = toast && !toast.hidden ? toast.textContent : '';
  if (text && text !== window.__lastToast) window.__notices.push(text);
  window.__lastToast = text;
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
"""


def write_entry(page, title, body):
    page.get_by_role("link", name="New entry").click()
    page.get_by_role("textbox", name="Title").fill(title)
    page.get_by_role("textbox", name="Write here").fill(body)
    page.get_by_role("link", name="Back to the list").click()
    expect(page.locator(".row-title").filter(has_text=title)).to_be_visible()


def creates(page):
    """The bodies of the POSTs the page sends to create entries."""
    sent = []
    page.on("request", lambda r: r.method == "POST" and r.url.endswith("/api/v1/entries")
            and sent.append(r.post_data_json))
    return sent


def test_with_the_location_allowed_the_row_shows_the_weather_of_the_moment(pages, server, open_meteo):
    context = pages.context()
    context.grant_permissions(["geolocation"])
    context.set_geolocation(SEOUL)
    page = context.new_page()
    sent = creates(page)
    page.goto("/")

    write_entry(page, "Rain in Seoul", "Cold and wet.")

    # The place left the browser already rounded to two decimals.
    assert len(sent) == 1
    assert sent[0]["location"] == {"latitude": 37.57, "longitude": 126.98}
    entry = server.entries()[0]
    stored = server.entry(entry["id"])
    assert stored["location"] == {"latitude": 37.57, "longitude": 126.98}
    # The server asked the weather provider with two-decimal values.
    weather = server.weather_of(entry["id"])
    assert weather["icon"] == "rain-night"
    query = open_meteo.requests[0]
    assert re.fullmatch(r"-?\d+\.\d{1,2}", query["latitude"]) and re.fullmatch(r"-?\d+\.\d{1,2}", query["longitude"])
    assert (float(query["latitude"]), float(query["longitude"])) == (37.57, 126.98)

    page.reload()
    icon = page.locator(".row").filter(has_text="Rain in Seoul").locator(".row-meta img.weather")
    expect(icon).to_have_attribute("src", re.compile(r"/?icons/weather/rain-night\.svg$"))
    expect(icon).to_have_attribute("alt", "Slight rain")
    expect(icon).to_have_attribute("title", "Slight rain, 3°C")
    assert page.evaluate("(img) => img.complete && img.naturalWidth > 0", icon.element_handle()), "the icon did not load"
    box = icon.bounding_box()
    assert 16 <= box["width"] <= 18 and 16 <= box["height"] <= 18, box
    # The icon sits on the date's line, centred with it.
    date = page.locator(".row").filter(has_text="Rain in Seoul").locator(".row-meta time").bounding_box()
    assert abs((box["y"] + box["height"] / 2) - (date["y"] + date["height"] / 2)) <= 2, (box, date)

    # The editor shows it under the date, beside the time: icon, words and rounded temperature.
    page.get_by_role("link", name="Rain in Seoul").click()
    header = page.locator(".entry-weather")
    expect(header).to_contain_text("Slight rain")
    expect(header).to_contain_text("3°C")
    expect(header.locator("img")).to_have_attribute("src", re.compile(r"icons/weather/rain-night\.svg$"))
    expect(page.locator(".entry-date")).to_have_text(re.compile(r"^\w+, \w+ \d+, \d{4}$"))
    expect(page.locator("#toast")).to_be_hidden()


def test_a_new_entry_shows_its_weather_in_the_editor_once_the_server_has_it(pages, server, open_meteo):
    context = pages.context(**PHONE)
    context.grant_permissions(["geolocation"])
    context.set_geolocation(SEOUL)
    page = context.new_page()
    page.goto("/#/new")
    page.get_by_role("textbox", name="Title").fill("Still writing")
    expect(page.locator(".entry-weather")).to_contain_text("Slight rain", timeout=10000)
    expect(page.locator(".entry-weather")).to_contain_text("3°C")


def test_with_the_location_refused_the_entry_is_saved_and_the_notice_shown_once(pages, server, open_meteo):
    context = pages.context()  # no permission granted: the browser refuses
    context.add_init_script(COUNT_NOTICES)
    page = context.new_page()
    sent = creates(page)
    page.goto("/")

    write_entry(page, "No place", "Saved all the same.")
    expect(page.locator("#toast")).to_have_text(NOTICE)
    # The notice comes as the location is refused; the save reaches the server a moment later.
    entry = wait_for(lambda: server.entries(), message="the entry on the server")[0]
    assert entry["title"] == "No place"
    assert server.entry(entry["id"])["location"] is None
    assert "location" not in sent[0]

    write_entry(page, "Second", "No notice this time.")
    wait_for(lambda: [e["title"] for e in server.entries()] == ["Second", "No place"], message="the second entry on the server")
    assert page.evaluate("window.__notices").count(NOTICE) == 1
    expect(page.locator(".row img.weather")).to_have_count(0)

    # Remembered by the browser: not after a reload either.
    page.reload()
    write_entry(page, "Third", "Still no notice.")
    wait_for(lambda: any(e["title"] == "Third" for e in server.entries()), message="the third entry on the server")
    assert page.evaluate("window.__notices").count(NOTICE) == 0
    assert open_meteo.requests == []


def test_the_notice_is_in_korean_for_a_korean_browser(pages, server, open_meteo):
    page = pages.open("/#/new", locale="ko-KR")
    page.get_by_role("textbox", name="일기 제목").fill("위치 없음")
    expect(page.locator("#toast")).to_have_text("날씨를 기록하려면 위치 권한이 필요해요.")


def test_a_slow_position_never_delays_the_save_and_is_not_sent_later(pages, server, open_meteo):
    context = pages.context()
    context.add_init_script("""
      window.__asked = [];
      navigator.geolocation.getCurrentPosition = (ok, fail, options) => {
        window.__asked.push(options);
        setTimeout(() => { ok({ coords: { latitude: 37.566535, longitude: 126.977969, accuracy: 3000 } }); window.__positioned = true; }, 2500);
      };
    """)
    page = context.new_page()
    sent = creates(page)
    page.goto("/#/new")
    page.get_by_role("textbox", name="Title").fill("In a hurry")
    wait_for(lambda: server.entries(), timeout=2, message="the save, before the position came")
    wait_for(lambda: page.evaluate("window.__positioned === true"), message="the late position")
    page.get_by_role("textbox", name="Write here").fill("More words")
    wait_for(lambda: server.entries()[0]["excerpt"] == "More words", message="the edit")

    assert len(sent) == 1 and "location" not in sent[0]
    assert page.evaluate("window.__asked") == [{"enableHighAccuracy": False, "maximumAge": 600000, "timeout": 8000}]
    assert server.entry(server.entries()[0]["id"])["location"] is None
    expect(page.locator("#toast")).to_be_hidden()  # not refused: nothing to say
    assert open_meteo.requests == []


def test_an_old_entry_asks_for_no_position(pages, server):
    entry = server.create("Old", "Written before")
    context = pages.context()
    context.add_init_script("""
      window.__asked = 0;
      navigator.geolocation.getCurrentPosition = () => { window.__asked += 1; };
    """)
    page = context.new_page()
    page.goto(f"/#/entry/{entry['id']}")
    page.get_by_role("textbox", name="Write here").fill("Edited")
    wait_for(lambda: server.entry(entry["id"])["body"] == "Edited", message="the edit")
    assert page.evaluate("window.__asked") == 0
    expect(page.locator(".entry-weather")).to_have_count(0)


def test_a_weather_icon_is_served_as_svg(server):
    import urllib.request

    with urllib.request.urlopen(server.url + "/icons/weather/rain-night.svg", timeout=5) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].split(";")[0].strip() == "image/svg+xml"
        assert response.read().lstrip().startswith(b"<svg")


COUNT_LOCATION_ASKS = """
  window.__asked = 0;
  navigator.geolocation.getCurrentPosition = () => { window.__asked += 1; };
"""


def write_new_entry(page, title):
    page.get_by_role("link", name="New entry").click()
    page.get_by_role("textbox", name="Title").fill(title)
    page.get_by_role("link", name="Back to the list").click()
    expect(page.get_by_role("link", name=title)).to_be_visible()


def test_with_weather_off_nothing_asks_for_the_location(pages, server):
    # The suite's servers run with `--weather off`.
    context = pages.context()
    context.add_init_script(COUNT_LOCATION_ASKS)
    page = context.new_page()
    page.goto("/")
    write_new_entry(page, "No weather here")
    page.goto("/#/new")
    page.get_by_role("textbox", name="Title").fill("Opened directly")
    wait_for(lambda: len(server.entries()) == 2, message="both entries saved")
    assert page.evaluate("window.__asked") == 0
    expect(page.locator("#toast")).to_be_hidden()  # no "Weather needs your location." either
    # Offline at start, the browser remembers the answer.
    pages.allow_errors(r"Failed to load resource|ERR_INTERNET_DISCONNECTED|Failed to fetch")
    kept_for_offline(page)
    context.set_offline(True)
    page.goto("/#/")
    page.reload()
    page.get_by_role("link", name="New entry").click()
    page.get_by_role("textbox", name="Title").fill("Offline, still no weather")
    assert page.evaluate("window.__asked") == 0


def test_with_weather_on_a_new_entry_asks_for_the_location_once(pages, server, open_meteo):
    context = pages.context()
    context.add_init_script(COUNT_LOCATION_ASKS)
    page = context.new_page()
    page.goto("/")
    write_new_entry(page, "With weather")
    assert page.evaluate("window.__asked") == 1
