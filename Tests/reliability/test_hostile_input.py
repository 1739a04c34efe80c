"""Hostile and broken requests: each is answered with a clear 4xx JSON {error, message}, and
nothing is stored (the list still holds only the entry that was there, which is unchanged).
A slowloris client trickling its headers does not hold up anyone else.
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time

import pytest
import requests

from reliability_support import ServerProcess, error_body

TIMEOUT = 30.0
HUGE = 100 * 1024 * 1024          # 100 MB
PIECE = 64 * 1024
EXISTING = {"title": "Existing entry", "body": "It must come through every attack unchanged."}


class Diary:
    """A server holding one entry; after each hostile request, check() proves nothing changed."""

    def __init__(self, server, account):
        self.server = server
        self.api = server.api
        self.headers = account.headers
        self.session = requests.Session()
        self.session.headers.update(account.headers)
        r = self.session.post(f"{self.api}/entries", json=EXISTING, timeout=TIMEOUT)
        assert r.status_code == 201, r.text
        self.entry = r.json()
        self.url = f"{self.api}/entries/{self.entry['id']}"

    def check_nothing_stored(self) -> None:
        listed = self.session.get(f"{self.api}/entries", params={"limit": 100}, timeout=TIMEOUT)
        assert listed.status_code == 200, f"the server no longer answers well: {listed.status_code} {listed.text[:200]}"
        assert [e["id"] for e in listed.json()["entries"]] == [self.entry["id"]], "something was stored"
        trash = self.session.get(f"{self.api}/trash", timeout=TIMEOUT).json()["entries"]
        assert trash == [], "something went to the trash"
        now = self.session.get(self.url, timeout=TIMEOUT).json()
        assert now == self.entry, "the existing entry was changed"


@pytest.fixture
def diary(server, account):
    d = Diary(server, account)
    yield d
    d.session.close()


def send(diary: Diary, method: str, data: bytes) -> requests.Response:
    """POST a new entry, or PUT over the existing one, with this raw JSON body."""
    url = f"{diary.api}/entries" if method == "POST" else diary.url
    headers = {"Content-Type": "application/json"}
    if method == "PUT":
        headers["If-Match"] = f'"{diary.entry["version"]}"'
    return diary.session.request(method, url, data=data, headers=headers, timeout=TIMEOUT)


# --- malformed JSON ----------------------------------------------------------------------

INVALID_UTF8 = {
    "in the title": b'{"title": "Caf\xe9 \xff\xfe", "body": "fine"}',
    "in the body": b'{"title": "fine", "body": "half a character: \xed\x95"}',
    "a surrogate encoded in UTF-8": b'{"title": "\xed\xa0\x80", "body": "x"}',
    "overlong encoding": b'{"title": "\xc0\xaf", "body": "x"}',
}


@pytest.mark.parametrize("method", ["POST", "PUT"])
@pytest.mark.parametrize("where", list(INVALID_UTF8))
def test_invalid_utf8_is_a_bad_request(diary, method, where):
    r = send(diary, method, INVALID_UTF8[where])
    assert r.status_code == 400, f"{r.status_code} {r.text[:300]}"
    assert error_body(r)["error"] == "bad_request"
    diary.check_nothing_stored()


DEPTH = 10_000
DEEP = {
    "arrays as the whole body": b"[" * DEPTH + b"]" * DEPTH,
    "arrays as the title": b'{"title": ' + b"[" * DEPTH + b"]" * DEPTH + b', "body": "x"}',
    "objects as the body": b'{"title": "t", "body": ' + b'{"a":' * DEPTH + b"1" + b"}" * DEPTH + b"}",
    "unclosed": b'{"title": "t", "body": ' + b"[" * DEPTH,
}


@pytest.mark.parametrize("method", ["POST", "PUT"])
@pytest.mark.parametrize("shape", list(DEEP))
def test_json_nested_10000_deep_is_a_bad_request(diary, method, shape):
    r = send(diary, method, DEEP[shape])
    assert r.status_code == 400, f"{r.status_code} {r.text[:300]}"
    assert error_body(r)["error"] == "bad_request"
    diary.check_nothing_stored()


@pytest.mark.parametrize("method", ["POST", "PUT"])
def test_a_title_of_1_mb_is_too_large(diary, method):
    data = json.dumps({"title": "t" * 1_000_000, "body": "a short body"}).encode()
    r = send(diary, method, data)
    assert r.status_code == 413, f"{r.status_code} {r.text[:300]}"
    assert error_body(r)["error"] == "too_large"
    diary.check_nothing_stored()


# --- a 100 MB body ------------------------------------------------------------------------

def huge_body(total: int):
    """A 100 MB JSON entry, made piece by piece (never held in memory)."""
    head, tail = b'{"title": "Huge", "body": "', b'"}'
    yield head
    left = total - len(head) - len(tail)
    filler = b"x" * PIECE
    while left > 0:
        yield filler[:min(left, PIECE)]
        left -= PIECE
    yield tail


def read_response(sock: socket.socket, already: bytes = b"") -> bytes:
    """Whatever the server answered, up to the end of its body or the connection."""
    data = already
    sock.settimeout(10)
    while True:
        head_end = data.find(b"\r\n\r\n")
        if head_end >= 0:
            length = 0
            for line in data[:head_end].split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            if len(data) >= head_end + 4 + length:
                return data
        try:
            more = sock.recv(65536)
        except (ConnectionResetError, socket.timeout, OSError):
            return data
        if not more:
            return data
        data += more


def stream_huge_request(diary: Diary, method: str, chunked: bool) -> tuple[bytes, int, str]:
    """Streams a 100 MB body over a raw socket, watching for an early answer. Returns the
    answer's bytes, how much of the body was sent by then, and how the upload ended."""
    path = "/api/v1/entries" if method == "POST" else f"/api/v1/entries/{diary.entry['id']}"
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{diary.server.port}",
             f"Authorization: {diary.headers['Authorization']}", "Content-Type: application/json",
             "Connection: close"]
    if method == "PUT":
        lines.append(f'If-Match: "{diary.entry["version"]}"')
    lines.append("Transfer-Encoding: chunked" if chunked else f"Content-Length: {HUGE}")
    sock = socket.create_connection(("127.0.0.1", diary.server.port), timeout=10)
    sent, ended = 0, "sent everything"
    try:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        sock.setblocking(False)
        pending = b""
        pieces = huge_body(HUGE)
        finished = False
        while True:
            if not pending:
                piece = next(pieces, None)
                if piece is None:
                    if chunked and not finished:
                        pending, finished = b"0\r\n\r\n", True
                    else:
                        break
                else:
                    pending = (b"%x\r\n" % len(piece) + piece + b"\r\n") if chunked else piece
            readable, writable, _ = select.select([sock], [sock], [], 15)
            if readable:
                ended = "answered early"
                break
            if not writable:
                ended = "stalled: the server neither read the body nor answered for 15 s"
                break
            try:
                n = sock.send(pending)
            except (BrokenPipeError, ConnectionResetError) as error:
                ended = f"connection closed while sending ({type(error).__name__})"
                break
            pending = pending[n:]
            sent += n
        sock.setblocking(True)
        return read_response(sock), sent, ended
    finally:
        sock.close()


@pytest.mark.parametrize("method", ["POST", "PUT"])
@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_a_100_mb_body_is_refused(diary, method, framing, record_property):
    started = time.monotonic()
    answer, sent, ended = stream_huge_request(diary, method, chunked=(framing == "chunked"))
    took = time.monotonic() - started
    record_property("sent_before_answer_mb", round(sent / 1e6, 1))
    record_property("seconds", round(took, 2))
    status_line = answer.split(b"\r\n", 1)[0].decode(errors="replace")
    assert answer, f"no answer at all ({ended}, after {sent / 1e6:.1f} MB)"
    assert status_line.split(" ")[1:2] == ["413"], (
        f"expected 413, got {status_line!r} ({ended}, after {sent / 1e6:.1f} MB): {answer[-300:]!r}")
    body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    assert body.get("error") == "too_large" and body.get("message"), body
    diary.check_nothing_stored()


# --- slowloris ----------------------------------------------------------------------------

@pytest.mark.parametrize("slow_clients", [1, 20])
def test_a_slowloris_client_does_not_hold_up_others(diary, slow_clients, record_property):
    socks = []
    for _ in range(slow_clients):
        s = socket.create_connection(("127.0.0.1", diary.server.port), timeout=5)
        s.sendall(f"GET /api/v1/entries HTTP/1.1\r\nHost: 127.0.0.1:{diary.server.port}\r\n".encode())
        socks.append(s)
    stop = threading.Event()
    trickled = [0]
    cut_off = [0]

    def trickle() -> None:
        header = b"X-Slow-Header: " + b"a" * 1000
        live = list(socks)
        i = 0
        while not stop.is_set() and live:
            for s in list(live):
                try:
                    s.send(header[i % len(header):i % len(header) + 1])
                except OSError:
                    live.remove(s)
                    cut_off[0] += 1
            trickled[0] += 1
            i += 1
            stop.wait(1.0)

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    try:
        time.sleep(1.5)  # the slowloris trickles (a byte a second) before the others are timed
        times = []
        fast = requests.Session()
        fast.headers.update(diary.headers)
        for i in range(20):
            started = time.monotonic()
            r = fast.get(f"{diary.api}/entries", timeout=10) if i % 2 == 0 else fast.get(diary.url, timeout=10)
            times.append(time.monotonic() - started)
            assert r.status_code == 200, r.text
            time.sleep(0.2)  # the requests spread over the attack, not all in its first moment
        # A save goes through as well.
        r = fast.put(diary.url, json={"title": "Saved during the attack", "body": "yes"},
                     headers={"If-Match": f'"{diary.entry["version"]}"'}, timeout=10)
        assert r.status_code == 200, r.text
        fast.close()
        trickling_during = trickled[0]
    finally:
        stop.set()
        thread.join(timeout=5)
        for s in socks:
            s.close()
    record_property("slowest_get_seconds", round(max(times), 3))
    record_property("header_bytes_trickled", trickling_during)
    record_property("slow_sockets_cut_off_by_server", cut_off[0])
    assert max(times) < 1.0, f"while a slowloris trickled, a GET took {max(times):.2f} s: {times}"
    assert trickling_during >= 3, "the slowloris did not really trickle while the others were served"


def test_a_client_that_never_finishes_its_headers_gets_408_and_is_disconnected(account, record_property):
    """With --header-timeout 2, trickled headers are cut off with a 408 in {error, message}
    form after about 2 s, while a client that sends its headers in one go is answered at once."""
    server = ServerProcess(account.database, extra_args=("--header-timeout", "2"))
    server.start()
    try:
        slow = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        slow.sendall(f"GET /api/v1/entries HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode())
        started = time.monotonic()
        received = b""
        closed_after = None
        while time.monotonic() - started < 8:
            try:
                slow.send(b"X")
            except OSError:
                closed_after = time.monotonic() - started
                break
            ready, _, _ = select.select([slow], [], [], 0.5)
            if ready:
                chunk = slow.recv(65536)
                if not chunk:
                    closed_after = time.monotonic() - started
                    break
                received += chunk
            # A well-behaved client meanwhile is answered at once.
            r = requests.get(f"{server.api}/entries", headers=account.headers, timeout=5)
            assert r.status_code == 200, r.text
        slow.close()
        record_property("slow_client_cut_off_after_seconds", round(closed_after or -1, 2))
        assert closed_after is not None, "the trickling client was never disconnected"
        assert 1.5 <= closed_after <= 5, f"cut off after {closed_after:.2f} s, not about 2 s"
        head, _, body = received.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), received[:200]
        error = json.loads(body)
        assert error["error"] == "request_timeout"
        assert "2 seconds" in error["message"]
    finally:
        server.stop()


def test_an_idle_connection_is_closed_without_a_word(account, record_property):
    """With --header-timeout 2, a kept-alive connection on which nothing more comes (and one on
    which nothing ever came) is closed after about 2 s with no bytes: a 408 there could be taken
    for the answer to a request the client sent just then."""
    server = ServerProcess(account.database, extra_args=("--header-timeout", "2"))
    server.start()
    try:
        used = socket.create_connection(("127.0.0.1", server.port), timeout=8)
        used.sendall(f"GET /api/v1/entries HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                     f"Authorization: {account.headers['Authorization']}\r\n\r\n".encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += used.recv(65536)
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
        while len(body) < length:
            body += used.recv(65536)
        never = socket.create_connection(("127.0.0.1", server.port), timeout=8)
        started = time.monotonic()
        for name, sock in (("after an answer", used), ("never used", never)):
            after = b""
            while chunk := sock.recv(65536):  # until the server closes it
                after += chunk
            closed_after = time.monotonic() - started
            record_property(f"closed_{name.replace(' ', '_')}_after_seconds", round(closed_after, 2))
            assert after == b"", f"an idle connection ({name}) was sent {after[:200]!r}"
            assert 1.5 <= closed_after <= 5, f"an idle connection ({name}) was closed after {closed_after:.2f} s, not about 2 s"
            sock.close()
    finally:
        server.stop()
