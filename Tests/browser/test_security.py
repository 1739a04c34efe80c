"""Security in a real Chromium: the setup page and the login, CSRF from another origin, hostile
text (XSS) everywhere the app shows an entry, the response headers, and a session that ends
while the writer is at work."""

import json
import os
import subprocess
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import DESKTOP, DIARY_BIN, PHONE, TESTER, wait_for

SHOTS = Path(__file__).parent / "screenshots"
MINA = {"name": "mina", "password": "a long enough password"}

WORDS = {
    "en-US": {"setup": "Welcome to your diary", "login": "Diary", "name": "Name", "password": "Password",
              "create": "Create the account", "log_in": "Log in", "empty": "Your diary is empty.",
              "bad_login": "The name or the password is wrong."},
    "ko-KR": {"setup": "일기장에 오신 걸 환영해요", "login": "일기장", "name": "이름", "password": "비밀번호",
              "create": "계정 만들기", "log_in": "로그인", "empty": "아직 쓴 일기가 없어요.",
              "bad_login": "이름이나 비밀번호가 틀렸어요."},
}


def diary_cli(server, *args, stdin=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIARY_")}
    env["DIARY_BCRYPT_COST"] = "4"
    done = subprocess.run([DIARY_BIN, *args, "--database", str(server.database)], input=stdin,
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def log_in_as(server, person):
    """Logs the test's own API client (server.api) in as `person`."""
    request = urllib.request.Request(server.url + "/api/v1/session", data=json.dumps(person).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        session = json.loads(response.read())
        cookies = [c.split(";")[0] for c in response.headers.get_all("Set-Cookie")]
    server.auth = {"Cookie": "; ".join(cookies), "X-CSRF-Token": session["csrfToken"]}


# -- The setup page and the login ----------------------------------------------------------------

def account_form(page, locale="en-US", setup=False):
    w = WORDS[locale]
    expect(page.get_by_role("heading", level=1)).to_have_text(w["setup"] if setup else w["login"])
    expect(page.get_by_role("button", name=w["create"] if setup else w["log_in"])).to_be_visible()
    expect(page.get_by_role("textbox", name=w["name"])).to_be_visible()
    expect(page.get_by_label(w["password"])).to_have_attribute("type", "password")
    return page


@pytest.mark.fresh_diary
def test_a_new_diary_shows_its_setup_once_then_a_login(pages, server):
    page = pages.open("/", log_in=False)
    account_form(page, setup=True)
    expect(page.get_by_label("Password")).to_have_attribute("autocomplete", "new-password")

    page.get_by_role("textbox", name="Name").fill(MINA["name"])
    page.get_by_label("Password").fill(MINA["password"])
    page.get_by_role("button", name="Create the account").click()

    expect(page.get_by_text("Your diary is empty.")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text("Diary")
    page.reload()
    expect(page.get_by_text("Your diary is empty.")).to_be_visible()
    expect(page.get_by_text("Welcome to your diary")).to_have_count(0)

    # Anyone else now gets the login, never the setup again.
    other = account_form(pages.open("/", log_in=False))
    expect(other.get_by_text("Welcome to your diary")).to_have_count(0)
    expect(other.get_by_label("Password")).to_have_attribute("autocomplete", "current-password")
    for name, password in ((MINA["name"], "not the password"), ("nobody", MINA["password"])):
        other.get_by_role("textbox", name="Name").fill(name)
        other.get_by_label("Password").fill(password)
        other.get_by_role("button", name="Log in").click()
        expect(other.get_by_role("alert")).to_have_text("The name or the password is wrong.")
        expect(other.get_by_text("The name or the password is wrong.")).to_have_count(1)
        expect(other.get_by_role("button", name="Log in")).to_be_enabled()
    other.get_by_role("textbox", name="Name").fill(MINA["name"])
    other.get_by_label("Password").fill(MINA["password"])
    other.get_by_role("button", name="Log in").click()
    expect(other.get_by_text("Your diary is empty.")).to_be_visible()
    expect(other.get_by_role("alert")).to_have_count(0)

    log_in_as(server, MINA)
    assert server.entries() == []
    pages.allow_errors(r"status of 401 \(Unauthorized\)")  # the two failed logins


@pytest.mark.fresh_diary
def test_a_setup_page_left_open_after_the_diary_was_set_up_turns_into_the_login(pages, server):
    page = account_form(pages.open("/", log_in=False), setup=True)
    server.set_up()  # elsewhere, meanwhile

    page.get_by_role("textbox", name="Name").fill(MINA["name"])
    page.get_by_label("Password").fill(MINA["password"])
    page.get_by_role("button", name="Create the account").click()

    account_form(page)
    pages.allow_errors(r"status of 404 \(Not Found\)")


@pytest.mark.fresh_diary
def test_the_korean_setup_and_login_speak_korean(pages, server):
    page = account_form(pages.open("/", locale="ko-KR", log_in=False), "ko-KR", setup=True)
    assert page.evaluate("document.documentElement.lang") == "ko"
    server.set_up()
    page = account_form(pages.open("/", locale="ko-KR", log_in=False), "ko-KR")

    page.get_by_role("textbox", name="이름").fill(TESTER["name"])
    page.get_by_label("비밀번호").fill("not the password")
    page.get_by_role("button", name="로그인").click()

    expect(page.get_by_role("alert")).to_have_text(WORDS["ko-KR"]["bad_login"])
    pages.allow_errors(r"status of 401 \(Unauthorized\)")
    page.get_by_label("비밀번호").fill(TESTER["password"])
    page.get_by_role("button", name="로그인").click()
    expect(page.get_by_text(WORDS["ko-KR"]["empty"])).to_be_visible()


@pytest.mark.fresh_diary
@pytest.mark.parametrize("scheme", ["light", "dark"])  # a diary each: four wrong passwords, not the throttle's sixth
def test_screenshots_of_the_setup_and_the_login(pages, server, scheme):
    SHOTS.mkdir(exist_ok=True)
    devices = {"phone": PHONE, "desktop": DESKTOP}
    for screen in ("setup", "login", "login-error"):
        if screen == "login":
            server.set_up()
        for locale in WORDS:
            for device, options in devices.items():
                page = pages.open("/", locale=locale, log_in=False, color_scheme=scheme, **options)
                account_form(page, locale, setup=screen == "setup")
                if screen == "login-error":
                    page.get_by_role("textbox", name=WORDS[locale]["name"]).fill(TESTER["name"])
                    page.get_by_label(WORDS[locale]["password"]).fill("not the password")
                    page.get_by_role("button", name=WORDS[locale]["log_in"]).click()
                    expect(page.get_by_role("alert")).to_have_text(WORDS[locale]["bad_login"])
                    page.get_by_role("button", name=WORDS[locale]["log_in"]).focus()
                # Nothing sticks out sideways, and the button is in view without scrolling.
                assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
                box = page.get_by_role("button", name=WORDS[locale]["create" if screen == "setup" else "log_in"]).bounding_box()
                assert box["y"] + box["height"] <= options["viewport"]["height"]
                name = f"{screen}-{device}-{locale}-{scheme}"
                page.screenshot(path=str(SHOTS / f"{name}.png"))
                results = Axe().run(page)
                assert results.violations_count == 0, f"{name}:\n{results.generate_report()}"
                page.context.close()
    pages.allow_errors(r"status of 401 \(Unauthorized\)")


# -- A session that ends while the writer is at work ---------------------------------------------

def test_a_session_ended_while_writing_asks_to_log_in_and_keeps_the_text(pages, server):
    entry = server.create("Written before", "The first line.")
    context = pages.context()
    page = context.new_page()
    page.goto(f"/#/entry/{entry['id']}")
    body = page.get_by_role("textbox", name="Write here")
    expect(body).to_have_value("The first line.")
    # Logged out in another tab: this browser's session is over.
    assert context.request.delete(server.url + "/api/v1/session").status == 204
    pages.allow_errors(r"status of 401 \(Unauthorized\)")

    body.press("End")
    page.keyboard.type(" Typed after the session ended.")

    account_form(page)
    page.get_by_role("textbox", name="Name").fill(TESTER["name"])
    # The failed save is retried meanwhile; the form being filled in stays as it is.
    page.wait_for_timeout(3500)
    expect(page.get_by_role("textbox", name="Name")).to_have_value(TESTER["name"])
    expect(page.locator("form.account")).to_have_count(1)
    page.get_by_label("Password").fill(TESTER["password"])
    page.get_by_role("button", name="Log in").click()

    expect(page.get_by_role("textbox", name="Write here")).to_have_value("The first line. Typed after the session ended.")
    wait_for(lambda: server.entry(entry["id"])["body"] == "The first line. Typed after the session ended.",
             message="the text typed after the session ended, saved")
    expect(page.locator("form.account")).to_have_count(0)


def test_a_draft_is_sent_only_as_its_writer(pages, server):
    """A shared browser: tester's session ends with text not yet saved, and bea logs in on the
    form that appears. bea neither sees nor sends tester's text; tester, back, gets it saved."""
    diary_cli(server, "user", "add", "bea", stdin="bea's own long password\n")
    context = pages.context()
    page = context.new_page()
    page.goto("/#/new")
    expect(page.get_by_role("textbox", name="Title")).to_be_focused()
    assert context.request.delete(server.url + "/api/v1/session").status == 204
    pages.allow_errors(r"status of 40[14] \((Unauthorized|Not Found)\)")

    page.get_by_role("textbox", name="Title").fill("Tester's secret")
    page.get_by_role("textbox", name="Write here").fill("Not for bea.")
    account_form(page)
    page.get_by_role("textbox", name="Name").fill("bea")
    page.get_by_label("Password").fill("bea's own long password")
    page.get_by_role("button", name="Log in").click()

    expect(page.locator("form.account")).to_have_count(0)
    page.wait_for_timeout(2000)  # time for the tester's draft to show up for bea, were it to: it may not
    expect(page.get_by_text("Not for bea.")).to_have_count(0)
    expect(page.get_by_role("textbox", name="Write here")).to_have_count(0)
    page.goto("/")
    expect(page.get_by_text("Your diary is empty.")).to_be_visible()
    bea = pages.context(log_in=False).request
    assert bea.post(server.url + "/api/v1/session", data={"name": "bea", "password": "bea's own long password"}).ok
    assert bea.get(server.url + "/api/v1/entries").json()["entries"] == []
    assert server.entries() == []

    # bea logs out; tester logs in again in the same browser, and the text goes to tester's diary.
    assert context.request.delete(server.url + "/api/v1/session").status == 204
    page.goto("/")
    account_form(page)
    page.get_by_role("textbox", name="Name").fill(TESTER["name"])
    page.get_by_label("Password").fill(TESTER["password"])
    page.get_by_role("button", name="Log in").click()
    wait_for(lambda: [e["title"] for e in server.entries()] == ["Tester's secret"], message="tester's draft, saved")
    assert bea.get(server.url + "/api/v1/entries").json()["entries"] == []


# -- CSRF from another origin --------------------------------------------------------------------

class Attacker:
    """Another web site, on another port: it serves the pages it is given."""

    def __init__(self, files):
        self.files = files
        attacker = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path == "/favicon.ico":
                    self.send_response(204)
                    self.end_headers()
                    return
                found = attacker.files.get(self.path.split("?")[0])
                if not found:
                    self.send_error(404)
                    return
                kind, text = found
                data = text.encode()
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def attacker():
    site = Attacker({})
    yield site
    site.close()


ATTACK_HTML = """<!doctype html>
<meta charset="utf-8"><title>You won a prize</title>
<iframe name="sink-entry"></iframe><iframe name="sink-sample"></iframe><iframe name="sink-restore"></iframe>
<form id="entry" method="post" action="{diary}/api/v1/entries" enctype="text/plain" target="sink-entry">
<input name='{{"title":"Forged by a form","body":"from another site","pad":"' value='"}}'>
</form>
<form id="sample" method="post" action="{diary}/api/v1/sample" target="sink-sample"></form>
<form id="restore" method="post" action="{diary}/api/v1/entries/{trashed}/restore" target="sink-restore"></form>
<script src="/attack.js"></script>
"""

ATTACK_JS = """
for (const id of ['entry', 'sample', 'restore']) document.getElementById(id).submit();
const diary = '{diary}';
const tries = [
  fetch(diary + '/api/v1/entries', {{method: 'POST', credentials: 'include', headers: {{'Content-Type': 'text/plain'}},
        body: JSON.stringify({{title: 'Forged by fetch', body: 'from another site'}})}}),
  fetch(diary + '/api/v1/entries', {{method: 'POST', credentials: 'include', mode: 'no-cors',
        body: JSON.stringify({{title: 'Forged by a no-cors fetch', body: 'from another site'}})}}),
  fetch(diary + '/api/v1/entries/{trashed}/restore', {{method: 'POST', credentials: 'include', mode: 'no-cors'}}),
];
Promise.allSettled(tries).then(() => {{ document.title = 'done'; }});
"""

# (method, path) of each forged request, as the diary should see it.
FORGED = [("POST", "/api/v1/entries")] * 3 + [("POST", "/api/v1/sample")] + [("POST", "/api/v1/entries/{trashed}/restore")] * 2


@pytest.mark.parametrize("attacker_host", ["127.0.0.1", "localhost"])
def test_another_origin_cannot_write_with_the_users_session(pages, server, attacker, attacker_host):
    """127.0.0.1 on another port is another origin but the same site, so the browser sends the
    SameSite=Lax cookie: only the server's origin and CSRF checks stand in the way (403).
    localhost is another site: the cookie stays home (401)."""
    doomed = server.create("In the trash", "Restoring me takes the owner.")
    server.api("DELETE", f"entries/{doomed['id']}")
    attacker.files["/attack.html"] = ("text/html; charset=utf-8", ATTACK_HTML.format(diary=server.url, trashed=doomed["id"]))
    attacker.files["/attack.js"] = ("text/javascript", ATTACK_JS.format(diary=server.url, trashed=doomed["id"]))
    # No service worker: the forged form posts navigate frames to the diary's origin, which the
    # app's worker would see first (it lets them through), and on a busy machine the browser then
    # reported an answer late or not at all. The worker plays no part in refusing them.
    context = pages.context(service_workers="block")
    app = context.new_page()
    app.goto("/")
    expect(app.get_by_text("Your diary is empty.")).to_be_visible()
    asked, answered, settled = [], [], []
    mine = lambda r: r.url.startswith(server.url + "/api/") and r.method != "OPTIONS"
    context.on("request", lambda r: mine(r) and asked.append((r.method, r.url[len(server.url):])))
    context.on("response", lambda r: mine(r.request) and answered.append((r.request.method, r.url[len(server.url):], r.status)))
    context.on("requestfinished", lambda r: mine(r) and settled.append(r))
    context.on("requestfailed", lambda r: mine(r) and settled.append(r))
    pages.allow_errors(r"CORS policy|net::ERR_FAILED|status of 40[13]|Refused to display|frame-ancestors")

    evil = context.new_page()
    evil.goto(f"http://{attacker_host}:{attacker.port}/attack.html")
    expect(evil).to_have_title("done")
    expected = sorted((m, p.format(trashed=doomed["id"])) for m, p in FORGED)
    wait_for(lambda: sorted(asked) == expected, message=f"the forged requests (asked {asked})")
    # The three form posts' answers are always shown. The browser hides the answer to a CORS
    # fetch it refused to read, and on a busy machine it reports the no-cors fetches' ends late
    # or not at all; they are given a moment, not waited for. Every answer seen is the refusal.
    wait_for(lambda: len(answered) >= 3, timeout=30, message=f"the forms' answers (seen {answered})")
    try:
        wait_for(lambda: len(settled) >= len(FORGED), timeout=3, message="the fetches' ends")
    except AssertionError:
        pass

    refusal = 403 if attacker_host == "127.0.0.1" else 401
    assert {status for _, _, status in answered} == {refusal}, answered
    assert server.entries() == []
    assert [e["id"] for e in server.trash()] == [doomed["id"]]
    app.reload()
    expect(app.get_by_text("Your diary is empty.")).to_be_visible()


def test_another_site_cannot_frame_the_diary(pages, server, attacker):
    attacker.files["/frame.html"] = ("text/html", f'<!doctype html><title>frame</title><iframe src="{server.url}/"></iframe>')
    pages.allow_errors(r"Refused to display|frame-ancestors|X-Frame-Options")
    page = pages.context().new_page()
    page.goto(f"http://127.0.0.1:{attacker.port}/frame.html")
    page.wait_for_timeout(1000)  # time for the frame to draw the diary, were it allowed to

    framed = [f for f in page.frames if f != page.main_frame]
    assert len(framed) == 1
    assert not framed[0].url.startswith(server.url), "the diary was drawn inside another site's page"


# -- Hostile text: shown as text everywhere ------------------------------------------------------

PAYLOADS = ['<img src=x onerror=alert(1)>', '<script>alert(2)</script>', '"><svg onload=alert(3)>', 'javascript:alert(4)']
CAPTURE_SHARE = "window.sharedData = []; navigator.share = async (data) => { window.sharedData.push(data); };"
NO_MARKUP = """() => ({
  handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).map((e) => e.outerHTML),
  // Every script the page holds, but the server's own limits (a JSON block, never run: WebAppLimits).
  scripts: [...document.scripts].filter((s) => !(s.id === 'limits' && s.type === 'application/json' && s.parentNode === document.head))
    .map((s) => s.src || s.outerHTML),
  svg: document.querySelectorAll('svg:not(.icon)').length, // the app draws only its icons as SVG
  foreignImages: [...document.images].map((i) => i.getAttribute('src')).filter((s) => !/^icons\\//.test(s)),
  javascriptLinks: [...document.querySelectorAll('[href]')].map((a) => a.getAttribute('href')).filter((h) => /^\\s*javascript:/i.test(h)),
})"""


def assert_no_markup(page, server):
    found = page.evaluate(NO_MARKUP)
    assert found["handlers"] == [], "an element has an event handler attribute"
    assert found["scripts"] == [f"{server.url}/js/main.js"]
    assert found["svg"] == 0
    assert found["foreignImages"] == []
    assert found["javascriptLinks"] == []


def test_hostile_text_is_only_ever_text(pages, server):
    made = []
    for n, payload in enumerate(PAYLOADS):
        made.append(server.create(payload, f"{PAYLOADS[(n + 1) % 4]}\nan img in the body: {payload}"))

    context = pages.context()
    context.add_init_script(CAPTURE_SHARE)
    page = context.new_page()
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto("/")
    expect(page.locator(".row")).to_have_count(4)

    # Written through the app: the same texts, typed in.
    for n, payload in enumerate(PAYLOADS):
        page.get_by_role("link", name="New entry").click()
        page.get_by_role("textbox", name="Title").fill(f"{payload} typed")
        page.get_by_role("textbox", name="Write here").fill(f"typed img {payload}\n{PAYLOADS[(n + 2) % 4]}")
        page.get_by_role("link", name="Back to the list").click()
        expect(page.locator(".row")).to_have_count(5 + n)
    # Back keeps the list's rows, so a new entry's row shows once its first save (the title, as
    # the title field is left) is in; its body follows a moment later.
    typed_bodies = sorted(f"typed img {p}\n{PAYLOADS[(n + 2) % 4]}" for n, p in enumerate(PAYLOADS))
    wait_for(lambda: sorted(server.entry(e["id"])["body"] for e in server.entries() if e["title"].endswith(" typed")) == typed_bodies,
             message="the typed bodies saved")
    entries = {e["id"]: server.entry(e["id"]) for e in server.entries()}
    assert len(entries) == 8
    typed = [e for e in entries.values() if e["title"].endswith(" typed")]
    assert sorted(e["title"] for e in typed) == sorted(f"{p} typed" for p in PAYLOADS), "the server keeps what was typed"
    assert_no_markup(page, server)

    # The list.
    expect(page.locator(".row-title")).to_have_text([e["title"] for e in server.entries()])
    expect(page.locator(".row-excerpt")).to_have_text([e["excerpt"] for e in server.entries()])

    # The editor, and its share.
    for entry in entries.values():
        page.goto(f"/#/entry/{entry['id']}")
        expect(page.get_by_role("textbox", name="Title")).to_have_value(entry["title"])
        expect(page.get_by_role("textbox", name="Write here")).to_have_value(entry["body"])
        assert_no_markup(page, server)
    page.get_by_role("button", name="More", exact=True).click()
    page.get_by_role("dialog").get_by_role("button", name="Share").click()
    shared = wait_for(lambda: page.evaluate("window.sharedData"), message="navigator.share")
    date = page.evaluate("(iso) => new Intl.DateTimeFormat(navigator.languages, {dateStyle: 'long'}).format(new Date(iso))",
                         entry["createdAt"])
    assert shared == [{"title": entry["title"], "text": f"{entry['title']}\n{date}\n\n{entry['body']}"}]

    # Each row's share.
    page.goto("/")
    expect(page.locator(".row")).to_have_count(8)
    for n, summary in enumerate(server.entries()):
        entry = entries[summary["id"]]
        before = len(page.evaluate("window.sharedData"))
        page.locator(".row-more").nth(n).click()
        page.get_by_role("dialog").get_by_role("button", name="Share").click()
        wait_for(lambda: len(page.evaluate("window.sharedData")) == before + 1, message="navigator.share")
        date = page.evaluate("(iso) => new Intl.DateTimeFormat(navigator.languages, {dateStyle: 'long'}).format(new Date(iso))",
                             entry["createdAt"])
        assert page.evaluate("window.sharedData")[-1] == {"title": entry["title"], "text": f"{entry['title']}\n{date}\n\n{entry['body']}"}

    # Search, with the word marked in titles and snippets.
    status, found = server.api("GET", "search?q=img&limit=50")
    assert status == 200 and len(found["results"]) == 8, found
    page.get_by_role("searchbox").fill("img")
    results = page.get_by_role("list", name="Search")
    expect(results.locator(".row")).to_have_count(8)
    expect(results.locator(".row-title")).to_have_text([r["entry"]["title"] for r in found["results"]])
    expect(results.locator(".row-snippet")).to_have_text([r["snippet"] for r in found["results"]])
    marks = results.locator("mark").all_text_contents()
    assert marks and {m.lower() for m in marks} == {"img"}
    assert_no_markup(page, server)

    # The trash.
    trashed = [made[0], typed[1]]
    for entry in trashed:
        assert server.api("DELETE", f"entries/{entry['id']}")[0] == 200
    page.goto("/#/trash")
    expect(page.locator(".trash-row .row-title")).to_have_text([e["title"] for e in server.trash()])
    expect(page.locator(".trash-row .row-excerpt")).to_have_text([e["excerpt"] for e in server.trash()])
    assert sorted(e["title"] for e in server.trash()) == sorted(e["title"] for e in trashed)
    assert_no_markup(page, server)

    # The exports hold the very characters.
    live = [entries[e["id"]] for e in server.entries()]
    exported = json.loads(diary_cli(server, "export", "--user", TESTER["name"]))
    rows = exported["entries"] if isinstance(exported, dict) else exported
    assert sorted((e["title"], e["body"]) for e in rows) == sorted((e["title"], e["body"]) for e in live)
    markdown = diary_cli(server, "export", "--user", TESTER["name"], "--format", "markdown")
    for entry in live:
        assert f"## {entry['title']}\n" in markdown
        assert entry["body"] in markdown

    assert dialogs == [], "a script in an entry ran"


# -- Headers -------------------------------------------------------------------------------------

def test_the_page_is_served_with_a_strict_policy(pages, server):
    page = pages.context().new_page()
    response = page.goto("/")
    headers = response.headers

    policy = {d.split()[0]: d.split()[1:] for d in headers["content-security-policy"].split(";") if d.strip()}
    assert policy["script-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in headers["content-security-policy"]
    assert "'unsafe-eval'" not in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"
    expect(page.get_by_role("heading", level=1)).to_have_text("Diary")
