"""The settings screen (#/settings, from the account's menu): download the diary, change the
password, sign out another device, revoke an access token, choose the language, and the
server's weather and trash settings. Screenshots phone and desktop, English and Korean, light
and dark, each audited by axe-core."""

import hashlib
import json
import re
import subprocess
import zipfile
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import DESKTOP, DIARY_BIN, PHONE, TESTER
from diary_harness import diary_env
import photo_files  # Tests/, on the path through conftest

SHOTS = Path(__file__).parent / "screenshots"
DAY_ONE = Path(__file__).resolve().parents[1] / "fixtures/dayone/Journal.json"
ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/126.0.0.0 Mobile Safari/537.36")
NEW_PASSWORD = "a brand new password"


def cli(server, *args):
    done = subprocess.run([DIARY_BIN, *args, "--database", str(server.database)], capture_output=True, text=True,
                          env=diary_env(), timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def open_settings(page):
    """From the list, as a writer would: the account's menu, then Settings."""
    page.get_by_role("button", name="Account").click()
    page.get_by_role("dialog").get_by_role("button", name="Settings").click()
    expect(page.get_by_role("heading", level=1, name="Settings")).to_be_visible()
    assert page.url.endswith("#/settings")


def audit(page):
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


def test_changing_the_password_keeps_this_browser_and_the_new_one_logs_in(pages, server):
    # Refused on purpose below: the wrong current password, then the old one at the login form.
    pages.allow_errors(r"status of 400 .*/api/v1/account/password")
    pages.allow_errors(r"status of 401 .*/api/v1/session")
    server.create("Before the change")
    page = pages.open("/")
    expect(page.locator(".row")).to_have_count(1)
    open_settings(page)
    form = page.locator(".settings-form")

    # A wrong current password is said, and changes nothing.
    form.get_by_label("Current password").fill("not the password")
    form.get_by_label("New password").fill(NEW_PASSWORD)
    form.get_by_role("button", name="Change the password").click()
    expect(form.get_by_role("alert")).to_have_text("The current password is wrong.")

    form.get_by_label("Current password").fill(TESTER["password"])
    form.get_by_label("New password").fill(NEW_PASSWORD)
    form.get_by_role("button", name="Change the password").click()
    expect(page.locator("#toast")).to_contain_text("Password changed.")
    expect(form.get_by_label("Current password")).to_have_value("")
    # This browser is still logged in: the list opens.
    page.get_by_role("link", name="Back to the list").click()
    expect(page.locator(".row-title")).to_have_text(["Before the change"])

    # Another browser logs in with the new password, and not with the old one.
    other = pages.open("/", log_in=False)
    other.get_by_label("Name").fill(TESTER["name"])
    other.get_by_label("Password").fill(TESTER["password"])
    other.get_by_role("button", name="Log in").click()
    expect(other.locator(".account-error")).to_have_text("The name or the password is wrong.")
    other.get_by_label("Password").fill(NEW_PASSWORD)
    other.get_by_role("button", name="Log in").click()
    expect(other.locator(".row-title")).to_have_text(["Before the change"])


def test_signing_out_another_device_logs_it_out(pages, server):
    phone = pages.open("/", user_agent=ANDROID, **PHONE)
    expect(phone.get_by_role("button", name="Account")).to_be_visible()
    page = pages.open("/")
    open_settings(page)
    devices = page.get_by_role("list", name="Signed-in devices")
    # The test's own setup session, the phone and this browser.
    expect(devices.get_by_role("listitem")).to_have_count(3)
    this = devices.get_by_role("listitem").filter(has_text="This device")
    expect(this).to_have_count(1)
    expect(this.get_by_role("button")).to_have_count(0)  # this one logs out from the menu

    devices.get_by_role("button", name="Sign out Chrome · Android").click()
    page.get_by_role("dialog").get_by_role("button", name="Sign out").click()
    expect(page.locator("#toast")).to_contain_text("Signed out.")
    expect(devices.get_by_role("listitem")).to_have_count(2)
    expect(devices).not_to_contain_text("Android")

    # The phone finds itself logged out at its next request.
    pages.allow_errors(r"status of 401")
    phone.reload()
    expect(phone.get_by_role("button", name="Log in")).to_be_visible()


def test_revoking_an_access_token_stops_it(pages, server):
    token = cli(server, "token", "create", "backup-script", "--user", TESTER["name"]).strip()
    cli(server, "token", "create", "phone-app", "--user", TESTER["name"])
    assert server.api("GET", "entries", headers={"Authorization": f"Bearer {token}", "Cookie": ""})[0] == 200
    page = pages.open("/#/settings")
    tokens = page.get_by_role("list", name="Access tokens")
    expect(tokens.get_by_role("listitem")).to_have_count(2)
    expect(tokens).to_contain_text("never used")
    assert token not in page.content()

    tokens.get_by_role("button", name="Revoke backup-script").click()
    page.get_by_role("dialog").get_by_role("button", name="Revoke").click()

    expect(page.locator("#toast")).to_contain_text("Revoked.")
    expect(tokens.get_by_role("listitem")).to_have_count(1)
    expect(tokens).to_contain_text("phone-app")
    assert server.api("GET", "entries", headers={"Authorization": f"Bearer {token}", "Cookie": ""})[0] == 401
    assert "backup-script" not in cli(server, "token", "list", "--user", TESTER["name"])


def test_the_diary_downloads_as_json_and_markdown(pages, server):
    server.create("A day at the sea", "Cold water, warm sand.")
    server.create("비 오는 날", "우산을 잃어버렸다.")
    page = pages.open("/#/settings")

    with page.expect_download() as json_download:
        page.get_by_role("link", name="Download as JSON").click()
    assert json_download.value.suggested_filename.endswith(".json")
    exported = json.loads(Path(json_download.value.path()).read_text())
    assert exported["format"] == "diary-export"
    assert [(e["title"], e["body"]) for e in exported["entries"]] == [
        ("A day at the sea", "Cold water, warm sand."), ("비 오는 날", "우산을 잃어버렸다.")]

    with page.expect_download() as md_download:
        page.get_by_role("link", name="Download as Markdown").click()
    assert md_download.value.suggested_filename.endswith(".md")
    markdown = Path(md_download.value.path()).read_text()
    assert markdown.startswith("# Diary\n")
    assert "## A day at the sea" in markdown and "## 비 오는 날" in markdown and "우산을 잃어버렸다." in markdown


def test_the_zips_download_with_their_photos(pages, server):
    server.create("Words only", "Nothing else.")
    page = pages.open("/#/settings")
    for link, name, inside in (("ZIP with the photos", ".zip", "diary.json"), ("Day One ZIP", "-dayone.zip", "Journal.json")):
        with page.expect_download() as download:
            page.get_by_role("link", name=link).click()
        assert download.value.suggested_filename.endswith(name), download.value.suggested_filename
        with zipfile.ZipFile(download.value.path()) as z:
            assert inside in z.namelist()
            assert "Words only" in z.read(inside).decode()


def day_one_zip(folder: Path) -> Path:
    """The Day One fixture journal in a ZIP, with two real photos named by their MD5."""
    journal = json.loads(DAY_ONE.read_text())
    path = folder / "Day One Export.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for entry, data in ((journal["entries"][0], photo_files.jpeg(640, 480, gps=True)), (journal["entries"][2], photo_files.png(200, 120))):
            md5 = hashlib.md5(data).hexdigest()
            entry["photos"][0]["md5"] = md5
            z.writestr(f"photos/{md5}.{entry['photos'][0]['type']}", data)
        z.writestr("Journal.json", json.dumps(journal))
    return path


# Every text the import's status line shows, however briefly.
RECORD_STATUS = """
window.__status = [];
new MutationObserver((changes) => {
  for (const change of changes) for (const node of change.addedNodes) window.__status.push(node.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def test_a_day_one_zip_is_imported_with_its_progress_and_report(pages, server, tmp_path):
    server.create("Mine", "Written here first.")
    context = pages.context(**PHONE)
    context.add_init_script(RECORD_STATUS)
    page = context.new_page()
    page.goto("/#/settings")
    archive = day_one_zip(tmp_path)
    importing = page.get_by_role("region", name="Bring entries in")
    importing.locator("input[type=file]").set_input_files(str(archive))
    expect(importing.locator(".settings-report")).to_contain_text("Imported 3 entries and 2 photos.")
    shown = page.evaluate("window.__status.filter((text) => text && text.trim())")
    assert any(text.startswith("Sending the file…") for text in shown), shown
    assert "Keeping the photos: 2 of 2" in shown and "Saving 3 entries…" in shown, shown
    expect(importing.locator("progress")).to_be_hidden()
    # What Day One had and Diary has no place for is listed, not dropped without a word.
    importing.get_by_text("Not kept (Diary has no place for them):").click()
    expect(importing.locator(".settings-report li").filter(has_text="3 × creationDevice")).to_be_visible()
    page.screenshot(path=str(SHOTS / "settings-imported-phone-en-US-light.png"))
    audit(page)

    # The list has them, the photo's entry with its thumbnail.
    page.get_by_role("link", name="Back to the list").click()
    expect(page.locator(".row-title")).to_contain_text(["Mine", "Jeju, day one"])
    assert len(server.entries()) == 4

    # The same file again adds nothing, and says so.
    page.goto("/#/settings")
    page.get_by_role("region", name="Bring entries in").locator("input[type=file]").set_input_files(str(archive))
    expect(page.locator(".settings-report")).to_have_text(
        re.compile(r"^Imported 0 entries\. Skipped 3 already in the diary\. Nothing new: this file was imported before\."))
    assert len(server.entries()) == 4


def test_a_jrnl_journal_read_on_the_browsers_clock_says_which_times_the_clocks_skip_or_repeat(pages, server, tmp_path):
    journal = tmp_path / "journal.txt"
    journal.write_text("[2026-03-08 02:30] Skipped hour.\n\n[2026-11-01 01:30] Repeated hour.\n")
    page = pages.open("/#/settings", timezone_id="America/New_York", **PHONE)
    page.get_by_role("region", name="Bring entries in").locator("input[type=file]").set_input_files(str(journal))
    report = page.locator(".settings-report p")
    expect(report).to_have_text(["Imported 2 entries.", "1 time the clocks skip was dated as far later as they go forward. "
                                 "1 time the clocks show twice was dated the first."])
    moments = sorted(server.entry(row["id"])["createdAt"] for row in server.entries())
    assert moments == ["2026-03-08T07:30:00.000Z", "2026-11-01T05:30:00.000Z"], moments
    # A journal of plain hours says nothing of clocks, and nothing else either (the report once
    # ended in the word "null" where no list of what was not kept was needed).
    journal.write_text("[2026-05-01 21:30] Plain.\n")
    page.get_by_role("region", name="Bring entries in").locator("input[type=file]").set_input_files(str(journal))
    expect(page.locator(".settings-report")).to_have_text("Imported 1 entry.")


def test_a_jrnl_journal_is_read_on_the_browsers_clock_and_keeps_its_zone(pages, server, tmp_path):
    # jrnl writes the hour without a zone: the page says its own, and the entry keeps it.
    page = pages.open("/#/settings", timezone_id="Asia/Seoul", **PHONE)
    journal = tmp_path / "journal.txt"
    journal.write_text("[2024-05-01 07:30] Morning walk. Cold and bright.\n")
    section = page.get_by_role("region", name="Bring entries in")
    section.locator("input[type=file]").set_input_files(str(journal))
    expect(section.locator(".settings-report")).to_contain_text("Imported 1 entry.")
    [entry] = server.entries()
    assert (entry["createdAt"], entry["timeZone"]) == ("2024-04-30T22:30:00.000Z", "Asia/Seoul"), entry


def test_a_file_that_is_no_diary_is_refused_with_what_to_do(pages, server, tmp_path):
    pages.allow_errors(r"status of 4(15|22)")
    server.create("Mine", "Kept as it was.")
    page = pages.open("/#/settings", locale="ko-KR", **PHONE)
    wrong = tmp_path / "notes.csv"
    wrong.write_text("title,body\nRain,All day\n")
    section = page.get_by_role("region", name="일기 가져오기")
    section.locator("input[type=file]").set_input_files(str(wrong))
    expect(section.get_by_role("alert")).to_contain_text("Day One")
    expect(section.locator(".settings-report")).to_be_empty()
    # A Day One journal with one bad record: nothing is imported, and the record is named.
    journal = json.loads(DAY_ONE.read_text())
    journal["entries"][1]["creationDate"] = "not a date"
    bad = tmp_path / "Journal.json"
    bad.write_text(json.dumps(journal))
    section.locator("input[type=file]").set_input_files(str(bad))
    expect(section.get_by_role("alert")).to_contain_text("Record 2")
    assert [e["title"] for e in server.entries()] == ["Mine"]
    # (The window, not the whole page: the import is at its top, and a whole-page picture of
    # this screen came out blank now and then.)
    page.screenshot(path=str(SHOTS / "settings-import-refused-phone-ko-KR-light.png"))
    audit(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_screenshots_of_an_import_report(pages, server, tmp_path, locale, scheme):
    SHOTS.mkdir(exist_ok=True)
    page = pages.open("/#/settings", locale=locale, color_scheme=scheme, **DESKTOP)
    # (The screen is drawn again once the session comes: the import goes on and shows in it.)
    page.locator("section[aria-labelledby=settings-import] input[type=file]").set_input_files(str(day_one_zip(tmp_path)))
    page.wait_for_load_state("networkidle")
    expect(page.locator(".settings-report p")).to_be_visible()
    page.locator(".settings-report summary").click()
    expect(page.locator(".settings-report li").first).to_be_visible()
    page.screenshot(path=str(SHOTS / f"settings-imported-desktop-{locale}-{scheme}.png"))
    audit(page)


def test_the_language_is_chosen_and_kept(pages, server):
    page = pages.open("/#/settings")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("radio", name="한국어").click()
    expect(page.get_by_role("heading", level=1, name="설정")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    expect(page.get_by_role("radio", name="한국어")).to_be_checked()
    # Kept: the list, opened again, is in Korean too.
    page.goto("/")
    expect(page.get_by_role("link", name="새 일기")).to_be_visible()

    page.goto("/#/settings")
    page.get_by_role("radio", name="브라우저 언어").click()
    expect(page.get_by_role("heading", level=1, name="Settings")).to_be_visible()
    expect(page.get_by_role("radio", name="The browser’s language")).to_be_checked()


def test_the_server_settings_are_said_as_they_are(pages, server):
    page = pages.open("/#/settings")
    # The test servers run with --weather off, and the trash's default 30 days.
    weather = page.get_by_role("region", name="Weather")
    expect(weather).to_contain_text("The weather is not recorded")
    expect(weather).to_contain_text("diary serve --weather")
    expect(page.get_by_role("region", name="The trash")).to_contain_text("deleted for good after 30 days")
    page.goto("/#/trash")
    expect(page.locator(".trash-note")).to_have_text("Entries are deleted for good 30 days after they were moved here.")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_screenshots_of_the_settings(pages, server, device, locale, scheme):
    SHOTS.mkdir(exist_ok=True)
    cli(server, "token", "create", "backup-script", "--user", TESTER["name"])
    pages.open("/", user_agent=ANDROID, **PHONE)  # a second device to list
    page = pages.open("/#/settings", locale=locale, color_scheme=scheme, **(PHONE if device == "phone" else DESKTOP))
    expect(page.locator(".settings-list").first.get_by_role("listitem")).to_have_count(3)
    expect(page.locator(".settings-list").nth(1).get_by_role("listitem")).to_have_count(1)
    # A slow first answer opens the app before the session is known, and draws it again once it
    # is: the picture waits for that, and for the lists it loads.
    page.wait_for_load_state("networkidle")
    expect(page.locator(".settings-list").first.get_by_role("listitem")).to_have_count(3)
    expect(page.locator(".settings-list").nth(1).get_by_role("listitem")).to_have_count(1)
    page.screenshot(path=str(SHOTS / f"settings-{device}-{locale}-{scheme}.png"), full_page=True)
    audit(page)
