"""Sixteen editors race to save the same entry from the same version.

Each round every thread PUTs the entry with If-Match of the version just read: exactly one
may win (200, version one higher), every other one must get 409 with the winner's entry as
`current`. Over ~50 rounds no save is silently lost: the final version is 1 + the number of
200s, and the final text is the last winner's.
"""

from __future__ import annotations

import threading
from collections import Counter

import requests

THREADS = 16
ROUNDS = 50
TIMEOUT = 30.0


def test_exactly_one_writer_wins_each_version(server, account, record_property):
    api = server.api
    creator = requests.Session()
    creator.headers.update(account.headers)
    r = creator.post(f"{api}/entries", json={"title": "Shared", "body": "version one"}, timeout=TIMEOUT)
    assert r.status_code == 201, r.text
    entry_id = r.json()["id"]
    assert r.json()["version"] == 1

    sessions = []
    for _ in range(THREADS):
        s = requests.Session()
        s.headers.update(account.headers)
        sessions.append(s)
    barrier = threading.Barrier(THREADS)
    results: list = [None] * THREADS
    wins = 0
    last_winner_text = None
    statuses = Counter()
    problems = []

    def race(i: int, version: int, rnd: int) -> None:
        title, body = f"Round {rnd} by writer {i}", f"writer {i} saved this over version {version}"
        barrier.wait(timeout=TIMEOUT)
        try:
            resp = sessions[i].put(f"{api}/entries/{entry_id}", json={"title": title, "body": body},
                                   headers={"If-Match": f'"{version}"'}, timeout=TIMEOUT)
            results[i] = (resp.status_code, resp.json() if resp.content else None, title, body)
        except Exception as error:  # reported below, not swallowed
            results[i] = (None, repr(error), title, body)

    for rnd in range(1, ROUNDS + 1):
        current = creator.get(f"{api}/entries/{entry_id}", timeout=TIMEOUT)
        assert current.status_code == 200, current.text
        version = current.json()["version"]
        threads = [threading.Thread(target=race, args=(i, version, rnd)) for i in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        codes = Counter(res[0] for res in results)
        statuses.update(codes)
        winners = [res for res in results if res[0] == 200]
        if len(winners) != 1 or codes[409] != THREADS - 1:
            problems.append(f"round {rnd} (If-Match {version}): statuses {dict(codes)}, "
                            f"e.g. {[res for res in results if res[0] != 409][:2]}")
        for status, body, title, text in results:
            if status == 200:
                if body["version"] != version + 1 or (body["title"], body["body"]) != (title, text):
                    problems.append(f"round {rnd}: a 200 answered {body}")
            elif status == 409:
                if body.get("error") != "conflict" or not isinstance(body.get("current"), dict):
                    problems.append(f"round {rnd}: a 409 without `current`: {body}")
                elif body["current"]["version"] <= version:
                    problems.append(f"round {rnd}: a 409 whose current version {body['current']['version']} "
                                    f"is not newer than If-Match {version}")
        wins += len(winners)
        if winners:
            last_winner_text = (winners[-1][2], winners[-1][3])

    final = creator.get(f"{api}/entries/{entry_id}", timeout=TIMEOUT).json()
    for s in sessions:
        s.close()
    creator.close()
    record_property("rounds", ROUNDS)
    record_property("statuses", dict(statuses))
    assert not problems, "\n".join(problems[:20])
    assert final["version"] == 1 + wins, f"{wins} saves answered 200 but the entry is at version {final['version']}"
    assert (final["title"], final["body"]) == last_winner_text, "the last winner's save is not what the entry holds"
