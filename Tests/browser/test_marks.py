"""Stars and tags in the web app: the list shows them under each row; the editor's star and tag
chips change them at once, as the entry's next version, and typing on keeps working."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import PHONE, wait_for


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
    page = pages.open(f"/#/entry/{entry['id']}", **PHONE)
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
    while sent < 3:  # the server answers each change only now, one after the other
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
