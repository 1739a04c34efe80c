#!/usr/bin/env python3
"""Importing a Day One ZIP (issue 20), through the CLI and through the server.

A Day One export is made here as Day One writes it: `Journal.json` (format 1.0) with --entries
entries, the first --photos of them each placing a photo (`![](dayone-moment://ID)`), and each
photo a JPEG of about --photo-bytes of random detail (a phone's, which does not compress),
stored in `photos/<md5>.jpeg`. At the full size (10,000 entries, 2,000 photos of 1 MB) the ZIP
is 2 GB. Then:

- `diary import` of the ZIP into an empty database: the seconds, and the command's peak
  resident memory, against the goals (under a minute; under 300 MB).
- `POST /api/v1/import` of the same ZIP to `diary serve` on another empty database, the progress
  read as it comes: the seconds, the lines of progress, and the server's peak resident memory.

Writes a Markdown section to --out; bench/report.py puts it in bench/RESULTS.md."""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import resource
import subprocess
import sys
import time
import urllib.request
import uuid
import zipfile

from server_bench import peak_rss_mb, start_diary, token_for

try:
    from PIL import Image
except ImportError:
    Image = None

MINUTE_GOAL = 60
MEMORY_GOAL_MB = 300


def photo(bytes_wanted: int) -> bytes:
    """A JPEG of about `bytes_wanted` bytes: random pixels at quality 92 take about one byte each."""
    side = max(16, int((bytes_wanted / 0.95) ** 0.5))
    out = io.BytesIO()
    Image.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(out, "JPEG", quality=92)
    return out.getvalue()


def make_zip(path: str, entries: int, photos: int, photo_bytes: int) -> int:
    """Writes the Day One ZIP; returns its size in bytes."""
    records = []
    with zipfile.ZipFile(path, "w") as z:
        for n in range(entries):
            moment = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1_400_000_000 + n * 50_000))
            text = f"Day {n}\n\nWe walked to the sea and back, {n} steps, and wrote it down before dinner."
            record = {"uuid": uuid.uuid4().hex.upper(), "creationDate": moment, "modifiedDate": moment,
                      "timeZone": "Asia/Seoul", "starred": n % 7 == 0, "tags": ["walk"] if n % 3 == 0 else []}
            if n < photos:
                data = photo(photo_bytes)
                md5 = hashlib.md5(data).hexdigest()
                identifier = uuid.uuid4().hex.upper()
                z.writestr(zipfile.ZipInfo(f"photos/{md5}.jpeg"), data, compress_type=zipfile.ZIP_STORED)
                record["photos"] = [{"identifier": identifier, "md5": md5, "type": "jpeg", "width": 1, "height": 1}]
                text += f"\n\n![](dayone-moment://{identifier})"
            record["text"] = text
            records.append(record)
        journal = {"metadata": {"version": "1.0"}, "entries": records}
        z.writestr("Journal.json", json.dumps(journal), compress_type=zipfile.ZIP_DEFLATED)
    return os.path.getsize(path)


def cli_import(diary: str, database: str, archive: str) -> tuple[float, float, str]:
    """Seconds, peak resident MB and the report of `diary import`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.monotonic()
    done = subprocess.run([diary, "import", archive, "--database", database], capture_output=True, text=True)
    seconds = time.monotonic() - started
    if done.returncode != 0:
        raise SystemExit(f"diary import failed: {done.stderr}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss is the largest child's so far: the import is the largest this process runs.
    return seconds, max(peak, before) / 1024, done.stdout.strip().splitlines()[0]


class FileBody:
    """The ZIP read from disk a megabyte at a time as it is sent, never whole in this process."""

    def __init__(self, path):
        self.file = open(path, "rb")

    def read(self, size=-1):
        return self.file.read(1 << 20 if size is None or size < 0 else size)


def server_import(diary: str, database: str, archive: str) -> tuple[float, float, int, dict]:
    """Seconds, the server's peak resident MB, the progress lines and the report of POST /import."""
    token = token_for(diary, database)
    server = start_diary(diary, database)
    try:
        request = urllib.request.Request(
            f"{server.base_url}/api/v1/import", data=FileBody(archive), method="POST",
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/zip",
                     "Accept": "application/x-ndjson", "Content-Length": str(os.path.getsize(archive))})
        started = time.monotonic()
        lines = []
        with urllib.request.urlopen(request, timeout=3600) as response:
            for line in response:
                lines.append(json.loads(line))
        seconds = time.monotonic() - started
        peak = peak_rss_mb(server.process.pid)
    finally:
        server.stop()
    if lines[-1]["stage"] != "done":
        raise SystemExit(f"the server's import failed: {lines[-1]}")
    return seconds, peak, len(lines), lines[-1]["report"]


def fresh(path: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--diary", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--photos", type=int, default=2_000)
    parser.add_argument("--photo-bytes", type=int, default=1_000_000)
    parser.add_argument("--out", required=True)
    a = parser.parse_args()
    if Image is None:
        print("import_bench: Pillow is missing (pip install -r Tests/requirements.txt)", file=sys.stderr)
        return 1
    os.makedirs(a.work, exist_ok=True)
    archive = os.path.join(a.work, f"dayone-{a.entries}.zip")
    made = time.monotonic()
    size = make_zip(archive, a.entries, a.photos, a.photo_bytes)
    print(f"import_bench: made a {size / 1e9:.2f} GB Day One ZIP in {time.monotonic() - made:.0f} s", file=sys.stderr)
    try:
        database = os.path.join(a.work, "import-cli.sqlite")
        fresh(database)
        cli_seconds, cli_mb, cli_report = cli_import(a.diary, database, archive)
        fresh(database)
        database = os.path.join(a.work, "import-server.sqlite")
        fresh(database)
        server_seconds, server_mb, progress_lines, report = server_import(a.diary, database, archive)
        fresh(database)
    finally:
        os.remove(archive)
    full = a.entries >= 10_000 and a.photos >= 2_000
    judge = (lambda ok: " (met)" if ok else " (**missed**)") if full else (lambda ok: "")
    rows = [
        ("`diary import` (CLI)", cli_seconds, cli_mb, cli_report),
        ("`POST /api/v1/import` (server, progress streamed)", server_seconds, server_mb,
         f"{report['added']:,} entries and {report['photos']:,} photos added; {progress_lines:,} lines of progress"),
    ]
    out = [
        "## Importing a Day One ZIP (issue 20)",
        "",
        f"A Day One export made as Day One writes it: {a.entries:,} entries, {a.photos:,} of them with a photo of "
        f"about {a.photo_bytes / 1e6:.2f} MB (random detail, stored, not deflated): a **{size / 1e6:,.0f} MB** ZIP, "
        "imported into an empty database (`bench/import_bench.py`). Goals: under a minute; memory under "
        f"{MEMORY_GOAL_MB} MB.",
        "",
        "| Import | Seconds | Peak resident memory | What it did |",
        "|---|---:|---:|---|",
    ]
    for name, seconds, mb, what in rows:
        out.append(f"| {name} | {seconds:.1f}{judge(seconds < MINUTE_GOAL)} | {mb:.0f} MB{judge(mb < MEMORY_GOAL_MB)} | {what} |")
    if not full:
        out += ["", "(A smoke size: the goals are for the full size, and not judged here.)"]
    with open(a.out, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
