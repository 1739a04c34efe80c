"""The trash: restore an entry, or delete it for good."""

from playwright.sync_api import expect


def test_the_trash_restores_and_deletes_for_good(pages, server):
    first = server.create("Come back", "I was deleted by mistake.")
    second = server.create("Gone for good", "Nobody needs this.")
    server.api("DELETE", f"entries/{first['id']}")
    server.api("DELETE", f"entries/{second['id']}")
    page = pages.open("/")
    expect(page.get_by_text("Your diary is empty.")).to_be_visible()
    page.get_by_role("link", name="Trash").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Trash")
    expect(page.locator(".row-title")).to_have_text(["Gone for good", "Come back"])

    page.get_by_role("button", name="Restore: Come back").click()
    expect(page.locator(".row-title")).to_have_text(["Gone for good"])
    assert server.entry(first["id"])["deletedAt"] is None

    page.get_by_role("button", name="Delete for good: Gone for good").click()
    confirm = page.get_by_role("dialog", name="Delete this entry for good? This cannot be undone.")
    confirm.get_by_role("button", name="Cancel").click()
    expect(page.locator(".row-title")).to_have_text(["Gone for good"])
    page.get_by_role("button", name="Delete for good: Gone for good").click()
    confirm.get_by_role("button", name="Delete for good").click()
    expect(page.get_by_text("The trash is empty.")).to_be_visible()
    assert server.api("GET", f"entries/{second['id']}")[0] == 404

    page.get_by_role("link", name="Back to the list").click()
    expect(page.locator(".row-title")).to_have_text(["Come back"])


def test_the_trash_opened_while_the_server_is_down_says_so_and_the_list_stays(pages, server):
    """The trash's screen loads when first opened; the connection dropped after the list had
    loaded. The list stays as it was, a note says why the trash did not open, and it opens once
    the server is back."""
    server.create("Still here", "The list keeps its rows.")
    trashed = server.create("In the trash", "Deleted before the outage.")
    server.api("DELETE", f"entries/{trashed['id']}")
    page = pages.open("/")
    expect(page.locator(".row-title")).to_have_text(["Still here"])
    server.stop()
    # The trash's module does not come: refused, or failed as the service worker asked for it.
    pages.allow_errors(r"net::ERR_CONNECTION_REFUSED|net::ERR_FAILED \(.*/js/trash\.js\)")

    page.get_by_role("link", name="Trash").click()
    note = page.get_by_role("status").filter(has_text="The trash cannot be opened while offline.")
    expect(note).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text("Diary")
    expect(page.locator(".row-title")).to_have_text(["Still here"])
    assert page.url.endswith("/#/"), "the address is the list's, so the Trash link works again"

    expect(page.get_by_role("dialog")).to_have_count(0)  # nothing to dismiss first

    # Still offline, the Trash link says so again; the server back, Try again opens it.
    page.get_by_role("link", name="Trash").click()
    expect(note).to_be_visible()
    expect(page.locator(".row-title")).to_have_text(["Still here"])
    server.start()
    note.get_by_role("button", name="Try again").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Trash")
    expect(page.locator(".row-title")).to_have_text(["In the trash"])


def test_the_trash_is_emptied_at_once_after_a_confirmation(pages, server):
    kept = server.create("Kept", "")
    for n in range(3):
        gone = server.create(f"Gone {n}", "")
        server.api("DELETE", f"entries/{gone['id']}")
    page = pages.open("/#/trash")
    expect(page.locator(".trash-row")).to_have_count(3)
    expect(page.get_by_text("deleted for good 30 days after")).to_be_visible()
    page.get_by_role("button", name="Empty the trash").click()
    page.get_by_role("dialog").get_by_role("button", name="Cancel").click()
    assert len(server.trash()) == 3
    page.get_by_role("button", name="Empty the trash").click()
    page.get_by_role("dialog").get_by_role("button", name="Empty the trash").click()
    expect(page.get_by_role("status").filter(has_text="3 entries deleted for good.")).to_be_visible()
    expect(page.get_by_text("The trash is empty.")).to_be_visible()
    expect(page.get_by_role("button", name="Empty the trash")).to_be_hidden()
    assert server.trash() == [] and [e["id"] for e in server.entries()] == [kept["id"]]
