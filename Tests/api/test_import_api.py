"""`POST /api/v1/import`: what `diary import` reads, through the API, for the web app's
settings. Day One's ZIP with its photos, Diary's own export back in, jrnl's JSON; the progress
as lines for a client that asks; every bad or hostile file refused with a 4xx that says why,
and nothing stored changed. Every response is held to openapi.yaml (check_exchange)."""

from __future__ import annotations

import hashlib
import json
import select
import sys
import zipfile
from pathlib import Path

import requests

import diary_api
from diary_api import Api, assert_error, auth_headers, check_exchange
from diary_harness import wait_for
from test_import_formats import DAY_ONE, costly_day_one_zip, day_one_zip, hostile_day_one_zips

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import photo_files  # noqa: E402

PROGRESS = {"Accept": "application/x-ndjson"}


def send(api: Api, body: bytes, headers: dict | None = None, **params) -> requests.Response:
    return api.post("/api/v1/import", data=body, params=params or None,
                    headers={"Content-Type": "application/octet-stream", **(headers or {})}, timeout=120)


def lines(response: requests.Response) -> list:
    assert response.headers["Content-Type"] == "application/x-ndjson", response.headers
    return [json.loads(line) for line in response.text.splitlines()]


def entries(api: Api) -> list:
    return api.list_all()


def test_a_day_one_zip_brings_its_entries_and_photos_and_a_second_import_adds_nothing(api, tmp_path):
    archive, _ = day_one_zip(tmp_path)
    response = send(api, archive.read_bytes())
    assert response.status_code == 200, response.text
    report = response.json()
    assert (report["added"], report["skipped"], report["photos"]) == (3, 0, 2), report
    assert report["notKept"]["creationDevice"] == 3 and "location.placeName" in report["notKept"], report
    rows = {row["title"]: row for row in entries(api)}
    assert "Jeju, day one" in rows and len(rows) == 3
    jeju = api.get(f"/api/v1/entries/{rows['Jeju, day one']['id']}").json()
    assert jeju["starred"] and jeju["tags"] == ["travel", "여행"] and len(jeju["photos"]) == 1
    # The photo kept is the owner's, with no place left in it.
    photo = api.get(f"/api/v1/photos/{jeju['photos'][0]['id']}")
    assert photo.status_code == 200 and not photo_files.has_gps(photo.content)

    again = send(api, archive.read_bytes())
    assert again.status_code == 200 and (again.json()["added"], again.json()["skipped"]) == (0, 3), again.text
    assert len(entries(api)) == 3


def test_the_progress_comes_a_line_at_a_time_and_the_report_last(api, tmp_path):
    archive, _ = day_one_zip(tmp_path)
    response = send(api, archive.read_bytes(), PROGRESS)
    assert response.status_code == 200, response.text
    told = lines(response)
    stages = [line["stage"] for line in told]
    assert stages[0] == "read" and told[0]["entries"] == 3, told
    photos = [(line["done"], line["of"]) for line in told if line["stage"] == "photos"]
    assert photos[0] == (0, 2) and photos[-1] == (2, 2) and photos == sorted(photos), told
    assert stages[-2:] == ["saving", "done"], stages
    assert told[-1]["report"]["added"] == 3 and told[-1]["report"]["photos"] == 2, told[-1]


def test_diarys_own_export_comes_back_whole_into_another_diary(start_server):
    first, second = start_server(), start_server()
    source = Api(first.base_url)
    source.create("Rain", "All day, 비가 왔다.", tags=["weather"], starred=True)
    source.create("Sun", "At last.")
    exported = source.get("/api/v1/export").content
    target = Api(second.base_url)
    response = send(target, exported, PROGRESS)
    assert response.status_code == 200, response.text
    assert [line["stage"] for line in lines(response)] == ["read", "saving", "done"]
    assert target.get("/api/v1/export").content == exported


def test_jrnls_json_export_is_read_and_format_names_it(api):
    journal = {"tags": {"@work": 1}, "entries": [
        {"title": "Standup", "body": "Short one. @work", "date": "2026-03-02", "time": "09:15", "tags": ["@work"], "starred": True},
        {"title": "Evening", "body": "", "date": "2026-03-02", "time": "21:00", "tags": [], "starred": False},
    ]}
    body = json.dumps(journal).encode()
    response = send(api, body, format="jrnl-json")
    assert response.status_code == 200 and response.json()["added"] == 2, response.text
    titles = sorted(row["title"] for row in entries(api))
    assert titles == ["Evening", "Standup"]
    # Named as what it is not: refused, nothing added.
    assert_error(send(api, body, format="dayone"), 422, "bad_import")
    assert_error(send(api, body, format="nonsense"), 400, "bad_request")
    assert len(entries(api)) == 2


def test_jrnls_times_the_clocks_skip_or_repeat_are_dated_by_the_rule_and_counted_in_the_report(api):
    journal = b"[2026-03-08 02:30] Skipped hour.\n\n[2026-11-01 01:30] Repeated hour.\n\n[2026-11-01 09:00] Plain.\n"
    response = send(api, journal, timeZone="America/New_York")
    assert response.status_code == 200, response.text
    assert response.json()["clockChanges"] == {"skipped": 1, "repeated": 1}, response.json()
    # 02:30 is dated 03:30 EDT; 01:30 the first one, EDT's: as `diary new --date` dates them.
    moments = {row["title"]: api.get(f"/api/v1/entries/{row['id']}").json()["createdAt"] for row in entries(api)}
    assert moments == {"Skipped hour.": "2026-03-08T07:30:00.000Z", "Repeated hour.": "2026-11-01T05:30:00.000Z",
                       "Plain.": "2026-11-01T14:00:00.000Z"}, moments
    # Read in a zone without summer time, the same hours are no change of clocks.
    plain = send(api, journal.replace(b"Plain.", b"In Seoul."), timeZone="Asia/Seoul")
    assert plain.json()["clockChanges"] == {"skipped": 0, "repeated": 0}, plain.text


def test_a_bad_record_imports_nothing_and_is_named_even_when_progress_was_asked(api):
    mine = api.create("Mine", "kept as it was")
    journal = json.loads(DAY_ONE.read_text())
    journal["entries"][2]["tags"] = ["ok", 7]
    for headers in ({}, PROGRESS):
        payload = assert_error(send(api, json.dumps(journal).encode(), headers), 422, "bad_import")
        assert "Record 3" in payload["message"] and "Nothing was imported" in payload["message"], payload
    assert [row["id"] for row in entries(api)] == [mine["id"]]


def test_what_is_no_diary_at_all_is_refused_with_a_message(api):
    payload = assert_error(send(api, b"title,body\nRain,All day\n"), 415, "unknown_format")
    assert "Day One" in payload["message"] and "jrnl" in payload["message"], payload
    assert_error(send(api, b""), 400, "bad_request")
    assert_error(send(api, b"[" * 100_000 + b"]" * 100_000), 422, "bad_import")
    assert_error(send(api, b"\xff\xfe\x00garbage" * 100), 415, "unknown_format")
    assert entries(api) == []


def test_hostile_zips_are_refused_and_nothing_is_kept_or_written_outside(api, tmp_path):
    mine = api.create("Mine", "kept as it was")
    traversal, bomb, link = hostile_day_one_zips(tmp_path)
    not_a_photo, journal = day_one_zip(tmp_path, "fake.zip")
    with zipfile.ZipFile(not_a_photo, "w") as z:
        z.writestr("Journal.json", json.dumps(journal))
        z.writestr(f"photos/{journal['entries'][0]['photos'][0]['md5']}.jpeg", b"not a photo at all")
    expected = {traversal: (422, "bad_import"), bomb: (413, "too_large"), link: (422, "bad_import")}
    for path, (status, code) in expected.items():
        for headers in ({}, PROGRESS):
            payload = assert_error(send(api, path.read_bytes(), headers), status, code)
            assert "othing was imported" in payload["message"], (path.name, payload)
    # A photo that is none is found once the entries are read: with progress, the last line.
    assert_error(send(api, not_a_photo.read_bytes()), 422, "bad_import")
    told = lines(send(api, not_a_photo.read_bytes(), PROGRESS))
    assert told[0]["stage"] == "read" and told[-1]["stage"] == "failed" and told[-1]["error"] == "bad_import", told
    assert "Nothing was imported" in told[-1]["message"]
    assert [row["id"] for row in entries(api)] == [mine["id"]]
    assert not (tmp_path.parent / "escaped.txt").exists()


def test_a_zip_whose_photos_unpack_to_far_more_than_its_size_is_too_large(api, tmp_path):
    payload = assert_error(send(api, costly_day_one_zip(tmp_path).read_bytes()), 413, "too_large")
    assert "photos unpack to more than" in payload["message"] and "Nothing was imported" in payload["message"], payload
    assert entries(api) == []


def test_a_zip_over_the_photo_allowance_imports_nothing(start_server, tmp_path):
    server = start_server("--photo-quota", "1")
    api = Api(server.base_url)
    journal = json.loads(DAY_ONE.read_text())
    big = photo_files.jpeg(2000, 1500, quality=95, noise=True)
    assert len(big) > 1_200_000, len(big)  # more than the 1 MB allowance
    archive = tmp_path / "big.zip"
    with zipfile.ZipFile(archive, "w") as z:
        md5 = hashlib.md5(big).hexdigest()
        journal["entries"][0]["photos"][0]["md5"] = md5
        journal["entries"][2]["photos"][0]["md5"] = md5
        z.writestr("Journal.json", json.dumps(journal))
        z.writestr(f"photos/{md5}.jpeg", big)
    assert_error(send(api, archive.read_bytes()), 413, "over_quota")
    assert entries(api) == []


def test_one_import_at_a_time_and_the_place_frees_when_it_ends(api, base_url):
    def half_sent():
        """An import half sent, its sender slow: it holds the server's place."""
        return diary_api.half_sent(base_url, "/api/v1/import", "application/zip", b"PK\x03\x04" + bytes(1000))

    held = [half_sent()]
    journal = DAY_ONE.read_bytes()

    def second_refused():
        if select.select([held[0]], [], [], 0)[0]:  # answered (refused) before it took the place
            held[0].close()
            held[0] = half_sent()
        response = send(api, journal)
        return response.status_code == 429 and (response,)

    try:
        (refused,) = wait_for(second_refused, timeout=20, message="a second import at once to be refused")
        assert_error(refused, 429, "import_running")
        assert refused.headers["Retry-After"] == "1"
    finally:
        held[0].close()
    done = wait_for(lambda: (r := send(api, journal)).status_code == 200 and (r,), timeout=20,
                    message="the place to free once the slow import gave up")
    # (An import sent while the slow one was being replaced may have got through first.)
    report = done[0].json()
    assert report["added"] + report["skipped"] == 2, report
    assert len(entries(api)) == 2


def test_an_access_token_may_import_and_a_stranger_may_not(server, base_url):
    from diary_cli import cli
    token = cli(server.database, "token", "create", "importer").strip()
    response = requests.post(f"{base_url}/api/v1/import", data=DAY_ONE.read_bytes(),
                             headers={"Authorization": f"Bearer {token}"}, timeout=60)
    check_exchange(response)
    assert response.status_code == 200 and response.json()["added"] == 2, response.text
    stranger = requests.post(f"{base_url}/api/v1/import", data=DAY_ONE.read_bytes(), timeout=60)
    check_exchange(stranger)
    assert stranger.status_code == 401


# -- The ZIP exports, as downloads, and back in -------------------------------------------------

def test_the_zip_download_holds_every_photo_and_comes_back_whole(start_server, tmp_path):
    first, second = start_server(), start_server()
    source = Api(first.base_url)
    photo = source.post("/api/v1/photos", data=photo_files.jpeg(640, 480), headers={"Content-Type": "image/jpeg"}).json()
    source.create("With a photo", "비 오는 날.", photos=[{"id": photo["id"], "caption": "The river"}])
    source.create("Words only", "Nothing else.")
    response = source.get("/api/v1/export", params={"format": "zip"})
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"] == "application/zip"
    assert int(response.headers["Content-Length"]) == len(response.content)
    assert ".zip" in response.headers["Content-Disposition"]
    archive = tmp_path / "diary.zip"
    archive.write_bytes(response.content)
    with zipfile.ZipFile(archive) as z:
        names = set(z.namelist())
        assert {"diary.json", "diary.md", f"photos/{photo['id']}.jpg"} <= names, names
        assert json.loads(z.read("diary.json")) == json.loads(source.get("/api/v1/export").content)

    target = Api(second.base_url)
    back = send(target, archive.read_bytes())
    assert back.status_code == 200 and (back.json()["added"], back.json()["photos"]) == (2, 1), back.text
    assert target.get("/api/v1/export").content == source.get("/api/v1/export").content


def test_the_day_one_download_is_a_zip_day_one_reads_and_diary_reads_back(start_server, tmp_path):
    first, second = start_server(), start_server()
    source = Api(first.base_url)
    photo = source.post("/api/v1/photos", data=photo_files.png(200, 120), headers={"Content-Type": "image/png"}).json()
    source.create("Jeju", "Seongsan at dawn.", tags=["travel"], starred=True, photos=[{"id": photo["id"], "caption": ""}])
    response = source.get("/api/v1/export", params={"format": "dayone"})
    assert response.status_code == 200 and response.headers["Content-Type"] == "application/zip", response.text
    assert "-dayone.zip" in response.headers["Content-Disposition"]
    archive = tmp_path / "dayone.zip"
    archive.write_bytes(response.content)
    with zipfile.ZipFile(archive) as z:
        journal = json.loads(z.read("Journal.json"))
        assert journal["metadata"]["version"] == "1.0" and len(journal["entries"]) == 1
        md5 = journal["entries"][0]["photos"][0]["md5"]
        assert hashlib.md5(z.read(f"photos/{md5}.png")).hexdigest() == md5
    target = Api(second.base_url)
    back = send(target, archive.read_bytes(), PROGRESS)
    assert lines(back)[-1]["report"]["added"] == 1
    entry = target.list_all()[0]
    assert entry["title"] == "Jeju" and entry["starred"] and entry["tags"] == ["travel"] and entry["photo"]


def test_jrnls_json_download_is_what_jrnl_exports(api):
    api.create("Standup", "Short one.", tags=["work"], starred=True, createdAt="2026-03-02T00:15:00Z")
    response = api.get("/api/v1/export", params={"format": "jrnl", "timeZone": "Asia/Seoul"})
    assert response.status_code == 200 and "-jrnl.json" in response.headers["Content-Disposition"], response.text
    exported = response.json()
    assert exported["tags"] == {"@work": 1}
    (entry,) = exported["entries"]
    assert (entry["title"], entry["date"], entry["time"], entry["starred"]) == ("Standup", "2026-03-02", "09:15", True)


def test_a_refused_zip_leaves_no_photo_behind_to_count_against_the_allowance(start_server, tmp_path):
    """The photos of a ZIP are kept before its entries; when a later photo refuses the import,
    those kept are let go at once: the writer's allowance is as it was, and a good file fits."""
    server = start_server("--photo-quota", "1")
    api = Api(server.base_url)
    journal = json.loads(DAY_ONE.read_text())
    good = photo_files.jpeg(1000, 800, quality=90, noise=True)
    assert 600_000 < len(good) < 1_000_000, len(good)  # two would not fit in 1 MB
    refused = tmp_path / "refused.zip"
    with zipfile.ZipFile(refused, "w") as z:
        journal["entries"][0]["photos"][0]["md5"] = hashlib.md5(good).hexdigest()
        journal["entries"][2]["photos"][0]["md5"] = "f" * 32
        z.writestr("Journal.json", json.dumps(journal))
        z.writestr(f"photos/{hashlib.md5(good).hexdigest()}.jpeg", good)
        z.writestr(f"photos/{'f' * 32}.png", b"no photo at all")
    assert_error(send(api, refused.read_bytes()), 422, "bad_import")
    other = photo_files.jpeg(1000, 800, quality=90, noise=True)
    fits = tmp_path / "fits.zip"
    with zipfile.ZipFile(fits, "w") as z:
        journal["entries"][0]["photos"][0]["md5"] = hashlib.md5(other).hexdigest()
        del journal["entries"][2]
        z.writestr("Journal.json", json.dumps(journal))
        z.writestr(f"photos/{hashlib.md5(other).hexdigest()}.jpeg", other)
    response = send(api, fits.read_bytes())
    assert response.status_code == 200 and response.json()["photos"] == 1, response.text


def test_a_file_of_entries_too_large_for_the_server_is_refused_with_where_to_import_it(api):
    """A JSON is parsed whole: the server takes one of at most 256 MB (a 20-year diary's is
    about 200 MB), so that one writer's import cannot take everyone's memory. The command line
    takes larger ones, and the message says so."""
    chunk = b" " * (1 << 20)

    def body():
        yield b'{"format": "diary-export", "version": 1, "entries": []'
        for _ in range(257):
            yield chunk
        yield b"}"
    response = requests.post(api.url("/api/v1/import"), data=body(), headers={**auth_headers(api.base_url),
                             "Content-Type": "application/json"}, timeout=120)
    check_exchange(response)
    payload = assert_error(response, 413, "too_large")
    assert "diary import" in payload["message"], payload


def test_a_zip_of_too_many_files_is_refused(api, tmp_path):
    archive = tmp_path / "many.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("Journal.json", DAY_ONE.read_text())
        for n in range(200_001):
            z.writestr(f"photos/{n}.jpeg", b"")
    payload = assert_error(send(api, archive.read_bytes()), 422, "bad_import")
    assert "200,000 files" in payload["message"], payload
    assert entries(api) == []


def test_a_file_of_more_records_than_a_diary_has_is_refused_before_it_is_parsed(api):
    """Each record costs memory once parsed, whatever its size: a file of 400,001 tiny ones (a
    megabyte) is refused by its count, and the message says where such a file can go."""
    body = b"[" + b",".join([b'{"title":"t","body":"b","created_at":1500000000}'] * 400_001) + b"]"
    payload = assert_error(send(api, body), 413, "too_large")
    assert "400,000 records" in payload["message"] and "diary import" in payload["message"], payload
    assert entries(api) == []


def test_json_that_is_not_entries_is_refused_before_the_server_reads_it(api):
    """Lists within lists hold no record for the count to refuse, and would take 180 times their
    size once read: refused by their shape, before they are parsed, saying what they hold."""
    body = b"[" + b",".join([b"[[[[[1]]]]]"] * 200_000) + b"]"
    payload = assert_error(send(api, body), 422, "bad_import")
    assert "1,200,001 values, about one every 2 bytes" in payload["message"] and "smaller files" in payload["message"], payload
    assert entries(api) == []


def test_a_damaged_file_is_not_blamed_on_a_format_the_writer_never_named(api):
    payload = assert_error(send(api, b"[2020-01-01 10:00] Latin-1 caf\xe9\n"), 422, "bad_import")
    assert "format=" not in payload["message"] and "jrnl journal" in payload["message"], payload


def test_imports_one_after_another_are_never_refused_as_running(api):
    """The server's one place for an import is free by the time its report has come: a client
    that imports again at once is not told that an import is running."""
    for n in range(10):
        body = json.dumps([{"title": f"Day {n}", "body": "b", "created_at": 1_500_000_000 + n}]).encode()
        response = send(api, body, PROGRESS if n % 2 else {})
        assert response.status_code == 200, f"import {n}: {response.status_code} {response.text}"
    assert len(entries(api)) == 10
