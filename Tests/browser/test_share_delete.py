"""Share and delete, from the editor's menu, the list row's menu and a swipe."""

import re
import time

from playwright.sync_api import expect

from conftest import PHONE, wait_for

CAPTURE_SHARE = """
window.sharedData = [];
navigator.share = async (data) => { window.sharedData.push(data); };
"""
NO_SHARE = "Object.defineProperty(Navigator.prototype, 'share', {value: undefined, configurable: true});"


def open_first_entry(page):
    """Opens the first row's entry; returns its id."""
    link = page.locator(".row-link").first
    entry_id = link.get_attribute("href").rsplit("/", 1)[1]
    link.click()
    expect(page.get_by_role("textbox", name="Title")).not_to_have_value("")
    return entry_id


def test_share_from_the_editor_uses_the_web_share_api(pages, server):
    server.load_sample()
    context = pages.context()
    context.add_init_script(CAPTURE_SHARE)
    page = context.new_page()
    page.goto("/")
    entry = server.entry(open_first_entry(page))
    page.get_by_role("button", name="More", exact=True).click()
    menu = page.get_by_role("dialog", name="More")
    expect(menu.get_by_role("button")).to_have_text(["Share", "Change the date and time", "Delete", "Cancel"])
    menu.get_by_role("button", name="Share").click()
    shared = wait_for(lambda: page.evaluate("window.sharedData"), message="navigator.share")
    assert shared[0]["title"] == entry["title"]
    assert shared[0]["text"] == f"{entry['title']}\nDecember 22, 2020\n\n{entry['body']}"


def test_share_from_the_list_row_menu(pages, server):
    entry = server.create("Row share", "Body of the row.")
    context = pages.context()
    context.add_init_script(CAPTURE_SHARE)
    page = context.new_page()
    page.goto("/")
    page.get_by_role("button", name="More for “Row share”").click()
    page.get_by_role("dialog").get_by_role("button", name="Share").click()
    shared = wait_for(lambda: page.evaluate("window.sharedData"), message="navigator.share")
    assert shared[0]["title"] == "Row share"
    assert "Body of the row." in shared[0]["text"]
    assert entry["id"]


def test_without_web_share_the_text_is_copied_to_the_clipboard(pages, server):
    server.create("Copy me", "Into the clipboard.")
    context = pages.context(permissions=["clipboard-read", "clipboard-write"])
    context.add_init_script(NO_SHARE)
    page = context.new_page()
    page.goto("/")
    open_first_entry(page)
    page.get_by_role("button", name="More", exact=True).click()
    page.get_by_role("dialog").get_by_role("button", name="Share").click()
    expect(page.get_by_text("Copied to the clipboard")).to_be_visible()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("Copy me\n")
    assert copied.endswith("\n\nInto the clipboard.")


def swipe_left(page, locator, distance=220):
    """A finger dragged from right to left across the row (real touch input), at a finger's
    pace (a move every 16 ms), resting a moment before it lifts. Sent all at once, the drag ends
    in a fling, and Chromium takes the next tap for the one that stops the fling and sends no
    click: the test waited a second for that to pass, which on a busy CI machine was not enough."""
    box = locator.bounding_box()
    x, y = box["x"] + box["width"] - 20, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind, px, after):
        time.sleep(after)  # a finger's pace, not a wait for the page
        points = [] if kind == "touchEnd" else [{"x": px, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": time.time()})

    touch("touchStart", x, 0)
    for step in range(1, 11):
        touch("touchMove", x - distance * step / 10, 0.016)
    touch("touchMove", x - distance, 0.2)  # the finger rests…
    touch("touchEnd", x - distance, 0.016)  # …then lifts


def test_swiping_a_row_left_reveals_share_and_delete(pages, server):
    server.create("Older", "")
    server.create("Swipe me", "Then delete me.")
    page = pages.open("/", **PHONE)
    row = page.locator(".row").filter(has_text="Swipe me")
    expect(row.get_by_role("button", name="Delete")).to_be_hidden()
    swipe_left(page, row)
    expect(row.get_by_role("button", name="Share")).to_be_visible()
    expect(row.get_by_role("button", name="Delete")).to_be_visible()
    assert page.url.endswith("/"), "the swipe did not open the entry"
    # The row has slid aside by the width of the two buttons.
    expect(row.locator(".row-main")).to_have_css("transform", re.compile(r"matrix\(1, 0, 0, 1, -240"))  # three buttons of 5 rem: Star, Share, Delete
    row.get_by_role("button", name="Delete").tap()
    confirm = page.get_by_role("dialog", name="Delete this entry?")
    confirm.get_by_role("button", name="Delete").tap()
    expect(row).to_have_count(0)
    expect(page.locator(".row-title")).to_have_text(["Older"])
    assert [e["title"] for e in server.trash()] == ["Swipe me"]


def test_delete_asks_first_then_offers_undo(pages, server):
    server.create("Keep or not", "Hmm.")
    page = pages.open("/")
    more = page.get_by_role("button", name="More for “Keep or not”")
    more.click()
    page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    confirm = page.get_by_role("dialog", name="Delete this entry?")
    expect(confirm.get_by_role("button")).to_have_text(["Delete", "Cancel"])
    confirm.get_by_role("button", name="Cancel").click()
    expect(page.locator(".row-title")).to_have_text(["Keep or not"])
    assert server.trash() == []

    more.click()
    page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    page.get_by_role("dialog", name="Delete this entry?").get_by_role("button", name="Delete").click()
    expect(page.locator(".row")).to_have_count(0)
    expect(page.get_by_text("Your diary is empty.")).to_be_visible()
    assert len(server.trash()) == 1
    page.get_by_role("button", name="Undo").click()
    expect(page.locator(".row-title")).to_have_text(["Keep or not"])
    assert server.trash() == []


def test_delete_from_the_editor_menu_goes_back_to_the_list(pages, server):
    server.create("Stays", "")
    entry = server.create("Goes", "Away")
    page = pages.open(f"/#/entry/{entry['id']}")
    page.get_by_role("button", name="More", exact=True).click()
    page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    page.get_by_role("dialog", name="Delete this entry?").get_by_role("button", name="Delete").click()
    expect(page.locator(".row-title")).to_have_text(["Stays"])
    expect(page.get_by_text("Moved to the trash.")).to_be_visible()
    assert server.entry(entry["id"])["deletedAt"] is not None


def test_the_undo_offer_goes_away_after_a_few_seconds(pages, server):
    server.create("Brief", "")
    page = pages.open("/")
    page.get_by_role("button", name="More for “Brief”").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    page.get_by_role("dialog", name="Delete this entry?").get_by_role("button", name="Delete").click()
    undo = page.get_by_role("button", name="Undo")
    expect(undo).to_be_visible()
    expect(undo).to_be_hidden(timeout=8000)
