"""Many clients at once, each doing something different: listing, searching, reading, saving.

Searches are the long reads; while they hold every one of the database's readers, the short
reads (a page of the list, a token's owner) and the saves must still be answered. An earlier
build deadlocked exactly here: its short reads blocked both of Swift's cooperative threads
waiting for a reader that only those threads could free, and the server went silent.
"""

from __future__ import annotations

import threading
import time
from collections import Counter

import requests

SEED_ENTRIES = 300
SECONDS = 6.0
TIMEOUT = 15.0
WORDS = ("morning rain walk coffee letter garden river evening quiet train window market "
         "오늘 일기 산책 비 커피 편지 정원 저녁").split()


def test_long_searches_do_not_stop_lists_reads_and_saves(server, account, record_property):
    api = server.api
    seed = requests.Session()
    seed.headers.update(account.headers)
    ids = []
    for n in range(SEED_ENTRIES):
        body = " ".join(WORDS[(n + k) % len(WORDS)] for k in range(400))  # ~2.5 KB, every word
        r = seed.post(f"{api}/entries", json={"title": f"Day {n}", "body": body}, timeout=TIMEOUT)
        assert r.status_code == 201, r.text
        ids.append(r.json()["id"])

    def lister(s: requests.Session, n: int, index: int):
        return s.get(f"{api}/entries", params={"limit": 20}, timeout=TIMEOUT)

    def searcher(s: requests.Session, n: int, index: int):
        return s.get(f"{api}/search", params={"q": WORDS[n % len(WORDS)]}, timeout=TIMEOUT)

    def reader(s: requests.Session, n: int, index: int):
        return s.get(f"{api}/entries/{ids[n % len(ids)]}", timeout=TIMEOUT)

    def saver(s: requests.Session, n: int, index: int):
        # Each saver autosaves its own entry, as one writer per entry does.
        return s.put(f"{api}/entries/{ids[index]}", json={"title": "Saved", "body": f"typing {n}"},
                     headers={"If-Match": "*"}, timeout=TIMEOUT)

    kinds = [("list", lister)] * 12 + [("search", searcher)] * 16 + [("read", reader)] * 8 + [("save", saver)] * 8
    done = Counter()
    failures: list[str] = []
    stop = time.monotonic() + SECONDS
    lock = threading.Lock()

    def client(index: int, kind: str, work) -> None:
        s = requests.Session()
        s.headers.update(account.headers)
        n = 0
        while time.monotonic() < stop:
            try:
                r = work(s, n, index)
                ok = r.status_code == 200
                detail = f"{r.status_code} {r.text[:120]}"
                if kind == "search" and r.status_code == 503 and r.json().get("error") in ("search_busy", "search_timeout"):
                    # More searchers than the searches allowed at once: a search may be told to
                    # come back (with Retry-After); what must never wait is everyone else.
                    assert r.headers.get("Retry-After"), r.headers
                    with lock:
                        done["search refused"] += 1
                    n += 1
                    continue
            except requests.RequestException as error:  # a timeout is how a deadlock shows
                ok, detail = False, repr(error)
            with lock:
                if ok:
                    done[kind] += 1
                else:
                    failures.append(f"{kind}: {detail}")
            if not ok:
                return
            n += 1
        s.close()

    threads = [threading.Thread(target=client, args=(i, *k), daemon=True) for i, k in enumerate(kinds)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=SECONDS + TIMEOUT + 5)
    record_property("answered", dict(done))
    assert not any(t.is_alive() for t in threads), "some clients never got an answer: the server hung"
    assert not failures, failures[:5]
    for kind in ("list", "search", "read", "save"):
        assert done[kind] > 0, f"no {kind} request was answered in {SECONDS} s: {dict(done)}"
