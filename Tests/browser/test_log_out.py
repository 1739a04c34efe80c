"""Logging out from the account's menu: the session ends and the login form shows, and no text
is lost unasked: what waits in the browser is sent first, and what cannot be sent is asked about,
since logging out deletes it from the device with everything else of the writer's."""

import datetime

import pytest
from playwright.sync_api import expect

from conftest import NO_WORKER, TESTER

WORDS = {
    "en-US": {"account": "Account", "menu": "Logged in as tester", "settings": "Settings", "log_out": "Log out", "cancel": "Cancel",
              "unsent": "Some changes are not saved yet. Logging out deletes them from this device. Log out anyway?", "log_in": "Log in", "name": "Name",
              "password": "Password", "title": "Title", "body": "Write here", "back": "Back to the list",
              "sending": "Saving your changes before logging out…", "empty": "Your diary is empty."},
    "ko-KR": {"account": "계정", "menu": "tester 계정으로 로그인했어요", "settings": "설정", "log_out": "로그아웃", "cancel": "취소",
              "unsent": "아직 저장하지 못한 글이 있어요. 로그아웃하면 이 기기에서 지워져요. 그래도 로그아웃할까요?", "log_in": "로그인", "name": "이름",
              "password": "비밀번호", "title": "일기 제목", "body": "일기 내용", "back": "목록으로",
              "sending": "로그아웃하기 전에 쓴 글을 저장하고 있어요…", "empty": "아직 쓴 일기가 없어요."},
}


def block_saves(page, blocked):
    """Refuses every save while `blocked["on"]`; the list still loads."""
    def handle(route):
        if route.request.method != "GET" and blocked["on"]:
            route.abort("internetdisconnected")
        else:
            route.continue_()
    page.route("**/api/v1/entries**", handle)


def write(page, w, title, body):
    page.goto("/#/new")
    page.get_by_role("textbox", name=w["title"]).fill(title)
    page.get_by_role("textbox", name=w["body"]).fill(body)
    page.get_by_role("link", name=w["back"]).click()


def log_out(page, w):
    page.get_by_role("button", name=w["account"]).click()
    menu = page.get_by_role("dialog", name=w["menu"])
    expect(menu.get_by_role("button")).to_have_text([w["settings"], w["log_out"], w["cancel"]])
    menu.get_by_role("button", name=w["log_out"]).click()


def log_in(page, w):
    page.get_by_role("textbox", name=w["name"]).fill(TESTER["name"])
    page.get_by_label(w["password"]).fill(TESTER["password"])
    page.get_by_role("button", name=w["log_in"]).click()


def test_logging_out_ends_the_session_and_shows_the_login_form(pages, server):
    entry = server.create("Private thoughts", "Not for the next person at this computer.")
    page = pages.open("/")
    page.get_by_role("link", name="Private thoughts").click()
    expect(page.get_by_role("textbox", name="Write here")).to_have_value("Not for the next person at this computer.")
    page.get_by_role("link", name="Back to the list").click()
    expect(page.locator(".row-title")).to_have_text(["Private thoughts"])
    account = page.get_by_role("button", name="Account")
    expect(account).to_have_attribute("aria-haspopup", "dialog")

    # Cancel leaves everything as it was.
    account.click()
    page.get_by_role("dialog", name="Logged in as tester").get_by_role("button", name="Cancel").click()
    expect(page.locator(".row-title")).to_have_text(["Private thoughts"])

    log_out(page, WORDS["en-US"])
    expect(page.get_by_role("button", name="Log in")).to_be_visible()
    expect(page.get_by_text("Private thoughts")).to_have_count(0)
    # Going to the entry again (the app's back arrow went back in history, so it is the entry
    # after this one) shows nothing of it; the session is over on the server too, so a reload
    # shows the form again.
    page.go_forward()
    expect(page).to_have_url(f"{server.url}/#/entry/{entry['id']}")
    expect(page.get_by_role("button", name="Log in")).to_be_visible()
    expect(page.get_by_text("Not for the next person at this computer.")).to_have_count(0)
    page.reload()
    expect(page.get_by_role("button", name="Log in")).to_be_visible()
    expect(page.get_by_text("Private thoughts")).to_have_count(0)

    log_in(page, WORDS["en-US"])
    expect(page.get_by_role("textbox", name="Write here")).to_have_value("Not for the next person at this computer.")


def test_logging_out_sends_what_waits_in_the_browser_first(pages, server):
    page = pages.context(**NO_WORKER).new_page()
    # Page time stands still, so no retry timer sends the text: only logging out can.
    page.clock.install(time=datetime.datetime(2024, 5, 1, 12, 0, tzinfo=datetime.timezone.utc))
    blocked = {"on": True}
    block_saves(page, blocked)
    pages.allow_errors(r"net::ERR_INTERNET_DISCONNECTED")
    page.goto("/")
    # A second after the page's present: a slow start (CI, three suites at once) may have taken
    # it past the time installed, and the clock cannot go back.
    now = page.evaluate("Date.now()") / 1000
    page.clock.pause_at(datetime.datetime.fromtimestamp(now + 1, tz=datetime.timezone.utc))
    write(page, WORDS["en-US"], "Written on the train", "The connection came and went.")
    expect(page.get_by_text("Not saved yet.", exact=False)).to_be_visible()
    assert server.entries() == []

    blocked["on"] = False  # the connection is back
    log_out(page, WORDS["en-US"])
    expect(page.get_by_role("button", name="Log in")).to_be_visible()
    expect(page.get_by_role("dialog")).to_have_count(0)  # nothing to ask: all of it was sent
    assert [(e["title"], e["excerpt"]) for e in server.entries()] == [("Written on the train", "The connection came and went.")]


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_logging_out_says_it_is_saving_while_a_slow_save_is_on_its_way(pages, server, locale):
    w = WORDS[locale]
    page = pages.open("/", locale=locale, **NO_WORKER)
    held = []
    holding = {"on": True}

    def hold(route):
        if route.request.method != "GET" and holding["on"]:
            held.append(route)  # answered below, when the test lets it through
        else:
            route.continue_()
    page.route("**/api/v1/entries**", hold)
    write(page, w, "Slow connection", "These words are on their way.")
    expect(page.get_by_role("button", name=w["account"])).to_be_visible()
    # The save may go out a moment after the list shows (a busy machine): waited for in the page,
    # where Playwright runs the route handler that holds it.
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the save did not start"

    log_out(page, w)
    expect(page.get_by_role("status").filter(has_text=w["sending"])).to_be_visible()
    holding["on"] = False
    for route in held:
        route.continue_()
    expect(page.get_by_role("button", name=w["log_in"])).to_be_visible()
    expect(page.get_by_text(w["sending"])).to_have_count(0)
    expect(page.get_by_role("dialog")).to_have_count(0)  # nothing to ask: it was sent
    assert [(e["title"], e["excerpt"]) for e in server.entries()] == [("Slow connection", "These words are on their way.")]


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_text_that_cannot_be_sent_is_asked_about_and_logging_out_anyway_deletes_it(pages, server, locale):
    w = WORDS[locale]
    page = pages.open("/", locale=locale, **NO_WORKER)
    blocked = {"on": True}
    block_saves(page, blocked)
    pages.allow_errors(r"net::ERR_INTERNET_DISCONNECTED")
    write(page, w, "Not sent yet", "Every word of this must survive.")
    # The list shows it waiting to be sent.
    expect(page.locator(".row-title")).to_have_text(["Not sent yet"])
    expect(page.locator(".row .waiting")).to_have_count(1)

    # Asked first; Cancel stays logged in.
    log_out(page, w)
    question = page.get_by_role("dialog", name=w["unsent"])
    expect(question.get_by_role("button")).to_have_text([w["log_out"], w["cancel"]])
    question.get_by_role("button", name=w["cancel"]).click()
    expect(page.get_by_role("button", name=w["account"])).to_be_visible()
    expect(page.get_by_role("button", name=w["log_in"])).to_have_count(0)

    # Logging out anyway deletes the text from this browser ...
    log_out(page, w)
    question.get_by_role("button", name=w["log_out"]).click()
    expect(page.get_by_role("button", name=w["log_in"])).to_be_visible()
    # ... and the next person at this browser is not told about it (nor is the form covered).
    expect(page.locator("#save-status")).to_be_hidden()
    assert page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('diary.draft.'))") == []

    # ... so nothing of it is sent when its writer is back: they were asked.
    blocked["on"] = False
    log_in(page, w)
    expect(page.get_by_role("button", name=w["account"])).to_be_visible()
    expect(page.get_by_text(w["empty"])).to_be_visible()
    expect(page.locator(".row-title")).to_have_count(0)
    assert server.entries() == []


def test_after_logging_out_the_offline_start_shows_nothing_of_the_last_writer(pages, server):
    # A shared browser: the next person opening the diary while the server cannot be reached sees
    # nothing of what the last writer wrote or read here.
    w = WORDS["en-US"]
    context = pages.context(**NO_WORKER)
    page = context.new_page()
    block_saves(page, {"on": True})
    pages.allow_errors(r"net::ERR_INTERNET_DISCONNECTED")
    page.goto("/")
    write(page, w, "Not for the next person", "Deleted as I log out.")
    draft_id = page.evaluate("Object.keys(localStorage).find((k) => k.startsWith('diary.draft.')).split('.').pop()")
    log_out(page, w)
    page.get_by_role("dialog", name=w["unsent"]).get_by_role("button", name=w["log_out"]).click()
    expect(page.get_by_role("button", name=w["log_in"])).to_be_visible()
    page.close()

    page = context.new_page()
    page.route("**/api/v1/**", lambda route: route.abort("internetdisconnected"))
    page.goto("/")
    expect(page.get_by_text("Your entries will appear here when the connection is back.")).to_be_visible()
    expect(page.get_by_text("Not for the next person")).to_have_count(0)
    expect(page.locator(".row")).to_have_count(0)
    expect(page.get_by_text("Changes kept for their writer are sent when they log in again.")).to_have_count(0)
    expect(page.get_by_role("link", name="New entry")).to_be_visible()
    # Nor does its address open the text: the entry is asked of the server, which cannot answer.
    page.goto(f"/#/entry/{draft_id}")
    expect(page.get_by_text("Could not reach the diary. Check the connection.")).to_be_visible()
    expect(page.get_by_role("textbox", name=w["body"])).to_have_count(0)
    assert "Deleted as I log out." not in page.content()
    assert "Not for the next person" not in page.content()
