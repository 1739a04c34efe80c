"""Stars and tags in the web app: the list shows them under each row; the editor's star and tag
chips change them at once, as the entry's next version, and typing on keeps working."""

import re
import time

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import NO_WORKER, PHONE, wait_for
from test_share_delete import swipe_left


def audit(page):
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_rows_show_the_star_and_the_tags(pages, server, scheme):
    status, entry = server.api("POST", "entries", {"title": "Jeju", "body": "The sea was wild.",
                                                    "tags": ["travel", "바다"], "starred": True})
    assert status == 201, entry
    server.create("Plain", "")
    page = pages.open("/", color_scheme=scheme, **PHONE)
    starred, plain = page.locator(".row").nth(1), page.locator(".row").nth(0)
    expect(starred.get_by_role("img", name="Starred")).to_be_visible()
    expect(starred.locator(".tag")).to_have_text(["travel", "바다"])
    expect(plain.locator(".tag")).to_have_count(0)
    expect(plain.get_by_role("img", name="Starred")).to_have_count(0)
    audit(page)


def test_the_editor_stars_and_tags_an_entry_and_typing_goes_on(pages, server):
    entry = server.create("A walk", "By the river.")
    server.api("POST", "entries", {"title": "Earlier", "body": "", "tags": ["Evening"]})
    page = pages.open(f"/#/entry/{entry['id']}", **PHONE)
    star = page.get_by_role("button", name="Star")
    expect(star).to_have_attribute("aria-pressed", "false")
    star.click()
    expect(star).to_have_attribute("aria-pressed", "true")
    wait_for(lambda: server.entry(entry["id"])["starred"], message="the star saved")
    assert server.entry(entry["id"])["version"] == 2

    field = page.get_by_role("combobox", name="Add a tag")
    field.fill("night")
    field.press("Enter")
    field.fill("evening")  # the diary has it as "Evening": kept as first written
    field.press("Enter")
    tags = page.get_by_role("list", name="Tags").locator(".tag")
    expect(tags).to_have_count(2)
    wait_for(lambda: server.entry(entry["id"])["tags"] == ["night", "Evening"], message="the tags saved")
    expect(page.get_by_role("button", name="Remove the tag night")).to_be_visible()
    audit(page)

    # Words typed now are saved on top of the new version, without a conflict.
    body = page.get_by_role("textbox", name="Write here")
    body.press("End")
    body.type(" Then home.")
    body.blur()
    wait_for(lambda: server.entry(entry["id"])["body"] == "By the river. Then home.", message="the words saved")
    expect(page.get_by_role("dialog")).to_have_count(0)

    page.get_by_role("button", name="Remove the tag night").click()
    wait_for(lambda: server.entry(entry["id"])["tags"] == ["Evening"], message="the tag removed")
    saved = server.entry(entry["id"])
    assert saved["starred"] and saved["body"] == "By the river. Then home."

    # Back in the list, the row says so.
    page.get_by_role("link", name="Back to the list").click()
    row = page.locator(".row", has_text="A walk")
    expect(row.get_by_role("img", name="Starred")).to_be_visible()
    expect(row.locator(".tag")).to_have_text(["Evening"])


def test_marks_made_in_quick_succession_all_stay(pages, server):
    """Two tags and the star, each before the server has answered the one before: none is lost,
    none is sent on a version already gone (a 409 in the console fails the test too)."""
    entry = server.create("Quick", "Marks in a hurry.")
    page = pages.open(f"/#/entry/{entry['id']}", **PHONE, **NO_WORKER)
    # The entry is here (its marks are drawn before its words): a tag added before would only be
    # told to wait for a saved entry.
    expect(page.get_by_role("textbox", name="Title")).to_have_value("Quick")
    held = []
    page.route(f"**/api/v1/entries/{entry['id']}",
               lambda route: held.append(route) if route.request.method == "PATCH" else route.continue_())
    field = page.get_by_role("combobox", name="Add a tag")
    field.fill("night")
    field.press("Enter")
    field.fill("dawn")
    field.press("Enter")
    page.get_by_role("button", name="Star").click()

    sent = 0
    deadline = time.monotonic() + 30
    while sent < 3:  # the server answers each change only now, one after the other
        assert time.monotonic() < deadline, f"{sent} of the three changes sent in 30 s"
        page.wait_for_timeout(50)
        while held:
            held.pop(0).continue_()
            sent += 1
    wait_for(lambda: server.entry(entry["id"])["version"] == 4, message="three changes saved")
    saved = server.entry(entry["id"])
    assert (saved["tags"], saved["starred"], saved["body"]) == (["night", "dawn"], True, "Marks in a hurry.")
    for tag in ("night", "dawn"):
        expect(page.get_by_role("button", name=f"Remove the tag {tag}")).to_be_visible()
    expect(page.get_by_role("button", name="Star")).to_have_attribute("aria-pressed", "true")


def test_a_new_entry_is_starred_once_it_is_saved(pages, server):
    page = pages.open("/#/new", **PHONE)
    page.get_by_role("textbox", name="Title").fill("Fresh")
    page.get_by_role("textbox", name="Write here").focus()  # leaving the title saves it
    wait_for(lambda: any(e["title"] == "Fresh" for e in server.entries()), message="the first save")
    page.get_by_role("button", name="Star").click()
    wait_for(lambda: server.entries()[0]["starred"], message="the star saved")


def test_a_row_is_starred_from_its_menu_and_its_swipe(pages, server):
    entry = server.create("Row star", "From the list.")
    page = pages.open("/")
    page.get_by_role("button", name="More for “Row star”").click()
    page.get_by_role("dialog").get_by_role("button", name="Star").click()
    row = page.locator(".row", has_text="Row star")
    expect(row.get_by_role("img", name="Starred")).to_be_visible()
    wait_for(lambda: server.entry(entry["id"])["starred"], message="the star saved")
    # Again, from the row drawn anew: its version is the new one, so no conflict.
    page.get_by_role("button", name="More for “Row star”").click()
    page.get_by_role("dialog").get_by_role("button", name="Remove the star").click()
    expect(row.get_by_role("img", name="Starred")).to_have_count(0)
    wait_for(lambda: server.entry(entry["id"])["starred"] is False and server.entry(entry["id"])["version"] == 3,
             message="the star removed")

    phone = pages.open("/", **PHONE)
    row = phone.locator(".row").filter(has_text="Row star")
    swipe_left(phone, row, distance=300)
    row.get_by_role("button", name="Star", exact=True).click()
    wait_for(lambda: server.entry(entry["id"])["starred"], message="the star from the swipe")


def test_the_entry_is_backdated_from_its_menu(pages, server):
    entry = server.create("Written the next morning", "About last night.")
    server.create("Newer", "")
    page = pages.open(f"/#/entry/{entry['id']}", timezone_id="Asia/Seoul", **PHONE)
    expect(page.get_by_role("textbox", name="Title")).to_have_value("Written the next morning")
    page.get_by_role("button", name="More").click()
    page.get_by_role("dialog").get_by_role("button", name="Change the date and time").click()
    dialog = page.get_by_role("dialog", name="Change the date and time")
    dialog.get_by_label("Written on").fill("2024-05-01T21:30")
    dialog.get_by_role("button", name="Change").click()
    wait_for(lambda: server.entry(entry["id"])["createdAt"] == "2024-05-01T12:30:00.000Z", message="the new moment saved")
    expect(page.locator(".entry-date")).to_have_text("Wednesday, May 1, 2024")
    expect(page.locator(".entry-time")).to_have_text("9:30 PM")
    # Words typed after keep the date.
    body = page.get_by_role("textbox", name="Write here")
    body.press("End")
    body.type(" Still.")
    body.blur()
    wait_for(lambda: server.entry(entry["id"])["body"] == "About last night. Still.", message="the words saved")
    assert server.entry(entry["id"])["createdAt"] == "2024-05-01T12:30:00.000Z"
    page.get_by_role("link", name="Back to the list").click()
    expect(page.locator(".row-title")).to_have_text(["Newer", "Written the next morning"])
    expect(page.get_by_role("heading", level=2).last).to_have_text("May 2024")


def test_alt_s_stars_while_writing_and_a_tag_opens_its_entries(pages, server):
    status, entry = server.api("POST", "entries", {"title": "Keys", "body": "Typed.", "tags": ["night"]})
    assert status == 201, entry
    server.create("Untagged", "")
    page = pages.open(f"/#/entry/{entry['id']}")
    body = page.get_by_role("textbox", name="Write here")
    body.click()
    page.keyboard.press("Alt+s")
    expect(page.get_by_role("button", name="Star")).to_have_attribute("aria-pressed", "true")
    wait_for(lambda: server.entry(entry["id"])["starred"], message="the star from the keyboard")
    assert server.entry(entry["id"])["body"] == "Typed."  # no letter typed by the shortcut
    page.get_by_role("link", name="night", exact=True).click()
    expect(page).to_have_url("/#/browse?tag=night")
    expect(page.locator(".row-title")).to_have_text(["Keys"])


def test_the_tag_field_suggests_the_diarys_own_tags(pages, server):
    for title, tags in (("Jeju", ["travel", "바다"]), ("Supper", ["Evening", "travel"])):
        status, entry = server.api("POST", "entries", {"title": title, "body": "", "tags": tags})
        assert status == 201, entry
    entry = server.create("Today", "A new page.")
    page = pages.open(f"/#/entry/{entry['id']}", **PHONE)
    field = page.get_by_role("combobox", name="Add a tag")
    field.focus()
    # The field's suggestions (its datalist) are the diary's tags, each once.
    suggestions = page.locator(f"datalist#{field.get_attribute('list')} option")
    expect(suggestions).to_have_count(3)
    assert sorted(suggestions.evaluate_all("(options) => options.map((o) => o.value)")) == ["Evening", "travel", "바다"]
    # One chosen is kept as the diary spells it.
    field.fill("evening")
    field.press("Enter")
    wait_for(lambda: server.entry(entry["id"])["tags"] == ["Evening"], message="the tag saved")


@pytest.mark.parametrize("locale, message", [
    ("en-US", "An entry can have at most 50 tags."),
    ("ko-KR", "일기 하나에 태그는 50개까지 붙일 수 있어요."),
])
def test_a_tag_the_server_refuses_is_said_and_stays_in_the_field(pages, server, locale, message):
    pages.allow_errors(r"status of 422")
    status, entry = server.api("POST", "entries", {"title": "Full", "body": "", "tags": [f"t{n}" for n in range(50)]})
    assert status == 201, entry
    page = pages.open(f"/#/entry/{entry['id']}", locale=locale, **PHONE)
    expect(page.get_by_role("list", name="Tags" if locale == "en-US" else "태그").locator(".tag")).to_have_count(50)
    field = page.get_by_role("combobox", name="Add a tag" if locale == "en-US" else "태그 추가")
    field.fill("one more")
    field.press("Enter")
    expect(page.get_by_role("status").filter(has_text=message)).to_be_visible()
    # Nothing lost: the words are back in the field, and the entry is as it was.
    expect(field).to_have_value("one more")
    saved = server.entry(entry["id"])
    assert len(saved["tags"]) == 50 and saved["version"] == 1


def test_a_tag_of_a_hundred_emoji_is_kept_and_a_longer_one_is_said_too_long(pages, server):
    """The server counts a tag's characters as the writer does (an emoji is one); the field counts
    them the same way, not in UTF-16 units (maxlength would have cut 100 emoji to 50)."""
    entry = server.create("Emoji", "")
    page = pages.open(f"/#/entry/{entry['id']}", **PHONE)
    field = page.get_by_role("combobox", name="Add a tag")
    field.fill("🌊" * 101)
    field.press("Enter")
    expect(page.get_by_role("status").filter(has_text="A tag can have at most 100 characters.")).to_be_visible()
    expect(field).to_have_value("🌊" * 101)  # left to be shortened
    expect(field).to_have_attribute("aria-invalid", "true")
    field.press("Backspace")
    expect(field).not_to_have_attribute("aria-invalid", "true")
    field.press("Enter")
    # A skin tone is part of its emoji: 100 characters still, in 400 UTF-16 units.
    field.fill("👍🏽" * 100)
    field.press("Enter")
    wait_for(lambda: server.entry(entry["id"])["tags"] == ["🌊" * 100, "👍🏽" * 100], message="both tags saved")
    tags = page.get_by_role("list", name="Tags").locator(".tag-open")
    expect(tags).to_have_text(["🌊" * 100, "👍🏽" * 100])
    assert server.entry(entry["id"])["version"] == 3  # the one too long was never sent
