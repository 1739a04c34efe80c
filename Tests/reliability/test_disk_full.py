"""A full disk: a save that does not fit is answered 507 (`disk_full`) with a message that says
so, the command line says so too, nothing stored is damaged, and saves work again once space
is freed.

The diary lives on a small tmpfs mounted for the test (root only; CI runs as root), filled to
the last page by a file that is then removed."""

from __future__ import annotations

import errno
import os
import subprocess
from pathlib import Path

import pytest
import requests

from reliability_support import Account, ServerProcess, error_body, integrity_check, run_cli

from reliability_support import diary_harness  # noqa: E402 (after the path is set)

# SQLite only: a full disk under a diary file (a tmpfs): PostgreSQL's own disk is its operator's.
pytestmark = pytest.mark.skipif(diary_harness.BACKEND != "sqlite", reason="SQLite only")

TIMEOUT = 30
# Larger than any space left in the write-ahead log's file: the save needs new pages.
BIG_BODY = "The disk fills up. " * 40_000


@pytest.fixture
def small_disk(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(disk)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"a small tmpfs cannot be mounted here (it needs root): {mounted.stderr.strip()}")
    yield disk
    subprocess.run(["umount", "-l", str(disk)], check=False)


def fill(disk: Path) -> Path:
    """A file that takes every free byte of `disk`."""
    filler = disk / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 20, 1 << 16, 1 << 12, 1):
            chunk = b"\0" * size
            try:
                while True:
                    os.write(descriptor, chunk)
            except OSError as error:
                assert error.errno == errno.ENOSPC, error
    finally:
        os.close(descriptor)
    return filler


def test_a_save_on_a_full_disk_is_a_507_and_nothing_stored_is_lost(small_disk):
    database = small_disk / "diary.sqlite"
    account = Account(database)
    server = ServerProcess(database)
    server.start()
    entries = f"{server.api}/entries"
    with requests.Session() as client:
        client.headers.update(account.headers)
        try:
            earlier = []
            for n in range(5):
                response = client.post(entries, json={"title": f"Entry {n}", "body": f"words of entry {n}"}, timeout=TIMEOUT)
                assert response.status_code == 201, response.text
                earlier.append(response.json())
            filler = fill(small_disk)

            created = client.post(entries, json={"title": "Too much", "body": BIG_BODY}, timeout=TIMEOUT)
            updated = client.put(f"{entries}/{earlier[0]['id']}", json={"title": "Entry 0", "body": BIG_BODY},
                                 headers={"If-Match": '"1"'}, timeout=TIMEOUT)
            by_cli = run_cli("new", database=database, input="From the terminal\n" + BIG_BODY, check=False)

            for response in (created, updated):
                assert response.status_code == 507, response.text
                body = error_body(response)
                assert body["error"] == "disk_full"
                assert "disk is full" in body["message"] and "intact" in body["message"]
            assert by_cli.returncode != 0
            assert "is full" in by_cli.stderr and "intact" in by_cli.stderr, by_cli.stderr
            # Everything stored before reads back as it was, while the disk is still full.
            for entry in earlier:
                read = client.get(f"{entries}/{entry['id']}", timeout=TIMEOUT)
                assert read.status_code == 200, read.text
                assert {k: read.json()[k] for k in ("title", "body", "version")} == {k: entry[k] for k in ("title", "body", "version")}

            filler.unlink()

            again = client.post(entries, json={"title": "Room again", "body": BIG_BODY}, timeout=TIMEOUT)
            assert again.status_code == 201, again.text
            edit = client.put(f"{entries}/{earlier[0]['id']}", json={"title": "Entry 0", "body": "edited"},
                              headers={"If-Match": '"1"'}, timeout=TIMEOUT)
            assert edit.status_code == 200, edit.text
            listed = client.get(entries, params={"limit": 100}, timeout=TIMEOUT).json()["entries"]
            assert sorted(row["title"] for row in listed) == ["Entry 0", "Entry 1", "Entry 2", "Entry 3", "Entry 4", "Room again"]
        finally:
            assert server.stop() == 0, server.log()
    assert integrity_check(database) == "ok"
