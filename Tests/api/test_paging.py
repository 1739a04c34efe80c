"""Listing entries page by page with the opaque cursor."""

import pytest

from diary_api import assert_error


def test_paging_with_a_cursor_returns_every_entry_exactly_once_newest_first(api):
    created = [api.create(f"Entry {n}", f"Body {n}") for n in range(25)]

    pages, cursor = [], None
    while True:
        params = {"limit": 10, **({"cursor": cursor} if cursor else {})}
        response = api.get("/api/v1/entries", params=params)
        assert response.status_code == 200, response.text
        page = response.json()
        pages.append(page["entries"])
        cursor = page["nextCursor"]
        if cursor is None:
            break
        assert len(pages) < 5, "paging does not end"

    assert [len(p) for p in pages] == [10, 10, 5]
    rows = [row for page in pages for row in page]
    ids = [row["id"] for row in rows]
    assert len(ids) == len(set(ids)) == 25, "an entry was repeated or missed across pages"
    assert set(ids) == {entry["id"] for entry in created}
    stamps = [row["createdAt"] for row in rows]
    assert stamps == sorted(stamps, reverse=True), "not newest first (createdAt descending)"
    # Entries made in different milliseconds keep their order of creation, newest first.
    position = {entry_id: n for n, entry_id in enumerate(ids)}
    for older, newer in zip(created, created[1:]):
        if older["createdAt"] < newer["createdAt"]:
            assert position[newer["id"]] < position[older["id"]]


def test_without_a_limit_a_page_holds_20_entries(api):
    for n in range(21):
        api.create(f"Entry {n}", "")

    page = api.get("/api/v1/entries").json()

    assert len(page["entries"]) == 20
    assert page["nextCursor"] is not None
    rest = api.get("/api/v1/entries", params={"cursor": page["nextCursor"]}).json()
    assert len(rest["entries"]) == 1
    assert rest["nextCursor"] is None


def test_an_empty_diary_lists_no_entries(api):
    response = api.get("/api/v1/entries")

    assert response.status_code == 200
    assert response.json() == {"entries": [], "nextCursor": None}


def test_limit_100_is_allowed(api):
    api.create("One", "")

    response = api.get("/api/v1/entries", params={"limit": 100})

    assert response.status_code == 200
    assert len(response.json()["entries"]) == 1


@pytest.mark.parametrize("limit", ["0", "101", "-1", "ten"])
def test_a_limit_outside_1_to_100_is_a_bad_request(api, limit):
    response = api.get("/api/v1/entries", params={"limit": limit})

    assert_error(response, 400, "bad_request")


@pytest.mark.parametrize("path", ["/api/v1/entries", "/api/v1/trash"])
def test_a_cursor_the_server_did_not_issue_is_refused(api, path):
    response = api.get(path, params={"cursor": "not-a-cursor!"})

    assert_error(response, 400, "invalid_cursor")


def test_a_client_that_accepts_brotli_gets_pages_in_brotli_that_decode_to_the_same_json(api):
    import brotli  # Tests/requirements.txt

    for n in range(25):
        api.create(f"Entry {n}", "We walked along the river until the lights came on. " * 4)
    for params in ({"limit": 20}, {"limit": 20}, {"limit": 11}):  # made, kept, and another first page
        plain = api.get("/api/v1/entries", params=params, headers={"Accept-Encoding": "identity"})
        assert "Content-Encoding" not in plain.headers
        raw = api.session.get(api.url("/api/v1/entries"), params=params, stream=True, timeout=30,
                              headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
        assert raw.headers["Content-Encoding"] == "br"
        assert raw.headers["Vary"] == "Accept-Encoding"
        body = raw.raw.read(decode_content=False)
        assert int(raw.headers["Content-Length"]) == len(body) < len(plain.content) / 2
        assert brotli.decompress(body) == plain.content
        # The next page (made for the request, not kept) too.
        cursor = plain.json()["nextCursor"]
        plain = api.get("/api/v1/entries", params={"cursor": cursor}, headers={"Accept-Encoding": "identity"})
        raw = api.session.get(api.url("/api/v1/entries"), params={"cursor": cursor}, stream=True, timeout=30,
                              headers={"Accept-Encoding": "br"})
        assert raw.headers["Content-Encoding"] == "br"
        assert brotli.decompress(raw.raw.read(decode_content=False)) == plain.content
    # A client that takes gzip only still gets gzip, not the Brotli page kept.
    gzipped = api.session.get(api.url("/api/v1/entries"), stream=True, timeout=30, headers={"Accept-Encoding": "gzip"})
    assert gzipped.headers["Content-Encoding"] == "gzip"
