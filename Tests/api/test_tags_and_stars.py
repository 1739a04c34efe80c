"""Tags, the star and the entry's own date through the API: written with an entry, changed on
their own (PATCH) or with its words (PUT), part of its version, carried by every read."""

import json

import pytest

from diary_api import assert_error
from diary_cli import cli


def test_an_entry_is_written_with_tags_a_star_and_its_own_date(api):
    entry = api.create("Jeju", "The sea was wild.", tags=["travel", " 바다 ", "Travel", "#sea"], starred=True,
                       createdAt="2024-05-01T21:30:00+09:00")
    assert entry["tags"] == ["travel", "바다", "sea"]
    assert entry["starred"] is True
    assert entry["createdAt"] == "2024-05-01T12:30:00.000Z"
    assert entry["version"] == 1
    row = api.list_all()[0]
    assert row["tags"] == ["travel", "바다", "sea"] and row["starred"] is True
    found = api.get("/api/v1/search", params={"q": "sea wild"}).json()["results"][0]["entry"]
    assert found["tags"] == entry["tags"]
    plain = api.create("Plain", "")
    assert plain["tags"] == [] and plain["starred"] is False


def test_a_tag_already_in_the_diary_keeps_its_first_spelling(api):
    api.create("One", "", tags=["Travel"])
    assert api.create("Two", "", tags=["TRAVEL", "new"])["tags"] == ["Travel", "new"]


def test_a_star_from_the_list_changes_only_the_star_and_is_a_new_version(api):
    entry = api.create("Starred later", "Words stay.", tags=["kept"])
    starred = api.patch(f"/api/v1/entries/{entry['id']}", json={"starred": True}, headers={"If-Match": '"1"'})
    assert starred.status_code == 200, starred.text
    body = starred.json()
    assert body["starred"] is True and body["version"] == 2
    assert body["title"] == "Starred later" and body["body"] == "Words stay." and body["tags"] == ["kept"]
    assert starred.headers["ETag"] == '"2"'
    # The same again changes nothing, whatever version it names.
    again = api.patch(f"/api/v1/entries/{entry['id']}", json={"starred": True}, headers={"If-Match": '"1"'})
    assert again.status_code == 200 and again.json()["version"] == 2
    # A change based on an older version conflicts and carries the entry as it is.
    stale = api.patch(f"/api/v1/entries/{entry['id']}", json={"tags": ["other"]}, headers={"If-Match": '"1"'})
    payload = assert_error(stale, 409, "conflict")
    assert payload["current"]["tags"] == ["kept"] and payload["current"]["starred"] is True


def test_tags_and_dates_change_with_the_words_or_stay_when_not_sent(api):
    entry = api.create("Walk", "By the river", tags=["a", "b"], starred=True)
    url = f"/api/v1/entries/{entry['id']}"
    # A client that knows nothing of tags (an older web app) never erases them.
    kept = api.put(url, json={"title": "Walk", "body": "By the river, at night"}, headers={"If-Match": '"1"'}).json()
    assert kept["tags"] == ["a", "b"] and kept["starred"] is True and kept["version"] == 2
    changed = api.put(url, json={"title": "Walk", "body": "By the river, at night", "tags": ["b"], "starred": False,
                                 "createdAt": "2020-01-02T03:04:05.678Z"}, headers={"If-Match": '"2"'}).json()
    assert changed["tags"] == ["b"] and changed["starred"] is False and changed["version"] == 3
    assert changed["createdAt"] == "2020-01-02T03:04:05.678Z"
    assert api.get(url).json() == changed
    # Backdated, it takes its place in the list by its new date.
    api.create("Written today", "")
    assert [row["title"] for row in api.list_all()] == ["Written today", "Walk"]


def test_bad_tags_dates_and_patches_are_refused_saying_what_is_wrong_and_nothing_changes(api):
    entry = api.create("Safe", "Untouched", tags=["kept"])
    url = f"/api/v1/entries/{entry['id']}"
    v1 = {"If-Match": '"1"'}
    cases = [
        ({"tags": ["ok", "   "]}, 422, "bad_tags", "Tag 2"),
        ({"tags": ["x" * 101]}, 422, "bad_tags", "100 characters"),
        ({"tags": [f"t{n}" for n in range(51)]}, 422, "bad_tags", "50 tags"),
        ({"tags": ["bell\u0007"]}, 422, "bad_tags", "control character"),
        ({"tags": "travel"}, 400, "bad_request", None),
        ({"tags": [1, 2]}, 400, "bad_request", None),
        ({"starred": "yes"}, 400, "bad_request", None),
        ({"createdAt": "yesterday"}, 400, "bad_request", "createdAt"),
        ({"createdAt": "10000-01-01T00:00:00Z"}, 400, "bad_request", "createdAt"),
        ({"title": "Only a title"}, 400, "bad_request", "together"),
    ]
    for patch, status, code, words in cases:
        response = api.patch(url, json=patch, headers=v1)
        payload = assert_error(response, status, code)
        if words:
            assert words in payload["message"], (patch, payload)
    bad_new = api.post("/api/v1/entries", json={"title": "New", "body": "", "tags": [""]})
    assert_error(bad_new, 422, "bad_tags")
    assert api.get(url).json() == entry
    assert len(api.list_all()) == 1
    assert_error(api.patch(url, json={"starred": True}), 428, "precondition_required")


def test_tags_and_stars_go_out_in_an_export_and_come_back_in_an_import(server, api, tmp_path):
    first = api.create("Exported", "with tags", tags=["여행", "Trip to Jeju"], starred=True)
    exported = cli(server.database, "export")
    record = json.loads(exported)["entries"][0]
    assert record["tags"] == ["여행", "Trip to Jeju"] and record["starred"] is True
    markdown = cli(server.database, "export", "--format", "markdown")
    assert "#여행 #Trip-to-Jeju" in markdown and "Exported ★" in markdown
    # Into another diary, all of it comes back.
    other = tmp_path / "other.sqlite"
    (tmp_path / "export.json").write_text(exported)
    cli(other, "import", str(tmp_path / "export.json"))
    shown = json.loads(cli(other, "show", first["id"], "--json"))
    assert shown["tags"] == ["여행", "Trip to Jeju"] and shown["starred"] is True


def test_the_list_is_narrowed_by_tags_the_star_and_dates_page_after_page(api):
    for n in range(12):
        tags = (["walk"] if n % 2 == 0 else []) + (["Rain"] if n % 3 == 0 else [])
        api.create(f"Day {n}", "", tags=tags, starred=n % 4 == 0, createdAt=f"2024-05-{n + 1:02d}T09:00:00Z")

    def titles(**params):
        rows, cursor = [], None
        while True:
            query = {"limit": 2, **params, **({"cursor": cursor} if cursor else {})}
            response = api.get("/api/v1/entries", params=query)
            assert response.status_code == 200, response.text
            page = response.json()
            rows += [row["title"] for row in page["entries"]]
            cursor = page["nextCursor"]
            if cursor is None:
                return rows
            assert len(rows) <= 100, "paging does not end"

    def days(keep):
        return [f"Day {n}" for n in reversed(range(12)) if keep(n)]

    assert titles(tag="WALK") == days(lambda n: n % 2 == 0)
    assert titles(tag=["walk", "rain"]) == days(lambda n: n % 6 == 0)
    assert titles(starred="true") == days(lambda n: n % 4 == 0)
    assert titles(tag="walk", starred="true") == days(lambda n: n % 4 == 0)
    assert titles(**{"from": "2024-05-03T00:00:00Z", "until": "2024-05-06T00:00:00Z"}) == days(lambda n: 2 <= n < 5)
    assert titles(tag="rain", **{"from": "2024-05-04T09:00:00+00:00"}) == days(lambda n: n % 3 == 0 and n >= 3)
    # The first page unfiltered is still the whole diary (and answered from the server's memory).
    assert [row["title"] for row in api.list_all()] == days(lambda n: True)


def test_a_filter_that_cannot_be_one_is_refused_saying_why(api):
    for params, words in [({"tag": ""}, "Tag 1"), ({"tag": [f"t{n}" for n in range(11)]}, "at most 10 tags"),
                          ({"starred": "yes"}, "starred"), ({"from": "May 1"}, "from"),
                          ({"from": "2024-05-02T00:00:00Z", "until": "2024-05-01T00:00:00Z"}, "start must come before")]:
        payload = assert_error(api.get("/api/v1/entries", params=params), 400, "bad_request")
        assert words in payload["message"], (params, payload)


def test_the_tag_list_counts_entries_most_used_first(api):
    api.create("One", "", tags=["Walk", "여행"])
    api.create("Two", "", tags=["walk", "rain"])
    gone = api.create("Three", "", tags=["gone"])
    api.delete(f"/api/v1/entries/{gone['id']}")
    response = api.get("/api/v1/tags")
    assert response.status_code == 200, response.text
    assert response.json() == {"tags": [{"tag": "Walk", "count": 2}, {"tag": "rain", "count": 1}, {"tag": "여행", "count": 1}]}


def test_the_first_page_brings_on_this_day_when_asked(api):
    api.create("A year ago, late in Seoul", "", createdAt="2024-11-25T23:30:00+09:00")
    api.create("A year ago, earlier", "", createdAt="2024-11-25T08:00:00+09:00")
    api.create("Five years ago", "", createdAt="2020-11-25T12:00:00+09:00")
    api.create("Seven years ago", "", createdAt="2018-11-25T12:00:00+09:00")
    api.create("This year", "", createdAt="2025-11-25T12:00:00+09:00")
    asked = {"onThisDay": "2025-11-25", "timeZone": "Asia/Seoul", "onThisDayYears": "2"}
    page = api.get("/api/v1/entries", params={"limit": "3", **asked})
    assert page.status_code == 200, page.text
    alone = api.get("/api/v1/on-this-day", params={"date": "2025-11-25", "timeZone": "Asia/Seoul", "perYear": "1", "years": "2"})
    assert page.json()["onThisDay"] == alone.json()
    assert [(year["yearsAgo"], [e["title"] for e in year["entries"]]) for year in alone.json()["years"]] == [
        (1, ["A year ago, late in Seoul"]), (5, ["Five years ago"])]
    assert alone.json()["earlier"] is True
    assert [e["title"] for e in page.json()["entries"]] == ["This year", "A year ago, late in Seoul", "A year ago, earlier"]
    # The rows are the list's own; without it the page has none, and later pages never do.
    plain = api.get("/api/v1/entries", params={"limit": "3"}).json()
    assert "onThisDay" not in plain and plain["entries"] == page.json()["entries"]
    for refused in ({"cursor": plain["nextCursor"]}, {"starred": "true"}, {"onThisDay": "2025-02-30"}, {"onThisDayYears": "0"},
                    {"timeZone": "Mars/Olympus"}):
        assert_error(api.get("/api/v1/entries", params={**asked, **refused}), 400, "bad_request")


def test_on_this_day_gives_earlier_years_of_the_writers_day(api):
    api.create("A year ago, late in Seoul", "", createdAt="2024-11-25T23:30:00+09:00")
    api.create("Five years ago", "", createdAt="2020-11-25T12:00:00+09:00")
    api.create("The same day, too early in Seoul", "", createdAt="2024-11-24T23:30:00+09:00")
    api.create("This year", "", createdAt="2025-11-25T12:00:00+09:00")
    response = api.get("/api/v1/on-this-day", params={"date": "2025-11-25", "timeZone": "Asia/Seoul"})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["date"] == "2025-11-25"
    assert [(year["yearsAgo"], [e["title"] for e in year["entries"]]) for year in answer["years"]] == [
        (1, ["A year ago, late in Seoul"]), (5, ["Five years ago"])]
    # One entry a year, as the list's top asks.
    api.create("A year ago, earlier", "", createdAt="2024-11-25T08:00:00+09:00")
    one = api.get("/api/v1/on-this-day", params={"date": "2025-11-25", "timeZone": "Asia/Seoul", "perYear": "1"}).json()
    assert [(year["yearsAgo"], [e["title"] for e in year["entries"]]) for year in one["years"]] == [
        (1, ["A year ago, late in Seoul"]), (5, ["Five years ago"])]
    for bad in ("0", "21", "one"):
        assert_error(api.get("/api/v1/on-this-day", params={"perYear": bad}), 400, "bad_request")
    # The nearest years only, when asked for fewer.
    nearest = api.get("/api/v1/on-this-day", params={"date": "2025-11-25", "timeZone": "Asia/Seoul", "years": "1"}).json()
    assert [year["yearsAgo"] for year in nearest["years"]] == [1]
    assert nearest["earlier"] is True
    assert one["earlier"] is False
    both = api.get("/api/v1/on-this-day", params={"date": "2025-11-25", "timeZone": "Asia/Seoul", "years": "2"}).json()
    assert [year["yearsAgo"] for year in both["years"]] == [1, 5] and both["earlier"] is False
    for bad in ("0", "121", "all"):
        payload = assert_error(api.get("/api/v1/on-this-day", params={"years": bad}), 400, "bad_request")
        assert "years" in payload["message"]
    # The same instants seen from London: late in Seoul is still the 25th; the early one is the 24th there too.
    london = api.get("/api/v1/on-this-day", params={"date": "2025-11-25", "timeZone": "Europe/London"}).json()
    assert [year["yearsAgo"] for year in london["years"]] == [1, 5]
    for params, words in [({"timeZone": "Mars/Olympus"}, "timeZone"), ({"date": "2025-02-30"}, "date"),
                          ({"date": "tomorrow"}, "date")]:
        payload = assert_error(api.get("/api/v1/on-this-day", params=params), 400, "bad_request")
        assert words in payload["message"]


def test_the_trash_is_emptied_at_once_when_asked(api):
    kept = api.create("Kept", "")
    for n in range(3):
        gone = api.create(f"Gone {n}", "")
        api.delete(f"/api/v1/entries/{gone['id']}")
    response = api.delete("/api/v1/trash")
    assert response.status_code == 200, response.text
    assert response.json() == {"deleted": 3}
    assert api.list_all("/api/v1/trash") == []
    assert [row["id"] for row in api.list_all()] == [kept["id"]]
    assert api.delete("/api/v1/trash").json() == {"deleted": 0}


def old_trash_file(path):
    """An export holding an entry trashed 40 days ago, one trashed 10 days ago and one in the diary."""
    from datetime import datetime, timedelta, timezone
    now = datetime.now(timezone.utc)

    def stamp(days):
        return (now - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    records = [{"id": str(uuid), "title": title, "body": "", "createdAt": stamp(90), "deletedAt": deleted}
               for uuid, title, deleted in [("5c0a7d2e-1111-4a4a-9a9a-000000000001", "Trashed 40 days ago", stamp(40)),
                                            ("5c0a7d2e-1111-4a4a-9a9a-000000000002", "Trashed 10 days ago", stamp(10)),
                                            ("5c0a7d2e-1111-4a4a-9a9a-000000000003", "In the diary", None)]]
    path.write_text(json.dumps({"format": "diary-export", "version": 1, "entries": records}))
    return path


@pytest.mark.parametrize("days, left", [(None, ["Trashed 10 days ago"]), ("5", []),
                                        ("0", ["Trashed 10 days ago", "Trashed 40 days ago"])])
def test_the_trash_empties_itself_after_30_days_or_as_told(tmp_path, days, left):
    from conftest import Server
    from diary_api import Api
    from diary_harness import wait_for
    srv = Server(tmp_path, extra_args=() if days is None else ("--trash-days", days))
    cli(srv.database, "import", str(old_trash_file(tmp_path / "old.json")))
    srv.start()
    try:
        srv.log_in()
        api = Api(srv.base_url)
        wait_for(lambda: sorted(row["title"] for row in api.list_all("/api/v1/trash")) == sorted(left),
                 message=f"the trash to hold {left}")
        assert [row["title"] for row in api.list_all()] == ["In the diary"]
    finally:
        assert srv.stop() == 0, srv.log()
