"""Offline first, the data: the entries seen are kept on the device (IndexedDB) and open without
a connection; what is written offline waits in the outbox, marked on the list, and reaches the
server once when the connection is back; two tabs on one entry never write over each other
unseen; logging out leaves nothing of the writer on the device."""

import datetime
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import DESKTOP, NO_WORKER, PHONE, kept_for_offline, wait_for

SHOTS = Path(__file__).parent / "screenshots"
OFFLINE_ERRORS = r"Failed to load resource|ERR_INTERNET_DISCONNECTED|Failed to fetch|status of 409"
CONFLICT = "This entry was changed somewhere else"

# What the device keeps, read in the page through the app's own module (the same database).
READ_DEVICE = """async () => {
  const db = await (await import('./js/device.js')).open();
  const all = (name) => new Promise((resolve, reject) => {
    const request = db.transaction(name).objectStore(name).getAll();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return { entries: await all('entries'), outbox: await all('outbox') };
}"""


def device(page):
    return page.evaluate(READ_DEVICE)


def controlled(page):
    """The worker controls the page and has kept the rest of the app (the editor, the outbox),
    which it fetches a few seconds after a visit."""
    kept_for_offline(page)


def creates_answered(page):
    """The POSTs of new entries the server answered, as the page saw them."""
    answered = []
    page.on("response", lambda r: r.request.method == "POST" and r.url.endswith("/api/v1/entries")
            and answered.append(r.status))
    return answered


def waiting(page, title):
    return page.locator(".row", has=page.locator(".row-title", has_text=title)).locator(".waiting")


def test_an_entry_written_offline_waits_in_the_outbox_and_reaches_the_server_once(pages, server):
    pages.allow_errors(OFFLINE_ERRORS)
    context = pages.context(**PHONE)
    page = context.new_page()
    answered = creates_answered(page)
    page.goto("/")
    expect(page.get_by_role("link", name="New entry")).to_be_visible()
    controlled(page)

    context.set_offline(True)
    page.get_by_role("link", name="New entry").click()
    page.get_by_role("textbox", name="Title").fill("Written on the train")
    page.get_by_role("textbox", name="Write here").fill("No signal between stations.")
    page.get_by_role("link", name="Back to the list").click()
    # The list says it waits, in words a screen reader reads with the row.
    expect(waiting(page, "Written on the train")).to_have_text("Not sent yet")
    expect(page.get_by_role("link", name="Written on the train")).to_contain_text("Not sent yet")
    # The outbox holds it with its client-made id, building on no version (a new entry).
    wait_for(lambda: len(device(page)["outbox"]) == 1, message="the entry in the outbox")
    [kept] = device(page)["outbox"]
    assert (kept["title"], kept["body"], kept["base"], kept["owner"]) == \
        ("Written on the train", "No signal between stations.", None, "tester")

    # A reload offline keeps it waiting.
    page.reload()
    expect(waiting(page, "Written on the train")).to_be_visible()
    assert server.entries() == []

    context.set_offline(False)
    wait_for(lambda: [e["title"] for e in server.entries()] == ["Written on the train"], timeout=20,
             message="the entry on the server")
    assert server.entries()[0]["id"] == kept["id"]
    wait_for(lambda: device(page)["outbox"] == [], message="the outbox to empty")
    expect(waiting(page, "Written on the train")).to_have_count(0)
    # Sent once: one create answered, and nothing more after a reload online.
    page.reload()
    expect(page.get_by_role("link", name="Written on the train")).to_be_visible()
    expect(waiting(page, "Written on the train")).to_have_count(0)
    assert answered == [201]
    assert len(server.entries()) == 1


@pytest.mark.parametrize("event", ["online", "visibilitychange"])
def test_the_outbox_is_sent_on_the_online_event_and_when_the_app_is_looked_at_again(pages, server, event):
    pages.allow_errors(OFFLINE_ERRORS)
    page = pages.context(**NO_WORKER).new_page()  # the outbox is the page's own (IndexedDB)
    page.clock.install()
    page.route("**/api/v1/entries", lambda route: route.abort("internetdisconnected")
               if route.request.method == "POST" else route.continue_())
    page.goto("/")
    expect(page.get_by_role("link", name="New entry")).to_be_visible()
    # The page's time stands still from here: no retry timer sends anything, only the event.
    now = datetime.datetime.fromtimestamp(page.evaluate("Date.now()") / 1000, datetime.timezone.utc)
    page.clock.pause_at(now + datetime.timedelta(seconds=2))
    page.get_by_role("link", name="New entry").click()
    page.get_by_role("textbox", name="Title").fill("Sent on " + event)
    page.get_by_role("link", name="Back to the list").click()
    expect(waiting(page, "Sent on " + event)).to_be_visible()
    assert server.entries() == []

    # (Unrouted: a route's handler runs only while Python waits on the page, wait_for does not.)
    page.unroute("**/api/v1/entries")
    target = "window" if event == "online" else "document"
    page.evaluate(f"{target}.dispatchEvent(new Event('{event}'))")
    wait_for(lambda: [e["title"] for e in server.entries()] == ["Sent on " + event], message="the entry on the server")
    expect(waiting(page, "Sent on " + event)).to_have_count(0)


def test_an_edit_made_offline_is_sent_when_the_connection_is_back(pages, server):
    pages.allow_errors(OFFLINE_ERRORS)
    entry = server.create("Packing list", "Passport.")
    context = pages.context()
    page = context.new_page()
    page.goto("/")
    page.get_by_role("link", name="Packing list").click()
    expect(page.get_by_role("textbox", name="Write here")).to_have_value("Passport.")
    controlled(page)

    # Offline, even a reload: the entry opens from the device's copy and takes the edit.
    context.set_offline(True)
    page.reload()
    body = page.get_by_role("textbox", name="Write here")
    expect(body).to_have_value("Passport.")
    body.fill("Passport. Charger.")
    page.get_by_role("link", name="Back to the list").click()
    expect(page.get_by_role("link", name="Packing list")).to_contain_text("Passport. Charger.")
    expect(waiting(page, "Packing list")).to_be_visible()
    wait_for(lambda: len(device(page)["outbox"]) == 1, message="the edit in the outbox")  # (gathered for 0.1 s)
    [kept] = device(page)["outbox"]
    assert (kept["id"], kept["base"]) == (entry["id"], 1)
    assert server.entry(entry["id"])["body"] == "Passport."

    context.set_offline(False)
    wait_for(lambda: server.entry(entry["id"])["body"] == "Passport. Charger.", timeout=20, message="the edit")
    assert server.entry(entry["id"])["version"] == 2
    expect(waiting(page, "Packing list")).to_have_count(0)


def test_entries_seen_before_open_offline_after_a_reload(pages, server):
    pages.allow_errors(OFFLINE_ERRORS)
    for n in range(1, 26):  # more than one page of the list
        server.create(f"Day {n}", f"What happened on day {n}.")
    context = pages.context(locale="ko-KR")
    page = context.new_page()
    page.goto("/")
    page.get_by_role("link", name="Day 25").click()
    expect(page.get_by_role("textbox", name="일기 내용")).to_have_value("What happened on day 25.")
    page.get_by_role("link", name="목록으로").click()
    expect(page.locator(".row-title").first).to_have_text("Day 25")
    page.locator(".row").last.scroll_into_view_if_needed()
    expect(page.get_by_role("link", name="Day 1", exact=False).last).to_be_visible()
    controlled(page)
    wait_for(lambda: len(device(page)["entries"]) == 25, message="the rows kept on the device")

    context.set_offline(True)
    page.reload()
    # The list from the device: newest first, every row seen, paged as online; only links (Share
    # and Delete need the server).
    expect(page.locator(".row-title").first).to_have_text("Day 25")
    expect(page.locator(".row-more")).to_have_count(0)
    page.locator(".row").last.scroll_into_view_if_needed()
    expect(page.locator(".row-title")).to_have_count(25)
    expect(page.locator(".row-title").last).to_have_text("Day 1")
    # An entry opened before opens with its text.
    page.get_by_role("link", name="Day 25").click()
    expect(page.get_by_role("textbox", name="일기 내용")).to_have_value("What happened on day 25.")
    # One never opened here has only its row on the device: the editor says so.
    page.go_back()
    page.get_by_role("link", name="Day 24").click()
    expect(page.get_by_text("이 기기에서 아직 연 적이 없는 일기라서, 다시 연결되면 열 수 있어요.")).to_be_visible()
    expect(page.get_by_role("textbox", name="일기 내용")).to_be_hidden()


def test_the_device_keeps_the_newest_two_thousand_entries_of_each_writer(pages, server):
    page = pages.open("/")
    # The empty diary's list has loaded (and so made the device's copy of it empty) first.
    expect(page.get_by_text("Your diary is empty.")).to_be_visible()
    kept = page.evaluate("""async () => {
      const device = await import('./js/device.js');
      const rows = Array.from({ length: 2005 }, (_, n) => ({
        id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, title: `Entry ${n}`, excerpt: '',
        createdAt: new Date(Date.UTC(2020, 0, 1) + n * 60000).toISOString(), version: 1, weather: null,
      }));
      await device.keepRows(rows);
      const page = await device.keptPage(null);
      return { count: await device.count(), first: page.entries[0].title, others: await device.count('someone else') };
    }""")
    assert kept == {"count": 2000, "first": "Entry 2004", "others": 0}
    entries = device(page)["entries"]
    assert "Entry 4" not in [e["row"]["title"] for e in entries]  # the oldest five went
    assert "Entry 5" in [e["row"]["title"] for e in entries]


def test_entries_written_at_the_same_moment_at_a_pages_edge_stay_on_the_device(pages, server):
    # The server orders such entries by a sequence the device does not know: one of them may be
    # on the next page, so a page's stretch never lets go of entries at its edges.
    page = pages.open("/")
    # The empty diary's list has loaded (and so made the device's copy of it empty) first.
    expect(page.get_by_text("Your diary is empty.")).to_be_visible()
    titles = page.evaluate("""async () => {
      const device = await import('./js/device.js');
      const row = (n, createdAt) => ({ id: `00000000-0000-4000-8000-00000000000${n}`, title: `Entry ${n}`,
                                       excerpt: '', createdAt, version: 1, weather: null });
      const same = '2020-12-22T10:00:00.000Z';
      await device.keepRows([row(1, '2020-12-21T10:00:00.000Z'), row(2, same), row(3, same), row(4, '2020-12-23T10:00:00.000Z')]);
      // The first page ends with entry 2 (the server put 3 on the next page); entry 4 was trashed.
      await device.keepRows([row(2, same)], { upper: null, lower: same });
      return (await device.keptPage(null)).entries.map((e) => e.title);
    }""")
    assert titles == ["Entry 3", "Entry 2", "Entry 1"]


def test_an_entry_trashed_elsewhere_leaves_the_device_when_the_list_next_loads(pages, server):
    pages.allow_errors(OFFLINE_ERRORS)
    gone = server.create("Trashed on the laptop")
    server.create("Still here")
    context = pages.context()
    page = context.new_page()
    page.goto("/")
    expect(page.locator(".row-title")).to_have_text(["Still here", "Trashed on the laptop"])
    server.api("DELETE", f"entries/{gone['id']}")
    page.reload()
    expect(page.locator(".row-title")).to_have_text(["Still here"])
    wait_for(lambda: [e["row"]["title"] for e in device(page)["entries"]] == ["Still here"], message="the device's copy")
    controlled(page)
    context.set_offline(True)
    page.reload()
    expect(page.locator(".row-title")).to_have_text(["Still here"])


def test_two_tabs_on_one_entry_keep_their_own_words_and_the_second_save_gets_the_choice(pages, server):
    pages.allow_errors(OFFLINE_ERRORS)
    entry = server.create("Shared", "The original text.")
    context = pages.context()
    first, second = context.new_page(), context.new_page()
    for tab in (first, second):
        tab.goto(f"/#/entry/{entry['id']}")
        expect(tab.get_by_role("textbox", name="Write here")).to_have_value("The original text.")

    # Both write while the connection is down: each tab's words wait in its own draft.
    context.set_offline(True)
    first.get_by_role("textbox", name="Write here").fill("The first tab's words.")
    second.get_by_role("textbox", name="Write here").fill("The second tab's words.")
    wait_for(lambda: sorted(d["body"] for d in device(first)["outbox"])
             == ["The first tab's words.", "The second tab's words."], message="two drafts in the outbox")
    drafts = first.evaluate("""Object.keys(localStorage).filter((k) => k.startsWith('diary.draft.'))
                               .map((k) => JSON.parse(localStorage.getItem(k)).body).sort()""")
    assert drafts == ["The first tab's words.", "The second tab's words."]

    # Back online: one save arrives first; the other tab is asked, with both versions shown.
    context.set_offline(False)
    dialogs = {tab: tab.get_by_role("dialog", name=CONFLICT) for tab in (first, second)}
    asked = wait_for(lambda: next((tab for tab, d in dialogs.items() if d.is_visible()), None), timeout=20,
                     message="the conflict choice in one tab")
    saved = second if asked is first else first
    words = {first: "The first tab's words.", second: "The second tab's words."}
    assert server.entry(entry["id"])["body"] == words[saved]
    expect(dialogs[asked].get_by_role("region", name="Yours")).to_contain_text(words[asked])
    expect(dialogs[asked].get_by_role("region", name="The other version")).to_contain_text(words[saved])
    expect(dialogs[saved]).to_have_count(0)

    # Its writer keeps theirs: now on the server; the other tab still shows its own words.
    dialogs[asked].get_by_role("button", name="Keep mine").click()
    wait_for(lambda: server.entry(entry["id"])["body"] == words[asked], message="the kept words")
    assert server.entry(entry["id"])["version"] == 3
    expect(saved.get_by_role("textbox", name="Write here")).to_have_value(words[saved])

    # That tab's next edit builds on the version it saw, so it is asked in turn.
    saved.get_by_role("textbox", name="Write here").fill(words[saved] + " And more.")
    expect(saved.get_by_role("dialog", name=CONFLICT)).to_be_visible()
    assert server.entry(entry["id"])["body"] == words[asked]


def test_a_tab_opened_after_another_closed_sends_its_waiting_words(pages, server):
    pages.allow_errors(OFFLINE_ERRORS)
    context = pages.context()
    page = context.new_page()
    page.goto("/")
    controlled(page)
    context.set_offline(True)
    page.goto("/#/new")
    page.get_by_role("textbox", name="Title").fill("Left in a closed tab")
    wait_for(lambda: len(device(page)["outbox"]) == 1, message="the entry in the outbox")
    page.close()

    context.set_offline(False)
    other = context.new_page()
    other.goto("/")
    wait_for(lambda: [e["title"] for e in server.entries()] == ["Left in a closed tab"], timeout=20,
             message="the closed tab's entry, sent from the new tab")
    expect(other.get_by_role("link", name="Left in a closed tab")).to_be_visible()


def test_logging_out_clears_the_device_and_asks_first_about_unsent_words(pages, server):
    pages.allow_errors(OFFLINE_ERRORS + r"|status of 401")
    server.create("Read on this phone", "Kept on the device.")
    context = pages.context(**PHONE)
    page = context.new_page()
    page.goto("/")
    page.get_by_role("link", name="Read on this phone").click()
    expect(page.get_by_role("textbox", name="Write here")).to_have_value("Kept on the device.")
    page.get_by_role("link", name="Back to the list").click()
    # Another tab of the same browser has words that cannot be sent.
    other = context.new_page()
    other.route("**/api/v1/entries", lambda route: route.abort("internetdisconnected")
                if route.request.method == "POST" else route.continue_())
    other.goto("/#/new")
    other.get_by_role("textbox", name="Title").fill("Not sent from the other tab")
    wait_for(lambda: len(device(page)["outbox"]) == 1 and device(page)["entries"], message="the device's copy")
    expect(waiting(page, "Not sent from the other tab")).to_have_count(0)  # the list was drawn before
    page.reload()
    expect(waiting(page, "Not sent from the other tab")).to_be_visible()

    page.get_by_role("button", name="Account").click()
    page.get_by_role("dialog", name="Logged in as tester").get_by_role("button", name="Log out").click()
    question = page.get_by_role("dialog", name="Some changes are not saved yet. Logging out deletes them from this device. Log out anyway?")
    expect(question).to_be_visible()
    assert device(page)["outbox"]  # nothing gone before the answer
    question.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("button", name="Log in")).to_be_visible()
    # The other tab, told, stops writing its draft back (its retries would, unstopped).
    wait_for(lambda: device(page) == {"entries": [], "outbox": []}, message="the device to be cleared")
    assert page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('diary.draft.'))") == []
    assert device(other) == {"entries": [], "outbox": []}
    wait_for(lambda: other.evaluate("import('./js/autosave.js').then((m) => m.isHeld())"), message="the other tab to stop sending")
    assert server.entries()[0]["title"] == "Read on this phone" and len(server.entries()) == 1


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_screenshot_of_the_list_with_an_entry_waiting(pages, server, size, locale, scheme):
    pages.allow_errors(OFFLINE_ERRORS)
    SHOTS.mkdir(exist_ok=True)
    server.load_sample()
    context = pages.context(locale=locale, color_scheme=scheme, **(PHONE if size == "phone" else DESKTOP))
    page = context.new_page()
    page.goto("/")
    expect(page.locator(".row")).to_have_count(15)
    controlled(page)  # the editor, kept for offline
    context.set_offline(True)
    page.goto("/#/new")
    page.locator(".title-field").fill("오늘은 비" if locale == "ko-KR" else "Rain again")
    page.locator(".body-field").fill("우산을 또 잃어버렸다." if locale == "ko-KR" else "Lost another umbrella.")
    page.go_back()
    expect(page.locator(".row .waiting")).to_have_count(1)
    page.screenshot(path=str(SHOTS / f"list-waiting-{size}-{locale}-{scheme}.png"))
    assert Axe().run(page).violations_count == 0
