"""`diary backup` of the live database, while a client keeps writing through the API.

The backups must exit 0, pass `PRAGMA integrity_check`, open with `diary list`, and hold a
consistent diary: at least every entry created before the backup started, none of them at a
version newer than the live diary's.
"""

from __future__ import annotations

import json
import threading
import time

import requests

from reliability_support import integrity_check, run_cli

BACKUPS = 3
TIMEOUT = 10.0


def test_backup_while_the_api_writes(server, account, tmp_path, record_property):
    stop = threading.Event()
    created: list = []       # ids the server acknowledged, in order
    writes = [0]
    failures: list = []

    def writer() -> None:
        s = requests.Session()
        s.headers.update(account.headers)
        n = 0
        while not stop.is_set():
            n += 1
            try:
                r = s.post(f"{server.api}/entries",
                           json={"title": f"Entry {n}", "body": f"Written while backing up, number {n}. " * 20},
                           timeout=TIMEOUT)
                if r.status_code != 201:
                    failures.append(f"POST answered {r.status_code} {r.text[:200]}")
                    continue
                entry = r.json()
                created.append(entry["id"])
                writes[0] += 1
                for k in range(3):   # and a few autosaves of it
                    r = s.put(f"{server.api}/entries/{entry['id']}",
                              json={"title": f"Entry {n}", "body": f"Edited {k + 1} times. " * 30},
                              headers={"If-Match": f'"{entry["version"]}"'}, timeout=TIMEOUT)
                    if r.status_code != 200:
                        failures.append(f"PUT answered {r.status_code} {r.text[:200]}")
                        break
                    entry = r.json()
                    writes[0] += 1
            except requests.RequestException as error:
                failures.append(repr(error))
        s.close()

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    copies = []
    overlapping = 0   # API writes acknowledged while a backup ran
    try:
        deadline = time.monotonic() + 30
        while len(created) < 20 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(created) >= 20, f"the writer did not get going: {failures[:3]}"
        for i in range(BACKUPS):
            before = list(created)
            copy = tmp_path / f"copy-{i}.sqlite"
            started, writes_before = time.monotonic(), writes[0]
            result = run_cli("backup", str(copy), database=account.database, check=False)
            took = time.monotonic() - started
            overlapping += writes[0] - writes_before
            assert result.returncode == 0, f"backup {i} exited {result.returncode}: {result.stderr}"
            copies.append((copy, before, took))
            time.sleep(0.3)  # the writer goes on between backups, not only during them
    finally:
        stop.set()
        thread.join(timeout=30)
    assert not failures, f"the API writer failed while backups ran: {failures[:5]}"
    assert overlapping > 0, "no API write happened while a backup ran: the test proved nothing"

    live = {e["id"]: e for e in json.loads(run_cli("list", "-n", "100000", "--json",
                                                     database=account.database).stdout)}
    for copy, before, took in copies:
        assert integrity_check(copy) == "ok", f"{copy.name} is damaged"
        listed = run_cli("list", "-n", "100000", "--json", database=copy)
        entries = {e["id"]: e for e in json.loads(listed.stdout)}
        missing = [i for i in before if i not in entries]
        assert not missing, f"{copy.name} lacks {len(missing)} entries created before the backup began"
        for entry_id, entry in entries.items():
            assert entry_id in live, f"{copy.name} has an entry the live diary never had: {entry}"
            assert entry["version"] <= live[entry_id]["version"], f"{copy.name} is ahead of the live diary"
        # Plain `diary list` (what a person would type) works on the copy too.
        assert run_cli("list", database=copy).stdout.strip(), f"`diary list` shows nothing for {copy.name}"
    record_property("api_writes_during_backups", writes[0])
    record_property("api_writes_while_backing_up", overlapping)
    record_property("backup_seconds", [round(took, 2) for _, _, took in copies])
