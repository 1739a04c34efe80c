"""Writing, reading and editing entries, as a client does."""

import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

from diary_api import Api, assert_error


def parse_time(value: str) -> datetime:
    return datetime.strptime(value, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


def test_a_new_entry_is_created_with_version_1_an_etag_and_a_location(api):
    before = datetime.now(timezone.utc).replace(microsecond=0)
    response = api.post("/api/v1/entries", json={"title": "First day", "body": "It rained.\nThen it stopped."})

    assert response.status_code == 201
    entry = response.json()
    assert entry["title"] == "First day"
    assert entry["body"] == "It rained.\nThen it stopped."
    assert entry["version"] == 1
    assert entry["deletedAt"] is None
    assert entry["createdAt"] == entry["updatedAt"]
    created = parse_time(entry["createdAt"])
    assert before <= created <= datetime.now(timezone.utc), "createdAt is not the time of creation in UTC"
    assert response.headers["ETag"] == '"1"'
    location = response.headers["Location"]
    assert location.endswith(f"/api/v1/entries/{entry['id']}")

    fetched = api.get(location)
    assert fetched.status_code == 200
    assert fetched.json() == entry


def test_an_entry_is_read_with_its_version_as_etag(api):
    entry = api.create("Title", "Body")

    response = api.get(f"/api/v1/entries/{entry['id']}")

    assert response.status_code == 200
    assert response.json() == entry
    assert response.headers["ETag"] == f'"{entry["version"]}"'


def test_a_client_chosen_id_makes_creation_safe_to_retry(api):
    client_id = str(uuid.uuid4())
    payload = {"id": client_id, "title": "Written offline", "body": "Sent twice."}

    first = api.post("/api/v1/entries", json=payload)
    second = api.post("/api/v1/entries", json=payload)

    assert first.status_code == 201, first.text
    assert first.json()["id"] == client_id
    assert second.status_code == 200, second.text
    assert second.json() == first.json()
    assert [row["id"] for row in api.list_all()] == [client_id]


def test_a_retry_with_a_client_id_returns_the_entry_as_it_is_now(api):
    client_id = str(uuid.uuid4())
    created = api.post("/api/v1/entries", json={"id": client_id, "title": "Draft", "body": "one"}).json()
    updated = api.put(f"/api/v1/entries/{client_id}", json={"title": "Draft", "body": "two"},
                      headers={"If-Match": '"1"'}).json()

    retry = api.post("/api/v1/entries", json={"id": client_id, "title": "Draft", "body": "one"})

    assert retry.status_code == 200, retry.text
    assert retry.json() == updated
    assert updated["createdAt"] == created["createdAt"]


def test_an_update_with_if_match_raises_the_version(api):
    entry = api.create("Before", "old body")

    response = api.put(f"/api/v1/entries/{entry['id']}", json={"title": "After", "body": "new body"},
                       headers={"If-Match": '"1"'})

    assert response.status_code == 200, response.text
    updated = response.json()
    assert updated["id"] == entry["id"]
    assert (updated["title"], updated["body"]) == ("After", "new body")
    assert updated["version"] == 2
    assert updated["createdAt"] == entry["createdAt"]
    assert parse_time(updated["updatedAt"]) >= parse_time(entry["updatedAt"])
    assert updated["deletedAt"] is None
    if "ETag" in response.headers:
        assert response.headers["ETag"] == '"2"'
    fetched = api.get(f"/api/v1/entries/{entry['id']}")
    assert fetched.json() == updated
    assert fetched.headers["ETag"] == '"2"'


def test_an_update_with_a_stale_version_is_a_conflict_carrying_the_current_entry(api):
    entry = api.create("Mine", "from the phone")
    path = f"/api/v1/entries/{entry['id']}"
    current = api.put(path, json={"title": "Mine", "body": "from the laptop"}, headers={"If-Match": '"1"'}).json()

    response = api.put(path, json={"title": "Mine", "body": "from the phone, later"}, headers={"If-Match": '"1"'})

    payload = assert_error(response, 409, "conflict")
    assert payload["current"] == current
    assert api.get(path).json() == current, "a conflicting update must change nothing"


def test_of_concurrent_updates_from_the_same_version_exactly_one_wins(api):
    entry = api.create("Shared", "v1")
    path = f"/api/v1/entries/{entry['id']}"

    def update(n):
        client = Api(api.base_url)
        try:
            return client.put(path, json={"title": "Shared", "body": f"writer {n}"}, headers={"If-Match": '"1"'})
        finally:
            client.session.close()

    with ThreadPoolExecutor(max_workers=8) as pool:
        responses = list(pool.map(update, range(8)))

    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200] + [409] * 7, statuses
    winner = next(r.json() for r in responses if r.status_code == 200)
    assert winner["version"] == 2
    assert api.get(path).json() == winner
    for r in responses:
        if r.status_code == 409:
            assert r.json()["current"]["version"] == 2


def test_an_update_without_if_match_is_refused_with_428(api):
    entry = api.create("Title", "Body")
    path = f"/api/v1/entries/{entry['id']}"

    response = api.put(path, json={"title": "Title", "body": "Changed"})

    assert_error(response, 428, "precondition_required")
    assert api.get(path).json() == entry


def test_a_newline_in_a_title_moves_what_follows_into_the_body(api):
    response = api.post("/api/v1/entries", json={"title": "Line one\nLine two", "body": "The rest."})

    assert response.status_code == 201, response.text
    entry = response.json()
    assert entry["title"] == "Line one"
    assert entry["body"].startswith("Line two")
    assert "The rest." in entry["body"]


def test_unknown_fields_in_a_request_are_ignored(api):
    response = api.post("/api/v1/entries", json={"title": "T", "body": "B", "mood": "happy", "version": 99})

    assert response.status_code == 201, response.text
    assert response.json()["version"] == 1


def test_json_with_a_charset_parameter_is_accepted(api):
    response = api.post("/api/v1/entries", data='{"title":"일기","body":"오늘"}'.encode(),
                        headers={"Content-Type": "application/json; charset=utf-8"})

    assert response.status_code == 201, response.text
    assert response.json()["title"] == "일기"


def test_an_entry_with_only_a_title_or_only_a_body_is_kept(api):
    only_title = api.create("Just a title", "")
    only_body = api.create("", "Just a body")

    assert (only_title["title"], only_title["body"]) == ("Just a title", "")
    assert (only_body["title"], only_body["body"]) == ("", "Just a body")


def test_a_list_row_shows_the_first_non_blank_line_of_the_body_as_excerpt(api):
    entry = api.create("Excerpt", "\n   \nThe first real line\nThe second line")
    long_line = "가나다라마바사아자차" * 30  # 300 characters
    long_entry = api.create("Long", long_line + "\nmore")

    rows = {row["id"]: row for row in api.list_all()}

    assert rows[entry["id"]]["excerpt"] == "The first real line"
    excerpt = rows[long_entry["id"]]["excerpt"]
    assert 0 < len(excerpt) <= 200
    assert long_line.startswith(excerpt.rstrip("…"))
    for key in ("id", "title", "createdAt", "updatedAt", "version", "deletedAt"):
        assert rows[entry["id"]][key] == entry[key]
