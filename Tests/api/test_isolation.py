"""Isolation: one user's diary is closed to everyone else.

User A (the diary's first account, `tester`) owns entries, one of them in the trash; user B
(`bea`) is a second account. Every operation of openapi.yaml that touches entries is tried on
A's entries by:

* B, with a personal access token and with a browser session (CSRF token and all);
* no one (no credentials at all);
* A's own access token after `diary token revoke`;
* A's browser session after logging out (its cookie and CSRF token replayed).

Nothing may leak: B gets 404 on A's ids, exactly as on an id no one has (never 403, which
would say the entry exists), and B's list, trash, search and sample never include A's entries;
the others get 401. Nothing may change: afterwards A reads the very same bytes as before
(versions, texts, trash state).

The operations are listed in OPERATIONS; `test_every_operation_is_in_the_matrix` fails when
openapi.yaml gains an operation that is not, so a new endpoint cannot skip this file.
"""

from __future__ import annotations

import datetime
import json
import re
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
import requests
import yaml

from diary_api import TESTER, Api, check_exchange
from diary_cli import cli
from openapi_check import DOCUMENT

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import photo_files  # noqa: E402

# Public operations, open to anyone: this document, logging in and out, the first setup.
PUBLIC_PATHS = {"/api/v1/openapi.yaml", "/api/v1/session", "/api/v1/setup"}
HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}

BEA = {"name": "bea", "password": "bea's own long password"}
# A word only A's entries hold, live and trashed, so a search for it shows any leak.
SECRET = "zebrafinch"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
# Today (UTC), and noon of the same date in an earlier year: A's first entry is written then, so
# "on this day" has something of A's to leak.
TODAY = datetime.datetime.now(datetime.timezone.utc).date()
EARLIER = TODAY.replace(year=TODAY.year - 4) if (TODAY.month, TODAY.day) == (2, 29) else TODAY.replace(year=TODAY.year - 1)


@dataclass
class World:
    server: object  # conftest's Server
    a: Api  # A's logged-in session, the one that reads the "before" and "after"
    live: list  # A's entries not in the trash (newest first)
    trashed: dict  # A's entry in the trash
    callers: dict  # caller name -> request headers
    photo: dict  # A's photo, held by A's first entry
    other_photo: bytes  # the file of another photo A keeps, which B sends too
    a_session: str  # the id of A's live session (the one `a` uses), as A's devices list names it
    a_token: str  # the id of A's live access token, as A's tokens list names it

    @property
    def a_ids(self) -> set:
        return {e["id"] for e in self.live} | {self.trashed["id"]}

    @property
    def a_texts(self) -> list:
        return [e["title"] for e in [*self.live, self.trashed]] + [SECRET]


def log_in(base_url: str, person: dict) -> dict:
    """A new browser session for `person`: the headers a browser page would send."""
    response = requests.post(f"{base_url}/api/v1/session", json=person, timeout=30)
    assert response.status_code == 200, response.text
    return {"Cookie": f"diary_session={response.cookies['diary_session']}",
            "X-CSRF-Token": response.json()["csrfToken"]}


@pytest.fixture(scope="module")
def world(start_module_server) -> World:
    server = start_module_server()  # A = TESTER, through /api/v1/setup
    a = Api(server.base_url)
    db = server.database

    photo = a.post("/api/v1/photos", data=photo_files.png(120, 80), headers={"Content-Type": "image/png"}).json()
    # Another of A's photos: B sends the same bytes, and keeps a copy of B's own.
    other_photo = photo_files.png(90, 60)
    assert a.post("/api/v1/photos", data=other_photo, headers={"Content-Type": "image/png"}).status_code == 201
    small = a.put(f"/api/v1/photos/{photo['id']}/thumbnail", data=photo_files.png(60, 40), headers={"Content-Type": "image/png"})
    assert small.status_code == 200, small.text
    first = a.create(f"A's first {SECRET}", f"A's first body, about the {SECRET}.", tags=[f"{SECRET} tag"],
                     createdAt=f"{EARLIER.isoformat()}T12:00:00Z", photos=[{"id": photo["id"], "caption": f"{SECRET} caption"}])
    second = a.create(f"A's second {SECRET}", "A's second body.")
    changed = a.put(f"/api/v1/entries/{second['id']}", headers={"If-Match": '"1"'},
                    json={"title": f"A's second {SECRET}, edited", "body": "A's second body, edited."})
    assert changed.status_code == 200, changed.text
    doomed = a.create(f"A's trashed {SECRET}", f"A's trashed body, {SECRET} too.")
    response = a.delete(f"/api/v1/entries/{doomed['id']}")
    assert response.status_code == 200, response.text
    trashed = response.json()
    live = [a.get(f"/api/v1/entries/{e['id']}").json() for e in (second, first)]

    # A's token works, then is revoked.
    a_token = cli(db, "token", "create", "a-script", "--user", TESTER["name"]).strip()
    works = requests.get(f"{server.base_url}/api/v1/entries", headers={"Authorization": f"Bearer {a_token}"}, timeout=30)
    assert works.status_code == 200 and len(works.json()["entries"]) == 2, works.text
    cli(db, "token", "revoke", "a-script", "--user", TESTER["name"])

    # A's second browser session, ended by logging out.
    ended = log_in(server.base_url, TESTER)
    out = requests.delete(f"{server.base_url}/api/v1/session", headers=ended, timeout=30)
    assert out.status_code == 204, out.text

    # A's token that lives, and A's session: the settings' lists name them by id.
    cli(db, "token", "create", "a-live", "--user", TESTER["name"])
    a_session = next(s["id"] for s in a.get("/api/v1/account/sessions").json()["sessions"] if s["current"])
    a_token_id = next(t["id"] for t in a.get("/api/v1/account/tokens").json()["tokens"] if t["name"] == "a-live")

    cli(db, "user", "add", BEA["name"], input=BEA["password"] + "\n")
    b_token = cli(db, "token", "create", "b-script", "--user", BEA["name"]).strip()

    callers = {
        "B's token": {"Authorization": f"Bearer {b_token}"},
        "B's session": log_in(server.base_url, BEA),
        "no one": {},
        "A's revoked token": {"Authorization": f"Bearer {a_token}"},
        "A's ended session": ended,
    }
    yield World(server, a, live, trashed, callers, photo, other_photo, a_session, a_token_id)
    a.session.close()


def snapshot(world: World) -> dict:
    """Everything A can read, as the exact bytes the server sends A."""
    a = world.a
    seen = {
        "list": a.get("/api/v1/entries", params={"limit": 100}).content,
        "trash": a.get("/api/v1/trash", params={"limit": 100}).content,
        "search": a.get("/api/v1/search", params={"q": SECRET, "limit": 100}).content,
        "tags": a.get("/api/v1/tags").content,
        "on this day": a.get("/api/v1/on-this-day", params={"date": TODAY.isoformat()}).content,
        "calendar": a.get("/api/v1/calendar", params={"month": EARLIER.isoformat()[:7]}).content,
        "year": a.get("/api/v1/year", params={"year": str(EARLIER.year)}).content,
        "export": a.get("/api/v1/export").content,
        "tokens": a.get("/api/v1/account/tokens").content,
        # Ids only: when a session was last used moves as A reads.
        "sessions": sorted(s["id"] for s in a.get("/api/v1/account/sessions").json()["sessions"]),
    }
    assert world.a_session in seen["sessions"] and world.a_token in seen["tokens"].decode()
    assert SECRET in seen["tags"].decode() and SECRET in seen["on this day"].decode(), "A's world has what could leak"
    assert EARLIER.isoformat() in seen["calendar"].decode() and EARLIER.isoformat() in seen["year"].decode()
    for path in (f"/api/v1/photos/{world.photo['id']}", f"/api/v1/photos/{world.photo['id']}/thumbnail"):
        response = a.get(path)
        assert response.status_code == 200, response.text
        seen[path] = (response.headers.get("ETag"), response.content)
    for entry_id in sorted(world.a_ids):
        response = a.get(f"/api/v1/entries/{entry_id}")
        assert response.status_code == 200, response.text
        seen[entry_id] = (response.headers.get("ETag"), response.content)
    return seen


# -- The operations: each sends its requests for one caller and returns the responses. --------

Send = Callable[..., requests.Response]


@dataclass
class Operation:
    method: str
    path: str  # as openapi.yaml writes it
    send: Callable[[World, Send], list]  # -> [(what was asked, response)]
    # How B's answers must look; None: like an unknown id (404 not_found).
    check_b: Callable[[World, list, Send], None] | None = None


def on_a_ids(method: str, template: str, **kw):
    """The request once on A's live entry, once on A's trashed one, once on an id no one has."""
    def send(world: World, request: Send) -> list:
        ids = {"A's live entry": world.live[0]["id"], "A's trashed entry": world.trashed["id"],
               "an unknown id": str(uuid.uuid4())}
        return [(what, request(method, template.format(id=entry_id), **kw)) for what, entry_id in ids.items()]
    return send


def b_sees_nothing(world: World, answers: list, request: Send) -> None:
    """B's answers about A's entries are the very answer about an id no one has: 404."""
    for what, response in answers:
        assert response.status_code == 404, f"{what}: {response.status_code} {response.text}"
        assert response.json()["error"] == "not_found", f"{what}: {response.text}"
        assert_no_leak(world, what, response)
    # The same words but for the id itself: nothing tells A's entry from no entry.
    bodies = {UUID.sub("ID", response.text) for _, response in answers}
    assert len(bodies) == 1, f"B can tell A's entries from unknown ids: {bodies}"


def assert_no_leak(world: World, what: str, response: requests.Response) -> None:
    for text in world.a_texts:
        assert text not in response.text, f"{what}: A's text {text!r} in {response.text[:300]}"


def list_has_none_of_a(path: str, **params):
    def send(world: World, request: Send) -> list:
        return [(path, request("GET", path, params={"limit": 100, **params}))]

    def check(world: World, answers: list, request: Send) -> None:
        (what, response), = answers
        assert response.status_code == 200, response.text
        rows = response.json().get("entries") or [r["entry"] for r in response.json().get("results", [])]
        assert not {r["id"] for r in rows} & world.a_ids, f"{what} shows B A's entries: {response.text[:500]}"
        assert_no_leak(world, what, response)
    return send, check


def create_with_a_ids(world: World, request: Send) -> list:
    answers = []
    for what, entry in (("A's live entry's id", world.live[0]), ("A's trashed entry's id", world.trashed)):
        answers.append((what, request("POST", "/api/v1/entries",
                                      json={"id": entry["id"], "title": "Not A's", "body": "Written by someone else."})))
    return answers


def b_cannot_take_a_ids(world: World, answers: list, request: Send) -> None:
    """Ids are per diary: B may use one of A's, and gets an entry of B's own, as with any id no
    one has (201, or 200 for B's own earlier one), with nothing of A's entry and nothing that
    says A's diary holds that id (no 409, no `current`)."""
    for what, response in answers:
        assert response.status_code in (200, 201), f"{what}: {response.status_code} {response.text}"
        entry = response.json()
        assert entry["title"] == "Not A's" and entry["body"] == "Written by someone else.", response.text
        assert "current" not in entry, response.text
        assert_no_leak(world, what, response)
        mine = request("GET", f"/api/v1/entries/{entry['id']}")
        assert mine.status_code == 200 and mine.json()["title"] == "Not A's", mine.text
    # B's entries go again, for good, so the other operations meet B's diary as it was.
    for _, response in answers:
        entry_id = response.json()["id"]
        assert request("DELETE", f"/api/v1/entries/{entry_id}").status_code == 200
        assert request("DELETE", f"/api/v1/trash/{entry_id}").status_code == 204


def sample(world: World, request: Send) -> list:
    return [("sample", request("POST", "/api/v1/sample"))]


def b_gets_its_own_sample(world: World, answers: list, request: Send) -> None:
    """The sample goes into B's diary (empty, whatever A's holds), or is refused as not empty
    once B has entries; either way B's diary never shows A's entries."""
    (what, response), = answers
    assert response.status_code in (201, 409), response.text
    if response.status_code == 409:
        assert response.json()["error"] == "not_empty", response.text
    mine = request("GET", "/api/v1/entries", params={"limit": 100})
    assert mine.status_code == 200, mine.text
    assert len(mine.json()["entries"]) == 15
    assert not {r["id"] for r in mine.json()["entries"]} & world.a_ids
    assert_no_leak(world, what, mine)


def b_reads_its_own(path: str, **params):
    """A read of B's own diary as a whole (its tags, its days): 200, with nothing of A's."""
    def send(world: World, request: Send) -> list:
        return [(path, request("GET", path, params=params))]

    def check(world: World, answers: list, request: Send) -> None:
        (what, response), = answers
        assert response.status_code == 200, response.text
        assert_no_leak(world, what, response)
    return send, check


def b_sees_none_of_a_days(path: str, **params):
    """B's calendar and year: 200, without the day A wrote on."""
    def send(world: World, request: Send) -> list:
        return [(path, request("GET", path, params=params))]

    def check(world: World, answers: list, request: Send) -> None:
        (what, response), = answers
        assert response.status_code == 200, response.text
        assert EARLIER.isoformat() not in response.text, f"{what}: A's day in {response.text[:300]}"
    return send, check


def rename_a_tag(world: World, request: Send) -> list:
    return [("rename A's tag", request("POST", "/api/v1/tags/rename", json={"from": f"{SECRET} tag", "to": "taken"}))]


def b_renames_only_its_own(world: World, answers: list, request: Send) -> None:
    """B's diary has no such tag: nothing renamed; A's entry keeps it (the snapshot checks it)."""
    (what, response), = answers
    assert response.status_code == 200 and response.json() == {"tag": "taken", "entries": 0}, response.text


def empty_trash(world: World, request: Send) -> list:
    return [("empty the trash", request("DELETE", "/api/v1/trash"))]


def b_empties_only_its_own(world: World, answers: list, request: Send) -> None:
    """B's trash is emptied (nothing in it); A's trashed entry stays (the snapshot checks it)."""
    (what, response), = answers
    assert response.status_code == 200 and isinstance(response.json().get("deleted"), int), response.text
    assert_no_leak(world, what, response)


def import_a_ids(world: World, request: Send) -> list:
    """B imports a file of entries that bear A's ids (A's own, with other words), reads B's
    copies, and deletes them for good, so the other operations meet B's diary as it was."""
    records = [{**entry, "title": "Not A's", "body": "Imported by someone else.", "tags": [], "photos": [], "deletedAt": None}
               for entry in (world.live[1], world.trashed)]
    body = json.dumps({"format": "diary-export", "version": 1, "entries": records}).encode()
    imported = request("POST", "/api/v1/import", data=body, headers={"Content-Type": "application/json"})
    answers = [("an import of A's ids", imported)]
    if imported.status_code == 200:
        ids = [entry["id"] for entry in records]
        answers += [("B's imported copy", request("GET", f"/api/v1/entries/{entry_id}")) for entry_id in ids]
        for entry_id in ids:
            request("DELETE", f"/api/v1/entries/{entry_id}")
            request("DELETE", f"/api/v1/trash/{entry_id}")
    return answers


def b_imports_into_its_own(world: World, answers: list, request: Send) -> None:
    """Ids are per diary: B's import adds B's own entries, never says A's diary holds those
    ids, and changes nothing of A's (the snapshot checks it)."""
    (what, response), *copies = answers
    assert response.status_code == 200, f"{what}: {response.status_code} {response.text}"
    assert response.json()["added"] == 2, response.text
    assert len(copies) == 2
    for what, mine in copies:
        assert mine.status_code == 200 and mine.json()["title"] == "Not A's", mine.text
        assert_no_leak(world, what, mine)


def on_a_photo(method: str, template: str, **kw):
    """The request once on A's photo, once on a name no photo has."""
    def send(world: World, request: Send) -> list:
        names = {"A's photo": world.photo["id"], "an unknown photo": "0f" * 32}
        return [(what, request(method, template.format(photo=name), **kw)) for what, name in names.items()]
    return send


def upload_a_photo(world: World, request: Send) -> list:
    return [("A's other photo's bytes", request("POST", "/api/v1/photos", data=world.other_photo,
                                          headers={"Content-Type": "image/png"}))]


def b_keeps_its_own_copy(world: World, answers: list, request: Send) -> None:
    """Photos are per diary: B sending the bytes of A's photo keeps a copy of B's own (201, or
    200 when B sent it before), and nothing says A's diary holds it."""
    (what, response), = answers
    assert response.status_code in (200, 201), f"{what}: {response.status_code} {response.text}"
    assert response.json()["thumbnail"] is False, "A's thumbnail is A's: B's copy has none"
    assert_no_leak(world, what, response)


def on_a_login(kind: str):
    """DELETE /account/{kind}/{id}: once on A's session or token, once on an id no one has."""
    def send(world: World, request: Send) -> list:
        ids = {f"A's {kind[:-1]}": world.a_session if kind == "sessions" else world.a_token, f"an unknown {kind[:-1]}": "0" * 32}
        return [(what, request("DELETE", f"/api/v1/account/{kind}/{name}")) for what, name in ids.items()]
    return send


def b_lists_its_own(path: str, key: str):
    """B's devices or tokens: 200, none of them A's."""
    def send(world: World, request: Send) -> list:
        return [(path, request("GET", path))]

    def check(world: World, answers: list, request: Send) -> None:
        (what, response), = answers
        assert response.status_code == 200, response.text
        ids = {row["id"] for row in response.json()[key]}
        assert world.a_session not in ids and world.a_token not in ids, response.text
        assert "a-live" not in response.text and "a-script" not in response.text
    return send, check


def change_password(world: World, request: Send) -> list:
    # Too short a new password: refused before any current password is tried, so the matrix
    # never counts against B's login throttle, and never changes B's password either.
    return [("a new password", request("POST", "/api/v1/account/password",
                                       json={"currentPassword": TESTER["password"], "newPassword": "short"}))]


def b_changes_only_its_own(world: World, answers: list, request: Send) -> None:
    """The password change acts on B's own account (A's password is not B's to send); A's
    password stays: A still logs in with it."""
    (what, response), = answers
    assert response.status_code == 400 and response.json()["error"] == "bad_account", response.text
    login = requests.post(f"{world.server.base_url}/api/v1/session", json=TESTER, timeout=30)
    assert login.status_code == 200, login.text
    requests.delete(f"{world.server.base_url}/api/v1/session", cookies=login.cookies, timeout=30)


def session_only(check):
    """The account's routes need a browser session: B's access token gets 403 session_required
    (whoever's session or token it names), else the answer `check` expects (None: 404)."""
    def checked(world: World, answers: list, request: Send) -> None:
        if all("Authorization" in response.request.headers for _, response in answers):
            for what, response in answers:
                assert response.status_code == 403, f"{what}: {response.status_code} {response.text}"
                assert response.json()["error"] == "session_required", response.text
                assert_no_leak(world, what, response)
            return
        (check or b_sees_nothing)(world, answers, request)
    return checked


export_send, export_check = b_reads_its_own("/api/v1/export")
sessions_send, sessions_check = b_lists_its_own("/api/v1/account/sessions", "sessions")
tokens_send, tokens_check = b_lists_its_own("/api/v1/account/tokens", "tokens")
list_send, list_check = list_has_none_of_a("/api/v1/entries")
tags_send, tags_check = b_reads_its_own("/api/v1/tags")
day_send, day_check = b_reads_its_own("/api/v1/on-this-day", date=TODAY.isoformat())
calendar_send, calendar_check = b_sees_none_of_a_days("/api/v1/calendar", month=EARLIER.isoformat()[:7])
year_send, year_check = b_sees_none_of_a_days("/api/v1/year", year=str(EARLIER.year))
trash_send, trash_check = list_has_none_of_a("/api/v1/trash")
search_send, search_check = list_has_none_of_a("/api/v1/search", q=SECRET)

OPERATIONS = [
    Operation("GET", "/api/v1/entries", list_send, list_check),
    Operation("POST", "/api/v1/entries", create_with_a_ids, b_cannot_take_a_ids),
    Operation("GET", "/api/v1/entries/{id}", on_a_ids("GET", "/api/v1/entries/{id}")),
    Operation("PUT", "/api/v1/entries/{id}", on_a_ids(
        "PUT", "/api/v1/entries/{id}", headers={"If-Match": '"1"'}, json={"title": "Taken over", "body": "by B"})),
    Operation("PATCH", "/api/v1/entries/{id}", on_a_ids(
        "PATCH", "/api/v1/entries/{id}", headers={"If-Match": '"1"'}, json={"starred": True, "tags": ["taken"]})),
    Operation("DELETE", "/api/v1/entries/{id}", on_a_ids("DELETE", "/api/v1/entries/{id}")),
    Operation("POST", "/api/v1/entries/{id}/restore", on_a_ids("POST", "/api/v1/entries/{id}/restore")),
    Operation("GET", "/api/v1/trash", trash_send, trash_check),
    Operation("DELETE", "/api/v1/trash/{id}", on_a_ids("DELETE", "/api/v1/trash/{id}")),
    Operation("GET", "/api/v1/search", search_send, search_check),
    Operation("GET", "/api/v1/tags", tags_send, tags_check),
    Operation("GET", "/api/v1/on-this-day", day_send, day_check),
    Operation("GET", "/api/v1/calendar", calendar_send, calendar_check),
    Operation("GET", "/api/v1/year", year_send, year_check),
    Operation("POST", "/api/v1/tags/rename", rename_a_tag, b_renames_only_its_own),
    Operation("DELETE", "/api/v1/trash", empty_trash, b_empties_only_its_own),
    Operation("POST", "/api/v1/sample", sample, b_gets_its_own_sample),
    Operation("POST", "/api/v1/import", import_a_ids, b_imports_into_its_own),
    Operation("POST", "/api/v1/photos", upload_a_photo, b_keeps_its_own_copy),
    Operation("GET", "/api/v1/photos/{photo}", on_a_photo("GET", "/api/v1/photos/{photo}")),
    Operation("GET", "/api/v1/photos/{photo}/thumbnail", on_a_photo("GET", "/api/v1/photos/{photo}/thumbnail")),
    Operation("PUT", "/api/v1/photos/{photo}/thumbnail", on_a_photo(
        "PUT", "/api/v1/photos/{photo}/thumbnail", data=photo_files.png(30, 20), headers={"Content-Type": "image/png"})),
    Operation("GET", "/api/v1/export", export_send, export_check),
    Operation("POST", "/api/v1/account/password", change_password, session_only(b_changes_only_its_own)),
    Operation("GET", "/api/v1/account/sessions", sessions_send, session_only(sessions_check)),
    Operation("DELETE", "/api/v1/account/sessions/{session}", on_a_login("sessions"), session_only(None)),
    Operation("GET", "/api/v1/account/tokens", tokens_send, session_only(tokens_check)),
    Operation("DELETE", "/api/v1/account/tokens/{token}", on_a_login("tokens"), session_only(None)),
]
# The PUT once more with `If-Match: *` ("whatever version is there"), where the server takes it.
OPERATIONS.append(Operation("PUT", "/api/v1/entries/{id}", on_a_ids(
    "PUT", "/api/v1/entries/{id}", headers={"If-Match": "*"}, json={"title": "Taken over", "body": "by B"})))

CALLERS = ["B's token", "B's session", "no one", "A's revoked token", "A's ended session"]


def documented_operations() -> set:
    paths = yaml.safe_load(DOCUMENT.read_text())["paths"]
    return {(method.upper(), path) for path, item in paths.items() for method in item
            if method in HTTP_METHODS and path not in PUBLIC_PATHS}


def test_every_operation_is_in_the_matrix():
    covered = {(op.method, op.path) for op in OPERATIONS}
    documented = documented_operations()
    assert documented - covered == set(), "operations of openapi.yaml that test_isolation.py does not try"
    assert covered - documented == set(), "operations test_isolation.py tries that openapi.yaml does not have"


@pytest.mark.parametrize("caller", ["B's token", "B's session", "no one", "A's revoked token"])
def test_the_document_describes_every_answer(world, caller):
    """openapi.yaml tells a client what these callers get: 401, 404 and the rest
    are documented responses of each operation, with their schemas."""
    problems = []
    for operation in OPERATIONS:
        for what, response in operation.send(world, requester(world, caller)):
            try:
                check_exchange(response)
            except AssertionError as error:
                problems.append(f"{operation.method} {operation.path} on {what} -> {response.status_code} "
                                f"{response.text[:120]}\n    {str(error).splitlines()[1]}")
    assert not problems, f"answers to {caller} that openapi.yaml does not describe:\n" + "\n".join(problems)


def requester(world: World, caller: str) -> Send:
    headers = world.callers[caller]

    def request(method: str, path: str, **kw) -> requests.Response:
        merged = {**headers, **kw.pop("headers", {})}
        return requests.request(method, world.server.base_url + path, headers=merged, timeout=30, **kw)
    return request


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("operation", OPERATIONS,
                         ids=[f"{op.method} {op.path}" + (" If-Match *" if i == len(OPERATIONS) - 1 else "")
                              for i, op in enumerate(OPERATIONS)])
def test_no_one_else_reads_or_changes_a_diary(world, operation, caller):
    request = requester(world, caller)
    before = snapshot(world)
    answers = operation.send(world, request)
    after = snapshot(world)

    for what, response in answers:
        if caller == "B's token" and operation.path.startswith("/api/v1/account/"):
            continue  # 403 session_required, to every token alike (session_only)
        assert response.status_code != 403, f"{caller}, {what}: 403 says the entry exists: {response.text}"
    if caller.startswith("B's"):
        (operation.check_b or b_sees_nothing)(world, answers, request)
    else:
        for what, response in answers:
            assert response.status_code == 401, f"{caller}, {what}: {response.status_code} {response.text}"
            assert response.json()["error"] == "unauthenticated", response.text
            assert_no_leak(world, what, response)
    assert after == before, f"{caller}'s {operation.method} {operation.path} changed A's diary"


def test_a_still_reads_and_writes_its_own_diary(world):
    """The matrix refused everyone else; A's own session and the entries are as they were made."""
    rows = world.a.list_all()
    assert [r["id"] for r in rows] == [e["id"] for e in world.live]
    assert [r["id"] for r in world.a.list_all("/api/v1/trash")] == [world.trashed["id"]]
    assert world.a.get(f"/api/v1/entries/{world.live[0]['id']}").json()["version"] == 2


def test_a_cursor_tells_nothing_of_other_diaries(start_server):
    """A page's cursor names only its own last row (its time and id): a row number of the file,
    which every diary's writes move, told one user how much the others wrote, and when."""
    server = start_server()
    alice = Api(server.base_url)
    cli(server.database, "user", "add", BEA["name"], input=f"{BEA['password']}\n{BEA['password']}\n")
    bea = requests.Session()
    bea.headers.update(log_in(server.base_url, BEA))
    assert bea.post(f"{server.base_url}/api/v1/entries", json={"title": "Bea's first", "body": ""}).status_code == 201
    tokens = []
    for _ in range(2):
        created = bea.post(f"{server.base_url}/api/v1/entries", json={"title": "Bea's", "body": ""})
        assert created.status_code == 201, created.text
        for n in range(7):
            alice.create(f"Alice's {n}", "")
        page = bea.get(f"{server.base_url}/api/v1/entries", params={"limit": 1}).json()
        last = page["entries"][-1]
        tokens.append(page["nextCursor"])
        # The cursor holds the row's own time and id, nothing more.
        assert page["nextCursor"].split(".")[-1] == last["id"], page["nextCursor"]
    rest = bea.get(f"{server.base_url}/api/v1/entries", params={"limit": 5, "cursor": tokens[-1]}).json()
    assert [row["title"] for row in rest["entries"]] == ["Bea's", "Bea's first"]
    alice.session.close()
    bea.close()
