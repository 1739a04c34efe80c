"""Photos in the web app (issue 19): a real browser adding a real photo (a phone's JPEG, GPS and
all) that reaches the server scaled and without where it was taken; the strip and the viewer
(caption, move, remove, page with the arrow keys and a swipe); the list's thumbnail; a photo
added offline sent once with its entry; axe-core on the editor with photos and on the viewer,
and screenshots of both for a person to look at."""

import io
import json
import sys
import urllib.request
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from PIL import Image
from playwright.sync_api import expect

from conftest import DESKTOP, PHONE, kept_for_offline, wait_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import photo_files  # noqa: E402

SHOTS = Path(__file__).parent / "screenshots"


def raw(server, method, path, data=None, content_type="application/octet-stream"):
    """A request with bytes (a photo) rather than JSON; the answer's status, headers and bytes."""
    request = urllib.request.Request(server.url + "/api/v1/" + path, data=data, method=method)
    request.add_header("Content-Type", content_type)
    for key, value in server.auth.items():
        request.add_header(key, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def scene(width, height, hue):
    """A PNG that looks like something (a sky over a hill), so the screenshots show photos."""
    image = Image.new("RGB", (width, height))
    sky, ground = [(hue, 160, 230), (250, 200, 120)], [(40, 120 + hue // 4, 70), (20, 70, 40)]
    for y in range(height):
        top = y < height * 0.62
        a, b = sky if top else ground
        f = (y / (height * 0.62)) if top else (y - height * 0.62) / (height * 0.38)
        colour = tuple(int(a[i] + (b[i] - a[i]) * f) for i in range(3))
        image.paste(colour, (0, y, width, y + 1))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def stored_photo(server, data, content_type="image/png"):
    status, _, body = raw(server, "POST", "photos", data, content_type)
    assert status in (200, 201), (status, body)
    return json.loads(body)


def entry_with_photos(server, title, photos, body=""):
    status, entry = server.api("POST", "entries", {"title": title, "body": body, "photos": photos})
    assert status == 201, entry
    return entry


def open_entry(pages, server, entry, **options):
    page = pages.open(f"/#/entry/{entry['id']}", **options)
    expect(page.get_by_role("textbox", name="Title")).to_have_value(entry["title"])
    return page


def loaded(page, selector):
    """Waits until there are images matching `selector` and every one has its pixels (none at
    all is not loaded: the editor draws its photos once the entry has come)."""
    wait_for(lambda: page.evaluate(f"((found) => found.length > 0 && found.every((i) => i.complete && i.naturalWidth > 0))"
                                   f"([...document.querySelectorAll({json.dumps(selector)})])"),
             message=f"{selector} to load")


def test_a_photo_added_in_the_editor_reaches_the_server_scaled_and_without_its_place(pages, server, tmp_path):
    original = photo_files.jpeg(3000, 2000, gps=True)
    assert photo_files.has_gps(original) and b"SN-4242-SECRET" in original
    path = tmp_path / "IMG_0001.jpg"
    path.write_bytes(original)

    page = pages.open("/#/new")
    page.get_by_role("textbox", name="Title").fill("At City Hall")
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Add photos").click()
    chooser.value.set_files(str(path))
    strip = page.locator(".photo-strip")
    expect(strip.get_by_role("button", name="Photo 1 of 1")).to_be_visible()

    entry = wait_for(lambda: next((e for e in server.entries() if e.get("photo")), None), timeout=20,
                     message="the entry with its photo, on the server")
    photo_id = entry["photo"]
    status, headers, stored = raw(server, "GET", f"photos/{photo_id}")
    assert status == 200 and headers["Content-Type"] == "image/jpeg"
    assert not photo_files.has_gps(stored), "the photo keeps no place"
    assert b"SN-4242-SECRET" not in stored and b"DiaryCam" not in stored
    image = Image.open(io.BytesIO(stored))
    assert image.size == (2048, 1365), image.size
    full = server.entry(entry["id"])
    assert full["photos"] == [{"id": photo_id, "caption": "", "width": 2048, "height": 1365}]
    assert full["title"] == "At City Hall"
    # Its thumbnail, made by the browser and sent after it, is served for good.
    status, headers, thumb = wait_for(lambda: (lambda r: r if "immutable" in r[1]["Cache-Control"] else None)(
        raw(server, "GET", f"photos/{photo_id}/thumbnail")), message="the thumbnail")
    assert max(Image.open(io.BytesIO(thumb)).size) <= 512
    # Sent: the strip shows the server's copy, no longer sending.
    expect(strip.get_by_role("button", name="Photo 1 of 1", exact=True)).to_be_visible()


def test_a_photo_alone_is_an_entry_and_a_second_added_by_dropping(pages, server, tmp_path):
    page = pages.open("/#/new")
    expect(page.get_by_role("textbox", name="Title")).to_be_focused()
    path = tmp_path / "a.jpg"
    path.write_bytes(photo_files.jpeg(800, 600))
    page.locator(".editor-screen input[type=file]").set_input_files(str(path))
    entry = wait_for(lambda: next(iter(server.entries()), None), timeout=20, message="the photo-only entry")
    assert entry["title"] == "" and entry.get("photo")
    # A file dropped on the page (a computer) is added too.
    drop = page.evaluate_handle("""() => {
        const data = new DataTransfer();
        const canvas = document.createElement('canvas');
        canvas.width = 40; canvas.height = 30;
        return new Promise((resolve) => canvas.toBlob((blob) => {
            data.items.add(new File([blob], 'dropped.png', { type: 'image/png' }));
            resolve(data);
        }, 'image/png'));
    }""")
    page.locator(".body-field").dispatch_event("drop", {"dataTransfer": drop})
    expect(page.locator(".photo-strip .photo-open")).to_have_count(2)
    wait_for(lambda: len((server.entry(entry["id"]) or {}).get("photos", [])) == 2, timeout=20, message="both photos saved")


@pytest.mark.parametrize("locale, message", [
    ("en-US", "This browser cannot open HEIC photos."),
    ("ko-KR", "이 브라우저는 HEIC 사진을 열 수 없어요."),
])
def test_a_heic_photo_the_browser_cannot_open_is_refused_in_the_writer_s_words(pages, server, tmp_path, locale, message):
    # An iPhone's HEIC (its header; Chromium decodes none): said plainly, and nothing is sent.
    path = tmp_path / "IMG_0002.HEIC"
    path.write_bytes(b"\0\0\0\x18ftypheic\0\0\0\0mif1heic" + bytes(200))
    page = pages.open("/#/new", locale=locale)
    page.get_by_role("textbox").first.fill("HEIC")
    page.locator(".editor-screen input[type=file]").set_input_files(str(path))
    expect(page.locator("#toast")).to_contain_text(message)
    expect(page.locator(".photo-open")).to_have_count(0)
    wait_for(lambda: [e["title"] for e in server.entries()] == ["HEIC"], message="the words, saved without it")
    assert "photo" not in server.entries()[0]


def test_photos_are_captioned_moved_and_removed_and_stay_so_after_a_reload(pages, server):
    a, b, c = (stored_photo(server, scene(600, 400, hue)) for hue in (40, 120, 200))
    entry = entry_with_photos(server, "Three photos", [{"id": a["id"]}, {"id": b["id"]}, {"id": c["id"]}])
    page = open_entry(pages, server, entry)
    strip = page.locator(".photo-strip")
    expect(strip.get_by_role("button")).to_have_count(3)
    strip.get_by_role("button", name="Photo 1 of 3").click()
    viewer = page.get_by_role("dialog", name="Photos")
    expect(viewer).to_be_visible()
    caption = viewer.get_by_role("textbox", name="Caption")
    caption.fill("First light")
    viewer.get_by_role("button", name="Move later").click()
    expect(viewer.locator(".viewer-count")).to_have_text("2 / 3")
    expect(caption).to_have_value("First light")
    viewer.get_by_role("button", name="Next photo").click()
    expect(viewer.locator(".viewer-count")).to_have_text("3 / 3")
    viewer.get_by_role("button", name="Remove photo 3").click()
    expect(viewer.locator(".viewer-count")).to_have_text("2 / 2")
    page.keyboard.press("Escape")
    expect(viewer).to_be_hidden()
    expect(strip.get_by_role("button")).to_have_count(2)
    expect(strip.get_by_role("button").nth(1)).to_be_focused()  # back on the photo shown last

    want = [{"id": b["id"], "caption": ""}, {"id": a["id"], "caption": "First light"}]
    wait_for(lambda: [{"id": p["id"], "caption": p["caption"]} for p in server.entry(entry["id"])["photos"]] == want,
             timeout=20, message="the photos as changed, on the server")
    page.reload()
    expect(strip.get_by_role("button")).to_have_count(2)
    expect(strip.get_by_role("button", name="Photo 2 of 2: First light")).to_be_visible()
    # Their pixels are sized before they come: no shift as they load.
    first = strip.locator("img").first
    assert first.get_attribute("width") == "600" and first.get_attribute("height") == "400"


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_an_entry_shows_its_photos_the_width_of_the_page_and_sharp(pages, server, device):
    wide = stored_photo(server, scene(1600, 1000, 60))
    entry = entry_with_photos(server, "One photo", [{"id": wide["id"]}], "Words under it.")
    page = open_entry(pages, server, entry, **(PHONE if device == "phone" else DESKTOP))
    loaded(page, ".photo-strip img")
    photo = page.locator(".photo-strip img").bounding_box()
    words = page.locator(".body-field").bounding_box()
    assert photo["width"] >= words["width"] - 16, (photo, words)  # as wide as the words below it
    assert abs(photo["height"] - photo["width"] * 1000 / 1600) <= 2, photo  # its own shape
    # Drawn from the photo: its 384-pixel thumbnail would be blurred at this width.
    assert page.locator(".photo-strip img").evaluate("(i) => i.currentSrc").endswith(f"api/v1/photos/{wide['id']}")

    # Several: pages of one row, the next one peeking in at the edge of the screen.
    tall = stored_photo(server, scene(600, 900, 140))
    status, entry = server.api("PATCH", f"entries/{entry['id']}", {"photos": [{"id": wide["id"]}, {"id": tall["id"]}]},
                               headers={"If-Match": f'"{entry["version"]}"'})
    assert status == 200, entry
    page.reload()
    expect(page.locator(".photo-strip img")).to_have_count(2)
    loaded(page, ".photo-strip img")
    first, second = (page.locator(".photo-strip img").nth(i).bounding_box() for i in (0, 1))
    assert first["height"] == second["height"] and first["width"] >= words["width"] * 0.8, (first, second)
    viewport = page.viewport_size["width"]
    assert second["x"] < viewport and second["x"] + second["width"] > viewport, (second, viewport)


def test_the_list_shows_an_entry_s_first_photo_small(pages, server):
    server.create("No photo", "Words only")
    first, second = stored_photo(server, scene(300, 500, 90)), stored_photo(server, scene(500, 300, 30))
    entry_with_photos(server, "With photos", [{"id": first["id"]}, {"id": second["id"]}], "A day out.")
    page = pages.open("/", **PHONE)
    row = page.locator(".row").filter(has_text="With photos")
    thumb = row.locator("img.row-photo")
    expect(thumb).to_have_attribute("src", f"api/v1/photos/{first['id']}/thumbnail")
    assert thumb.get_attribute("loading") == "lazy" and thumb.get_attribute("width") == "64"
    loaded(page, ".row-photo")
    box = thumb.bounding_box()
    assert round(box["width"]) == round(box["height"]) == 64, box
    expect(page.locator(".row").filter(has_text="No photo").locator("img.row-photo")).to_have_count(0)


def test_the_viewer_pages_with_the_arrow_keys_and_a_swipe_and_gives_focus_back(pages, server):
    photos = [stored_photo(server, scene(640, 480, hue)) for hue in (20, 100, 180)]
    entry = entry_with_photos(server, "A walk", [{"id": p["id"], "caption": f"Stop {i + 1}"} for i, p in enumerate(photos)])
    page = open_entry(pages, server, entry, **DESKTOP)
    page.locator(".photo-strip").get_by_role("button", name="Photo 1 of 3: Stop 1").click()
    viewer = page.get_by_role("dialog", name="Photos")
    count = viewer.locator(".viewer-count")
    expect(count).to_have_text("1 / 3")
    expect(viewer.get_by_role("button", name="Close")).to_be_focused()
    expect(viewer.get_by_role("img", name="Photo 1 of 3: Stop 1")).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(count).to_have_text("2 / 3")
    expect(viewer.get_by_role("textbox", name="Caption")).to_have_value("Stop 2")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # the last stays the last
    expect(count).to_have_text("3 / 3")
    page.keyboard.press("ArrowLeft")
    expect(count).to_have_text("2 / 3")
    img = viewer.locator("img.viewer-photo")
    assert img.get_attribute("width") == "640" and img.get_attribute("height") == "480"
    page.keyboard.press("Escape")
    expect(viewer).to_be_hidden()
    expect(page.locator(".photo-strip").get_by_role("button", name="Photo 2 of 3: Stop 2")).to_be_focused()

    phone = open_entry(pages, server, entry, **PHONE)
    phone.locator(".photo-strip").get_by_role("button").first.click()
    viewer = phone.get_by_role("dialog", name="Photos")
    count = viewer.locator(".viewer-count")
    expect(count).to_have_text("1 / 3")
    cdp = phone.context.new_cdp_session(phone)

    def swipe(x0, x1, y=400):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y}]})
        for step in range(1, 6):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x0 + (x1 - x0) * step / 5, "y": y}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    swipe(320, 60)
    expect(count).to_have_text("2 / 3")
    swipe(320, 60)
    expect(count).to_have_text("3 / 3")
    swipe(60, 320)
    expect(count).to_have_text("2 / 3")


def test_a_photo_added_offline_waits_with_the_words_and_each_is_sent_once(pages, server, tmp_path):
    context = pages.context(**PHONE)
    page = context.new_page()
    page.goto("/")
    expect(page.get_by_role("link", name="New entry")).to_be_visible()
    kept_for_offline(page)
    wait_for(lambda: page.evaluate("Promise.all(['js/photos.js', 'photos.css'].map((f) => caches.match(f))).then((f) => f.every(Boolean))"),
             timeout=15, message="the photos' module kept for offline")
    reached = []  # what reached the server: answered requests to the API
    page.on("response", lambda r: "/api/v1/" in r.url and r.request.method != "GET"
            and reached.append((r.request.method, r.url.split("/api/v1/")[1].split("?")[0], r.status)))

    pages.allow_errors(r"Failed to load resource|ERR_INTERNET_DISCONNECTED|Failed to fetch")
    context.set_offline(True)
    page.reload()
    page.get_by_role("link", name="New entry").click()
    page.get_by_role("textbox", name="Title").fill("In the mountains")
    path = tmp_path / "peak.jpg"
    path.write_bytes(photo_files.jpeg(1200, 900, gps=True))
    page.locator(".editor-screen input[type=file]").set_input_files(str(path))
    expect(page.locator(".photo-strip").get_by_role("button", name="Photo 1 of 1 (Waiting to be sent)")).to_be_visible()
    # The page closes and opens again, still offline: the photo waits in the browser.
    page.wait_for_timeout(700)
    page.reload()
    expect(page.get_by_role("textbox", name="Title")).to_have_value("In the mountains")
    expect(page.locator(".photo-strip canvas")).to_have_count(1)
    assert server.entries() == []

    context.set_offline(False)
    entry = wait_for(lambda: next((e for e in server.entries() if e.get("photo")), None), timeout=30,
                     message="the entry and its photo, on the server")
    assert entry["title"] == "In the mountains"
    status, _, stored = raw(server, "GET", f"photos/{entry['photo']}")
    assert status == 200 and not photo_files.has_gps(stored)
    page.wait_for_timeout(1500)  # anything sent twice would have come by now
    photo_posts = [r for r in reached if r[:2] == ("POST", "photos")]
    thumbnails = [r for r in reached if r[0] == "PUT" and r[1].endswith("/thumbnail")]
    saves = [r for r in reached if r[1].startswith("entries")]
    assert len(photo_posts) == 1 and photo_posts[0][2] == 201, reached
    assert len(thumbnails) == 1 and thumbnails[0][2] == 200, reached
    assert [r[:2] for r in saves] == [("POST", "entries")], reached
    assert reached.index(photo_posts[0]) < reached.index(thumbnails[0]) < reached.index(saves[0]), "photos first"
    expect(page.locator(".photo-strip img")).to_have_count(1)


def shoot(page, path):
    page.screenshot(path=path)
    results = Axe().run(page)
    assert results.violations_count == 0, f"{Path(path).name}:\n{results.generate_report()}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_screenshots_of_photos(pages, server, device, locale, scheme):
    SHOTS.mkdir(exist_ok=True)
    english = locale == "en-US"
    photos = [stored_photo(server, scene(w, h, hue)) for w, h, hue in ((1200, 800, 60), (600, 900, 140), (900, 900, 210))]
    captions = ["The view from the top", "", "Lunch"] if english else ["정상에서 본 풍경", "", "점심"]
    server.create("Rain" if english else "비", "A quiet day inside." if english else "집에서 조용히 보낸 하루.")
    entry = entry_with_photos(server, "Up the mountain" if english else "산에 올랐다",
                              [{"id": p["id"], "caption": c} for p, c in zip(photos, captions)],
                              "We left before sunrise and reached the top by nine." if english
                              else "해 뜨기 전에 출발해서 아홉 시쯤 정상에 도착했다.")
    options = PHONE if device == "phone" else DESKTOP
    name = lambda screen: str(SHOTS / f"photos-{screen}-{device}-{locale}-{scheme}.png")
    page = pages.open("/", locale=locale, color_scheme=scheme, **options)
    expect(page.locator(".row-photo")).to_have_count(1)
    loaded(page, ".row-photo")
    shoot(page, name("list"))
    page.locator(".row-link").first.click()
    expect(page.locator(".photo-strip img")).to_have_count(3)
    loaded(page, ".photo-strip img")
    shoot(page, name("editor"))
    page.locator(".photo-open").first.click()
    expect(page.locator(".photo-viewer")).to_be_visible()
    loaded(page, ".viewer-photo")
    shoot(page, name("viewer"))
    page.keyboard.press("Escape")
    # The trash's copy is read, not changed: its viewer shows the caption as text.
    server.api("DELETE", f"entries/{entry['id']}")
    page.goto(f"/#/entry/{entry['id']}")
    page.reload()
    expect(page.locator(".photo-strip img")).to_have_count(3)
    page.locator(".photo-open").first.click()
    loaded(page, ".viewer-photo")
    shoot(page, name("viewer-read"))
