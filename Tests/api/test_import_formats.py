"""`diary import` of what people bring from elsewhere, and `diary export` back to it: a journal
made by the real jrnl (its file and its JSON export), Day One's JSON and ZIP (written from its
documented format: Tests/fixtures/dayone), and a diary taken to Day One's ZIP and back whole."""

from __future__ import annotations

import copy
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from datetime import datetime, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from PIL import Image

from diary_cli import BINARY, REPO

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import photo_files  # noqa: E402

# Reading other apps' files, by the command line on a SQLite file of its own (the import's storage
# runs on PostgreSQL in test_import_api): not run again on PostgreSQL (conftest.py).
pytestmark = pytest.mark.same_on_every_backend

ZONE = "Asia/Seoul"
DAY_ONE = REPO / "Tests/fixtures/dayone/Journal.json"


def diary(database: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIARY_")}
    env["TZ"] = ZONE
    done = subprocess.run([str(BINARY), *args, "--database", str(database)], capture_output=True, text=True, env=env,
                          timeout=120)
    if ok:
        assert done.returncode == 0, f"diary {' '.join(args)}: {done.stderr}"
    return done


def exported(database: Path) -> list:
    return json.loads(diary(database, "export").stdout)["entries"]


# ------------------------------------------------------------------ jrnl

def jrnl_command() -> str:
    found = shutil.which("jrnl")
    if found is None:
        pytest.fail("jrnl is not installed: pip install -r Tests/requirements.txt")
    return found


def make_journal(tmp_path: Path) -> tuple[Path, dict]:
    """A journal written by the real jrnl (no encryption, its own config), and its JSON export."""
    home = tmp_path / "jrnl-config"
    (home / "jrnl").mkdir(parents=True)
    journal = tmp_path / "journal.txt"
    (home / "jrnl" / "jrnl.yaml").write_text(f"""colors:
  body: none
  date: none
  tags: none
  title: none
default_hour: 9
default_minute: 0
editor: ''
encrypt: false
highlight: true
indent_character: '|'
journals:
  default:
    journal: {journal}
linewrap: 79
tagsymbols: '#@'
template: false
timeformat: '%F %r'
version: v4.6
""")
    env = {**os.environ, "XDG_CONFIG_HOME": str(home), "TZ": ZONE}
    jrnl = jrnl_command()
    writings = [
        "2024-05-01 21:30: Went to the beach. It was sunny and the water was cold @beach @jeju",
        "2024-05-02 08:05: 아침에 비가 왔다. 우산을 챙겼다 #일기",
        "2024-05-03 12:00: Lunch *",
        "2024-05-04 18:45: Two identical entries. Both are kept.",
        "2024-05-04 18:45: Two identical entries. Both are kept.",
        "2024-05-05 23:59: A title line\nand a body\nover lines, with \"quotes\" and a \\ backslash @Work",
    ]
    for text in writings:
        done = subprocess.run([jrnl, text], env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    done = subprocess.run([jrnl, "--export", "json"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return journal, json.loads(done.stdout)


def moment(record: dict) -> str:
    local = datetime.strptime(f"{record['date']} {record['time']}", "%Y-%m-%d %H:%M").replace(tzinfo=ZoneInfo(ZONE))
    return local.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def test_a_journal_made_by_jrnl_imports_entry_for_entry_from_its_file_and_its_json(tmp_path):
    journal, jrnl_json = make_journal(tmp_path)
    assert len(jrnl_json["entries"]) == 6 and any(e["starred"] for e in jrnl_json["entries"])
    export = tmp_path / "jrnl.json"
    export.write_text(json.dumps(jrnl_json))
    expected = sorted(((moment(e), e["title"], e["body"], frozenset(t.lstrip("@#") for t in e["tags"]), e["starred"])
                       for e in jrnl_json["entries"]), key=repr)
    for source, name in ((export, "json"), (journal, "file")):
        database = tmp_path / f"from-{name}.sqlite"
        done = diary(database, "import", str(source))
        assert "Imported 6 entries." in done.stdout, done.stdout
        got = sorted(((e["createdAt"], e["title"], e["body"], frozenset(e.get("tags", [])), e.get("starred", False))
                      for e in exported(database)), key=repr)
        assert got == expected, f"from jrnl's {name}"
        again = diary(database, "import", str(source))
        assert "Imported 0 entries. Skipped 6 already in the diary." in again.stdout, again.stdout
        assert len(exported(database)) == 6
    # The journal file and its JSON export are the same entries: one after the other adds nothing.
    both = diary(tmp_path / "from-json.sqlite", "import", str(journal))
    assert "Imported 0 entries" in both.stdout, both.stdout


def test_jrnl_export_writes_jrnls_json_in_the_writers_zone(tmp_path):
    database = tmp_path / "diary.sqlite"
    diary(database, "new", "--date", "2024-05-01 21:30", "--title", "Beach", "--body", "Cold water", "--tag", "jeju", "--star")
    written = json.loads(diary(database, "export", "--format", "jrnl").stdout)
    assert written["tags"] == {"@jeju": 1}
    assert written["entries"] == [{"title": "Beach", "body": "Cold water", "date": "2024-05-01", "time": "21:30",
                                   "tags": ["@jeju"], "starred": True}]
    # And back: the same words, moment, tags and star.
    path = tmp_path / "jrnl.json"
    path.write_text(json.dumps(written))
    copy_db = tmp_path / "copy.sqlite"
    assert "Imported 1 entry." in diary(copy_db, "import", str(path)).stdout
    [entry] = exported(copy_db)
    assert (entry["title"], entry["body"], entry["tags"], entry["starred"]) == ("Beach", "Cold water", ["jeju"], True)
    assert entry["createdAt"] == "2024-05-01T12:30:00.000Z"


# ------------------------------------------------------------------ Day One

def day_one_zip(tmp_path: Path, name: str = "dayone.zip", extra: dict | None = None) -> tuple[Path, dict]:
    """The fixture journal in a ZIP, with real photos named by their MD5 as Day One names them."""
    journal = json.loads(DAY_ONE.read_text())
    photos = {}
    for entry, data in ((journal["entries"][0], photo_files.jpeg(640, 480, gps=True)), (journal["entries"][2], photo_files.png(200, 120))):
        md5 = hashlib.md5(data).hexdigest()
        entry["photos"][0]["md5"] = md5
        photos[f"photos/{md5}.{entry['photos'][0]['type']}"] = data
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("Journal.json", json.dumps(journal))
        for member, data in {**photos, **(extra or {})}.items():
            z.writestr(member, data)
    return path, journal


def test_a_day_one_zip_brings_its_entries_and_photos_once_and_reports_what_diary_does_not_keep(tmp_path):
    database = tmp_path / "diary.sqlite"
    archive, _ = day_one_zip(tmp_path)
    done = diary(database, "import", str(archive))
    assert "Imported 3 entries and 2 photos." in done.stdout, done.stdout
    assert "Not kept" in done.stdout and "3 × creationDevice" in done.stdout and "location.placeName" in done.stdout, done.stdout
    entries = {e["id"]: e for e in exported(database)}
    jeju = entries["0b5f1e4a-9c3d-4e7f-8a1b-2c3d4e5f6a7b"]
    assert jeju["title"] == "Jeju, day one"
    assert "dayone-moment" not in jeju["body"] and jeju["body"].startswith("We walked to Seongsan. It took 2 hours - worth it!")
    assert jeju["starred"] and jeju["tags"] == ["travel", "여행"]
    assert jeju["weather"]["condition"] == "clouds" and jeju["weather"]["temperature"] == 18.5
    assert len(jeju["photos"]) == 1 and jeju["photos"][0]["width"] == 640
    photo_only = entries["2d7b3a6c-1e5f-60a1-ac3d-4e5f6a7b8c9d"]
    assert photo_only["title"] == "" and len(photo_only["photos"]) == 1
    # The photo kept has no place in it any more, as any photo added to the diary.
    stored = diary(database, "export", "--format", "zip", "--output", str(tmp_path / "back.zip"))
    with zipfile.ZipFile(tmp_path / "back.zip") as z:
        jpeg = next(n for n in z.namelist() if n.endswith(".jpg"))
        assert not photo_files.has_gps(z.read(jpeg))
    again = diary(database, "import", str(archive))
    assert "Imported 0 entries. Skipped 3 already in the diary." in again.stdout and "Nothing new" in again.stdout, again.stdout
    assert len(exported(database)) == 3
    del stored


def test_day_ones_json_alone_keeps_the_words_and_counts_the_photos_it_cannot_bring(tmp_path):
    database = tmp_path / "diary.sqlite"
    done = diary(database, "import", str(DAY_ONE))
    # The photo-only entry has nothing left without its photo: counted, like the photos.
    assert "Imported 2 entries." in done.stdout, done.stdout
    assert "2 × photo (not in a JSON file" in done.stdout and "1 × entry of photos alone" in done.stdout, done.stdout


def test_a_bad_day_one_entry_imports_nothing_and_is_named(tmp_path):
    database = tmp_path / "diary.sqlite"
    diary(database, "new", "Mine", "--body", "kept as it was")
    before = exported(database)
    journal = json.loads(DAY_ONE.read_text())
    journal["entries"][2]["tags"] = ["ok", 7]
    bad = tmp_path / "Journal.json"
    bad.write_text(json.dumps(journal))
    done = diary(database, "import", str(bad), ok=False)
    assert done.returncode != 0
    assert "Record 3 (uuid 2D7B3A6C1E5F60A1AC3D4E5F6A7B8C9D)" in done.stderr and "tags" in done.stderr, done.stderr
    assert exported(database) == before


def hostile_day_one_zips(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Day One ZIPs a stranger could send: a name that climbs out of its folder (`../`), a
    photo that unpacks to 30 MB (a ZIP bomb), and a link."""
    traversal, _ = day_one_zip(tmp_path, "traversal.zip", {"../../escaped.txt": b"out"})
    bomb, journal = day_one_zip(tmp_path, "bomb.zip")
    md5 = journal["entries"][0]["photos"][0]["md5"]
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("Journal.json", json.dumps(journal))
        z.writestr(f"photos/{md5}.jpeg", b"\xff\xd8\xff" + b"\0" * (30 * 1024 * 1024))
    link, _ = day_one_zip(tmp_path, "link.zip")
    with zipfile.ZipFile(link, "a") as z:
        info = zipfile.ZipInfo("photos/link.jpeg")
        info.create_system = 3
        info.external_attr = (0o120777 << 16)
        z.writestr(info, "/etc/passwd")
    return traversal, bomb, link


def test_hostile_day_one_zips_are_refused_and_nothing_is_kept(tmp_path):
    database = tmp_path / "diary.sqlite"
    diary(database, "new", "Mine", "--body", "kept as it was")
    before = exported(database)
    traversal, bomb, link = hostile_day_one_zips(tmp_path)
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 100_000 + "]" * 100_000)
    wrong = tmp_path / "notes.csv"
    wrong.write_text("title,body\nRain,All day\n")
    for path in (traversal, bomb, link, nested, wrong):
        done = diary(database, "import", str(path), ok=False)
        assert done.returncode != 0, f"{path.name} was taken: {done.stdout}"
        assert "othing was imported" in done.stderr, f"{path.name}: {done.stderr}"
        assert exported(database) == before, f"{path.name} changed the diary"
    assert "Day One" in diary(database, "import", str(wrong), ok=False).stderr, "the error names the formats Diary reads"
    assert not (tmp_path.parent / "escaped.txt").exists()


def test_format_overrides_what_the_content_shows_and_refuses_what_does_not_fit(tmp_path):
    database = tmp_path / "diary.sqlite"
    done = diary(database, "import", "--format", "jrnl-json", str(DAY_ONE), ok=False)
    assert done.returncode != 0 and "--format jrnl-json" in done.stderr, done.stderr
    assert "Imported 2 entries." in diary(database, "import", "--format", "dayone", str(DAY_ONE)).stdout


# ------------------------------------------------------------------ Diary → Day One → Diary

def test_a_diary_taken_to_day_one_and_back_loses_nothing_diary_keeps(tmp_path):
    beach, shells, dunes = photo_files.jpeg(900, 600, gps=True), photo_files.png(200, 120), photo_files.webp(320, 240)
    names = {data: hashlib.sha256(data).hexdigest() for data in (beach, shells, dunes)}
    entries = [
        {"id": "1b4e28ba-2fa1-11d2-883f-0016d3cca427", "title": "Notes (1/2): *not bold* #not-a-heading",
         "body": "- not a list\n1. not a number\n> not a quote\nback\\slash [x](y) ![z](w)\n\n한글 ✓",
         "createdAt": "2024-05-01T12:30:00.123Z", "updatedAt": "2024-05-02T08:00:00.456Z", "version": 1,
         "tags": ["travel", "Trip to Jeju", "여행"], "starred": True, "location": {"latitude": 33.46, "longitude": 126.94},
         "weather": {"provider": "open-meteo", "condition": "drizzle", "description": "light drizzle", "isDay": False, "temperature": 11.5},
         "photos": [{"id": names[beach], "caption": "The beach [at dusk]\\"}, {"id": names[shells], "caption": ""}],
         "timeZone": "Asia/Seoul"},
        {"id": "2c5f39cb-3fb2-42e3-994f-1127e4ddb538", "title": "", "body": "Untitled, a body alone.",
         "createdAt": "2024-05-03T01:00:00.000Z", "version": 1,
         "weather": {"provider": "openweather", "condition": "mist", "description": "mist", "isDay": True, "temperature": None},
         "timeZone": "Europe/London"},
        {"id": "3d6a4adc-40c3-4f04-aa50-2238f5eec649", "title": "", "body": "", "createdAt": "2024-05-04T02:00:00.000Z", "version": 1,
         "photos": [{"id": names[dunes], "caption": "Dunes"}]},
    ]
    source_zip = tmp_path / "source.zip"
    with zipfile.ZipFile(source_zip, "w") as z:
        z.writestr("diary.json", json.dumps({"format": "diary-export", "version": 1, "entries": entries}))
        for data, name in names.items():
            z.writestr(f"photos/{name}", data)
    source = tmp_path / "source.sqlite"
    diary(source, "import", str(source_zip))

    day_one = tmp_path / "dayone.zip"
    diary(source, "export", "--format", "dayone", "--output", str(day_one))
    assert oct(day_one.stat().st_mode & 0o777) == "0o600"
    with zipfile.ZipFile(day_one) as z:
        journal = json.loads(z.read("Journal.json"))
        assert journal["metadata"]["version"] == "1.0"
        photos = [n for n in z.namelist() if n.startswith("photos/")]
        assert len(photos) == 3
        for name in photos:
            md5, kind = name[len("photos/"):].split(".")
            assert hashlib.md5(z.read(name)).hexdigest() == md5 and kind in ("jpeg", "png", "webp")
    first = next(e for e in journal["entries"] if e["uuid"] == "1B4E28BA2FA111D2883F0016D3CCA427")
    assert first["text"].startswith("# Notes \\(1/2\\): \\*not bold\\* \\#not\\-a\\-heading\n")
    assert [f"dayone-moment://{p['identifier']}" in first["text"] for p in first["photos"]] == [True, True]
    assert first["weather"]["weatherCode"] == "drizzle-night" and first["location"] == {"latitude": 33.46, "longitude": 126.94}

    back = tmp_path / "back.sqlite"
    done = diary(back, "import", str(day_one))
    assert "Imported 3 entries and 3 photos." in done.stdout, done.stdout
    # Each entry keeps its zone; one without goes to Day One with the exporting computer's.
    expected = exported(source)
    assert [e["timeZone"] for e in expected] == ["Asia/Seoul", "Europe/London", None]
    expected[2]["timeZone"] = ZONE
    assert exported(back) == expected
    # Into the diary it came from: the same entries, so nothing is added.
    assert "Imported 0 entries" in diary(source, "import", str(day_one)).stdout


def test_a_file_of_entries_over_a_gigabyte_is_refused_before_it_is_read(tmp_path):
    """A 4 GB JSON (here a sparse file: no disk is spent) is refused by its size at once."""
    database = tmp_path / "diary.sqlite"
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(4 << 30)
    done = diary(database, "import", str(huge), ok=False)
    assert done.returncode != 0 and "larger than 1" in done.stderr and "othing was imported" in done.stderr, done.stderr


# ------------------------------------------------------------------ what the attack review left

def assert_refused(database: Path, path: Path, *words: str) -> None:
    """`diary import` of `path` fails, says each of `words`, and leaves the diary empty."""
    done = diary(database, "import", str(path), ok=False)
    assert done.returncode != 0, done.stdout
    for said in words:
        assert said in done.stderr, done.stderr
    assert exported(database) == []


def test_a_day_one_zip_with_other_json_beside_its_journals_imports_and_counts_it(tmp_path):
    database = tmp_path / "diary.sqlite"
    archive, _ = day_one_zip(tmp_path, extra={"manifest.json": json.dumps({"exporter": "a tool", "files": 3})})
    done = diary(database, "import", str(archive))
    assert "Imported 3 entries and 2 photos." in done.stdout, done.stdout
    assert "1 × JSON file that is no Day One journal" in done.stdout, done.stdout
    # A ZIP of such JSON alone holds no diary.
    lonely = tmp_path / "lonely.zip"
    with zipfile.ZipFile(lonely, "w") as z:
        z.writestr("manifest.json", json.dumps({"exporter": "a tool"}))
    refused = diary(database, "import", str(lonely), ok=False)
    assert refused.returncode != 0 and "neither a diary.json" in refused.stderr, refused.stderr


@pytest.mark.parametrize("method", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_a_zip_compressed_in_a_way_diary_does_not_read_says_so(tmp_path, method):
    database = tmp_path / "diary.sqlite"
    archive = tmp_path / "other.zip"
    with zipfile.ZipFile(archive, "w", method) as z:
        z.writestr("Journal.json", DAY_ONE.read_text())
    assert_refused(database, archive, "compressed in a way Diary does not read", "Nothing was imported")


def test_a_damaged_zip_says_it_is_damaged_and_imports_nothing(tmp_path):
    database = tmp_path / "diary.sqlite"
    archive, _ = day_one_zip(tmp_path)
    data = bytearray(archive.read_bytes())
    with zipfile.ZipFile(archive) as z:
        info = z.getinfo("Journal.json")
    # Bytes in the middle of the journal's compressed data, changed: it no longer inflates, or
    # its checksum no longer matches.
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for offset in range(start + 20, start + 40):
        data[offset] ^= 0x5A
    damaged = tmp_path / "damaged.zip"
    damaged.write_bytes(bytes(data))
    assert_refused(database, damaged, "damaged or protected by a password", "Nothing was imported")
    # Cut short, it is no ZIP at all any more.
    short = tmp_path / "short.zip"
    short.write_bytes(archive.read_bytes()[: 4000])
    assert_refused(database, short, "damaged or cut short")


def costly_day_one_zip(tmp_path: Path) -> Path:
    """A Day One ZIP of 10 entries, each with a photo of 7 MB stored without compression (a
    PNG of one colour), that the ZIP deflates a thousandfold: each photo within its 20 MB,
    together more than 64 MB and 4 times the ZIP's size."""
    entries, photos = [], {}
    for n in range(10):
        out = io.BytesIO()
        Image.new("RGB", (2400, 1000), (n * 20, 90, 40)).save(out, "PNG", compress_level=0)
        data = out.getvalue()
        md5 = hashlib.md5(data).hexdigest()
        photos[f"photos/{md5}.png"] = data
        entries.append({"uuid": f"{n:032X}", "creationDate": f"2024-05-{n + 1:02d}T12:00:00Z", "text": f"Day {n + 1}",
                        "photos": [{"identifier": f"{n + 100:032X}", "md5": md5, "type": "png"}]})
    archive = tmp_path / "costly.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("Journal.json", json.dumps({"metadata": {"version": "1.0"}, "entries": entries}))
        for name, data in photos.items():
            z.writestr(name, data)
    assert sum(map(len, photos.values())) > 64 * 1024 * 1024 + 4 * archive.stat().st_size
    return archive


def test_a_zips_photos_may_unpack_to_64_mb_and_four_times_its_size_together(tmp_path):
    """Photos barely compress: a ZIP whose photos unpack to far more than its bytes could hold
    was made to cost work, whatever its directory says. Refused once they pass 64 MB and 4
    times its size, and the photos kept by then are let go."""
    database = tmp_path / "diary.sqlite"
    assert_refused(database, costly_day_one_zip(tmp_path), "photos unpack to more than", "Nothing was imported")


def test_jrnl_of_an_entry_of_photos_alone_comes_back_counted_not_refused(tmp_path):
    database = tmp_path / "diary.sqlite"
    photo = tmp_path / "beach.png"
    photo.write_bytes(photo_files.png(64, 48))
    diary(database, "new", "--photo", str(photo), "")
    diary(database, "new", "Words", "--body", "and more")
    out = tmp_path / "jrnl.json"
    diary(database, "export", "--format", "jrnl", "--output", str(out))
    other = tmp_path / "other.sqlite"
    done = diary(other, "import", str(out))
    assert "Imported 1 entry." in done.stdout and "1 × entry with no words" in done.stdout, done.stdout
    assert [e["title"] for e in exported(other)] == ["Words"]


def test_a_jrnl_date_no_entry_may_have_is_refused_by_name_not_joined_to_the_entry_before(tmp_path):
    database = tmp_path / "diary.sqlite"
    journal = tmp_path / "journal.txt"
    # Midnight of 1 January, year 1, in Seoul is still year 0 in UTC.
    journal.write_text("[2024-05-01 07:30] First.\n\n[0001-01-01 00:00] Too early.\n")
    assert_refused(database, journal, "Record 2 (0001-01-01 00:00)", "outside the dates")


def test_a_jrnl_journal_with_old_mac_line_ends_splits_into_its_entries(tmp_path):
    database = tmp_path / "diary.sqlite"
    journal = tmp_path / "journal.txt"
    journal.write_bytes(b"[2024-05-01 07:30] One. Body one.\r\r[2024-05-02 08:00] Two. Body two.\r")
    done = diary(database, "import", str(journal))
    assert "Imported 2 entries." in done.stdout, done.stdout
    assert [(e["title"], e["body"]) for e in exported(database)] == [("One.", "Body one."), ("Two.", "Body two.")]
