"""Search finds the same entries, in the same order, on SQLite and on PostgreSQL.

The two backends index differently (SQLite's FTS5 cuts words itself; PostgreSQL keeps the words
Diary cuts the same way in a tsvector), and rank by the same rule. Both diaries are filled with
the same entries (the seed sample, and a few thousand of the benchmark's corpus, English and
Korean), then asked the same queries through a `diary serve` on each (the search every client
uses, through `Diary`): whole words, prefixes, Korean words inside longer ones, single syllables,
several words at once, accents and case.

Runs when DIARY_TEST_POSTGRES names a PostgreSQL server (scripts/test starts one), once: in the
suite's SQLite run (it makes its own PostgreSQL database either way). It asked `diary search` once
for each query and backend, 400 processes: five minutes of a busy CI machine, in both runs.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
import requests

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS / "harness")]
import diary_harness  # noqa: E402

REPO = TESTS.parent
pytestmark = [
    pytest.mark.skipif(not diary_harness.POSTGRES, reason="needs DIARY_TEST_POSTGRES (scripts/test starts a cluster)"),
    pytest.mark.skipif(diary_harness.BACKEND == "postgres", reason="runs in the SQLite run: it uses both backends there"),
]
ACCOUNT = {"name": "agree", "password": "both backends the same"}

CORPUS_ENTRIES = 3000
SHOWN = 50


def diary(database: str, *args: str) -> str:
    done = subprocess.run([str(diary_harness.BINARY), *args, "--database", database], capture_output=True, text=True,
                          env=diary_harness.diary_env(), timeout=300)
    assert done.returncode == 0, f"diary {' '.join(args)} on {database} exited {done.returncode}: {done.stderr}"
    return done.stdout


class Searcher:
    """A `diary serve` on one of the diaries, logged in as the account that adopted its entries
    (the first account takes the entries written before it)."""

    def __init__(self, database: str, folder: Path):
        folder.mkdir()
        # A search's time limit far beyond a busy machine's slowest: this test compares answers.
        self.server = diary_harness.Server(database, workdir=folder, extra_args=["--search-timeout", "60"])
        self.server.start()
        self.session = requests.Session()
        made = self.session.post(self.server.base_url + "/api/v1/setup", json=ACCOUNT, timeout=30)
        assert made.status_code == 201, made.text
        self.session.headers["X-CSRF-Token"] = made.json()["csrfToken"]

    def search(self, query: str) -> list:
        response = self.session.get(self.server.base_url + "/api/v1/search", params={"q": query, "limit": SHOWN}, timeout=60)
        assert response.status_code == 200, (query, response.status_code, response.text)
        return [hit["entry"]["id"] for hit in response.json()["results"]]

    def stop(self) -> None:
        self.session.close()
        self.server.stop()


@pytest.fixture(scope="module")
def diaries(tmp_path_factory):
    folder = tmp_path_factory.mktemp("agree")
    subprocess.run([sys.executable, str(REPO / "bench/corpus.py"), "--entries", str(CORPUS_ENTRIES), "--out", str(folder)],
                   check=True, capture_output=True, timeout=300)
    both = [str(folder / "diary.sqlite"), diary_harness.new_postgres_database()]
    for database in both:
        diary(database, "import", str(diary_harness.SEED_SAMPLE))
        diary(database, "import", str(folder / "diary.json"))
    corpus = json.loads((folder / "diary.json").read_text())["entries"]
    searchers = [Searcher(database, folder / name) for database, name in zip(both, ("sqlite", "postgres"))]
    yield searchers, corpus
    for searcher in searchers:
        searcher.stop()


def queries(corpus) -> list:
    """Fixed queries, and words drawn from the corpus itself (the same every run)."""
    chosen = ["serenity", "seren", "일기", "일", "일기를", "rain", "Rain", "RAIN", "café", "cafe", "naïve",
              "오늘", "하루", "비가", "the", "and", "walk", "walked", "morning coffee", "일기 오늘", "serenity walk",
              "서울", "x", "ab", "zzzzunknown", "없는단어입니다"]
    rng = random.Random(16)
    words = []
    for entry in rng.sample(corpus, 40):
        words += re.findall(r"\w+", entry["title"] + " " + entry["body"][:400])
    words = sorted(set(words))
    for word in rng.sample(words, min(60, len(words))):
        chosen.append(word)
        if len(word) >= 4:
            chosen.append(word[:3])
        if len(word) >= 2 and not word.isascii():
            chosen.append(word[0])
            chosen.append(word[:2])
    for _ in range(20):
        chosen.append(" ".join(rng.sample(words, 2)))
    return chosen


def test_search_finds_the_same_entries_in_the_same_order_on_both_backends(diaries):
    (sqlite, postgres), corpus = diaries
    differences, found_something = [], 0
    for query in queries(corpus):
        results = [sqlite.search(query), postgres.search(query)]
        if results[0]:
            found_something += 1
        if results[0] != results[1]:
            differences.append((query, results[0][:5], results[1][:5], len(results[0]), len(results[1])))
    assert not differences, f"{len(differences)} queries differ (query, sqlite's first, postgres's first, counts): {differences[:5]}"
    assert found_something > 50, "the queries should find entries; they found almost nothing"
