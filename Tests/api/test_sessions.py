"""Sessions end to end: logging out, a new password, login throttling, the one-time setup, the
session cookie's attributes, and the CSRF check on a session's writes.

These go through plain `requests` rather than the checked client: /api/v1/session and
/api/v1/setup are the public door, outside the entries' contract."""

from __future__ import annotations

import concurrent.futures

import pytest
import requests

from diary_api import TESTER, auth_headers, check_exchange
from diary_cli import cli

WRONG = {"name": TESTER["name"], "password": "not the password"}
BEA = {"name": "bea", "password": "bea's own long password"}


@pytest.fixture
def fresh(start_server):
    """A server on a new diary, with no account yet."""
    return start_server(log_in=False)


@pytest.fixture
def proxied(start_server):
    """A server started with --trust-proxy (a proxy on loopback), answering for the public name
    that proxy forwards (diary.example), its account set up."""
    return start_server("--trust-proxy", "--host-name", "diary.example")


def set_up(base_url: str, person: dict = TESTER, **kw) -> requests.Response:
    response = requests.post(f"{base_url}/api/v1/setup", json=person, timeout=30, **kw)
    assert response.status_code == 201, response.text
    return response


def log_in(base_url: str, person: dict = TESTER, **kw) -> requests.Response:
    return requests.post(f"{base_url}/api/v1/session", json=person, timeout=30, **kw)


def session_of(response: requests.Response) -> dict:
    """The headers a page of this session sends: its cookie and its CSRF token."""
    assert response.status_code in (200, 201), response.text
    return {"Cookie": f"diary_session={response.cookies['diary_session']}",
            "X-CSRF-Token": response.json()["csrfToken"]}


def entries(base_url: str, headers: dict) -> requests.Response:
    return requests.get(f"{base_url}/api/v1/entries", headers=headers, timeout=30)


def who(base_url: str, headers: dict) -> dict:
    response = requests.get(f"{base_url}/api/v1/session", headers=headers, timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


def set_cookie(response: requests.Response, name: str = "diary_session") -> list:
    """The attributes of the Set-Cookie header of cookie `name`, lowercased names:
    [('diary_session', value), ('httponly', None), ...]. (Each cookie has a header of its own:
    `requests` would join them.)"""
    raw = next((h for h in response.raw.headers.getlist("Set-Cookie") if h.startswith(name + "=")), None)
    assert raw, f"no Set-Cookie of {name} in {dict(response.headers)}"
    parts = []
    for part in raw.split(";"):
        name, _, value = part.strip().partition("=")
        parts.append((name.lower() if parts else name, value if _ else None))
    return parts


def attributes(response: requests.Response, name: str = "diary_session") -> dict:
    return {key: value for key, value in set_cookie(response, name)[1:]}


# -- Logging out and changing the password -------------------------------------------------------

def test_logging_out_ends_that_session_and_no_other(server):
    first = session_of(log_in(server.base_url))
    second = session_of(log_in(server.base_url))
    assert entries(server.base_url, first).status_code == 200
    assert who(server.base_url, first)["user"] == {"name": TESTER["name"]}

    out = requests.delete(f"{server.base_url}/api/v1/session", headers=first, timeout=30)

    assert out.status_code == 204, out.text
    cleared = set_cookie(out)
    assert cleared[0] == ("diary_session", "")
    assert attributes(out).get("max-age") == "0"
    # The cookie, sent again by a client that kept it, opens nothing.
    refused = entries(server.base_url, first)
    assert refused.status_code == 401 and refused.json()["error"] == "unauthenticated", refused.text
    write = requests.post(f"{server.base_url}/api/v1/entries", headers=first, json={"title": "t", "body": "b"}, timeout=30)
    assert write.status_code == 401, write.text
    assert who(server.base_url, first) == {"user": None, "csrfToken": None, "setupNeeded": False, "weather": False}
    # The other session goes on.
    assert entries(server.base_url, second).status_code == 200


def test_a_new_password_ends_every_session_and_access_token_of_that_user(server):
    db = server.database
    cli(db, "user", "add", BEA["name"], input=BEA["password"] + "\n")
    sessions = [session_of(log_in(server.base_url)) for _ in range(2)]
    token = {"Authorization": "Bearer " + cli(db, "token", "create", "script", "--user", TESTER["name"]).strip()}
    other = session_of(log_in(server.base_url, BEA))
    others_token = {"Authorization": "Bearer " + cli(db, "token", "create", "script", "--user", BEA["name"]).strip()}
    for headers in (*sessions, token, other, others_token):
        assert entries(server.base_url, headers).status_code == 200

    said = cli(db, "user", "passwd", TESTER["name"], input="a brand new password\n")

    # The two sessions above, and the one the test server's setup opened.
    assert "3 sessions and 1 access token were ended" in said, said
    for headers in (*sessions, token):
        refused = entries(server.base_url, headers)
        assert refused.status_code == 401 and refused.json()["error"] == "unauthenticated", refused.text
    for headers in sessions:
        assert who(server.base_url, headers)["user"] is None
    assert "script" not in cli(db, "token", "list", "--user", TESTER["name"])
    for headers in (other, others_token):
        assert entries(server.base_url, headers).status_code == 200, "bea's session and token are not tester's"
    assert log_in(server.base_url).status_code == 401, "the old password still works"
    assert log_in(server.base_url, {**TESTER, "password": "a brand new password"}).status_code == 200


def test_a_session_over_is_answered_with_its_cookies_and_the_sites_cache_let_go(server):
    """Logged out here, ended elsewhere (a new password) or by time: the browser is told to drop
    both of the session's cookies and its cache of the site (the photos it kept)."""
    first, second = log_in(server.base_url), log_in(server.base_url)
    mark = set_cookie(first, "diary_device")
    assert mark[0][0] == "diary_device" and len(mark[0][1]) == 32
    assert mark[0][1] not in first.cookies["diary_session"], "the mark tells nothing of the secret"
    assert "httponly" not in attributes(first, "diary_device"), "the page reads the mark"
    assert attributes(first, "diary_device")["max-age"] == attributes(first)["max-age"]
    out = requests.delete(f"{server.base_url}/api/v1/session", headers=session_of(first), timeout=30)
    assert out.status_code == 204 and out.headers["Clear-Site-Data"] == '"cache"'
    assert attributes(out, "diary_device").get("max-age") == "0"

    ended = session_of(second)
    requests.post(f"{server.base_url}/api/v1/account/password", headers=ended, timeout=30,
                  json={"currentPassword": TESTER["password"], "newPassword": "a brand new password"}).raise_for_status()
    cli(server.database, "user", "passwd", TESTER["name"], input="yet another password\n")
    for answer in (entries(server.base_url, ended),
                   requests.get(f"{server.base_url}/api/v1/session", headers=ended, timeout=30)):
        assert answer.headers.get("Clear-Site-Data") == '"cache"', answer.headers
        assert attributes(answer).get("max-age") == "0" and attributes(answer, "diary_device").get("max-age") == "0"
    # A browser with no session cookie at all is told nothing of the kind.
    assert "Clear-Site-Data" not in requests.get(f"{server.base_url}/api/v1/session", timeout=30).headers


# -- A failed login, and throttling --------------------------------------------------------------

def test_a_failed_login_says_the_same_for_an_unknown_name_and_a_wrong_password(server):
    wrong_password = log_in(server.base_url, WRONG)
    unknown_name = log_in(server.base_url, {"name": "nobody-here", "password": "not the password"})

    for response in (wrong_password, unknown_name):
        assert response.status_code == 401, response.text
        assert response.json()["error"] == "bad_login"
        assert "Set-Cookie" not in response.headers
    assert wrong_password.json() == unknown_name.json()


def test_five_wrong_passwords_lock_the_name_even_for_the_right_one(server):
    for _ in range(5):
        response = log_in(server.base_url, WRONG)
        assert response.status_code == 401, response.text

    locked = log_in(server.base_url)

    assert locked.status_code == 429, locked.text
    assert locked.json()["error"] == "too_many_attempts"
    assert int(locked.headers["Retry-After"]) > 0
    assert "Set-Cookie" not in locked.headers
    # The name is locked whatever its case.
    assert log_in(server.base_url, {**TESTER, "name": TESTER["name"].upper()}).status_code == 429
    # A session that was already open is not affected.
    assert entries(server.base_url, auth_headers(server.base_url)).status_code == 200


def test_wrong_passwords_sent_all_at_once_are_each_counted(server):
    def attempt(_):
        return log_in(server.base_url, WRONG).status_code

    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        statuses = list(pool.map(attempt, range(40)))

    assert statuses.count(401) == 5 and statuses.count(429) == 35, sorted(statuses)
    assert log_in(server.base_url).status_code == 429, "the right password is tried only after the lock"


def test_logging_in_to_ones_own_account_does_not_clear_an_addresss_failures(server):
    cli(server.database, "user", "add", BEA["name"], input=BEA["password"] + "\n")
    for n in range(4):
        assert log_in(server.base_url, {"name": f"guess-{n}", "password": "password123"}).status_code == 401

    assert log_in(server.base_url, BEA).status_code == 200

    assert log_in(server.base_url, {"name": "guess-4", "password": "password123"}).status_code == 401
    assert log_in(server.base_url, {"name": "guess-5", "password": "password123"}).status_code == 429


def test_five_failures_from_an_address_lock_other_names_from_it(server):
    cli(server.database, "user", "add", BEA["name"], input=BEA["password"] + "\n")
    for n in range(5):
        response = log_in(server.base_url, {"name": f"guess-{n}", "password": "password123"})
        assert response.status_code == 401, response.text

    for person in (TESTER, BEA):
        locked = log_in(server.base_url, person)
        assert locked.status_code == 429, locked.text
        assert locked.json()["error"] == "too_many_attempts"
        assert int(locked.headers["Retry-After"]) > 0


def test_without_trust_proxy_x_forwarded_for_does_not_escape_the_address_lock(server):
    for n in range(5):
        forged = {"X-Forwarded-For": f"198.51.100.{n}"}
        assert log_in(server.base_url, {"name": f"guess-{n}", "password": "password123"}, headers=forged).status_code == 401

    locked = log_in(server.base_url, headers={"X-Forwarded-For": "203.0.113.99"})

    assert locked.status_code == 429, locked.text


def test_behind_a_trusted_proxy_the_lock_counts_the_client_address(proxied):
    attacker = {"X-Forwarded-For": "198.51.100.7"}
    for n in range(5):
        assert log_in(proxied.base_url, {"name": f"guess-{n}", "password": "password123"}, headers=attacker).status_code == 401

    assert log_in(proxied.base_url, headers=attacker).status_code == 429
    assert log_in(proxied.base_url, headers={"X-Forwarded-For": "203.0.113.5"}).status_code == 200


# -- The one-time setup --------------------------------------------------------------------------

def test_setup_happens_exactly_once(fresh):
    url = fresh.base_url
    assert who(url, {}) == {"user": None, "csrfToken": None, "setupNeeded": True, "weather": False}
    refused = entries(url, {})
    assert refused.status_code == 401, refused.text

    made = set_up(url)

    assert made.json()["user"] == {"name": TESTER["name"]}
    assert made.json()["setupNeeded"] is False
    headers = session_of(made)
    assert who(url, headers)["user"] == {"name": TESTER["name"]}
    assert entries(url, headers).status_code == 200
    assert who(url, {}) == {"user": None, "csrfToken": None, "setupNeeded": False, "weather": False}
    again = requests.post(f"{url}/api/v1/setup", json={"name": "intruder", "password": "intruder's password"}, timeout=30)
    assert again.status_code == 404, again.text
    assert again.json()["error"] == "not_found"
    assert "Set-Cookie" not in again.headers
    assert log_in(url, {"name": "intruder", "password": "intruder's password"}).status_code == 401
    # Logged in, a second setup is refused just the same.
    assert requests.post(f"{url}/api/v1/setup", json=TESTER, headers=headers, timeout=30).status_code == 404


def test_setup_races_make_one_account(fresh):
    def attempt(n):
        return requests.post(f"{fresh.base_url}/api/v1/setup",
                             json={"name": f"racer{n}", "password": f"racer {n} password"}, timeout=30).status_code

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        statuses = sorted(pool.map(attempt, range(8)))

    assert statuses == [201] + [404] * 7
    assert who(fresh.base_url, {})["setupNeeded"] is False


def test_setup_refuses_a_short_password_and_stays_open(fresh):
    short = requests.post(f"{fresh.base_url}/api/v1/setup", json={"name": "mina", "password": "short"}, timeout=30)

    assert 400 <= short.status_code < 500 and short.status_code != 404, short.text
    assert "Set-Cookie" not in short.headers
    assert who(fresh.base_url, {})["setupNeeded"] is True


def test_the_first_account_adopts_the_entries_written_before_it(fresh):
    cli(fresh.database, "new", "Written before any account", "--body", "with the command line", "--weather", "off")

    headers = session_of(set_up(fresh.base_url))

    rows = entries(fresh.base_url, headers).json()["entries"]
    assert [r["title"] for r in rows] == ["Written before any account"]


# -- The session cookie --------------------------------------------------------------------------

@pytest.mark.parametrize("how", ["setup", "login"])
def test_the_session_cookie_is_httponly_lax_and_not_secure_over_plain_http(fresh, how):
    response = set_up(fresh.base_url) if how == "setup" else (set_up(fresh.base_url), log_in(fresh.base_url))[1]

    assert response.status_code in (200, 201), response.text
    cookie = set_cookie(response)
    assert cookie[0][0] == "diary_session" and len(cookie[0][1]) >= 32
    found = attributes(response)
    assert "httponly" in found
    assert found.get("samesite", "").lower() == "lax"
    assert found.get("path") == "/"
    assert "secure" not in found
    assert int(found["max-age"]) > 0


def test_behind_a_trusted_proxy_over_https_the_cookie_is_secure(proxied):
    over_https = log_in(proxied.base_url, headers={"X-Forwarded-Proto": "https"})
    over_http = log_in(proxied.base_url, headers={"X-Forwarded-Proto": "http"})

    assert over_https.status_code == 200, over_https.text
    assert "secure" in attributes(over_https)
    assert {"httponly", "samesite"} <= set(attributes(over_https))
    assert "secure" not in attributes(over_http)
    out = requests.delete(f"{proxied.base_url}/api/v1/session",
                          headers={**session_of(over_https), "X-Forwarded-Proto": "https"}, timeout=30)
    assert out.status_code == 204 and "secure" in attributes(out)


def test_without_trust_proxy_x_forwarded_proto_does_not_make_it_secure(server):
    response = log_in(server.base_url, headers={"X-Forwarded-Proto": "https"})

    assert response.status_code == 200, response.text
    assert "secure" not in attributes(response)


# -- CSRF on a session's writes ------------------------------------------------------------------

def test_a_sessions_write_needs_its_csrf_token_and_its_own_origin(server):
    url = server.base_url
    headers = session_of(log_in(url))
    cookie_only = {"Cookie": headers["Cookie"]}
    new = {"title": "Forged", "body": "from elsewhere"}

    refusals = [
        requests.post(f"{url}/api/v1/entries", headers=cookie_only, json=new, timeout=30),
        requests.post(f"{url}/api/v1/entries", headers={**cookie_only, "X-CSRF-Token": "not-the-token"}, json=new, timeout=30),
        requests.post(f"{url}/api/v1/entries", headers={**headers, "Origin": "http://evil.example"}, json=new, timeout=30),
        requests.post(f"{url}/api/v1/entries", headers={**headers, "Sec-Fetch-Site": "cross-site"}, json=new, timeout=30),
        requests.post(f"{url}/api/v1/entries", headers={**headers, "Sec-Fetch-Site": "same-site"}, json=new, timeout=30),
        requests.post(f"{url}/api/v1/sample", headers=cookie_only, timeout=30),
    ]
    for response in refusals:
        assert response.status_code == 403, response.text
        assert response.json()["error"] == "csrf", response.text
    assert entries(url, headers).json()["entries"] == []

    same = requests.post(f"{url}/api/v1/entries", json=new, timeout=30,
                         headers={**headers, "Origin": url, "Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 201, same.text
    # Reading needs no token.
    assert entries(url, cookie_only).status_code == 200


def test_behind_a_trusted_proxy_the_origin_is_the_public_address(proxied):
    headers = session_of(log_in(proxied.base_url, headers={"X-Forwarded-Proto": "https"}))
    public = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "diary.example"}

    def write(origin):
        return requests.post(f"{proxied.base_url}/api/v1/entries", json={"title": "t", "body": origin}, timeout=30,
                             headers={**headers, **public, "Origin": origin})

    assert write("https://diary.example").status_code == 201
    for origin in ("http://diary.example", "https://evil.example", proxied.base_url):
        refused = write(origin)
        assert refused.status_code == 403 and refused.json()["error"] == "csrf", (origin, refused.text)


def test_another_sessions_csrf_token_does_not_do(server):
    mine = session_of(log_in(server.base_url))
    theirs = session_of(log_in(server.base_url))

    response = requests.post(f"{server.base_url}/api/v1/entries", json={"title": "t", "body": "b"}, timeout=30,
                             headers={"Cookie": mine["Cookie"], "X-CSRF-Token": theirs["X-CSRF-Token"]})

    assert response.status_code == 403, response.text


# -- The document ---------------------------------------------------------------------------------

def test_the_document_describes_the_door(fresh):
    """Every answer of /api/v1/session and /api/v1/setup is documented in openapi.yaml."""
    url = fresh.base_url
    answers = [
        requests.get(f"{url}/api/v1/session", timeout=30),
        requests.get(f"{url}/api/v1/setup", timeout=30),
        requests.post(f"{url}/api/v1/setup", json={"name": "mina", "password": "short"}, timeout=30),
        set_up(url),
        requests.get(f"{url}/api/v1/setup", timeout=30),
        requests.post(f"{url}/api/v1/setup", json=TESTER, timeout=30),
        requests.post(f"{url}/api/v1/session", json=TESTER, timeout=30, headers={"Origin": "http://evil.example"}),
    ]
    session = session_of(log_in(url))
    answers += [
        requests.get(f"{url}/api/v1/session", headers=session, timeout=30),
        requests.delete(f"{url}/api/v1/session", headers=session, timeout=30),
    ]
    answers += [log_in(url, WRONG) for _ in range(5)] + [log_in(url)]
    assert [a.status_code for a in answers[-6:]] == [401] * 5 + [429]

    problems = []
    for response in answers:
        try:
            check_exchange(response)
        except AssertionError as error:
            problems.append(f"{response.request.method} {response.request.path_url} -> {response.status_code} "
                            f"{response.text[:100]}\n    {str(error).splitlines()[1]}")
    assert not problems, "answers that openapi.yaml does not describe:\n" + "\n".join(problems)


def test_the_bearer_scheme_is_read_in_any_case(server):
    """HTTP's scheme names are case-insensitive: "bearer", "BEARER" and "Bearer" are one."""
    token = cli(server.database, "token", "create", "script", "--user", TESTER["name"]).strip()
    for scheme in ("Bearer", "bearer", "BEARER"):
        assert entries(server.base_url, {"Authorization": f"{scheme} {token}"}).status_code == 200, scheme
    assert entries(server.base_url, {"Authorization": f"Basic {token}"}).status_code == 401
    assert entries(server.base_url, {"Authorization": "bearer"}).status_code == 401


def test_the_session_says_whether_new_entries_get_weather(start_server, weather_api):
    """The web app asks the browser for a location only when the server records weather."""
    off = start_server()  # this suite's servers run with --weather off
    for base_url, recorded in ((off.base_url, False), (weather_api.base_url, True)):
        assert who(base_url, {})["weather"] is recorded
        assert who(base_url, auth_headers(base_url))["weather"] is recorded
