"""A client that sends its body slowly, or never finishes it, is cut off; many such clients
cannot stop others from being served.

500 connections each send a request's headers, then trickle its body a byte at a time, while a
writer logs in and saves. The writer's saves are answered promptly; each slow connection is
answered 408 (or closed) soon after the body deadline (shortened here with --body-timeout).
A second test holds the connection limit: past --max-connections, new connections wait, while a
writer already connected keeps saving.
"""

from __future__ import annotations

import json
import os
import resource
import selectors
import socket
import time
import uuid
from pathlib import Path

import pytest
import requests

from reliability_support import PASSWORD, ServerProcess

SLOW = 500
BODY_TIMEOUT = 2            # seconds, --body-timeout
TRICKLE_EVERY = 0.25        # seconds between two bytes of a slow body
SAVES = 20
PROMPT = 1.0                # seconds: the slowest save the writer may see


@pytest.fixture
def open_files():
    """Makes room for the slow connections in this process, and starts every server from here
    with a soft limit of 1024 open files, as many systems do: the server must raise its own."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2 * SLOW + 100:
        pytest.skip(f"the hard limit on open files is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def soft_open_files_limit(pid: int) -> int:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    raise AssertionError("no open files limit in /proc")


def open_sockets(pid: int, port: int, remote: str = "") -> int:
    """The connections the server process has accepted on `port` (the listening socket, and
    its connections to a database server, not counted); from `remote` only (an IPv4 address as
    /proc writes it), when given."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    count = 0
    for table in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            listening = fields[3] == "0A"
            if remote and fields[2].split(":")[0] != remote:
                continue
            if local_port == port and not listening and fields[9] in inodes:
                count += 1
    return count


class SlowClients:
    """`n` connections that each send a create's headers, then its body one byte at a time."""

    def __init__(self, server: ServerProcess, token: str, n: int, sources: tuple = ("127.0.0.1",)):
        self.selector = selectors.DefaultSelector()
        self.open: dict = {}          # socket -> when its headers were sent
        self.cut: dict = {}           # socket -> (seconds after its headers, first bytes of the answer)
        body_length = 100_000
        self.head = (f"POST /api/v1/entries HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                     f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {body_length}\r\n\r\n").encode()
        for index in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((sources[index % len(sources)], 0))  # (every 127.x.y.z is this computer)
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", server.port))
            self.selector.register(s, selectors.EVENT_WRITE)
            self.open[s] = None
        self.answers: dict = {}
        self.next_byte = time.monotonic()

    def step(self, wait: float) -> None:
        """Sends headers where the connection is up, a byte of body on every open one when due,
        and notes the connections the server has answered or closed."""
        for key, events in self.selector.select(timeout=wait):
            s = key.fileobj
            if events & selectors.EVENT_WRITE and self.open.get(s) is None:
                try:
                    s.sendall(self.head + b'{"title": "')
                except OSError:
                    continue  # not connected yet (refused or waiting to be accepted)
                self.open[s] = time.monotonic()
                self.selector.modify(s, selectors.EVENT_READ)
            elif events & selectors.EVENT_READ:
                try:
                    data = s.recv(4096)
                except OSError:
                    data = b""
                self.answers[s] = self.answers.get(s, b"") + data
                if not data or b'"request_timeout"' in self.answers[s]:
                    self.cut[s] = (time.monotonic() - self.open[s], self.answers[s][:200])
                    self.selector.unregister(s)
                    del self.open[s]
                    s.close()
        if time.monotonic() >= self.next_byte:
            self.next_byte = time.monotonic() + TRICKLE_EVERY
            for s, since in list(self.open.items()):
                if since is not None:
                    try:
                        s.send(b"x")
                    except OSError:
                        pass

    @property
    def sending(self) -> int:
        return sum(1 for since in self.open.values() if since is not None)

    def close(self) -> None:
        for s in list(self.open):
            self.selector.unregister(s)
            s.close()
        self.selector.close()


def log_in(api: str) -> requests.Session:
    session = requests.Session()
    answer = session.post(f"{api}/session", json={"name": "tester", "password": PASSWORD}, timeout=10)
    assert answer.status_code == 200, answer.text
    session.headers["X-CSRF-Token"] = answer.json()["csrfToken"]
    return session


def save(session: requests.Session, api: str, entry_id: str, n: int) -> float:
    started = time.monotonic()
    answer = session.post(f"{api}/entries", json={"id": entry_id, "title": f"Save {n}", "body": "Still here."}, timeout=10)
    assert answer.status_code in (200, 201), answer.text
    return time.monotonic() - started


def test_slow_bodies_are_cut_off_and_do_not_hold_up_a_writer(account, open_files, record_property):
    # (Every slow client from one address: the cap per address is set out of the way here.)
    server = ServerProcess(account.database, extra_args=("--body-timeout", str(BODY_TIMEOUT), "--max-connections-per-client", "1000"))
    server.start()
    slow = SlowClients(server, account.token, SLOW)
    try:
        assert soft_open_files_limit(server.process.pid) >= 1_000, "the server did not raise its open files limit"
        deadline = time.monotonic() + 10
        while slow.sending < SLOW and time.monotonic() < deadline:
            slow.step(0.05)
        assert slow.sending == SLOW, f"only {slow.sending} of {SLOW} slow connections were accepted"

        # Meanwhile a writer logs in and saves, each save on its own.
        started = time.monotonic()
        session = log_in(server.api)
        times = []
        for n in range(SAVES):
            times.append(save(session, server.api, str(uuid.uuid4()), n))
            slow.step(0)
        login_and_saves = time.monotonic() - started

        deadline = time.monotonic() + BODY_TIMEOUT + 10
        while slow.open and time.monotonic() < deadline:
            slow.step(0.05)
        left = len(slow.open)
        after = sorted(seconds for seconds, _ in slow.cut.values())
        answered = [answer for _, answer in slow.cut.values() if answer]
    finally:
        slow.close()
        code = server.stop()

    record_property("slowest_save_ms", round(max(times) * 1000, 1))
    record_property("slow_cut_off_after_s", f"{after[0]:.1f}-{after[-1]:.1f}" if after else "never")
    assert left == 0, f"{left} slow connections were still open {BODY_TIMEOUT + 10} s after the body deadline"
    assert after[0] >= BODY_TIMEOUT - 0.5, f"a slow connection was cut off after {after[0]:.2f} s, before its deadline"
    assert after[-1] <= BODY_TIMEOUT + 5, f"a slow connection was cut off only after {after[-1]:.1f} s"
    for answer in answered:
        assert answer.startswith(b"HTTP/1.1 408"), answer
    assert max(times) < PROMPT, f"a save took {max(times):.2f} s while {SLOW} slow clients trickled: {times}"
    assert login_and_saves < 2 * PROMPT + SAVES * 0.2, login_and_saves
    assert code == 0, server.log()


def test_beyond_the_connection_limit_new_connections_wait_and_a_connected_writer_goes_on(account, open_files):
    # (Full, the server closes the slowest for a new connection; those waiting replace them.)
    limit = 20
    server = ServerProcess(account.database, extra_args=("--body-timeout", "30", "--max-connections", str(limit),
                                                         "--max-connections-per-client", str(limit)))
    server.start()
    session = log_in(server.api)        # connected before the crowd comes
    slow = SlowClients(server, account.token, 100)
    try:
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            slow.step(0.05)
        accepted = open_sockets(server.process.pid, server.port)
        times = [save(session, server.api, str(uuid.uuid4()), n) for n in range(5)]
    finally:
        slow.close()
        code = server.stop()
    # The listening socket, the writer's connection and the slow ones that got in (NIO may
    # accept a few in one go before the limit is looked at).
    assert accepted <= limit + 5, f"the server holds {accepted} sockets with --max-connections {limit}"
    assert accepted >= limit - 2, f"only {accepted} sockets: the slow connections did not fill the limit"
    assert max(times) < PROMPT, times
    assert code == 0, server.log()


def test_a_large_upload_that_keeps_coming_is_not_cut_off(account):
    """The body's deadline is for a body that stops coming: an import of years that takes
    longer than it to send, a megabyte at a time, is received whole and imported."""
    server = ServerProcess(account.database, extra_args=("--body-timeout", str(BODY_TIMEOUT)))
    server.start()
    try:
        entries = [{"id": str(uuid.uuid4()), "title": f"Day {n}", "body": "Words. " * 300,
                    "createdAt": "2020-01-01T09:00:00Z", "updatedAt": "2020-01-01T09:00:00Z"} for n in range(2_500)]
        body = json.dumps({"format": "diary-export", "version": 1, "entries": entries}).encode()
        assert len(body) > 5_000_000
        host, port = server.base_url.removeprefix("http://").rsplit(":", 1)
        connection = socket.create_connection((host, int(port)), timeout=60)
        connection.sendall(f"POST /api/v1/import HTTP/1.1\r\nHost: {host}:{port}\r\n"
                           f"Authorization: Bearer {account.token}\r\nContent-Type: application/json\r\n"
                           f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode())
        started = time.monotonic()
        step = 1_200_000  # a little over a megabyte a second: longer in all than the deadline
        for offset in range(0, len(body), step):
            connection.sendall(body[offset:offset + step])
            time.sleep(1)
        took = time.monotonic() - started
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
        connection.close()
    finally:
        code = server.stop()
    assert took > BODY_TIMEOUT + 1, took
    assert answer.startswith(b"HTTP/1.1 200"), answer[:300]
    assert b'"added":2500' in answer, answer[-300:]
    assert code == 0, server.log()


class FewFilesServer(ServerProcess):
    """A server whose system allows it 256 open files (soft and hard: it cannot raise them), as
    a small container or a shared host may: 128 connections, the rest kept for itself."""

    def command(self) -> list:
        return ["prlimit", "--nofile=256:256", "--", *super().command()]


def connections_from(pid: int, port: int, address: str) -> int:
    """The connections the server process has accepted on `port` from `address`."""
    return open_sockets(pid, port, remote="".join(f"{int(part):02X}" for part in reversed(address.split("."))))


def test_a_crowd_of_half_sent_bodies_does_not_keep_everyone_else_out(account, open_files):
    """300 clients from ten addresses each send half a body and stop, on a server that can hold
    128 connections: a writer who comes after them is let in and saves at once (the slowest
    connection is closed for a new one), not after their minute's body deadline."""
    server = FewFilesServer(account.database, extra_args=("--body-timeout", "60"))
    server.start()
    slow = SlowClients(server, account.token, 300, sources=tuple(f"127.0.0.{n}" for n in range(2, 12)))
    try:
        assert "Only 128 connections can be open at once" in server.log(), server.log()
        deadline = time.monotonic() + 4
        while time.monotonic() < deadline:
            slow.step(0.05)
        assert slow.sending >= 100, f"only {slow.sending} slow connections got in"
        started = time.monotonic()
        session = log_in(server.api)
        times = [save(session, server.api, str(uuid.uuid4()), n) for n in range(3)]
        took = time.monotonic() - started
    finally:
        slow.close()
        code = server.stop()
    assert took < 8, f"the writer waited {took:.1f} s behind 300 half-sent bodies"
    assert max(times) < 4, times
    assert code == 0, server.log()


def test_one_address_holds_at_most_its_share_of_connections(account, open_files):
    """100 slow connections from one address, on a server of 128 (its share: a quarter, 32): it
    never holds more than its share, each new one closing its own slowest, and a writer from
    another address is served at once."""
    server = FewFilesServer(account.database, extra_args=("--body-timeout", "60"))
    server.start()
    slow = SlowClients(server, account.token, 100, sources=("127.0.0.2",))
    try:
        most = 0
        started = time.monotonic()
        while time.monotonic() < started + 4:
            slow.step(0.05)
            # (Counted once the first rush is over: a connection closed in it is still counted
            # until its socket is gone.)
            if time.monotonic() > started + 1:
                most = max(most, connections_from(server.process.pid, server.port, "127.0.0.2"))
        times = [save(log_in(server.api), server.api, str(uuid.uuid4()), 0)]
    finally:
        slow.close()
        code = server.stop()
    assert 16 <= most <= 32 + 2, f"one address held {most} connections at once (its share is 32)"
    assert max(times) < PROMPT * 2, times
    assert code == 0, server.log()


def test_a_slow_but_steady_upload_is_never_the_one_closed(account, open_files):
    """A phone sending a photo at 20 KB/s, while connections that send nothing crowd in from its
    own address (a household behind one router) and from five others until the server is full:
    the idle ones are closed first, never the upload, which is far above the rate of a slow
    client (a slowloris sends a few bytes a second)."""
    server = ServerProcess(account.database, extra_args=("--max-connections", "64", "--body-timeout", "60"))
    server.start()
    upload = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    crowd = []
    try:
        size = 2_000_000
        upload.sendall(f"POST /api/v1/photos HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                       f"Authorization: Bearer {account.token}\r\nContent-Type: image/png\r\n"
                       f"Content-Length: {size}\r\n\r\n".encode())
        started = time.monotonic()
        sent, crowded = 0, False
        while time.monotonic() - started < 6:
            upload.sendall(b"\0" * 2_000)  # 20 KB/s
            sent += 2_000
            time.sleep(0.1)
            if not crowded and time.monotonic() - started > 2:
                crowded = True
                for source in ["127.0.0.1"] * 16 + [f"127.0.0.{n}" for n in range(2, 7) for _ in range(16)]:
                    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                    s.bind((source, 0))
                    s.setblocking(False)
                    s.connect_ex(("127.0.0.1", server.port))
                    crowd.append(s)
        # Still open: a closed connection would have refused the bytes (a reset, a broken pipe).
        upload.sendall(b"\0" * 2_000)
        writer = log_in(server.api)
        assert save(writer, server.api, str(uuid.uuid4()), 0) < PROMPT * 2
    finally:
        for s in crowd:
            s.close()
        upload.close()
        code = server.stop()
    assert sent >= 100_000
    assert code == 0, server.log()
