"""Location and weather: a new entry may say where it was written; the server keeps the
place to two decimals, answers at once with `weather: null`, and attaches the weather later.

The plain `api` fixture's server runs with `--weather off`; `weather_api`'s asks a local
fake Open-Meteo (see conftest.py). No test reaches the internet."""

import time
import uuid

import pytest

from diary_api import assert_error

SEOUL = {"latitude": 37.566535, "longitude": 126.977969}


def wait_for_weather(api, entry_id, timeout=10.0):
    deadline = time.monotonic() + timeout
    while True:
        entry = api.get(f"/api/v1/entries/{entry_id}").json()
        if entry["weather"] is not None or time.monotonic() > deadline:
            return entry
        time.sleep(0.1)


def test_a_location_is_kept_to_two_decimals_and_the_answer_has_no_weather_yet(api):
    response = api.post("/api/v1/entries", json={"title": "Rain", "body": "All day.", "location": SEOUL})

    assert response.status_code == 201, response.text
    entry = response.json()
    assert entry["weather"] is None
    assert entry["location"] == {"latitude": 37.57, "longitude": 126.98}
    assert entry["version"] == 1
    assert api.get(f"/api/v1/entries/{entry['id']}").json()["location"] == {"latitude": 37.57, "longitude": 126.98}


def test_southern_and_western_places_round_to_two_decimals_too(api):
    entry = api.create("Sydney", "x", location={"latitude": -33.868820, "longitude": 151.209296})
    assert entry["location"] == {"latitude": -33.87, "longitude": 151.21}
    entry = api.create("Lima", "x", location={"latitude": -12.046374, "longitude": -77.042793})
    assert entry["location"] == {"latitude": -12.05, "longitude": -77.04}


def test_an_entry_without_a_location_has_null_location_and_weather(api):
    plain = api.create("No place", "x")
    nulled = api.create("Null place", "x", location=None)

    for entry in (plain, nulled):
        assert entry["location"] is None
        assert entry["weather"] is None
    rows = api.list_all()
    assert [row["weather"] for row in rows] == [None, None]
    assert all("location" not in row for row in rows), "list rows carry the weather, not the place"


@pytest.mark.parametrize("place", [
    {"latitude": 90.5, "longitude": 0},
    {"latitude": -91, "longitude": 0},
    {"latitude": 0, "longitude": 180.01},
    {"latitude": 0, "longitude": -200},
    {"latitude": 1e308, "longitude": 1e308},
])
def test_a_location_off_the_earth_is_a_bad_request_and_nothing_is_stored(api, place):
    response = api.post("/api/v1/entries", json={"title": "Moon", "body": "x", "location": place})

    assert_error(response, 400, "bad_request")
    assert api.list_all() == []


@pytest.mark.parametrize("place", [
    {"latitude": "37.5", "longitude": 127},
    {"latitude": 37.5},
    "37.5,127",
])
def test_a_malformed_location_is_a_bad_request(api, place):
    response = api.post("/api/v1/entries", json={"title": "Where", "body": "x", "location": place})

    assert_error(response, 400, "bad_request")
    assert api.list_all() == []


def test_the_edges_of_the_earth_are_on_it(api):
    entry = api.create("Pole", "x", location={"latitude": -90, "longitude": 180})
    assert entry["location"] == {"latitude": -90, "longitude": 180}


def test_with_weather_off_an_entry_keeps_null_weather(api):
    entry = api.create("Quiet", "x", location=SEOUL)
    time.sleep(1)  # time for weather to arrive, were it to: none may
    again = api.get(f"/api/v1/entries/{entry['id']}").json()
    assert again["weather"] is None
    assert again == entry


def test_the_weather_is_attached_after_the_answer_without_changing_the_version(weather_api, open_meteo):
    created = weather_api.post("/api/v1/entries", json={"title": "Rain", "body": "Rained on the river", "location": SEOUL})
    assert created.status_code == 201, created.text
    entry = created.json()
    assert entry["weather"] is None

    later = wait_for_weather(weather_api, entry["id"])

    assert later["weather"] == {
        "provider": "open-meteo", "condition": "rain", "description": "Slight rain",
        "isDay": False, "temperature": 3.4, "icon": "rain-night",
    }
    assert later["version"] == 1
    assert later["updatedAt"] == entry["updatedAt"]
    assert later["location"] == {"latitude": 37.57, "longitude": 126.98}
    # The provider is asked with the stored, rounded place only.
    assert len(open_meteo.requests) == 1
    query = open_meteo.requests[0]
    assert (query["latitude"], query["longitude"]) == ("37.57", "126.98")
    assert set(query["current"].split(",")) == {"temperature_2m", "weather_code", "is_day"}
    # Rows of the list and of a search carry it too; an entry without a place has none.
    weather_api.create("Indoors", "No place given")
    rows = {row["title"]: row for row in weather_api.list_all()}
    assert rows["Rain"]["weather"]["icon"] == "rain-night"
    assert rows["Indoors"]["weather"] is None
    found = weather_api.get("/api/v1/search", params={"q": "river"}).json()["results"]
    assert [r["entry"]["weather"]["icon"] for r in found] == ["rain-night"]
    assert len(open_meteo.requests) == 1, "an entry without a place asks for no weather"


def test_a_backdated_entry_gets_no_weather_of_now(weather_api, open_meteo):
    """The provider knows the weather of now, not of then: an entry dated days ago (written the
    next morning about the evening before) gets none, as `diary new` gives it none; one dated a
    few minutes ago is still now."""
    import datetime
    now = datetime.datetime.now(datetime.timezone.utc)
    then = (now - datetime.timedelta(days=3)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    backdated = weather_api.create("Last Tuesday", "Rained, I think.", location=SEOUL, createdAt=then)
    recent = (now - datetime.timedelta(minutes=10)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    just_now = weather_api.create("Ten minutes ago", "Still raining.", location=SEOUL, createdAt=recent)
    assert wait_for_weather(weather_api, just_now["id"])["weather"] is not None
    assert len(open_meteo.requests) == 1, "the backdated entry asked the provider for the weather of now"
    assert weather_api.get(f"/api/v1/entries/{backdated['id']}").json()["weather"] is None


def iso(moment):
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def test_an_entry_moved_to_another_day_loses_the_weather_of_the_moment_it_was_written(weather_api, open_meteo):
    """Written this morning about last night, then redated: this morning's weather is not last
    night's. A few minutes' correction keeps it."""
    import datetime
    entry = weather_api.create("Last night", "It poured.", location=SEOUL)
    written = datetime.datetime.fromisoformat(wait_for_weather(weather_api, entry["id"])["createdAt"].replace("Z", "+00:00"))
    nudged = weather_api.patch(f"/api/v1/entries/{entry['id']}", json={"createdAt": iso(written - datetime.timedelta(minutes=10))},
                               headers={"If-Match": '"1"'})
    assert nudged.status_code == 200, nudged.text
    assert nudged.json()["weather"]["icon"] == "rain-night"
    redated = weather_api.patch(f"/api/v1/entries/{entry['id']}", json={"createdAt": iso(written - datetime.timedelta(hours=12))},
                                headers={"If-Match": '"2"'})
    assert redated.status_code == 200, redated.text
    assert redated.json()["weather"] is None
    assert redated.json()["location"] == {"latitude": 37.57, "longitude": 126.98}
    assert weather_api.get(f"/api/v1/entries/{entry['id']}").json()["weather"] is None


def test_weather_that_answers_after_its_entry_was_backdated_is_not_attached(weather_api, open_meteo):
    import datetime
    open_meteo.delay = 1.0
    entry = weather_api.create("This morning", "Or was it yesterday?", location=SEOUL)
    then = iso(datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=2))
    redated = weather_api.patch(f"/api/v1/entries/{entry['id']}", json={"createdAt": then}, headers={"If-Match": '"1"'})
    assert redated.status_code == 200, redated.text
    deadline = time.monotonic() + 10
    while not open_meteo.requests and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(open_meteo.requests) == 1, "the entry was new and of now when it was made"
    time.sleep(2.0)  # the answer came and went
    assert weather_api.get(f"/api/v1/entries/{entry['id']}").json()["weather"] is None


def test_the_weather_survives_an_edit_and_the_trash(weather_api, open_meteo):
    entry = weather_api.create("Rain", "x", location=SEOUL)
    wait_for_weather(weather_api, entry["id"])

    edited = weather_api.put(f"/api/v1/entries/{entry['id']}", json={"title": "Rain!", "body": "y"},
                             headers={"If-Match": '"1"'}).json()
    assert edited["weather"]["icon"] == "rain-night"
    assert edited["location"] == {"latitude": 37.57, "longitude": 126.98}
    trashed = weather_api.delete(f"/api/v1/entries/{entry['id']}").json()
    assert trashed["weather"]["icon"] == "rain-night"
    rows = weather_api.list_all("/api/v1/trash")
    assert rows[0]["weather"]["icon"] == "rain-night"


def test_a_retried_create_does_not_ask_for_the_weather_again(weather_api, open_meteo):
    payload = {"id": str(uuid.uuid4()), "title": "Once", "body": "x", "location": SEOUL}
    first = weather_api.post("/api/v1/entries", json=payload)
    assert first.status_code == 201
    wait_for_weather(weather_api, payload["id"])

    second = weather_api.post("/api/v1/entries", json={**payload, "location": {"latitude": 0, "longitude": 0}})

    assert second.status_code == 200, second.text
    assert second.json()["location"] == {"latitude": 37.57, "longitude": 126.98}
    time.sleep(0.5)  # time for a second request to reach the fake, were one sent: none may
    assert len(open_meteo.requests) == 1
