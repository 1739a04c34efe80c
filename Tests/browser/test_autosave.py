"""Saving without a save button: while typing, on hiding and leaving the page,
never a blank entry, through a server outage, and through a conflict."""

import datetime

from playwright.sync_api import expect

from conftest import NO_WORKER, TESTER, kept_for_offline, wait_for

START = datetime.datetime(2024, 5, 1, 12, 0, tzinfo=datetime.timezone.utc)


def frozen_clock(page):
    """Stops page time, so the debounced save can never fire on its own: the returned function
    waits for the page to settle, then pauses it a second after the page's present (a slow start
    may have taken it past START)."""
    page.clock.install(time=START)

    def pause():
        # Settled first: a page still waiting for its session sends what was typed meanwhile the
        # moment the session comes (drafts wait for it), timer or not.
        page.wait_for_load_state("networkidle")
        now = page.evaluate("Date.now()") / 1000
        page.clock.pause_at(datetime.datetime.fromtimestamp(now + 1, tz=datetime.timezone.utc))
    return pause


def entry_with_title(server, title):
    return next((e for e in server.entries() if e["title"] == title), None)


def test_typing_saves_after_a_short_pause(pages, server):
    page = pages.open("/#/new")
    page.get_by_role("textbox", name="Title").type("Saved while typing")
    wait_for(lambda: entry_with_title(server, "Saved while typing"), timeout=5, message="the autosave")
    assert "#/entry/" in page.url  # a reload now opens this entry


def test_hiding_the_page_saves_at_once(pages, server):
    page = pages.context().new_page()
    pause = frozen_clock(page)
    page.goto("/#/new")
    pause()
    page.get_by_role("textbox", name="Title").type("Hidden tab")
    page.wait_for_timeout(700)
    assert server.entries() == [], "the debounce timer is frozen: nothing is saved yet"
    page.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    wait_for(lambda: entry_with_title(server, "Hidden tab"), timeout=5, message="the save on visibilitychange")


def test_closing_the_tab_saves_with_keepalive(pages, server):
    page = pages.context(**NO_WORKER).new_page()
    pause = frozen_clock(page)
    # The new entry's first save (its title, on leaving the title field) reaches the server, but
    # its answer never comes back: the tab is closed while it is on its way. The save sent as the
    # page goes then finds the entry made, with the title alone, and must still leave the body.
    first = []

    def hold_first_answer(route):
        try:
            if route.request.method == "POST" and not first:
                # Noted before it is sent: the server may have it (and the test see it there)
                # before this handler hears back from it.
                first.append(route.request)
                route.fetch()  # stored on the server; the page never hears back
            else:
                route.continue_()
        except Exception:  # the page is gone: a request of its own no longer needs routing
            pass
    page.route("**/api/v1/entries", hold_first_answer)
    page.goto("/#/new")
    pause()
    page.get_by_role("textbox", name="Title").type("Closed tab")
    page.get_by_role("textbox", name="Title").press("Enter")
    page.keyboard.type("Written just before closing.")
    # (Ten seconds: on PostgreSQL under a loaded CI machine five were once not enough.)
    wait_for(lambda: entry_with_title(server, "Closed tab"), timeout=10, message="the first save, of the title")
    assert first and entry_with_title(server, "Closed tab")["excerpt"] == ""
    page.close()
    saved = wait_for(lambda: (e := entry_with_title(server, "Closed tab")) and e["excerpt"] and e,
                     timeout=10, message="the save on pagehide")
    assert saved["excerpt"] == "Written just before closing."


def test_a_blank_entry_is_never_created(pages, server):
    page = pages.open("/")
    posts = []
    page.on("request", lambda r: r.method == "POST" and "/api/v1/entries" in r.url and posts.append(r.url))
    page.get_by_role("link", name="New entry").click()
    page.get_by_role("link", name="Back to the list").click()
    expect(page.get_by_text("Your diary is empty.")).to_be_visible()

    page.get_by_role("link", name="New entry").click()
    page.get_by_role("textbox", name="Title").type("   ")
    page.keyboard.press("Enter")
    page.keyboard.type("  \n\n   ")
    page.wait_for_timeout(1000)  # past the autosave's debounce: nothing may be saved
    page.get_by_role("textbox", name="Title").focus()  # a blur, too
    page.get_by_role("link", name="Back to the list").click()
    expect(page.get_by_text("Your diary is empty.")).to_be_visible()
    page.reload()
    expect(page.get_by_text("Your diary is empty.")).to_be_visible()
    assert posts == []
    assert server.entries() == []


def test_an_entry_its_writer_empties_goes_to_the_trash_when_left(pages, server):
    entry = server.create("Regrets", "Nothing to keep here")
    page = pages.open(f"/#/entry/{entry['id']}")
    page.get_by_role("textbox", name="Title").fill("")
    page.get_by_role("textbox", name="Write here").fill("")
    page.wait_for_timeout(1000)
    assert server.entry(entry["id"])["deletedAt"] is None, "not while it is still open"
    page.get_by_role("link", name="Back to the list").click()
    expect(page.get_by_text("The empty entry was moved to the trash.")).to_be_visible()
    expect(page.get_by_text("Your diary is empty.")).to_be_visible()
    trashed = server.entry(entry["id"])
    assert trashed["deletedAt"] is not None
    assert trashed["body"] == "Nothing to keep here"  # the trash keeps the last words written
    page.get_by_role("link", name="Trash").click()
    expect(page.locator(".row-excerpt")).to_have_text(["Nothing to keep here"])


def test_a_save_while_the_server_is_down_arrives_when_it_is_back(pages, server):
    pages.allow_errors(r"ERR_CONNECTION_REFUSED|Failed to load resource")
    page = pages.open("/#/new")
    page.get_by_role("textbox", name="Title").type("Outage")
    entry = wait_for(lambda: entry_with_title(server, "Outage"), timeout=5, message="the first save")

    server.stop()
    body = page.get_by_role("textbox", name="Write here")
    body.type("Written while the server was away.")
    expect(page.get_by_role("status").filter(has_text="Not saved yet")).to_be_visible(timeout=5000)
    expect(body).to_be_editable()  # the message does not block writing
    body.type(" Still writing.")

    server.start()
    text = "Written while the server was away. Still writing."
    wait_for(lambda: server.entry(entry["id"])["body"] == text, timeout=20, message="the retried save")
    expect(page.get_by_role("status").filter(has_text="Not saved yet")).to_be_hidden()
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('diary.draft.'))") == []
    page.reload()
    expect(page.get_by_role("textbox", name="Write here")).to_have_value(text)


def test_the_editor_opens_and_keeps_text_when_the_connection_drops_after_the_list_loaded(pages, server):
    # The editor is not part of the first visit (the list is), but the service worker keeps it a
    # few seconds after it: a writer who lost the connection after that can still write, and the
    # text arrives once the server is back.
    pages.allow_errors(r"ERR_CONNECTION_REFUSED|Failed to load resource")
    page = pages.open("/")
    expect(page.get_by_text("Your diary is empty.")).to_be_visible()
    page.wait_for_load_state("networkidle")
    kept_for_offline(page)
    server.stop()
    page.get_by_role("link", name="New entry").click()
    page.get_by_role("textbox", name="Title").type("Written offline")
    page.get_by_role("textbox", name="Write here").type("The editor came with the list.")
    expect(page.get_by_text("Not saved yet")).to_be_visible(timeout=5000)

    server.start()
    entry = wait_for(lambda: entry_with_title(server, "Written offline"), timeout=20, message="the retried save")
    wait_for(lambda: server.entry(entry["id"])["body"] == "The editor came with the list.", timeout=20,
             message="the body")


def test_unsent_text_survives_closing_the_browser_while_the_server_is_down(pages, server):
    pages.allow_errors(r"ERR_CONNECTION_REFUSED|Failed to load resource")
    context = pages.context()
    page = context.new_page()
    # The server goes once the session is known: the save fails (a server gone before that answer
    # opens the diary offline, the next tests).
    with page.expect_response("**/api/v1/session"):
        page.goto("/#/new")
    expect(page.get_by_role("textbox", name="Title")).to_be_focused()
    server.stop()
    page.get_by_role("textbox", name="Title").type("Kept in the browser")
    expect(page.get_by_text("Not saved yet")).to_be_visible(timeout=5000)
    page.close()
    assert server.process.poll() is not None

    server.start()
    page = context.new_page()
    page.goto("/")
    expect(page.locator(".row-title")).to_have_text(["Kept in the browser"])
    assert entry_with_title(server, "Kept in the browser")


def drafts_in(page):
    return page.evaluate("""Object.keys(localStorage).filter((k) => k.startsWith('diary.draft.'))
                            .map((k) => JSON.parse(localStorage.getItem(k)))""")


def test_the_diary_opens_and_keeps_what_is_written_when_the_network_is_gone_at_start(pages, server):
    # The page and its scripts load, then the network goes (a phone that just lost it): the first
    # session check fails. The diary opens all the same, and what is written waits in the browser
    # until the connection is back, then is saved once.
    pages.allow_errors(r"Failed to load resource: net::ERR_INTERNET_DISCONNECTED")
    context = pages.context()
    page = context.new_page()
    sent = []
    page.on("request", lambda r: "/api/v1/" in r.url and r.method != "GET"
            and sent.append((r.method, r.headers.get("x-csrf-token"))))
    page.route("**/api/v1/**", lambda route: route.abort("internetdisconnected"))
    page.goto("/")
    note = page.get_by_role("status").filter(has_text="Could not reach the diary.")
    expect(note).to_have_text("Could not reach the diary. What you write is kept in this browser and sent when "
                              "the connection is back.")
    expect(page.get_by_text("Your entries will appear here when the connection is back.")).to_be_visible()
    kept_for_offline(page)  # the editor, which the worker keeps a few seconds after the visit
    context.set_offline(True)
    page.unroute("**/api/v1/**")

    page.get_by_role("link", name="New entry").click()
    expect(note).to_be_visible()  # in the editor too, above the title
    page.get_by_role("textbox", name="Title").type("Written before the diary answered")
    page.keyboard.press("Enter")
    page.keyboard.type("The phone was offline.")
    wait_for(lambda: [(d["title"], d["body"], d["owner"]) for d in drafts_in(page)]
             == [("Written before the diary answered", "The phone was offline.", None)], message="the draft")
    # Back in the list, what waits in this browser is there, and opens again in the editor.
    page.get_by_role("link", name="Back to the list").click()
    expect(page.locator(".row-title")).to_have_text(["Written before the diary answered"])
    page.locator(".row-link").click()
    body = page.get_by_role("textbox", name="Write here")
    expect(body).to_have_value("The phone was offline.")
    body.press("End")
    page.keyboard.type(" Now it is back.")
    page.wait_for_timeout(1000)
    assert sent == [], "nothing is sent before the session is known"

    # Back online: the session is asked for at once, the draft is sent with its CSRF token, and
    # the editor stays as it is.
    context.set_offline(False)
    expect(note).to_have_count(0, timeout=3000)
    text = "The phone was offline. Now it is back."
    wait_for(lambda: [(e["title"], e["excerpt"]) for e in server.entries()]
             == [("Written before the diary answered", text)], message="the draft, saved once")
    expect(body).to_be_focused()
    page.get_by_role("link", name="Back to the list").click()
    expect(page.locator(".row-title")).to_have_text(["Written before the diary answered"])
    expect(page.get_by_role("link", name="Trash")).to_be_visible()
    assert drafts_in(page) == []
    assert len(server.entries()) == 1
    assert sent and all(token for _, token in sent), sent


def test_a_slow_first_answer_opens_the_diary_meanwhile(pages, server):
    page = pages.context(**NO_WORKER).new_page()
    held = []
    page.route("**/api/v1/session", lambda route: held.append(route), times=1)  # answered when the test says so
    page.goto("/")
    expect(page.locator(".offline-note")).to_be_visible(timeout=6000)
    expect(page.get_by_role("link", name="New entry")).to_be_visible()
    held[0].continue_()
    expect(page.locator(".offline-note")).to_have_count(0)
    expect(page.get_by_text("Your diary is empty.")).to_be_visible()


def test_a_draft_written_while_the_server_restarts_waits_for_its_writer_to_log_in(pages, server):
    # The writer opened the diary before; now the server goes away while the page asks who is
    # logged in, and comes back having forgotten this browser's session.
    pages.allow_errors(r"ERR_CONNECTION_REFUSED|Failed to load resource")
    context = pages.context()
    page = context.new_page()
    page.goto("/")
    expect(page.get_by_text("Your diary is empty.")).to_be_visible()
    kept_for_offline(page)  # a visit of more than a few seconds: the editor is kept too

    def server_goes_away(route):
        server.stop()
        route.continue_()

    page.route("**/api/v1/session", server_goes_away, times=1)
    page.goto("/#/new")
    page.reload()
    expect(page.get_by_role("status").filter(has_text="Could not reach the diary.")).to_be_visible()
    page.get_by_role("textbox", name="Title").type("Before the restart")
    wait_for(lambda: [(d["title"], d["owner"]) for d in drafts_in(page)] == [("Before the restart", "tester")],
             message="the draft, its writer presumed")
    context.clear_cookies()
    server.start()

    # The check is asked again on its own; the answer is "log in", and the draft waits.
    expect(page.get_by_role("button", name="Log in")).to_be_visible(timeout=20000)
    expect(page.get_by_role("status").filter(has_text="Could not reach the diary.")).to_have_count(0)
    assert [d["title"] for d in drafts_in(page)] == ["Before the restart"]
    assert server.entries() == []
    page.get_by_role("textbox", name="Name").fill(TESTER["name"])
    page.get_by_label("Password").fill(TESTER["password"])
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("textbox", name="Title")).to_have_value("Before the restart")
    wait_for(lambda: [e["title"] for e in server.entries()] == ["Before the restart"], message="the draft, saved")
    page.get_by_role("link", name="Back to the list").click()
    expect(page.locator(".row-title")).to_have_text(["Before the restart"])
    assert drafts_in(page) == []
    assert len(server.entries()) == 1


def test_a_conflict_shows_both_versions_and_lets_the_writer_choose(pages, server):
    pages.allow_errors(r"status of 409")
    entry = server.create("Shared", "The original text.")
    phone = pages.open(f"/#/entry/{entry['id']}")
    laptop = pages.open(f"/#/entry/{entry['id']}")
    expect(laptop.get_by_role("textbox", name="Write here")).to_have_value("The original text.")

    phone.get_by_role("textbox", name="Write here").fill("The phone's text.")
    wait_for(lambda: server.entry(entry["id"])["version"] == 2, message="the phone's save")

    laptop.get_by_role("textbox", name="Write here").fill("The laptop's text.")
    dialog = laptop.get_by_role("dialog", name="This entry was changed somewhere else")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("region", name="Yours")).to_contain_text("The laptop's text.")
    expect(dialog.get_by_role("region", name="The other version")).to_contain_text("The phone's text.")
    dialog.get_by_role("button", name="Keep mine").click()
    wait_for(lambda: server.entry(entry["id"])["body"] == "The laptop's text.", message="the laptop's text")
    assert server.entry(entry["id"])["version"] == 3

    # Now the phone is behind; its writer takes the other version.
    phone.get_by_role("textbox", name="Write here").fill("The phone again.")
    dialog = phone.get_by_role("dialog", name="This entry was changed somewhere else")
    dialog.get_by_role("button", name="Use theirs").click()
    expect(phone.get_by_role("textbox", name="Write here")).to_have_value("The laptop's text.")
    phone.wait_for_timeout(800)
    assert server.entry(entry["id"])["body"] == "The laptop's text."
    assert server.entry(entry["id"])["version"] == 3
