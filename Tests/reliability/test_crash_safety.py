"""A save the server acknowledged survives `kill -9`.

Four clients autosave as fast as they can (each its own entry, PUT with If-Match), while the
server is killed with SIGKILL at random moments and restarted on the same port and database,
at least 20 times. A client that loses its connection retries with the version it last had
acknowledged; on 409 it reads the entry again and goes on from there.

What a user cares about: every save that was answered 2xx is there afterwards, at the version
it was answered with or later (and with exactly the text sent, when nothing came after it); a
version the server once acknowledged never goes backwards; the file passes
`PRAGMA integrity_check`.

And a photo half sent when the server is killed leaves nothing behind on the server's disk.
"""

from __future__ import annotations

import os
import random
import socket
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import requests

from reliability_support import ServerProcess, diary_harness, integrity_check

wait_for = diary_harness.wait_for

CLIENTS = 4
ROUNDS = 20                 # kill -9 and restart this many times (at least)
MIN_ACKS = 100              # the test means nothing if hardly anything was acknowledged
KILL_AFTER = (0.2, 1.0)     # seconds of writing between restarts
TIMEOUT = 5.0               # per request
SETTLE = 0.5                # writing after the last restart, before the clients stop


@dataclass
class Ack:
    entry_id: str
    version: int
    title: str
    body: str


@dataclass
class Writer:
    """One client: its entry, every write the server acknowledged, and every anomaly seen."""
    number: int
    entry_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    acks: list = field(default_factory=list)
    sent: dict = field(default_factory=dict)      # (title, body) sent -> If-Match version used
    problems: list = field(default_factory=list)
    connection_errors: int = 0
    conflicts: int = 0
    seen: int = 0                                 # the highest version the server has shown us

    @property
    def last_ack(self) -> Ack | None:
        return self.acks[-1] if self.acks else None

    def check_current(self, current: dict, how: str) -> None:
        """A version the server has acknowledged must never go backwards, and what the server
        holds at the acknowledged version must be exactly what was acknowledged."""
        last = self.last_ack
        if last is None:
            return
        if current["version"] < last.version:
            self.problems.append(
                f"client {self.number}: {how} shows version {current['version']} of {self.entry_id}, "
                f"but version {last.version} had been acknowledged (a lost write)")
        elif current["version"] == last.version and (current["title"], current["body"]) != (last.title, last.body):
            self.problems.append(
                f"client {self.number}: {how} shows version {last.version} with other text than "
                f"acknowledged: {current['title']!r} != {last.title!r}")
        elif current["version"] > last.version and (current["title"], current["body"]) not in self.sent:
            self.problems.append(
                f"client {self.number}: {how} shows version {current['version']} with text this "
                f"client never sent: {current['title']!r}")


def _run_writer(writer: Writer, api: str, headers: dict, stop: threading.Event) -> None:
    session = requests.Session()
    session.headers.update(headers)
    title = f"Autosave {writer.number}"

    # Create the entry with an id of our own, so retrying after a crash is safe (200 = exists).
    body = f"client {writer.number}, first words"
    writer.sent[(title, body)] = 0
    while writer.last_ack is None and not stop.is_set():
        try:
            r = session.post(f"{api}/entries", json={"id": writer.entry_id, "title": title, "body": body},
                             timeout=TIMEOUT)
        except requests.RequestException:
            writer.connection_errors += 1
            time.sleep(0.02)
            continue
        if r.status_code in (200, 201):
            e = r.json()
            writer.acks.append(Ack(writer.entry_id, e["version"], e["title"], e["body"]))
        else:
            writer.problems.append(f"client {writer.number}: create answered {r.status_code} {r.text[:300]}")
            return

    version = writer.seen = writer.last_ack.version if writer.last_ack else 0
    n = 0
    while not stop.is_set():
        n += 1
        body = f"client {writer.number}, save {n}: " + "the quick brown fox jumps over the lazy dog. " * (n % 7 + 1)
        writer.sent[(title, body)] = version
        try:
            r = session.put(f"{api}/entries/{writer.entry_id}", json={"title": title, "body": body},
                            headers={"If-Match": f'"{version}"'}, timeout=TIMEOUT)
        except requests.RequestException:
            # The server is down (or was killed mid-request). Retry with the version last
            # acknowledged; if that write had in fact been applied, we will get a 409.
            writer.connection_errors += 1
            version = writer.last_ack.version
            time.sleep(0.02)
            continue
        if 200 <= r.status_code < 300:
            e = r.json()
            if e["version"] != version + 1 or (e["title"], e["body"]) != (title, body):
                writer.problems.append(
                    f"client {writer.number}: PUT If-Match {version} answered version {e['version']} "
                    f"with title {e['title']!r}")
            writer.acks.append(Ack(writer.entry_id, e["version"], title, body))
            version = e["version"]
            writer.seen = max(writer.seen, version)
        elif r.status_code == 409:
            writer.conflicts += 1
            # Read the entry again, as the web app does, and go on from the server's version.
            try:
                g = session.get(f"{api}/entries/{writer.entry_id}", timeout=TIMEOUT)
            except requests.RequestException:
                writer.connection_errors += 1
                continue
            if g.status_code != 200:
                writer.problems.append(f"client {writer.number}: GET after 409 answered {g.status_code} {g.text[:300]}")
                continue
            current = g.json()
            writer.check_current(current, "GET after a 409")
            version = current["version"]
            writer.seen = max(writer.seen, version)
        else:
            writer.problems.append(f"client {writer.number}: PUT answered {r.status_code} {r.text[:300]}")
            time.sleep(0.05)
    session.close()


def test_acknowledged_saves_survive_kill_9(account, record_property):
    server = ServerProcess(account.database)
    server.start()
    stop = threading.Event()
    writers = [Writer(i) for i in range(CLIENTS)]
    threads = [threading.Thread(target=_run_writer, args=(w, server.api, account.headers, stop), daemon=True)
               for w in writers]
    rng = random.Random()
    started = time.monotonic()
    try:
        for t in threads:
            t.start()
        for _ in range(ROUNDS):
            time.sleep(rng.uniform(*KILL_AFTER))
            server.kill()
            server.start()
        # Let every client save at least once more on the last server, so all have settled.
        acks_then = [len(w.acks) for w in writers]
        deadline = time.monotonic() + 30
        time.sleep(SETTLE)
        while time.monotonic() < deadline and any(len(w.acks) <= n for w, n in zip(writers, acks_then)):
            time.sleep(0.1)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=3 * 5.0 + 5)
        assert not any(t.is_alive() for t in threads), "a client did not stop"

    elapsed = time.monotonic() - started
    try:
        # Every acknowledged write is there, at its version or later.
        session = requests.Session()
        session.headers.update(account.headers)
        checked = 0
        problems = [p for w in writers for p in w.problems]
        for w in writers:
            r = session.get(f"{server.api}/entries/{w.entry_id}", timeout=TIMEOUT)
            assert r.status_code == 200, f"client {w.number}'s entry is gone: {r.status_code} {r.text[:300]}"
            final = r.json()
            for ack in w.acks:
                checked += 1
                if final["version"] < ack.version:
                    problems.append(f"{ack.entry_id}: acknowledged version {ack.version} but the entry "
                                    f"is at version {final['version']}")
                elif final["version"] == ack.version and (final["title"], final["body"]) != (ack.title, ack.body):
                    problems.append(f"{ack.entry_id}: version {ack.version} holds other text than acknowledged")
            w.check_current(final, "the final GET")
            if final["version"] > w.seen + 1:
                problems.append(f"{w.entry_id}: at version {final['version']}, but the client saw at most "
                                f"{w.seen}, and only one write after that can have gone unanswered")
        # Nothing else appeared: exactly the clients' entries.
        listed = session.get(f"{server.api}/entries", params={"limit": 100}, timeout=TIMEOUT).json()["entries"]
        assert sorted(e["id"] for e in listed) == sorted(w.entry_id for w in writers), listed
        session.close()
    finally:
        code = server.stop()
    assert code == 0, f"the server did not stop cleanly on SIGTERM after the crashes (exit {code}):\n{server.log()}"

    record_property("acknowledged_writes_checked", checked)
    record_property("kill_9_restarts", ROUNDS)
    print(f"\ncrash safety: {checked} acknowledged writes checked after {ROUNDS} kill -9 restarts "
          f"in {elapsed:.1f} s; connection errors {sum(w.connection_errors for w in writers)}, "
          f"409s {sum(w.conflicts for w in writers)}")
    assert not problems, "\n".join(problems[:30])
    assert checked > MIN_ACKS, f"only {checked} writes were acknowledged: too few to mean anything"
    assert integrity_check(account.database) == "ok"


def test_a_photo_half_sent_when_the_server_dies_leaves_nothing_on_its_disk(account, tmp_path):
    """An upload is kept in a temporary file while it arrives (never held whole in memory). A
    server killed mid-upload must leave no such file behind: on a host that crashes now and then,
    forgotten 20 MB halves would fill the disk. The file has no name from the moment it is made."""
    temporary = tmp_path / "server-tmp"
    temporary.mkdir()
    server = ServerProcess(account.database, workdir=tmp_path)
    server.extra_env["TMPDIR"] = str(temporary)
    server.start()
    try:
        address = server.base_url.removeprefix("http://").split("/")[0]
        host, port = address.rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=10) as connection:
            connection.sendall(
                f"POST /api/v1/photos HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {account.token}\r\n"
                f"Content-Type: image/jpeg\r\nContent-Length: 4000000\r\n\r\n".encode())
            connection.sendall(b"\xff\xd8\xff\xe0" + os.urandom(1_000_000))

            def receiving():
                fds = Path(f"/proc/{server.process.pid}/fd")
                return any("diary-upload" in os.readlink(fd) for fd in fds.iterdir() if fd.is_symlink())
            wait_for(receiving, timeout=20, message="the server to be receiving the photo")
            assert list(temporary.iterdir()) == [], "the half-sent photo has a name in the temporary folder"
            server.kill()
        assert list(temporary.iterdir()) == [], "the killed server left its half of the photo behind"
    finally:
        server.stop()
