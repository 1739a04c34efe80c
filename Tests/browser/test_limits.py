"""The limits the page checks are the server's: written into the page by the server as it starts
(WebAppLimits.swift), read from there by the scripts, and the very numbers the server refuses
past. A script that kept a number of its own would show here as a field that stops too early or
too late. (Tests/DiaryServerTests/WebAppLimitsTests.swift checks the scripts hold no copy.)"""

import urllib.parse

from playwright.sync_api import expect


def test_the_fields_stop_where_the_server_does(pages, server):
    page = pages.open("/")
    limits = page.evaluate("JSON.parse(document.getElementById('limits').textContent)")
    search = limits["searchLength"]
    expect(page.get_by_role("searchbox", name="Search")).to_have_attribute("maxlength", str(search))
    page.get_by_role("link", name="New entry").click()
    title = limits["titleLength"]
    expect(page.get_by_role("textbox", name="Title")).to_have_attribute("maxlength", str(title))

    # The server takes as many and refuses one more.
    status, _ = server.api("POST", "entries", {"title": "t" * title, "body": ""})
    assert status == 201
    status, refused = server.api("POST", "entries", {"title": "t" * (title + 1), "body": ""})
    assert status == 413 and refused["error"] == "too_large", (status, refused)
    words = " ".join(["word"] * (search // 5)).ljust(search, "s")
    assert server.api("GET", "search?q=" + urllib.parse.quote(words))[0] == 200
    status, refused = server.api("GET", "search?q=" + urllib.parse.quote(words + "s"))
    assert status >= 400 and "at most" in refused["message"], (status, refused)


def test_a_tag_too_long_for_the_server_is_said_at_once_with_the_server_s_number(pages, server):
    entry = server.create("Tagged")
    page = pages.open(f"/#/entry/{entry['id']}")
    limits = page.evaluate("JSON.parse(document.getElementById('limits').textContent)")
    field = page.get_by_role("combobox", name="Add a tag")
    field.fill("t" * (limits["tagLength"] + 1))
    field.press("Enter")
    expect(page.locator("#toast")).to_have_text(f"A tag can have at most {limits['tagLength']} characters.")
    # The server refuses the same tag.
    status, _ = server.api("PATCH", f"entries/{entry['id']}", {"tags": ["t" * (limits["tagLength"] + 1)]},
                           headers={"If-Match": f"\"{entry['version']}\""})
    assert status == 422
