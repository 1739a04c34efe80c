"""A save refused because the server's disk is full (507): the page says so, keeps the text,
and sends it once there is room again."""

import json

from playwright.sync_api import expect

from conftest import NO_WORKER


FULL = json.dumps({"error": "disk_full", "message": "The server's disk is full: this change was not saved, "
                   "and everything saved before is intact. It can be saved once space is freed."})


def test_a_full_disk_is_said_the_text_is_kept_and_sent_once_there_is_room(pages, server):
    pages.allow_errors(r"507|Failed to load resource")
    page = pages.open("/#/new", **NO_WORKER)
    disk = {"full": True}

    def answer(route):
        if disk["full"] and route.request.method in ("PUT", "POST"):
            return route.fulfill(status=507, content_type="application/json", body=FULL)
        route.fallback()

    page.route("**/api/v1/entries**", answer)
    page.get_by_role("textbox", name="Title").type("Kept through a full disk")

    said = page.get_by_role("status").filter(has_text="The server's disk is full")
    expect(said).to_be_visible(timeout=5000)
    expect(said).to_contain_text("kept in this browser")
    assert server.entries() == []

    disk["full"] = False  # space is freed

    # Waited for in the page: Playwright runs the route's handler only while the test is in one
    # of its calls.
    expect(said).to_be_hidden(timeout=20_000)
    assert [e["title"] for e in server.entries()] == ["Kept through a full disk"]
