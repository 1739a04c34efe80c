"""Writing and editing entries, as a person does it in the editor."""

import time

from playwright.sync_api import expect

from conftest import NO_WORKER, PHONE, wait_for


def titles(server):
    return [e["title"] for e in server.entries()]


def test_a_written_entry_is_in_the_list_after_a_reload(pages, server):
    page = pages.open("/")
    page.get_by_role("link", name="New entry").click()
    title = page.get_by_role("textbox", name="Title")
    expect(title).to_be_focused()
    title.type("A walk by the river")
    title.press("Enter")
    body = page.get_by_role("textbox", name="Write here")
    expect(body).to_be_focused()  # Enter in the title moves to the body
    body.type("The water was high after the rain.\nSecond line.")
    expect(title).to_have_value("A walk by the river")

    page.get_by_role("link", name="Back to the list").click()
    row = page.locator(".row").filter(has_text="A walk by the river")
    expect(row).to_be_visible()
    page.reload()
    expect(row).to_be_visible()
    expect(row.locator(".row-excerpt")).to_have_text("The water was high after the rain.")
    assert titles(server) == ["A walk by the river"]


def test_the_entry_reads_like_a_page_with_its_date_and_time_above_the_title(pages, server):
    server.load_sample()
    page = pages.open("/", **PHONE)
    first = page.locator(".row-title").first.text_content()
    time = page.locator(".row-time").first.text_content()
    page.locator(".row-link").first.click()
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Tuesday, December 22, 2020")
    expect(page.locator(".entry-time")).to_have_text(time)
    title = page.get_by_role("textbox", name="Title")
    expect(title).to_have_value(first)
    assert heading.bounding_box()["y"] < page.locator(".entry-time").bounding_box()["y"] < title.bounding_box()["y"]
    # The title looks like a heading: larger and bolder than the text under it.
    size = lambda e: e.evaluate("e => [parseFloat(getComputedStyle(e).fontSize), +getComputedStyle(e).fontWeight]")
    body = page.get_by_role("textbox", name="Write here")
    assert size(title)[0] > size(body)[0] * 1.4 and size(title)[1] >= 700, (size(title), size(body))


def test_editing_an_entry_changes_it_in_the_list_and_on_the_server(pages, server):
    entry = server.create("Frist draft", "Some words")
    page = pages.open("/")
    page.get_by_role("link", name="Frist draft").click()
    title = page.get_by_role("textbox", name="Title")
    expect(title).to_have_value("Frist draft")
    title.fill("First draft")
    page.get_by_role("textbox", name="Write here").press("End")
    page.keyboard.type(", and more.")
    page.get_by_role("link", name="Back to the list").click()
    expect(page.locator(".row-title")).to_have_text(["First draft"])
    saved = wait_for(lambda: (e := server.entry(entry["id"])) and e["body"].endswith("more.") and e, message="the edit")
    assert saved["title"] == "First draft"
    assert saved["body"] == "Some words, and more."


def test_typing_before_an_entry_has_loaded_never_saves_over_its_words(pages, server):
    entry = server.create("Kept title", "A body that must survive")
    page = pages.open("/", **NO_WORKER)
    expect(page.get_by_role("link", name="Kept title")).to_be_visible()
    # The entry arrives only after the writer has started typing.
    release = []
    def slow(route):
        deadline = time.monotonic() + 30  # never held for ever, should the test fail before releasing it
        while not release and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        route.continue_()
    page.route(f"**/api/v1/entries/{entry['id']}", slow)
    page.get_by_role("link", name="Kept title").click()
    title = page.get_by_role("textbox", name="Title")
    title.click()
    page.keyboard.type("typed too early")
    release.append(True)
    expect(title).to_have_value("Kept title")
    body = page.get_by_role("textbox", name="Write here")
    expect(body).to_have_value("A body that must survive")
    expect(title).to_be_editable()  # and once it is here, it can be edited
    title.blur()
    page.get_by_role("link", name="Back to the list").click()
    expect(page.locator(".row-title")).to_have_text(["Kept title"])
    page.wait_for_timeout(800)  # past the autosave's debounce
    saved = server.entry(entry["id"])
    assert (saved["title"], saved["body"], saved["version"]) == ("Kept title", "A body that must survive", 1)


def test_a_title_pasted_with_a_newline_moves_the_rest_into_the_body(pages, server):
    page = pages.open("/#/new")
    title = page.get_by_role("textbox", name="Title")
    title.fill("Morning\nWoke up early.")
    expect(title).to_have_value("Morning")
    expect(page.get_by_role("textbox", name="Write here")).to_have_value("Woke up early.")


def test_the_title_field_grows_with_its_text_then_scrolls(pages, server):
    page = pages.open("/#/new", **PHONE)
    title = page.get_by_role("textbox", name="Title")
    title.type("One line")
    one = title.evaluate("e => e.clientHeight")
    title.type(" and then a good many more words so that the title wraps onto three lines")
    three = title.evaluate("e => e.clientHeight")
    assert three > one * 2, (one, three)
    assert title.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), "still fits: no scrolling yet"

    title.type(" and on and on" * 30)
    size = title.evaluate("e => ({client: e.clientHeight, scroll: e.scrollHeight, screen: innerHeight})")
    assert size["client"] <= size["screen"] * 0.25 + 2, size  # capped near a quarter of the screen
    assert size["client"] > three, size
    assert size["scroll"] > size["client"], size  # past the cap it scrolls
    body = page.get_by_role("textbox", name="Write here")
    assert body.evaluate("e => e.getBoundingClientRect().height") > 844 * 0.4  # the body fills the rest


def test_the_keyboard_never_covers_the_line_being_typed(pages, server):
    """A phone's keyboard shrinks the visual viewport; the editor shrinks with it
    and keeps the caret's line in view."""
    entry = server.create("Long", "\n".join(f"Line {n} of a long entry." for n in range(1, 80)))
    page = pages.open(f"/#/entry/{entry['id']}", **PHONE)
    body = page.get_by_role("textbox", name="Write here")
    expect(body).to_have_value(entry["body"])
    body.click()
    page.keyboard.press("Control+End")
    page.keyboard.type(" The last words.")
    page.set_viewport_size({"width": 390, "height": 420})  # the keyboard comes up
    # Nothing of the body is under the keyboard, and the caret's line is in view.
    # Polled from Python: wait_for_function's predicate would need eval, which the CSP refuses.
    wait_for(lambda: page.evaluate("""() => {
        const e = document.querySelector('.body-field');
        return e.getBoundingClientRect().bottom <= visualViewport.height + 1
            && e.scrollTop + e.clientHeight >= e.scrollHeight - 40;
    }"""), timeout=5, message="the caret's line above the keyboard")


def test_an_entry_that_does_not_exist_says_so(pages, server):
    pages.allow_errors(r"status of 404")
    page = pages.open("/#/entry/00000000-0000-4000-8000-000000000000")
    expect(page.get_by_text("This entry does not exist.")).to_be_visible()
    expect(page.locator(".editor .notice")).to_have_text("This entry does not exist.")  # no stray "null" under it
    expect(page.get_by_role("textbox")).to_have_count(0)
    assert server.entries() == []


def test_an_entry_in_the_trash_opens_read_only_and_can_be_restored(pages, server):
    entry = server.create("Binned", "Still readable.")
    server.api("DELETE", f"entries/{entry['id']}")
    page = pages.open(f"/#/entry/{entry['id']}")
    expect(page.get_by_text("This entry is in the trash.")).to_be_visible()
    title = page.get_by_role("textbox", name="Title")
    expect(title).to_have_value("Binned")
    expect(title).not_to_be_editable()
    page.get_by_role("button", name="Restore").click()
    expect(title).to_be_editable()
    assert server.entry(entry["id"])["deletedAt"] is None
