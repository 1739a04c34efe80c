"""The server's memory stays bounded however many diaries are visited and however large their
first pages are; `diary import`'s stays within what docs/import-export.md says a file of its size
takes ("What reading a file takes"), whatever the shape of its JSON.

2,000 users each have a first page of about 115 KB (20 entries, each with a title of 1,000
characters outside the BMP, 4 bytes each, and a first line of flags; all within the entry
limits). Every first page is visited; the server keeps first pages in memory,
and must not keep them all: its peak resident memory (VmHWM) stays under 150 MB.

Making 2,000 accounts through `diary user add` would take minutes, so the diary is made once
(`tester`, with a token) and its rows are copied in SQL, before the server starts, one account
and one token per user, with the entries the server would have stored.
"""

from __future__ import annotations

import hashlib
import os
import random
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import requests

from reliability_support import BINARY, ServerProcess, diary_env, require_binary

from reliability_support import diary_harness  # noqa: E402 (after the path is set)

# SQLite only: it writes thousands of diaries into the SQLite file directly, then measures the server's memory.
pytestmark = pytest.mark.skipif(diary_harness.BACKEND != "sqlite", reason="SQLite only")

USERS = 2_000
ENTRIES = 20
LIMIT_MB = 150


def entry_texts(n: int) -> list:
    rng = random.Random(14)
    texts = []
    for i in range(n):
        title = "".join(chr(rng.randrange(0x20000, 0x2A6D0)) for _ in range(1000))
        # A list row shows 200 characters of it, from its first 400 code points: 200 flags
        # (two regional indicators each, 8 bytes) are the most those can weigh.
        line = "".join(chr(rng.randrange(0x1F1E6, 0x1F200)) for _ in range(400))
        texts.append((title, line + "\nThe rest of entry %d." % i))
    return texts


def copy_row(db: sqlite3.Connection, table: str, where: str, overrides: dict) -> int:
    """Inserts a copy of the row of `table` matching `where`, with `overrides`, and no `id`
    (a new one is given): whatever columns the schema has by now are carried over."""
    columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})") if row[1] not in ("id", "seq")]
    template = dict(zip(columns, db.execute(f"SELECT {', '.join(columns)} FROM {table} WHERE {where}").fetchone()))
    template.update(overrides)
    names = list(template)
    cursor = db.execute(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' for _ in names)})",
                        [template[n] for n in names])
    return cursor.lastrowid


def make_users(database: Path) -> list:
    """USERS accounts like `tester`, each with a token and ENTRIES long entries. Their tokens."""
    texts = entry_texts(ENTRIES)
    db = sqlite3.connect(database)
    now = int(time.time() * 1000)
    tester_id = db.execute("SELECT id FROM user WHERE name = 'tester'").fetchone()[0]
    user_columns = [row[1] for row in db.execute("PRAGMA table_info(user)")]
    tester = dict(zip(user_columns, db.execute("SELECT * FROM user WHERE id = ?", (tester_id,)).fetchone()))
    tokens = []
    with db:
        for n in range(USERS):
            name = f"visitor{n}"
            # Every column that holds the name (in whatever form) gets the new one.
            names = {c: name for c, v in tester.items() if isinstance(v, str) and v.lower() == "tester"}
            user_id = copy_row(db, "user", f"id = {tester_id}", names)
            token = f"diary_memory_{uuid.uuid4().hex}"
            copy_row(db, "access_token", f"user_id = {tester_id}",
                     {"user_id": user_id, "token_hash": hashlib.sha256(token.encode()).hexdigest()})
            tokens.append(token)
            db.executemany(
                "INSERT INTO entry (id, title, body, created_at, updated_at, version, owner_id) VALUES (?, ?, ?, ?, ?, 1, ?)",
                [(str(uuid.uuid4()), title, body, now - i * 1000, now - i * 1000, user_id) for i, (title, body) in enumerate(texts)])
    db.close()
    return tokens


def peak_memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM in /proc")


def test_memory_stays_bounded_with_thousands_of_large_first_pages(account, record_property):
    tokens = make_users(account.database)
    server = ServerProcess(account.database)
    server.start()
    try:
        session = requests.Session()
        sizes = []
        started = time.monotonic()
        for token in tokens:
            page = session.get(f"{server.api}/entries", timeout=30,
                               headers={"Authorization": f"Bearer {token}", "Accept-Encoding": "identity"})
            assert page.status_code == 200, page.text[:300]
            sizes.append(len(page.content))
        visited = time.monotonic() - started
        # A diary visited again is answered as before (from memory or not).
        again = session.get(f"{server.api}/entries", headers={"Authorization": f"Bearer {tokens[-1]}", "Accept-Encoding": "identity"},
                            timeout=30)
        assert again.status_code == 200 and len(again.content) == sizes[-1]
        peak = peak_memory_mb(server.process.pid)
    finally:
        code = server.stop()

    record_property("peak_rss_mb", round(peak, 1))
    record_property("first_page_kb", round(min(sizes) / 1024))
    record_property("visits_s", round(visited, 1))
    assert min(sizes) > 100_000, f"the first pages are only {min(sizes)} bytes: too small to mean anything"
    assert peak < LIMIT_MB, f"the server's memory peaked at {peak:.0f} MB after visiting {USERS} diaries"
    assert code == 0, server.log()


# --- JSON that is not entries --------------------------------------------------------------
#
# A file of entries is read whole. docs/import-export.md: it takes at most 48 times its size in memory,
# and 64 MB; a file whose shape would take more is refused before it is read. Foundation's
# reader keeps every list, object and number at many times its bytes (an object of one member,
# 8 bytes, about 3 KB): files of 4 MB in the worst shapes known, each measured by its peak
# resident memory past what `diary import` of a small file takes.

FACTOR = 48
ALLOWANCE_MB = 64
SIZE = 4 * 1024 * 1024
SAMPLE = Path(__file__).resolve().parents[1] / "fixtures/seed-sample.json"


def list_of(item: bytes) -> bytes:
    return b"[" + b",".join([item] * (SIZE // (len(item) + 1))) + b"]"


SHAPES = {
    "objects of one member": lambda: list_of(b'{"a":1}'),
    "lists within lists": lambda: list_of(b"[" * 500 + b"]" * 500),
    "empty objects": lambda: list_of(b"{}"),
    "a long list of numbers": lambda: list_of(b"1"),
    "a huge object of short keys": lambda: b"{" + b",".join(b'"%x":0' % n for n in range(SIZE // 9)) + b"}",
}


# Starts `diary`, waits for it, and prints its exit status and peak memory (KB): a process's
# peak counts what its parent held when it began, so the test's own hundreds of MB stay out by
# going through a small Python of its own.
MEASURE = """import os, sys
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
"""


def import_peak(path: Path, database: Path) -> tuple:
    """`diary import PATH`: its exit status, its standard error, and its peak resident memory
    in MB (the kernel's count for that one process)."""
    require_binary()
    done = subprocess.run([sys.executable, "-c", MEASURE, str(BINARY), "import", str(path), "--database", str(database)],
                          capture_output=True, text=True, env=diary_env(), timeout=120)
    status, peak_kb = done.stdout.split()
    return int(status), done.stderr, int(peak_kb) / 1024


@pytest.mark.parametrize("shape", list(SHAPES))
def test_json_that_is_not_entries_takes_what_its_size_says_or_is_refused(shape, tmp_path, record_property):
    status, _, itself = import_peak(SAMPLE, tmp_path / "sample.sqlite")
    assert status == 0
    path = tmp_path / "shape.json"
    path.write_bytes(SHAPES[shape]())
    size_mb = path.stat().st_size / (1024 * 1024)
    started = time.monotonic()
    status, error, peak = import_peak(path, tmp_path / "diary.sqlite")
    record_property("peak_rss_mb", round(peak))
    record_property("times_its_size", round((peak - itself) / size_mb, 1))
    record_property("seconds", round(time.monotonic() - started, 1))
    assert status != 0, "JSON of no format Diary reads was imported"
    assert "othing was imported" in error, error
    assert peak <= itself + FACTOR * size_mb + ALLOWANCE_MB, \
        f"importing {size_mb:.0f} MB of {shape} took {peak:.0f} MB ({(peak - itself) / size_mb:.0f} times its size): {error[:300]}"
