"""A journal on the home screen: Chromium finds the app installable, the manifest names it in
the browser's language (English or Korean), its icons are PNGs of the sizes it states (the
maskable one full-bleed with the drawing inside the safe zone), iOS finds its tags, and the
app opened from the home screen shows the list, not the login form."""

import json
import struct
import time
import urllib.request

from playwright.sync_api import expect

import diary_harness
from conftest import PHONE, wait_for


def get(server, path):
    with urllib.request.urlopen(server.url + path, timeout=5) as response:
        return response.status, response.headers, response.read()


def png_size(data):
    """The width and height a PNG file states in its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def installability_errors(page):
    """What Chromium says stands between this page and being installed (empty: installable)."""
    cdp = page.context.new_cdp_session(page)
    try:
        return cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    finally:
        cdp.detach()


def test_chromium_finds_the_app_installable(browser, server, tmp_path):
    # Playwright's usual contexts are off the record, where Chromium installs nothing
    # ("in-incognito"): this one has a profile of its own, as a person's browser has.
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=diary_harness.CHROMIUM, base_url=server.url, **PHONE)
    try:
        server.log_in(context)
        page = context.new_page()
        page.goto("/")
        expect(page.get_by_role("link", name="New entry")).to_be_visible()
        # The app links its manifest as it starts; Chromium reads it and the icons when asked.
        expect(page.locator('link[rel="manifest"]')).to_have_count(1)
        errors = []
        wait_for(lambda: not errors.append(installability_errors(page)) and errors[-1] == [], timeout=10,
                 message=f"no installability errors (the last: {errors[-1:]})")
    finally:
        context.close()


def test_the_manifest_names_the_app_in_the_browsers_language(pages, server):
    expected = {"en-US": ("Diary", "manifest.webmanifest", "en"), "ko-KR": ("일기장", "manifest.ko.webmanifest", "ko")}
    for locale, (name, file, lang) in expected.items():
        page = pages.open("/", locale=locale)
        link = page.locator('link[rel="manifest"]')
        expect(link).to_have_attribute("href", file)
        status, headers, body = get(server, "/" + file)
        assert status == 200
        assert headers["Content-Type"] == "application/manifest+json"
        # Revalidated on each visit, so a new release's manifest replaces the old one.
        assert headers["Cache-Control"] == "no-cache"
        manifest = json.loads(body)
        assert (manifest["name"], manifest["short_name"], manifest["lang"]) == (name, name, lang)
        assert manifest["display"] == "standalone"
        assert manifest["start_url"] == "./" and manifest["scope"] == "./"
        assert manifest["theme_color"] == "#ffffff" and manifest["background_color"] == "#ffffff"
        # One app whichever language installed it.
        assert manifest["id"] == "./"
        # What Chromium itself read from the page.
        cdp = page.context.new_cdp_session(page)
        read = wait_for(lambda: cdp.send("Page.getAppManifest").get("data"), message="the manifest Chromium reads")
        assert json.loads(read)["name"] == name
        # iOS names the home screen icon from its own tag, in the page's language too.
        expect(page.locator('meta[name="apple-mobile-web-app-title"]')).to_have_attribute("content", name)


def test_the_icons_are_pngs_of_the_sizes_they_state(server):
    _, _, body = get(server, "/manifest.webmanifest")
    icons = json.loads(body)["icons"]
    pngs = [icon for icon in icons if icon["type"] == "image/png"]
    assert {(icon["sizes"], icon.get("purpose", "any")) for icon in pngs} == {
        ("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in pngs + [{"src": "icons/apple-touch-icon.png", "sizes": "180x180"}]:
        status, headers, data = get(server, "/" + icon["src"])
        assert status == 200 and headers["Content-Type"] == "image/png", icon
        width, height = png_size(data)
        assert f"{width}x{height}" == icon["sizes"], icon
        assert len(data) < 8 * 1024, f"{icon['src']} is {len(data)} bytes: optimise it"


# Draws an icon on a canvas and says what a mask could cut: whether every pixel outside the
# safe zone (a circle of 40% of the size around the centre) is the opaque background colour,
# and whether the drawing shows inside it.
MASKABLE_CHECK = """async (src) => {
  const image = new Image();
  image.src = src;
  await image.decode();
  const size = image.naturalWidth;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, size, size).data;
  const at = (x, y) => Array.from(pixels.slice((y * size + x) * 4, (y * size + x) * 4 + 4)).join(',');
  const background = at(0, 0);
  let outside = 0, drawn = 0;
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
    const inside = Math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2) <= size * 0.4;
    if (!inside && at(x, y) !== background) outside++;
    if (inside && at(x, y) !== background) drawn++;
  }
  return { background, outside, drawn };
}"""


def test_the_maskable_icon_is_full_bleed_with_its_drawing_in_the_safe_zone(pages, server):
    page = pages.open("/")
    for src in ("icons/diary-maskable-512.png", "icons/apple-touch-icon.png"):
        found = page.evaluate(MASKABLE_CHECK, src)
        assert found["background"].endswith(",255"), f"{src}: the background is not opaque"
        assert found["outside"] == 0, f"{src}: {found['outside']} pixels of the drawing outside the safe zone"
        assert found["drawn"] > 1000, f"{src}: no drawing"


def test_ios_finds_its_tags(pages, server):
    page = pages.open("/")
    expect(page.locator('link[rel="apple-touch-icon"]')).to_have_attribute("href", "icons/apple-touch-icon.png")
    expect(page.locator('meta[name="apple-mobile-web-app-capable"]')).to_have_attribute("content", "yes")
    expect(page.locator('meta[name="mobile-web-app-capable"]')).to_have_attribute("content", "yes")
    expect(page.locator('meta[name="apple-mobile-web-app-status-bar-style"]')).to_have_attribute("content", "default")


def test_opened_from_the_home_screen_after_logging_in_it_shows_the_list(pages, server):
    server.create("Written yesterday", "Before the phone")
    context = pages.context(log_in=False, **PHONE)
    page = context.new_page()
    page.goto("/")
    page.get_by_label("Name").fill("tester")
    page.get_by_label("Password").fill("correct horse battery staple")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="Written yesterday")).to_be_visible()

    # The session outlives the browser's closing (a phone ends a home-screen app at will):
    # a cookie with an expiry weeks away, not one for this run of the browser only.
    cookie = next(c for c in context.cookies() if c["httpOnly"])
    assert cookie["expires"] > time.time() + 7 * 86400, cookie

    # The home screen opens the manifest's start URL in the same browser.
    manifest = json.loads(get(server, "/manifest.webmanifest")[2])
    launched = context.new_page()
    launched.goto(manifest["start_url"])
    expect(launched.get_by_role("link", name="Written yesterday")).to_be_visible()
    expect(launched.get_by_label("Password")).to_have_count(0)
