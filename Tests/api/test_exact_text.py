"""Every string JSON can carry is stored and given back byte for byte, and found by search;
half a surrogate pair, which is no character, is refused with a 400 that says so.

The property tests draw text from the whole of Unicode (NUL and every other control character,
combining marks alone, characters outside the BMP, the private use areas) and send it as raw
UTF-8 and as ASCII-only JSON (every character a \\u escape, astral ones as surrogate pairs)."""

from __future__ import annotations

import json
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from diary_api import assert_error
from diary_cli import cli

# Every code point but the surrogates (which no string of text holds).
ANY_CHARACTER = st.characters(codec="utf-8")
LINE_BREAKS = "\n\r\x85\u2028\u2029"
TITLE = st.text(st.characters(codec="utf-8", exclude_characters=LINE_BREAKS), max_size=60)
BODY = st.text(ANY_CHARACTER, max_size=400)
EDGES = st.sampled_from(["\x00", "\x00\x00x", "x\x00", "\u0301", "\U0010FFFF", "\ufeff", "\x7f\x1b", "\ud7ff\ue000"])


def not_blank(title: str, body: str) -> bool:
    return not (title.isspace() or title == "") or not (body.isspace() or body == "")


def send(api, method: str, path: str, payload: dict, *, ascii_only: bool, headers: dict | None = None):
    data = json.dumps(payload, ensure_ascii=ascii_only).encode("utf-8")
    return api.request(method, path, data=data, headers={"Content-Type": "application/json", **(headers or {})})


ROUND_TRIP = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@ROUND_TRIP
@given(title=TITLE | EDGES, body=BODY | EDGES, ascii_only=st.booleans())
def test_any_text_comes_back_byte_for_byte(api, title, body, ascii_only):
    if not not_blank(title, body) or len(title) > 1000:
        return
    response = send(api, "POST", "/api/v1/entries", {"title": title, "body": body}, ascii_only=ascii_only)
    assert response.status_code == 201, response.text
    entry = response.json()
    assert (entry["title"], entry["body"]) == (title, body)
    read = api.get(f"/api/v1/entries/{entry['id']}").json()
    assert (read["title"], read["body"]) == (title, body)

    changed_body = body + "\x00" + title
    response = send(api, "PUT", f"/api/v1/entries/{entry['id']}", {"title": title, "body": changed_body},
                    ascii_only=not ascii_only, headers={"If-Match": '"1"'})
    assert response.status_code == 200, response.text
    read = api.get(f"/api/v1/entries/{entry['id']}").json()
    assert (read["title"], read["body"], read["version"]) == (title, changed_body, 2)


LIMIT = 1_048_576


@st.composite
def near_the_limits(draw):
    """A title of 999 to 1,001 characters and a body of the limit in bytes, one under or one
    over, each made of random characters (a random piece repeated, then padded with NULs)."""
    piece = draw(st.text(ANY_CHARACTER, min_size=1, max_size=8))
    title_length = draw(st.integers(999, 1001))
    title_piece = draw(st.text(st.characters(codec="utf-8", exclude_characters=LINE_BREAKS + "\r"), min_size=1, max_size=1)
                       .filter(lambda c: len(c.encode()) >= 1))
    body_bytes = LIMIT + draw(st.integers(-1, 1))
    unit = len(piece.encode())
    body = piece * ((body_bytes - 1) // unit)
    body += "\x00" * (body_bytes - len(body.encode()))
    return title_piece * title_length, body


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(texts=near_the_limits())
def test_text_at_the_edges_of_the_limits_is_kept_or_refused_whole(api, texts):
    title, body = texts
    # Swift counts characters as extended grapheme clusters; Python counts code points. A repeated
    # single code point is one of each unless it joins its neighbour (a combining mark, a ZWJ),
    # so only plain ones are judged by length here.
    response = api.post("/api/v1/entries", json={"title": title, "body": body})
    too_long_body = len(body.encode()) > LIMIT
    if too_long_body:
        assert_error(response, 413, "too_large")
        return
    if response.status_code == 413:
        assert len(title) > 1000 or response.json()["message"].startswith("The title"), response.text
        return
    assert response.status_code == 201, response.text[:300]
    read = api.get(f"/api/v1/entries/{response.json()['id']}").json()
    assert read["title"] == title and read["body"] == body


def test_a_nul_no_longer_cuts_the_text_short(api):
    title, body = "before\x00after", "first\x00second serendipity\x00"
    entry = api.create(title, body)
    read = api.get(f"/api/v1/entries/{entry['id']}").json()
    assert (read["title"], read["body"]) == (title, body)
    row = api.get("/api/v1/entries").json()["entries"][0]
    assert row["title"] == title
    hits = api.get("/api/v1/search", params={"q": "serendipity"}).json()["results"]
    assert [hit["entry"]["id"] for hit in hits] == [entry["id"]]


def test_an_edit_of_only_a_character_s_form_is_stored(api):
    entry = api.create("Caf\u00e9", "r\u00e9sum\u00e9")
    response = api.put(f"/api/v1/entries/{entry['id']}", json={"title": "Cafe\u0301", "body": "re\u0301sume\u0301"},
                       headers={"If-Match": '"1"'})
    assert response.status_code == 200, response.text
    read = api.get(f"/api/v1/entries/{entry['id']}").json()
    assert (read["title"], read["body"], read["version"]) == ("Cafe\u0301", "re\u0301sume\u0301", 2)


def test_a_body_of_exactly_1_mib_is_kept_and_one_byte_more_is_refused(api):
    body = "가" * ((1_048_576 - 1) // 3) + "\x00"
    assert len(body.encode()) == 1_048_576
    entry = api.create("", body)
    assert api.get(f"/api/v1/entries/{entry['id']}").json()["body"] == body
    assert_error(api.post("/api/v1/entries", json={"title": "", "body": body + "\x00"}), 413, "too_large")


def test_a_title_is_limited_in_code_points_not_in_what_draws_as_one_character(api):
    """"a" and 400,000 combining accents draws as one character: it is 400,001 code points, over
    the limit, as a family emoji of 1,000 (7 code points each) is."""
    for title in ["a" + "\u0301" * 400_000, "\U0001F468\u200d" * 999 + "x", "\u0301" * 1001]:
        assert_error(api.post("/api/v1/entries", json={"title": title, "body": ""}), 413, "too_large")
    assert api.post("/api/v1/entries", json={"title": "\u0301" * 1000, "body": ""}).status_code == 201


def test_half_a_surrogate_pair_is_refused_and_nothing_is_stored(api):
    entry = api.create("Kept", "as it was")
    for escaped in ["\\ud800", "\\udfff", "a\\ud83d", "\\ud83d\\ud83d\\ude00", "\\ude00\\ud83d"]:
        raw = ('{"title": "x", "body": "' + escaped + '"}').encode()
        for method, path, headers in [("POST", "/api/v1/entries", {}),
                                      ("PUT", f"/api/v1/entries/{entry['id']}", {"If-Match": '"1"'})]:
            response = api.request(method, path, data=raw, headers={"Content-Type": "application/json", **headers})
            payload = assert_error(response, 400, "not_text")
            assert "surrogate" in payload["message"], payload
    assert [row["title"] for row in api.list_all()] == ["Kept"]
    assert api.get(f"/api/v1/entries/{entry['id']}").json()["version"] == 1
    # A pair, escaped, is one character outside the BMP, and is kept.
    raw = b'{"title": "\\ud83d\\ude00", "body": ""}'
    response = api.request("POST", "/api/v1/entries", data=raw, headers={"Content-Type": "application/json"})
    assert response.status_code == 201 and response.json()["title"] == "\U0001F600", response.text


def test_two_loads_of_the_sample_at_once_store_it_once(api):
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: api.post("/api/v1/sample"), range(8)))
    assert sorted(a.status_code for a in answers) == [201] + [409] * 7, [a.text for a in answers]
    assert len(api.list_all()) == 15


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(st.tuples(TITLE | EDGES, BODY | EDGES), min_size=1, max_size=8))
def test_export_then_import_gives_back_every_byte(server, api, tmp_path_factory, texts):
    """Written through the API, exported, imported into a new diary, exported again: the same
    words, and the same file byte for byte."""
    kept = [(t, b) for t, b in texts if not_blank(t, b) and len(t) <= 1000]
    ids = {api.create(t, b)["id"]: (t, b) for t, b in kept}
    folder = tmp_path_factory.mktemp("export")
    exported = folder / "export.json"
    cli(server.database, "export", "--output", str(exported))
    entries = {e["id"]: (e["title"], e["body"]) for e in json.loads(exported.read_text("utf-8"))["entries"]}
    for entry_id, text in ids.items():
        assert entries[entry_id] == text
    other = folder / "other.sqlite"
    cli(other, "import", str(exported))
    again = folder / "again.json"
    cli(other, "export", "--output", str(again))
    assert again.read_bytes() == exported.read_bytes()


# The two command-line tests write a SQLite file of their own: not run again on PostgreSQL (conftest.py).
@pytest.mark.same_on_every_backend
@settings(max_examples=25, deadline=None)
@given(title=st.text(st.characters(codec="utf-8", exclude_characters=LINE_BREAKS), max_size=40), body=BODY | EDGES)
def test_the_command_line_keeps_piped_text(tmp_path_factory, title, body):
    """Piped into `diary new`: the first line is the title, the rest the body, every byte of
    both kept, NUL and line breaks included. (The body is framed by "<" and ">": blank space at
    the very start and end of piped text is dropped, as documented.)"""
    database = tmp_path_factory.mktemp("cli") / "diary.sqlite"
    framed = "<" + body + ">"
    done = subprocess.run([str(_binary()), "new", "--database", str(database)],
                          input=(title + "\n" + framed).encode("utf-8"), capture_output=True, env=_env(), timeout=60)
    assert done.returncode == 0, done.stderr
    entry = json.loads(cli(database, "export"))["entries"][0]
    assert (entry["title"], entry["body"]) == (title, framed)


@pytest.mark.same_on_every_backend
def test_the_command_line_refuses_text_that_is_not_utf8(tmp_path):
    database = tmp_path / "diary.sqlite"
    done = subprocess.run([str(_binary()), "new", "--database", str(database)], input=b"Title\n\xff\xfe broken",
                          capture_output=True, env=_env(), timeout=60)
    assert done.returncode != 0
    assert b"UTF-8" in done.stderr, done.stderr
    assert json.loads(cli(database, "export"))["entries"] == []


def _binary():
    from diary_cli import BINARY
    return BINARY


def _env() -> dict:
    import os
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIARY_")}
    env["DIARY_BCRYPT_COST"] = "4"
    return env


# Pieces that broke a format before: line endings of every kind where a format puts its own,
# marks, escapes and references, tags made of marks.
TRAPS = st.sampled_from(["\n", "\r\n", "\r", "\n\n", " ", "#", "# ", "---", "\\", "&", "&#13;", "&#10;", "*", "@x",
                         "![](dayone-moment://0123)", "한국어", "\x00", "\x1b[2J"])
TRAP_TEXT = st.lists(TRAPS | st.text(ANY_CHARACTER, max_size=3), max_size=10).map("".join)
TAG = st.sampled_from(["# # travel", "@ @여행", "Trip to Jeju", "#a", "x\u0301", "  spaced   out "]) | st.text(
    st.characters(codec="utf-8", categories=["L", "N", "P", "S", "Zs"]), min_size=1, max_size=12)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(st.tuples(TRAP_TEXT.map(lambda t: "".join(c for c in t if c not in LINE_BREAKS)) | TITLE,
                                TRAP_TEXT | BODY, st.lists(TAG, max_size=3), st.booleans()),
                      min_size=1, max_size=6))
def test_any_entry_the_api_takes_comes_back_from_every_export(server, api, tmp_path_factory, texts):
    """Whatever the API takes (titles, bodies, tags, a star) comes back, exactly, from Diary's
    JSON and from the Day One ZIP: exported, imported into a new diary, exported again."""
    sent = {}
    for title, body, tags, starred in texts:
        if not not_blank(title, body) or len(title) > 1000:
            continue
        response = api.post("/api/v1/entries", json={"title": title, "body": body, "tags": tags, "starred": starred})
        if response.status_code == 422 and response.json()["error"] == "bad_tags":
            continue  # a tag the API refuses (empty once its marks go, say)
        assert response.status_code == 201, response.text
        entry = response.json()
        sent[entry["id"]] = (entry["title"], entry["body"], entry["tags"], entry["starred"])
    folder = tmp_path_factory.mktemp("formats")

    def entries_of(database) -> dict:
        written = folder / f"entries-{len(list(folder.iterdir()))}.json"  # (a database may be a URL)
        cli(database, "export", "--output", str(written))
        return {e["id"]: (e["title"], e["body"], e.get("tags", []), e.get("starred", False))
                for e in json.loads(written.read_text("utf-8"))["entries"]}

    # (The server is the same for every example: the diary holds the earlier examples' too.)
    diary = entries_of(server.database)
    assert {entry_id: diary[entry_id] for entry_id in sent} == sent
    for fmt, name in (("json", "export.json"), ("dayone", "Export.zip")):
        exported = folder / f"first-{name}"
        cli(server.database, "export", "--format", fmt, "--output", str(exported))
        other = folder / f"other-{fmt}.sqlite"
        cli(other, "import", str(exported))
        assert entries_of(other) == diary, fmt
        again = folder / f"again-{name}"
        cli(other, "export", "--format", fmt, "--output", str(again))
        if fmt == "json":
            assert again.read_bytes() == exported.read_bytes()
