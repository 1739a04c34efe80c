"""`diary export --format zip` and `diary import` of it: the JSON, the Markdown and every photo,
back again all or nothing; and ZIPs a stranger might send (a path out of the folder, a link, a
bomb, a photo that is no photo), each refused with nothing kept."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from diary_cli import BINARY

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import photo_files  # noqa: E402

# The command line on SQLite files of its own: not run again on PostgreSQL (conftest.py).
pytestmark = pytest.mark.same_on_every_backend


def diary(database: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIARY_")}
    done = subprocess.run([str(BINARY), *args, "--database", str(database)], capture_output=True, text=True, env=env,
                          timeout=120)
    if ok:
        assert done.returncode == 0, f"diary {' '.join(args)}: {done.stderr}"
    return done


def entries(database: Path) -> list:
    return json.loads(diary(database, "list", "--json", "-n", "100").stdout)


def test_a_zip_export_carries_every_photo_and_imports_back_whole(tmp_path):
    source, copy = tmp_path / "source.sqlite", tmp_path / "copy.sqlite"
    beach, shells = tmp_path / "beach.jpg", tmp_path / "shells.png"
    beach.write_bytes(photo_files.jpeg(900, 600, gps=True))
    shells.write_bytes(photo_files.png(200, 120))
    diary(source, "new", "Beach day", "--photo", str(beach), "--photo", str(shells))
    diary(source, "new", "Plain", "--body", "no photos")
    archive = tmp_path / "diary.zip"
    diary(source, "export", "--format", "zip", "--output", str(archive))
    assert oct(archive.stat().st_mode & 0o777) == "0o600", "the export is the whole diary: its owner's alone"

    with zipfile.ZipFile(archive) as z:
        names = sorted(z.namelist())
        assert names[:2] == ["diary.json", "diary.md"]
        photos = [n for n in names if n.startswith("photos/")]
        assert len(photos) == 2 and any(n.endswith(".jpg") for n in photos) and any(n.endswith(".png") for n in photos)
        exported = json.loads(z.read("diary.json"))
        beach_entry = next(e for e in exported["entries"] if e["title"] == "Beach day")
        markdown = z.read("diary.md").decode()
        for photo in beach_entry["photos"]:
            assert f"photos/{photo['id']}." in markdown, "the Markdown links each photo"
            stored = z.read(next(n for n in photos if photo["id"] in n))
            assert not photo_files.has_gps(stored), "the export carries no place either"

    done = diary(copy, "import", str(archive))
    assert "Imported 2 entries and 2 photos." in done.stdout
    again = diary(copy, "import", str(archive))
    assert "Imported 0 entries" in again.stdout, "the same ZIP again adds nothing"
    assert {e["title"] for e in entries(copy)} == {"Beach day", "Plain"}
    shown = json.loads(diary(copy, "show", beach_entry["id"], "--json").stdout)
    assert [p["id"] for p in shown["photos"]] == [p["id"] for p in beach_entry["photos"]]

    # The plain JSON export names the photos; into a diary without them it is refused, whole.
    plain = tmp_path / "diary.json"
    diary(source, "export", "--output", str(plain))
    refused = diary(tmp_path / "other.sqlite", "import", str(plain), ok=False)
    assert refused.returncode != 0 and "ZIP" in refused.stderr
    assert entries(tmp_path / "other.sqlite") == []


def hostile_zip(tmp_path: Path, name: str, members: dict, link: str | None = None) -> Path:
    path = tmp_path / name
    exported = {"format": "diary-export", "version": 1, "entries": [
        {"id": "1b4e28ba-2fa1-11d2-883f-0016d3cca427", "title": "From a stranger", "body": "", "createdAt": "2024-05-01T12:00:00.000Z",
         "photos": [{"id": "ab" * 32}]}]}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("diary.json", json.dumps(exported))
        for member, data in members.items():
            z.writestr(member, data)
        if link:
            info = zipfile.ZipInfo(link)
            info.create_system = 3
            info.external_attr = (0o120777 << 16)
            z.writestr(info, "/etc/passwd")
    return path


def test_hostile_zips_are_refused_and_nothing_is_kept(tmp_path):
    database = tmp_path / "diary.sqlite"
    diary(database, "new", "Mine", "--body", "kept as it was")
    before = entries(database)
    cases = {
        "traversal.zip": hostile_zip(tmp_path, "traversal.zip", {"../../escaped.txt": b"out", f"photos/{'ab' * 32}.png": photo_files.png()}),
        "absolute.zip": hostile_zip(tmp_path, "absolute.zip", {"/tmp/absolute.txt": b"out"}),
        "link.zip": hostile_zip(tmp_path, "link.zip", {}, link=f"photos/{'ab' * 32}.png"),
        "bomb.zip": hostile_zip(tmp_path, "bomb.zip", {f"photos/{'ab' * 32}.jpg": b"\xff\xd8\xff" + b"\0" * (30 * 1024 * 1024)}),
        "not-a-photo.zip": hostile_zip(tmp_path, "not-a-photo.zip", {f"photos/{'ab' * 32}.jpg": b"<svg onload=alert(1)>"}),
        "missing-photo.zip": hostile_zip(tmp_path, "missing-photo.zip", {}),
    }
    assert cases["bomb.zip"].stat().st_size < 200_000, "a small file that unpacks to 30 MB"
    for name, path in cases.items():
        done = diary(database, "import", str(path), ok=False)
        assert done.returncode != 0, f"{name} was taken: {done.stdout}"
        assert "Nothing was imported" in done.stderr or "ZIP" in done.stderr, f"{name}: {done.stderr}"
        assert entries(database) == before, f"{name} changed the diary"
    assert not (tmp_path.parent / "escaped.txt").exists() and not Path("/tmp/absolute.txt").exists()
    garbage = tmp_path / "garbage.zip"
    garbage.write_bytes(b"PK\x03\x04" + os.urandom(500))
    assert diary(database, "import", str(garbage), ok=False).returncode != 0
    assert entries(database) == before
