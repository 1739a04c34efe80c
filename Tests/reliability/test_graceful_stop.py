"""SIGTERM stops the server within 5 seconds, and every save it acknowledged is kept.

Several clients save as fast as they can; one more holds a request open by trickling its body
(as a stuck request would), and one keeps an idle connection. Then the server gets SIGTERM. It
must exit 0 within 5 seconds, not waiting on the stuck request, and every save answered 2xx
must be in the diary when it starts again: at that version or later, with exactly the text
acknowledged when at that version.
"""

from __future__ import annotations

import socket
import threading
import time
import uuid

import requests

from reliability_support import ServerProcess, integrity_check

WRITERS = 4
EXIT_WITHIN = 5.0


class Writer(threading.Thread):
    def __init__(self, api: str, headers: dict, stop: threading.Event):
        super().__init__(daemon=True)
        self.api, self.stop = api, stop
        self.session = requests.Session()
        self.session.headers.update(headers)
        self.entry_id = str(uuid.uuid4())
        self.acks: list = []          # (version, title, body) answered 2xx
        self.problems: list = []

    def run(self) -> None:
        version, n = 0, 0
        while not self.stop.is_set():
            n += 1
            title, body = f"Saved {n}", f"words of save {n} " * (n % 5 + 1)
            try:
                if version == 0:
                    r = self.session.post(f"{self.api}/entries", json={"id": self.entry_id, "title": title, "body": body}, timeout=10)
                else:
                    r = self.session.put(f"{self.api}/entries/{self.entry_id}", json={"title": title, "body": body},
                                         headers={"If-Match": f'"{version}"'}, timeout=10)
            except requests.RequestException:
                return  # the server is going: nothing more is acknowledged
            if r.status_code in (200, 201):
                entry = r.json()
                version = entry["version"]
                self.acks.append((version, entry["title"], entry["body"]))
            elif r.status_code == 503:
                return
            else:
                self.problems.append(f"{r.status_code} {r.text[:200]}")
                return


def stuck_request(server: ServerProcess, token: str) -> socket.socket:
    """A create whose headers have come and whose body never finishes."""
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    s.sendall((f"POST /api/v1/entries HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nAuthorization: Bearer {token}\r\n"
               f"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"title\": \"").encode())
    return s


def test_sigterm_stops_within_5_seconds_keeping_every_acknowledged_save(account, record_property):
    server = ServerProcess(account.database)
    server.start()
    idle = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    stuck = stuck_request(server, account.token)
    stop = threading.Event()
    writers = [Writer(server.api, account.headers, stop) for _ in range(WRITERS)]
    for w in writers:
        w.start()
    deadline = time.monotonic() + 20
    while sum(len(w.acks) for w in writers) < 50 and time.monotonic() < deadline:
        time.sleep(0.05)

    signalled = time.monotonic()
    server.process.terminate()
    try:
        code = server.process.wait(timeout=15)
    except Exception:
        server.kill()
        code = None
    took = time.monotonic() - signalled
    stop.set()
    for w in writers:
        w.join(timeout=15)
    idle.close()
    stuck.close()

    record_property("exit_after_sigterm_s", round(took, 2))
    assert code == 0, f"exit code {code} after SIGTERM:\n{server.log()}"
    assert took <= EXIT_WITHIN, f"the server took {took:.1f} s to exit after SIGTERM"
    assert not [p for w in writers for p in w.problems], [p for w in writers for p in w.problems]

    server.start()
    try:
        session = requests.Session()
        session.headers.update(account.headers)
        checked = 0
        for w in writers:
            if not w.acks:
                continue
            r = session.get(f"{server.api}/entries/{w.entry_id}", timeout=10)
            assert r.status_code == 200, f"an acknowledged entry is gone: {r.status_code}"
            final = r.json()
            last_version, last_title, last_body = w.acks[-1]
            assert final["version"] >= last_version, (final["version"], last_version)
            if final["version"] == last_version:
                assert (final["title"], final["body"]) == (last_title, last_body)
            checked += len(w.acks)
        assert checked >= 50, f"only {checked} saves were acknowledged"
        record_property("acknowledged_saves_checked", checked)
    finally:
        assert server.stop() == 0, server.log()
    assert integrity_check(account.database) == "ok"
