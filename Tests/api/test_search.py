"""Finding entries by a word in them, in English and in Korean."""

import time

import pytest

from diary_api import Api, assert_error


def search(api, q, **params):
    response = api.get("/api/v1/search", params={"q": q, **params})
    assert response.status_code == 200, response.text
    return response.json()["results"]


def test_an_english_word_finds_the_entry_that_holds_it(api):
    entry = api.create("Spring", "A wonderful serenity has taken possession of my entire soul.")
    api.create("Other", "Nothing to see here.")

    results = search(api, "serenity")

    assert [r["entry"]["id"] for r in results] == [entry["id"]]
    assert "serenity" in results[0]["snippet"].lower()
    row = results[0]["entry"]
    assert row["title"] == "Spring"
    assert row["excerpt"] == "A wonderful serenity has taken possession of my entire soul."


def test_a_korean_word_finds_the_entry_that_holds_it(api):
    entry = api.create("오늘", "일기를 썼다")
    api.create("내일", "산책을 했다")

    results = search(api, "일기")

    assert [r["entry"]["id"] for r in results] == [entry["id"]]
    assert "일기" in results[0]["snippet"]


def test_a_two_syllable_korean_query_finds_a_match_in_the_middle_of_a_word(api):
    entry = api.create("여행", "대한민국에서 보낸 하루")
    api.create("기타", "한국어 공부")

    results = search(api, "한민")

    assert [r["entry"]["id"] for r in results] == [entry["id"]]
    assert "한민" in results[0]["snippet"]


def test_a_word_in_the_title_finds_the_entry(api):
    entry = api.create("Lighthouse keeper", "Body text.")

    results = search(api, "lighthouse")

    assert [r["entry"]["id"] for r in results] == [entry["id"]]


def test_a_search_that_matches_nothing_finds_nothing(api):
    api.create("Spring", "A wonderful serenity")

    assert search(api, "xylophone") == []


def test_a_snippet_is_plain_text_around_the_match_marked_where_cut(api):
    body = "Filler words go on and on. " * 40 + "Then came the serenity of the evening. " + "More filler follows. " * 40
    api.create("Long", body)

    snippet = search(api, "serenity")[0]["snippet"]

    assert "serenity" in snippet
    assert snippet.startswith("…") and snippet.endswith("…"), snippet
    assert len(snippet) <= 240, f"a snippet should be about 160 characters, got {len(snippet)}"
    assert "<" not in snippet and ">" not in snippet
    assert snippet.strip("…") in body


def test_search_respects_limit(api):
    for n in range(5):
        api.create(f"Serenity {n}", "serenity")

    assert len(search(api, "serenity", limit=3)) == 3
    assert len(search(api, "serenity")) == 5


def test_a_search_with_special_characters_is_not_an_error(api):
    api.create("Quotes", 'She said "hello" (twice) AND left* -- NEAR')

    for q in ['"hello"', "(twice)", "left*", "AND", "--", "NEAR(", "'", "a OR b"]:
        response = api.get("/api/v1/search", params={"q": q})
        assert response.status_code == 200, f"{q!r}: {response.text}"


@pytest.mark.parametrize("query", ["q=", "q=%20%20%20", "q=%09%0A", "q=%E3%80%80"])
def test_a_blank_query_is_a_bad_request(api, query):
    response = api.get(f"/api/v1/search?{query}")

    assert_error(response, 400, "bad_request")


def test_a_plus_in_the_query_string_is_a_space(api):
    # Query strings are form-encoded: HTML forms, URLSearchParams and most HTTP clients
    # (Python's requests among them) send a space as "+". So "q=+++" is a blank query.
    response = api.get("/api/v1/search?q=+++")

    assert_error(response, 400, "bad_request")


def test_a_missing_query_is_a_bad_request(api):
    assert_error(api.get("/api/v1/search"), 400, "bad_request")


# Anything a stranger can type, or send as a query string: FTS5's own syntax, NUL, lone
# combining marks, emoji, invalid percent-encoding, the longest allowed query and far longer.
ODD_QUERIES = [
    '"', '""', '"unclosed', "title:rain", "body:rain", "{title body}:rain", "-title:rain", "^rain", "rain*", "*",
    "(rain", "rain)", "NEAR(rain walk, 2)", "rain AND walk", "rain OR walk", "NOT rain", "rain NOT walk",
    "a" * 256, " ".join(["a"] * 128), " ".join(chr(0x61 + n % 26) * (1 + n // 26) for n in range(60)),
    "\u0301", "\u0345", "a" + "\u0301" * 200, "👩‍👩‍👧", "🇰🇷 일기", "\ufeff", "\u200d", "\U0010ffff",
    "١٢٣", "İstanbul", "straße", "ﬁsh", "rain\x00walk", "\x00",
]


@pytest.mark.parametrize("query", ODD_QUERIES, ids=range(len(ODD_QUERIES)))
def test_any_query_gets_results_or_a_bad_request(api, query):
    api.create("Rain", 'rain and walk "NEAR" title:river 일기 👩‍👩‍👧 straße')

    response = api.get("/api/v1/search", params={"q": query})

    assert response.status_code in (200, 400), f"{query!r}: {response.status_code} {response.text[:300]}"
    if response.status_code == 400:  # no word at all (a lone BOM is blank), or too many
        assert_error(response, 400, response.json().get("error"))
        assert response.json()["error"] in ("bad_request", "too_many_words"), response.text


@pytest.mark.parametrize("raw", ["%ZZ", "%", "%F", "%FF%FE", "%ED%A0%80", "%C0%80", "%00", "rain%00walk", "%E2%80%AE"])
def test_a_query_string_that_is_not_valid_percent_encoding_or_utf8_is_not_a_server_error(api, raw):
    response = api.get(f"/api/v1/search?q={raw}")

    assert response.status_code in (200, 400), f"{raw}: {response.status_code} {response.text[:300]}"


def test_a_query_longer_than_256_characters_is_refused_and_says_so(api):
    api.create("Rain", "rain")

    for query in ["a" * 257, "rain " * 2_000]:
        payload = assert_error(api.get("/api/v1/search", params={"q": query}), 400, "query_too_long")
        assert "256 characters" in payload["message"], payload

    assert search(api, "rain " * 51) != []  # 255 characters: fine


def test_a_query_of_too_many_different_words_is_refused_and_says_so(api):
    payload = assert_error(api.get("/api/v1/search", params={"q": " ".join(f"w{n}" for n in range(17))}), 400, "too_many_words")

    assert "16" in payload["message"], payload
    # The same word again and again is one word.
    assert api.get("/api/v1/search", params={"q": " ".join(["rain"] * 50)}).status_code == 200


def test_a_search_past_its_deadline_is_stopped_and_answered_503(start_server):
    srv = start_server("--search-timeout", "0.001")
    api = Api(srv.base_url)
    # Long bodies of the query's words: ranking them takes far longer than a millisecond.
    words = [f"w{n}x" for n in range(16)]
    body = " ".join(words[n % 16] for n in range(60_000))
    for n in range(4):
        api.create(f"Long {n}", body)

    started = time.monotonic()
    response = api.get("/api/v1/search", params={"q": " ".join(words)})

    payload = assert_error(response, 503, "search_timeout")
    assert "took longer than" in payload["message"], payload
    assert response.headers.get("Retry-After") == "1"
    assert time.monotonic() - started < 10
    # The server is fine afterwards.
    assert api.get("/api/v1/entries").status_code == 200
