"""Search finds the same entries, in the same order, on SQLite and on PostgreSQL.

The two backends index differently (SQLite's FTS5 cuts words itself; PostgreSQL keeps the words
Diary cuts the same way in a tsvector), and rank by the same rule. Both diaries are filled with
the same entries (the seed sample, and a few thousand of the benchmark's corpus, English and
Korean), then asked the same queries through `diary search --json`: whole words, prefixes,
Korean words inside longer ones, single syllables, several words at once, accents and case.

Runs when DIARY_TEST_POSTGRES names a PostgreSQL server (scripts/test starts one).
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS / "harness")]
import diary_harness  # noqa: E402

REPO = TESTS.parent
pytestmark = pytest.mark.skipif(not diary_harness.POSTGRES, reason="needs DIARY_TEST_POSTGRES (scripts/test starts a cluster)")

CORPUS_ENTRIES = 3000
SHOWN = 50


def diary(database: str, *args: str) -> str:
    done = subprocess.run([str(diary_harness.BINARY), *args, "--database", database], capture_output=True, text=True,
                          env=diary_harness.diary_env(), timeout=300)
    # A search that finds nothing exits 1, as grep does (its JSON is then an empty list).
    nothing_found = args[0] == "search" and done.returncode == 1 and json.loads(done.stdout) == []
    assert done.returncode == 0 or nothing_found, f"diary {' '.join(args)} on {database} exited {done.returncode}: {done.stderr}"
    return done.stdout


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
    return both, corpus


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
    assert json.loads(diary(sqlite, "list", "--json", "-n", "1")) and json.loads(diary(postgres, "list", "--json", "-n", "1"))
    differences, found_something = [], 0
    for query in queries(corpus):
        results = []
        for database in (sqlite, postgres):
            hits = json.loads(diary(database, "search", query, "--json", "-n", str(SHOWN)))
            results.append([hit["entry"]["id"] for hit in hits])
        if results[0]:
            found_something += 1
        if results[0] != results[1]:
            differences.append((query, results[0][:5], results[1][:5], len(results[0]), len(results[1])))
    assert not differences, f"{len(differences)} queries differ (query, sqlite's first, postgres's first, counts): {differences[:5]}"
    assert found_something > 50, "the queries should find entries; they found almost nothing"
