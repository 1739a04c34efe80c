"""The diary by its days (a month's calendar, a year at a glance with its streaks), tags renamed
and merged in one step, and search narrowed as the list is: through the API."""

import pytest

from diary_api import assert_error


def test_a_month_marks_the_days_written_in_the_writers_time_zone(api):
    api.create("Just after midnight in Seoul", "one two", createdAt="2024-05-01T00:30:00+09:00")
    api.create("Morning", "비가 왔다", createdAt="2024-05-03T09:00:00+09:00")
    api.create("Evening", "", createdAt="2024-05-03T22:00:00+09:00")
    gone = api.create("Trashed", "", createdAt="2024-05-20T12:00:00+09:00")
    api.delete(f"/api/v1/entries/{gone['id']}")
    api.create("June", "", createdAt="2024-06-01T00:00:00+09:00")

    response = api.get("/api/v1/calendar", params={"month": "2024-05", "timeZone": "Asia/Seoul"})
    assert response.status_code == 200, response.text
    assert response.json() == {"month": "2024-05", "days": [
        {"date": "2024-05-01", "entries": 1, "words": 7},
        {"date": "2024-05-03", "entries": 2, "words": 4},
    ]}
    # The same moments are other days in London.
    london = api.get("/api/v1/calendar", params={"month": "2024-05", "timeZone": "Europe/London"}).json()
    assert [day["date"] for day in london["days"]] == ["2024-05-03", "2024-05-31"]
    assert api.get("/api/v1/calendar", params={"month": "1999-01"}).json() == {"month": "1999-01", "days": []}


def test_a_year_at_a_glance_counts_days_months_words_and_streaks(api):
    for day in ("01", "02", "03"):
        api.create(f"Day {day}", "a few words here", createdAt=f"2024-03-{day}T20:00:00+09:00")
    api.create("Later", "more", createdAt="2024-07-14T08:00:00+09:00")
    response = api.get("/api/v1/year", params={"year": "2024", "timeZone": "Asia/Seoul"})
    assert response.status_code == 200, response.text
    year = response.json()
    assert (year["year"], year["entries"], year["daysWritten"]) == (2024, 4, 4)
    assert year["words"] == 3 * (2 + 4) + 2
    assert [day["date"] for day in year["days"]] == ["2024-03-01", "2024-03-02", "2024-03-03", "2024-07-14"]
    assert len(year["months"]) == 12
    assert year["months"][2] == {"month": "2024-03", "entries": 3, "words": 18}
    assert year["months"][0] == {"month": "2024-01", "entries": 0, "words": 0}
    assert year["longestStreak"] == {"days": 3, "from": "2024-03-01", "through": "2024-03-03"}
    assert "currentStreak" not in year


def test_the_current_streak_runs_to_today(api):
    from datetime import datetime, timedelta, timezone
    now = datetime.now(timezone.utc)
    for back in range(3):
        api.create(f"{back} days ago", "", createdAt=(now - timedelta(days=back)).strftime("%Y-%m-%dT%H:%M:%SZ"))
    year = api.get("/api/v1/year", params={"timeZone": "UTC"}).json()
    assert year["year"] == now.year
    assert year["currentStreak"]["days"] == 3
    assert year["currentStreak"]["through"] == now.strftime("%Y-%m-%d")


@pytest.mark.parametrize("path, params, words", [
    ("calendar", {"month": "2024-13"}, "month"), ("calendar", {"month": "2024-5"}, "month"),
    ("calendar", {"month": "10000-01"}, "month"), ("calendar", {"month": "0000-01"}, "month"),
    ("calendar", {"month": "２０２４-05"}, "month"), ("calendar", {"timeZone": "Mars/Olympus"}, "timeZone"),
    ("calendar", {"timeZone": "A" * 200}, "timeZone"),
    ("year", {"year": "0"}, "year"), ("year", {"year": "10000"}, "year"), ("year", {"year": "-2024"}, "year"),
    ("year", {"year": "2024.5"}, "year"), ("year", {"year": " 2024"}, "year"), ("year", {"timeZone": ""}, "timeZone"),
])
def test_a_month_year_or_time_zone_that_cannot_be_is_refused_saying_which(api, path, params, words):
    payload = assert_error(api.get(f"/api/v1/{path}", params=params), 400, "bad_request")
    assert words in payload["message"]


def test_the_first_and_last_months_there_are_answer(api):
    api.create("Year one", "", createdAt="0001-01-01T00:00:00Z")
    api.create("The last moment", "", createdAt="9999-12-31T23:59:59.999Z")
    first = api.get("/api/v1/calendar", params={"month": "0001-01", "timeZone": "UTC"}).json()
    assert first["days"] == [{"date": "0001-01-01", "entries": 1, "words": 2}]
    last = api.get("/api/v1/year", params={"year": "9999", "timeZone": "Pacific/Kiritimati"}).json()
    assert last["entries"] == 0  # the last moment of year 9999 in UTC is already 10000 there
    assert api.get("/api/v1/year", params={"year": "9999", "timeZone": "UTC"}).json()["entries"] == 1


def test_a_tag_is_renamed_and_merged_in_one_step(api):
    one = api.create("One", "", tags=["trip", "food"])
    two = api.create("Two", "", tags=["Travel"])
    trashed = api.create("Trashed", "", tags=["trip"])
    api.delete(f"/api/v1/entries/{trashed['id']}")
    response = api.post("/api/v1/tags/rename", json={"from": "TRIP", "to": "  travel "})
    assert response.status_code == 200, response.text
    assert response.json() == {"tag": "travel", "entries": 3}
    assert api.get(f"/api/v1/entries/{one['id']}").json()["tags"] == ["travel", "food"]
    renamed = api.get(f"/api/v1/entries/{two['id']}").json()
    assert renamed["tags"] == ["travel"] and renamed["version"] == 2
    assert api.get(f"/api/v1/entries/{trashed['id']}").json()["tags"] == ["travel"]
    assert api.get("/api/v1/tags").json()["tags"] == [{"tag": "travel", "count": 2}, {"tag": "food", "count": 1}]
    # An editor still on the old version gets the conflict choice.
    stale = api.put(f"/api/v1/entries/{two['id']}", json={"title": "Two", "body": "typed"}, headers={"If-Match": '"1"'})
    assert_error(stale, 409, "conflict")
    assert api.post("/api/v1/tags/rename", json={"from": "nowhere", "to": "x"}).json() == {"tag": "x", "entries": 0}


@pytest.mark.parametrize("body", [
    {"from": "", "to": "x"}, {"from": "trip", "to": "   "}, {"from": "trip", "to": "가" * 101},
    {"from": "trip", "to": "a\u0007b"}, {"from": "trip"}, {"to": "x"}, {"from": 1, "to": "x"}, ["trip", "x"],
])
def test_a_rename_that_cannot_be_is_refused_and_nothing_changes(api, body):
    entry = api.create("Kept", "", tags=["trip"])
    response = api.post("/api/v1/tags/rename", json=body)
    assert response.status_code == 400, response.text
    assert response.json()["message"]
    kept = api.get(f"/api/v1/entries/{entry['id']}").json()
    assert kept["tags"] == ["trip"] and kept["version"] == 1


def test_search_is_narrowed_by_tag_star_and_dates(api):
    old = api.create("Sea", "the sea in 2020", tags=["travel"], createdAt="2020-06-01T12:00:00Z")
    new = api.create("Sea again", "the sea in 2024", tags=["travel"], starred=True, createdAt="2024-06-01T12:00:00Z")
    home = api.create("Home", "no sea here", createdAt="2024-07-01T12:00:00Z")

    def found(**params):
        response = api.get("/api/v1/search", params={"q": "sea", **params})
        assert response.status_code == 200, response.text
        return {result["entry"]["id"] for result in response.json()["results"]}
    assert found() == {old["id"], new["id"], home["id"]}
    assert found(tag="TRAVEL") == {old["id"], new["id"]}
    assert found(starred="true") == {new["id"]}
    assert found(**{"from": "2024-01-01T00:00:00Z"}) == {new["id"], home["id"]}
    assert found(tag="travel", until="2024-01-01T00:00:00Z") == {old["id"]}
    assert found(tag="nowhere") == set()
    for params in ({"starred": "yes"}, {"from": "yesterday"}, {"tag": ""}, {"tag": [str(n) for n in range(11)]}):
        assert_error(api.get("/api/v1/search", params={"q": "sea", **params}), 400, "bad_request")
