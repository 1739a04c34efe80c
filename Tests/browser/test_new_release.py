"""A new release: the server restarts with changed web files (served from a copy of them,
`DIARY_WEB_ROOT`), the page that is open keeps running the old files and offers "Reload for the
new version"; after the click it runs the new files, all of them, and nothing typed is lost.
Also the notice's screenshots and its axe audit."""

import shutil
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Error as PlaywrightError, expect

import conftest
from conftest import DESKTOP, PHONE, wait_for

PUBLIC = Path(__file__).resolve().parents[2] / "Sources/DiaryServer/Resources/Public"
SHOTS = Path(__file__).parent / "screenshots"
NOTICE = {"en-US": ("A new version of the diary is ready.", "Reload for the new version"),
          "ko-KR": ("일기장의 새 버전이 준비됐어요.", "새 버전으로 다시 불러오기")}


class Releases:
    """The web files a server serves, copied so a test can make the next release of them."""

    def __init__(self, root: Path, server):
        self.root = root
        self.server = server
        self.number = 1

    def next(self):
        """Restarts the server with release number + 1: two files changed, the app's name in
        strings.en.js and a mark in app.css, so a page shows which release each of them came from."""
        self.server.stop()
        self.number += 1
        strings = self.root / "js/strings.en.js"
        text = strings.read_text()
        text = text.replace("appName: 'Diary',", f"appName: 'Diary {self.number}',", 1)
        text = text.replace(f"appName: 'Diary {self.number - 1}',", f"appName: 'Diary {self.number}',", 1)
        strings.write_text(text)
        with open(self.root / "app.css", "a") as css:
            css.write(f"\n:root {{ --release: '{self.number}'; }}\n")
        self.server.start()


@pytest.fixture
def server(tmp_path):
    """This module's server serves a copy of the web files (conftest's serves the bundled ones)."""
    root = tmp_path / "web"
    shutil.copytree(PUBLIC, root)
    srv = conftest.Server(tmp_path)
    srv.extra_env["DIARY_WEB_ROOT"] = str(root)
    srv.start()
    srv.releases = Releases(root, srv)
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(autouse=True)
def restarts_refuse_for_a_moment(pages):
    """Each release restarts the server: a request the page still had going (on this day's rows,
    the worker's update check) is refused while it is down, as on a real server's restart."""
    pages.allow_errors(r"net::ERR_CONNECTION_REFUSED")


def release_shown(page):
    """Which release the page runs, by each changed file: (the title from strings.en.js, the mark from
    app.css); None while the page is being reloaded."""
    try:
        return page.evaluate("[document.title, getComputedStyle(document.documentElement).getPropertyValue('--release').trim()]")
    except PlaywrightError:
        return None


def controlled(page):
    wait_for(lambda: page.evaluate("Boolean(navigator.serviceWorker.controller)"), message="the worker to control the page")


def test_a_new_release_is_offered_and_after_the_click_only_its_files_run(pages, server):
    context = pages.context(**PHONE)
    page = context.new_page()
    page.goto("/#/new")
    page.get_by_role("textbox", name="Title").fill("Half a thought")
    wait_for(lambda: server.entries(), message="the first save")
    controlled(page)

    server.releases.next()
    # The writer goes on typing; the browser finds the new release (as it does on each visit;
    # here the app asks it, as when a phone brings it back to the front).
    page.evaluate("navigator.serviceWorker.ready.then((r) => r.update())")
    notice = page.get_by_role("status").filter(has_text="A new version of the diary is ready.")
    expect(notice).to_be_visible(timeout=15000)
    page.get_by_role("textbox", name="Write here").fill("typed while the notice shows")
    # Nothing reloads by itself: still the old release, files and text.
    assert release_shown(page) == ["Diary", ""]
    expect(page.get_by_role("textbox", name="Write here")).to_have_value("typed while the notice shows")

    page.get_by_role("button", name="Reload for the new version").click()
    wait_for(lambda: release_shown(page) == ["Diary 2", "'2'"], message="the new release's files, both")
    expect(page.get_by_role("textbox", name="Title")).to_have_value("Half a thought")
    expect(page.get_by_role("textbox", name="Write here")).to_have_value("typed while the notice shows")
    wait_for(lambda: server.entries()[0]["excerpt"] == "typed while the notice shows", message="the words, saved")
    expect(notice).to_have_count(0)

    # The next reload, offline, is the new release too: its cache replaced the old one.
    pages.allow_errors(r"Failed to load resource|ERR_INTERNET_DISCONNECTED|Failed to fetch")
    context.set_offline(True)
    page.goto("/#/")
    page.reload()
    expect(page.get_by_role("link", name="New entry")).to_be_visible()
    assert release_shown(page) == ["Diary 2", "'2'"]
    names = page.evaluate("caches.keys()")
    assert len(names) == 1, names


def test_a_reload_without_the_click_stays_on_the_old_release(pages, server):
    """The worker of the running release serves every file until the writer takes the new one:
    a plain reload shows the notice again instead of mixing the two."""
    page = pages.open("/")
    controlled(page)
    server.releases.next()
    page.reload()
    expect(page.get_by_role("button", name="Reload for the new version")).to_be_visible(timeout=15000)
    page.reload()
    expect(page.get_by_role("button", name="Reload for the new version")).to_be_visible(timeout=15000)
    assert release_shown(page) == ["Diary", ""]
    # The trash's module, loaded on demand, is the same in both releases: it opens.
    page.get_by_role("link", name="Trash").click()
    expect(page.get_by_text("The trash is empty.")).to_be_visible()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_screenshots_and_axe_of_the_notice(pages, server, device, locale, scheme):
    SHOTS.mkdir(exist_ok=True)
    server.load_sample()
    page = pages.open("/", locale=locale, color_scheme=scheme, **(PHONE if device == "phone" else DESKTOP))
    expect(page.locator(".row")).to_have_count(15)
    controlled(page)
    server.releases.next()
    page.reload()
    message, button = NOTICE[locale]
    expect(page.get_by_role("button", name=button)).to_be_visible(timeout=15000)
    expect(page.get_by_role("status").filter(has_text=message)).to_be_visible()
    # The notice sits inside the screen, in the flow: it covers nothing.
    box = page.locator(".update-note").bounding_box()
    viewport = page.viewport_size
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box
    assert box["y"] + box["height"] <= viewport["height"], box
    page.screenshot(path=str(SHOTS / f"update-{device}-{locale}-{scheme}.png"))
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    # The note follows the writer into the editor, under its bar, above the fields.
    page.get_by_role("link", name="New entry" if locale == "en-US" else "새 일기").click()
    title = page.get_by_role("textbox", name="Title" if locale == "en-US" else "일기 제목")
    expect(page.get_by_role("button", name=button)).to_be_visible()
    assert page.locator(".update-note").bounding_box()["y"] < title.bounding_box()["y"]
    page.screenshot(path=str(SHOTS / f"update-editor-{device}-{locale}-{scheme}.png"))
