"""The settings' API: changing the password, the signed-in devices, the access tokens, the
export download and what the session says of the server's settings. Every response is held to
openapi.yaml (check_exchange)."""

from __future__ import annotations

import json

import requests

from diary_api import TESTER, Api, assert_error, check_exchange
from diary_cli import cli

BEA = {"name": "bea", "password": "bea's own long password"}
PHONE_AGENT = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
               "Chrome/126.0.0.0 Mobile Safari/537.36")
FIREFOX_AGENT = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"


def log_in(base_url: str, person: dict = TESTER, agent: str | None = None) -> dict:
    """A new browser session: the headers its page would send."""
    headers = {"User-Agent": agent} if agent else {}
    response = requests.post(f"{base_url}/api/v1/session", json=person, headers=headers, timeout=30)
    assert response.status_code == 200, response.text
    return {"Cookie": f"diary_session={response.cookies['diary_session']}", "X-CSRF-Token": response.json()["csrfToken"]}


def call(base_url: str, method: str, path: str, headers: dict, **kw) -> requests.Response:
    response = requests.request(method, base_url + path, headers=headers, timeout=30, **kw)
    check_exchange(response)
    return response


def change(base_url: str, headers: dict, current: str, new: str) -> requests.Response:
    return call(base_url, "POST", "/api/v1/account/password", headers,
                json={"currentPassword": current, "newPassword": new})


def can_read(base_url: str, headers: dict) -> bool:
    status = requests.get(f"{base_url}/api/v1/entries", headers=headers, timeout=30).status_code
    assert status in (200, 401), status
    return status == 200


# -- The password -----------------------------------------------------------------------------

def test_a_new_password_keeps_this_browser_and_ends_the_other_sessions_and_tokens(server):
    url, db = server.base_url, server.database
    mine, other = log_in(url), log_in(url)
    token = {"Authorization": "Bearer " + cli(db, "token", "create", "script", "--user", TESTER["name"]).strip()}
    cli(db, "user", "add", BEA["name"], input=BEA["password"] + "\n")
    beas = log_in(url, BEA)

    response = change(url, mine, TESTER["password"], "a brand new password")

    assert response.status_code == 200, response.text
    # The other one above and the test server's own (its setup), and the token.
    assert response.json() == {"endedSessions": 2, "endedTokens": 1}
    assert can_read(url, mine), "the browser that changed it stays logged in"
    assert not can_read(url, other) and not can_read(url, token)
    assert can_read(url, beas), "another user's session is not this user's"
    assert requests.post(f"{url}/api/v1/session", json=TESTER, timeout=30).status_code == 401, "the old password still works"
    assert requests.post(f"{url}/api/v1/session", json={**TESTER, "password": "a brand new password"}, timeout=30).status_code == 200
    # This browser's writes go on with the same CSRF token.
    assert call(url, "POST", "/api/v1/entries", mine, json={"title": "Still here", "body": ""}).status_code == 201


def test_a_wrong_current_password_changes_nothing_and_says_so(server):
    url = server.base_url
    mine = log_in(url)

    response = change(url, mine, "not the password", "a brand new password")

    assert_error(response, 400, "wrong_password")
    assert "current password" in response.json()["message"]
    assert can_read(url, mine)
    assert requests.post(f"{url}/api/v1/session", json=TESTER, timeout=30).status_code == 200, "the password changed"


def test_a_too_short_new_password_is_refused_before_the_current_one_is_tried(server):
    url = server.base_url
    mine = log_in(url)
    for _ in range(6):  # more than the throttle allows: none of these counts as a wrong try
        response = change(url, mine, "not the password", "short")
        payload = assert_error(response, 400, "bad_account")
        assert "8" in payload["message"], payload
    assert change(url, mine, TESTER["password"], "a brand new password").status_code == 200


def test_wrong_current_passwords_are_throttled_with_the_logins(server):
    url = server.base_url
    mine = log_in(url)
    for _ in range(5):
        assert change(url, mine, "not the password", "a brand new password").status_code == 400
    locked = change(url, mine, TESTER["password"], "a brand new password")
    assert_error(locked, 429, "too_many_attempts")
    assert locked.headers.get("Retry-After") == "900"
    # The login form of the same name is locked too: a stolen session guesses no faster than it.
    login = requests.post(f"{url}/api/v1/session", json=TESTER, timeout=30)
    assert login.status_code == 429, login.text


def test_changing_the_password_needs_the_csrf_token_and_the_own_origin(server):
    url = server.base_url
    mine = log_in(url)
    cookie_only = {"Cookie": mine["Cookie"]}
    assert_error(change(url, cookie_only, TESTER["password"], "a brand new password"), 403, "csrf")
    other_site = {**mine, "Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}
    assert_error(change(url, other_site, TESTER["password"], "a brand new password"), 403, "csrf")
    assert requests.post(f"{url}/api/v1/session", json=TESTER, timeout=30).status_code == 200, "the password changed"


def test_a_malformed_password_change_is_a_bad_request(server):
    url = server.base_url
    mine = log_in(url)
    response = call(url, "POST", "/api/v1/account/password", mine, json={"currentPassword": TESTER["password"]})
    assert_error(response, 400, "bad_request")


# -- Signed-in devices ------------------------------------------------------------------------

def test_the_devices_list_names_each_browser_marks_this_one_and_tells_no_secret(server):
    url = server.base_url
    phone = log_in(url, agent=PHONE_AGENT)
    laptop = log_in(url, agent=FIREFOX_AGENT)

    response = call(url, "GET", "/api/v1/account/sessions", laptop)

    assert response.status_code == 200, response.text
    sessions = response.json()["sessions"]
    assert len(sessions) == 3  # the two above and the test server's setup
    labels = {s["label"] for s in sessions}
    assert {"Chrome · Android", "Firefox · Linux"} <= labels, labels
    current = [s for s in sessions if s["current"]]
    assert [s["label"] for s in current] == ["Firefox · Linux"]
    # No cookie value, nor anything of the stored hash, is in the answer.
    for headers in (phone, laptop):
        secret = headers["Cookie"].split("=", 1)[1]
        assert secret not in response.text and headers["X-CSRF-Token"] not in response.text
    assert len({s["id"] for s in sessions}) == 3
    assert all(len(s["id"]) == 32 for s in sessions)


def test_signing_a_device_out_ends_that_session_only(server):
    url = server.base_url
    phone = log_in(url, agent=PHONE_AGENT)
    laptop = log_in(url, agent=FIREFOX_AGENT)
    sessions = call(url, "GET", "/api/v1/account/sessions", laptop).json()["sessions"]
    phone_id = next(s["id"] for s in sessions if s["label"] == "Chrome · Android")

    out = call(url, "DELETE", f"/api/v1/account/sessions/{phone_id}", laptop)

    assert out.status_code == 204, out.text
    assert not can_read(url, phone) and can_read(url, laptop)
    left = call(url, "GET", "/api/v1/account/sessions", laptop).json()["sessions"]
    assert phone_id not in {s["id"] for s in left} and len(left) == 2
    again = call(url, "DELETE", f"/api/v1/account/sessions/{phone_id}", laptop)
    assert_error(again, 404, "not_found")


def test_someone_elses_session_cannot_be_signed_out(server):
    url, db = server.base_url, server.database
    cli(db, "user", "add", BEA["name"], input=BEA["password"] + "\n")
    beas = log_in(url, BEA, agent=PHONE_AGENT)
    bea_id = call(url, "GET", "/api/v1/account/sessions", beas).json()["sessions"][0]["id"]
    mine = log_in(url)

    refused = call(url, "DELETE", f"/api/v1/account/sessions/{bea_id}", mine)

    assert_error(refused, 404, "not_found")
    assert can_read(url, beas)
    assert bea_id not in {s["id"] for s in call(url, "GET", "/api/v1/account/sessions", mine).json()["sessions"]}
    # Nor with a made-up id, nor one that looks like a hash.
    for made_up in ("0" * 32, "x" * 64, "..%2F..%2Fsession"):
        assert call(url, "DELETE", f"/api/v1/account/sessions/{made_up}", mine).status_code == 404


def test_signing_out_a_device_needs_the_csrf_token(server):
    url = server.base_url
    phone = log_in(url, agent=PHONE_AGENT)
    laptop = log_in(url)
    phone_id = next(s["id"] for s in call(url, "GET", "/api/v1/account/sessions", laptop).json()["sessions"]
                    if s["label"] == "Chrome · Android")
    refused = call(url, "DELETE", f"/api/v1/account/sessions/{phone_id}", {"Cookie": laptop["Cookie"]})
    assert_error(refused, 403, "csrf")
    assert can_read(url, phone)


# -- Access tokens ----------------------------------------------------------------------------

def test_tokens_are_listed_without_their_secret_and_revoked_by_id(server):
    url, db = server.base_url, server.database
    script = cli(db, "token", "create", "backup-script", "--user", TESTER["name"]).strip()
    other = cli(db, "token", "create", "phone", "--user", TESTER["name"]).strip()
    assert can_read(url, {"Authorization": f"Bearer {script}"})
    mine = log_in(url)

    listed = call(url, "GET", "/api/v1/account/tokens", mine)

    assert listed.status_code == 200, listed.text
    tokens = listed.json()["tokens"]
    assert [t["name"] for t in tokens] == ["backup-script", "phone"]
    assert script not in listed.text and other not in listed.text
    script_id = tokens[0]["id"]

    revoked = call(url, "DELETE", f"/api/v1/account/tokens/{script_id}", mine)

    assert revoked.status_code == 204, revoked.text
    assert not can_read(url, {"Authorization": f"Bearer {script}"})
    assert can_read(url, {"Authorization": f"Bearer {other}"})
    assert [t["name"] for t in call(url, "GET", "/api/v1/account/tokens", mine).json()["tokens"]] == ["phone"]
    assert_error(call(url, "DELETE", f"/api/v1/account/tokens/{script_id}", mine), 404, "not_found")
    assert "backup-script" not in cli(db, "token", "list", "--user", TESTER["name"])


def test_someone_elses_token_cannot_be_revoked(server):
    url, db = server.base_url, server.database
    cli(db, "user", "add", BEA["name"], input=BEA["password"] + "\n")
    beas_token = cli(db, "token", "create", "phone", "--user", BEA["name"]).strip()
    beas = {"Authorization": f"Bearer {beas_token}"}
    bea_id = call(url, "GET", "/api/v1/account/tokens", log_in(url, BEA)).json()["tokens"][0]["id"]
    # Tester has a token of the same name: ids are per user's own tokens, and still B's is not A's.
    cli(db, "token", "create", "other", "--user", TESTER["name"])
    mine = log_in(url)

    refused = call(url, "DELETE", f"/api/v1/account/tokens/{bea_id}", mine)

    assert_error(refused, 404, "not_found")
    assert can_read(url, beas)
    assert_error(call(url, "DELETE", f"/api/v1/account/tokens/{bea_id}", {"Cookie": mine["Cookie"]}), 403, "csrf")


def test_an_access_token_cannot_manage_the_account_but_can_export(server):
    """A script's token (or whoever took it) reads and writes the diary, but may not change the
    password, see or sign out the devices, or revoke tokens: those need the owner's browser."""
    url, db = server.base_url, server.database
    token = {"Authorization": "Bearer " + cli(db, "token", "create", "script", "--user", TESTER["name"]).strip()}
    mine = log_in(url)
    session_id = call(url, "GET", "/api/v1/account/sessions", mine).json()["sessions"][0]["id"]
    token_id = call(url, "GET", "/api/v1/account/tokens", mine).json()["tokens"][0]["id"]
    for method, path, body in (("POST", "/api/v1/account/password", {"currentPassword": TESTER["password"], "newPassword": "a brand new password"}),
                               ("GET", "/api/v1/account/sessions", None), ("GET", "/api/v1/account/tokens", None),
                               ("DELETE", f"/api/v1/account/sessions/{session_id}", None),
                               ("DELETE", f"/api/v1/account/tokens/{token_id}", None)):
        assert_error(call(url, method, path, token, json=body), 403, "session_required")
    assert can_read(url, mine) and can_read(url, token)
    assert requests.post(f"{url}/api/v1/session", json=TESTER, timeout=30).status_code == 200, "the password changed"
    export = call(url, "GET", "/api/v1/export", token)
    assert export.status_code == 200 and export.json()["format"] == "diary-export"


# -- The export -------------------------------------------------------------------------------

def test_the_json_export_is_the_cli_export_as_a_download(server, api):
    api.create("First", "The first body, with “quotes” and 한국어.", tags=["trip"])
    second = api.create("Second", "Another day.")
    trashed = api.create("In the trash", "Gone.")
    assert api.delete(f"/api/v1/entries/{trashed['id']}").status_code == 200

    response = api.get("/api/v1/export", params={"format": "json"})

    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"].startswith("application/json")
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith("attachment;") and ".json" in disposition
    exported = response.json()
    assert exported["format"] == "diary-export" and exported["version"] == 1
    assert [e["title"] for e in exported["entries"]] == ["First", "Second"]
    assert exported["entries"][1] == api.get(f"/api/v1/entries/{second['id']}").json()
    # The very bytes `diary export` writes.
    assert response.content == cli(server.database, "export", "--user", TESTER["name"]).encode()


def test_the_markdown_export_is_in_the_asked_language(api):
    api.create("Seoul", "A walk by the river.", createdAt="2020-12-22T12:00:00Z")

    english = api.get("/api/v1/export", params={"format": "markdown", "timeZone": "Asia/Seoul"})
    korean = api.get("/api/v1/export", params={"format": "markdown", "timeZone": "Asia/Seoul", "language": "ko"})

    assert english.status_code == 200 and english.headers["Content-Type"].startswith("text/markdown")
    assert ".md" in english.headers["Content-Disposition"]
    assert english.text.startswith("# Diary\n") and "## Seoul" in english.text and "December 22, 2020" in english.text
    assert korean.text.startswith("# 일기장\n") and "2020년 12월 22일" in korean.text


def test_a_large_export_arrives_whole(api):
    for n in range(1001):  # more than one batch of a thousand
        api.create(f"Entry {n}", "x" * 50)
    response = api.get("/api/v1/export")
    entries = json.loads(response.content)["entries"]
    assert len(entries) == 1001 and entries[-1]["title"] == "Entry 1000"


def test_a_bad_export_request_is_refused(api):
    assert_error(api.get("/api/v1/export", params={"format": "pdf"}), 400, "bad_request")
    assert_error(api.get("/api/v1/export", params={"timeZone": "Mars/Olympus"}), 400, "bad_request")


# -- What the session says of the server --------------------------------------------------------

def test_the_session_says_how_long_the_trash_keeps_entries(start_server):
    for args, days in (((), 30), (("--trash-days", "7"), 7), (("--trash-days", "0"), None)):
        server = start_server(*args)
        state = Api(server.base_url).get("/api/v1/session").json()
        assert state["trashDays"] == days, (args, state)
        # Not to someone logged out.
        assert "trashDays" not in requests.get(f"{server.base_url}/api/v1/session", timeout=30).json()
