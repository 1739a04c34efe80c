"""Searches built to be slow cannot hold up anyone else.

One user fills their diary with bodies of 1 MiB and searches it as hard as they can, with the
queries that used to take seconds to minutes (one letter again and again, many short words,
every FTS5 operator, the longest query allowed). Meanwhile another user logs in, saves and
opens their first page, and each answer must come promptly. Every search is answered too:
with results, a 400 that says what is wrong, or a 503 that says the search took too long or
the server is busy with searches; never a 500, never silence.
"""

from __future__ import annotations

import threading
import time

import requests

from reliability_support import PASSWORD, run_cli

SECONDS = 6.0
TIMEOUT = 30.0
PROMPT = 2.0  # seconds: generous for a debug build on shared cores; searches used to take 18 s and more
LETTERS = "abcdefghijklmnop"
HOSTILE = [
    " ".join(["a"] * 128),                                      # one letter, again and again
    "a" * 256,                                                  # the longest query, one word
    " ".join(f"{c}{d}" for c, d in zip(LETTERS, LETTERS[::-1])),  # sixteen short words
    'ab* OR NOT NEAR(ab cd, 2) title:ab ^cd {title body}:ab "ab cd" (cd) -ab +cd AND body:*',  # every operator
    " ".join(c * 15 for c in LETTERS)[:256],                    # long words, at the limit
]


def test_hostile_searches_do_not_hold_up_another_users_logins_saves_and_pages(server, account, record_property):
    api = server.api
    attacker = requests.Session()
    attacker.headers.update(account.headers)
    # 1 MiB bodies of words that every hostile query matches.
    words = list(LETTERS) + [c + d for c in LETTERS for d in LETTERS] + [c * 15 for c in LETTERS]
    body = " ".join(words + ["or", "not", "near", "and", "title", "body", "2"]) + " "
    body = (body * (1_048_000 // len(body)))[:1_048_000]
    for n in range(6):
        r = attacker.post(f"{api}/entries", json={"title": f"a b c {n}", "body": body}, timeout=TIMEOUT)
        assert r.status_code == 201, r.text

    run_cli("user", "add", "mina", database=account.database, input=PASSWORD + "\n")
    mina = requests.Session()
    mina.headers.update({"Authorization": "Bearer " + run_cli(
        "token", "create", "mina-laptop", "--user", "mina", database=account.database).stdout.splitlines()[0].strip()})
    first = mina.post(f"{api}/entries", json={"title": "Mina's day", "body": "typing"}, timeout=TIMEOUT)
    assert first.status_code == 201, first.text
    entry_url = f"{api}/entries/{first.json()['id']}"

    stop = time.monotonic() + SECONDS
    lock = threading.Lock()
    searches: dict = {}
    problems: list = []

    def search_hard(index: int) -> None:
        s = requests.Session()
        s.headers.update(account.headers)
        n = 0
        while time.monotonic() < stop:
            query = HOSTILE[(index + n) % len(HOSTILE)]
            try:
                r = s.get(f"{api}/search", params={"q": query}, timeout=TIMEOUT)
                outcome = r.status_code if r.status_code != 503 else r.json().get("error")
                if r.status_code not in (200, 400) and outcome not in ("search_timeout", "search_busy"):
                    with lock:
                        problems.append(f"search {query[:40]!r}: {r.status_code} {r.text[:200]}")
            except requests.RequestException as error:
                outcome = "no answer"
                with lock:
                    problems.append(f"search {query[:40]!r}: {error!r}")
            with lock:
                searches[outcome] = searches.get(outcome, 0) + 1
            n += 1

    threads = [threading.Thread(target=search_hard, args=(i,), daemon=True) for i in range(8)]
    for t in threads:
        t.start()

    slowest: dict = {}
    answered = 0
    n = 0
    while time.monotonic() < stop:
        for kind, send in [
            ("login", lambda: requests.post(f"{api}/session", json={"name": "mina", "password": PASSWORD}, timeout=TIMEOUT)),
            ("save", lambda: mina.put(entry_url, json={"title": "Mina's day", "body": f"typing {n}"},
                                      headers={"If-Match": "*"}, timeout=TIMEOUT)),
            ("first page", lambda: mina.get(f"{api}/entries", timeout=TIMEOUT)),
        ]:
            started = time.monotonic()
            r = send()
            took = time.monotonic() - started
            assert r.status_code == 200, f"{kind}: {r.status_code} {r.text[:200]}"
            slowest[kind] = max(slowest.get(kind, 0.0), took)
            answered += 1
        n += 1
    for t in threads:
        t.join(timeout=TIMEOUT + 5)

    record_property("mina_slowest_s", {k: round(v, 3) for k, v in slowest.items()})
    record_property("searches", searches)
    assert not any(t.is_alive() for t in threads), "a search never got an answer"
    assert not problems, problems[:5]
    assert answered >= 6, f"only {answered} of mina's requests were answered in {SECONDS} s"
    for kind, took in slowest.items():
        assert took < PROMPT, f"mina's {kind} took {took:.2f} s while another user searched: {slowest}"
