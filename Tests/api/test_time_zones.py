"""Each entry keeps its writer's time zone (issue 20: "dates keep their moment and the writer's
time zone; entries land in the list where they were written"): given with a new entry or a new
date, read back with every entry and row, counted in the calendar and on this day, brought in by
Day One's and jrnl's imports and written out again by the exports. Every response is held to
openapi.yaml."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from diary_api import assert_error

# 07:30 on 1 May 2024 in Seoul is still 30 April (23:30) in London.
SEOUL_MORNING = "2024-05-01T07:30:00+09:00"


def test_a_new_entry_keeps_its_zone_and_every_row_shows_it(api):
    zoned = api.create("Seoul morning", "아침 산책", createdAt=SEOUL_MORNING, timeZone="Asia/Seoul")
    plain = api.create("No zone", "walk", createdAt=SEOUL_MORNING)
    assert zoned["timeZone"] == "Asia/Seoul"
    assert plain["timeZone"] is None
    assert api.get(f"/api/v1/entries/{zoned['id']}").json()["timeZone"] == "Asia/Seoul"
    rows = {row["id"]: row for row in api.list_all()}
    assert rows[zoned["id"]]["timeZone"] == "Asia/Seoul"
    assert "timeZone" not in rows[plain["id"]]  # only when known
    hits = api.get("/api/v1/search", params={"q": "산책"}).json()["results"]
    assert [hit["entry"]["timeZone"] for hit in hits] == ["Asia/Seoul"]


def test_an_edit_changes_the_zone_only_when_it_gives_one(api):
    entry = api.create("Trip", "", createdAt=SEOUL_MORNING, timeZone="Asia/Seoul")
    put = api.put(f"/api/v1/entries/{entry['id']}", json={"title": "Trip", "body": "more"}, headers={"If-Match": '"1"'})
    assert put.status_code == 200 and put.json()["timeZone"] == "Asia/Seoul", put.text
    # A new date chosen on a London clock comes with London's zone.
    moved = api.patch(f"/api/v1/entries/{entry['id']}", json={"createdAt": "2024-05-02T09:00:00+01:00", "timeZone": "Europe/London"},
                      headers={"If-Match": '"2"'})
    assert moved.status_code == 200, moved.text
    assert (moved.json()["timeZone"], moved.json()["version"]) == ("Europe/London", 3)
    trashed = api.delete(f"/api/v1/entries/{entry['id']}")
    assert trashed.json()["timeZone"] == "Europe/London"
    trash = api.get("/api/v1/trash").json()["entries"]
    assert trash[0]["timeZone"] == "Europe/London"


@pytest.mark.parametrize("zone", ["Etc/Unknown", "Mars/Olympus", "", "../../etc/passwd", "/etc/localtime", "A" * 65, "Asia/서울"])
def test_a_name_that_is_no_zone_never_costs_the_words_it_is_simply_no_zone(api, zone):
    # A browser that cannot tell its zone says "Etc/Unknown": the entry is kept all the same.
    entry = api.create("Kept", "every word", timeZone=zone)
    assert entry["timeZone"] is None
    zoned = api.create("Zoned", "", timeZone="Asia/Seoul")
    patch = api.patch(f"/api/v1/entries/{zoned['id']}", json={"timeZone": zone}, headers={"If-Match": '"1"'})
    assert patch.status_code == 200 and patch.json()["timeZone"] == "Asia/Seoul" and patch.json()["version"] == 1, patch.text


@pytest.mark.parametrize("zone", [9, ["Asia/Seoul"], {"name": "Asia/Seoul"}])
def test_a_zone_that_is_not_text_is_refused_and_nothing_is_written(api, zone):
    response = api.post("/api/v1/entries", json={"title": "x", "body": "", "timeZone": zone})
    assert_error(response, 400, "bad_request")
    assert api.list_all() == []


def test_utc_is_kept_as_it_was_sent(api):
    assert api.create("Z", "", timeZone="UTC")["timeZone"] == "UTC"


def test_the_calendar_and_on_this_day_count_an_entry_on_its_own_day(api):
    api.create("Seoul", "one two", createdAt=SEOUL_MORNING, timeZone="Asia/Seoul")
    api.create("Unzoned", "three", createdAt=SEOUL_MORNING)
    may = api.get("/api/v1/calendar", params={"month": "2024-05", "timeZone": "Europe/London"}).json()
    assert may["days"] == [{"date": "2024-05-01", "entries": 1, "words": 3}]
    april = api.get("/api/v1/calendar", params={"month": "2024-04", "timeZone": "Europe/London"}).json()
    assert april["days"] == [{"date": "2024-04-30", "entries": 1, "words": 2}]
    memories = api.get("/api/v1/on-this-day", params={"date": "2025-05-01", "timeZone": "Europe/London"}).json()
    assert [[row["title"] for row in year["entries"]] for year in memories["years"]] == [["Seoul"]]


def test_day_ones_zones_come_in_and_go_out_again(api):
    record = {"uuid": "0B5F1E4A9C3D4E7F8A1B2C3D4E5F6A7B", "creationDate": "2024-04-30T22:30:00Z", "timeZone": "Asia/Seoul",
              "text": "Seoul morning\n\nA walk."}
    journal = json.dumps({"metadata": {"version": "1.0"}, "entries": [record]}).encode()
    response = api.post("/api/v1/import", data=journal, headers={"Content-Type": "application/json"})
    assert response.status_code == 200, response.text
    assert "timeZone" not in response.json()["notKept"], response.json()
    [row] = api.list_all()
    assert row["timeZone"] == "Asia/Seoul"
    exported = api.get("/api/v1/export", params={"format": "dayone", "timeZone": "UTC"})
    assert exported.status_code == 200
    with zipfile.ZipFile(io.BytesIO(exported.content)) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".json"))
        [written] = json.loads(archive.read(name))["entries"]
    assert written["timeZone"] == "Asia/Seoul"
    # Diary's own export carries it too.
    assert api.get("/api/v1/export", params={"format": "json"}).json()["entries"][0]["timeZone"] == "Asia/Seoul"


def test_a_jrnl_journals_hours_are_read_on_the_writers_clock(api):
    journal = b"[2024-05-01 07:30] Morning walk. Cold.\n"
    response = api.post("/api/v1/import", data=journal, params={"timeZone": "Asia/Seoul"},
                        headers={"Content-Type": "text/plain"})
    assert response.status_code == 200, response.text
    [row] = api.list_all()
    assert (row["createdAt"], row["timeZone"]) == ("2024-04-30T22:30:00.000Z", "Asia/Seoul")
    # jrnl's export writes the hour as the writer saw it, whatever zone the export asks for.
    out = api.get("/api/v1/export", params={"format": "jrnl", "timeZone": "Europe/London"}).json()
    assert (out["entries"][0]["date"], out["entries"][0]["time"]) == ("2024-05-01", "07:30")
    refused = api.post("/api/v1/import", data=journal, params={"timeZone": "Mars/Olympus"},
                       headers={"Content-Type": "text/plain"})
    assert_error(refused, 400, "bad_request")


def test_a_jrnl_journal_sent_without_a_zone_is_read_in_utc_and_its_entries_keep_none(api):
    response = api.post("/api/v1/import", data=b"[2024-05-01 07:30] No zone said.\n", headers={"Content-Type": "text/plain"})
    assert response.status_code == 200, response.text
    response = api.post("/api/v1/import", data=b"[2024-05-02 07:30] UTC said.\n", params={"timeZone": "UTC"},
                        headers={"Content-Type": "text/plain"})
    assert response.status_code == 200, response.text
    rows = {row["title"]: row for row in api.list_all()}
    assert rows["No zone said."]["createdAt"] == "2024-05-01T07:30:00.000Z" and "timeZone" not in rows["No zone said."]
    assert rows["UTC said."]["timeZone"] == "UTC"


def test_the_last_moments_of_9999_east_of_utc_go_to_jrnl_as_a_date_it_reads(api):
    api.create("Last", "", createdAt="9999-12-31T23:30:00Z", timeZone="Pacific/Kiritimati")
    out = api.get("/api/v1/export", params={"format": "jrnl"})
    assert out.status_code == 200, out.text
    [written] = out.json()["entries"]
    assert (written["date"], written["time"]) == ("9999-12-31", "23:30"), written
    back = api.post("/api/v1/import", data=out.content, params={"timeZone": "UTC"}, headers={"Content-Type": "application/json"})
    assert back.status_code == 200, back.text
    # In a journal, a date of five digits is a date no entry may have, said by name.
    journal = b"[2024-05-01 07:30] First.\n[10000-01-01 10:00] Past the end.\n"
    refused = api.post("/api/v1/import", data=journal, headers={"Content-Type": "text/plain"})
    error = assert_error(refused, 422, "bad_import")
    assert "10000-01-01 10:00" in error["message"] and "outside the dates" in error["message"], error
