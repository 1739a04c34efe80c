"""Photos (issue 19) through the API: kept by their content, told by their bytes, stripped of
where they were taken, served only to their owner, named in entries, let go when no entry holds
them any more. Real image files (Tests/photo_files.py, made with Pillow), a real server."""

from __future__ import annotations

import hashlib
import select
import sys
from pathlib import Path

import pytest
import requests

import diary_api
from diary_api import Api, assert_error

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import photo_files  # noqa: E402
from diary_harness import wait_for  # noqa: E402


def upload(api: Api, data: bytes, content_type: str = "image/jpeg") -> requests.Response:
    return api.post("/api/v1/photos", data=data, headers={"Content-Type": content_type})


def kept(api: Api, data: bytes, content_type: str = "image/jpeg") -> dict:
    response = upload(api, data, content_type)
    assert response.status_code in (200, 201), response.text
    return response.json()


def test_a_photo_is_kept_by_its_content_and_read_back_as_it_was_kept(api):
    data = photo_files.png(320, 200)
    response = upload(api, data, "image/png")
    assert response.status_code == 201, response.text
    photo = response.json()
    assert photo == {"id": photo["id"], "type": "image/png", "width": 320, "height": 200, "bytes": photo["bytes"],
                     "thumbnail": False}
    assert response.headers["Location"] == f"/api/v1/photos/{photo['id']}"

    read = api.get(f"/api/v1/photos/{photo['id']}")
    assert read.status_code == 200
    assert read.headers["Content-Type"] == "image/png"
    assert hashlib.sha256(read.content).hexdigest() == photo["id"], "a photo's name is the SHA-256 of its bytes"
    assert len(read.content) == photo["bytes"]
    assert read.headers["ETag"] == f'"{photo["id"]}"'
    assert "immutable" in read.headers["Cache-Control"] and "private" in read.headers["Cache-Control"]
    assert read.headers["X-Content-Type-Options"] == "nosniff"

    again = upload(api, data, "image/png")
    assert again.status_code == 200, "the same photo again is the same stored copy"
    assert again.json()["id"] == photo["id"]

    unchanged = api.get(f"/api/v1/photos/{photo['id']}", headers={"If-None-Match": read.headers["ETag"]})
    assert unchanged.status_code == 304 and unchanged.content == b""


def test_the_type_is_told_from_the_bytes_not_from_what_the_upload_says(api):
    for data, expected in ((photo_files.jpeg(), "image/jpeg"), (photo_files.png(), "image/png"),
                           (photo_files.webp(), "image/webp"), (photo_files.gif(), "image/gif")):
        photo = kept(api, data, "text/html")  # a lie about the type changes nothing
        assert photo["type"] == expected
        assert api.get(f"/api/v1/photos/{photo['id']}").headers["Content-Type"] == expected


@pytest.mark.parametrize("kind", sorted(photo_files.NOT_PHOTOS))
def test_what_is_not_a_photo_is_refused_with_415(api, kind):
    response = upload(api, photo_files.NOT_PHOTOS[kind], "image/jpeg")
    payload = assert_error(response, 415, "not_a_photo")
    assert "JPEG" in payload["message"]


@pytest.mark.parametrize("bomb", ["png", "jpeg"])
def test_a_photo_bomb_is_refused_from_its_header(api, bomb):
    data = photo_files.png_bomb() if bomb == "png" else photo_files.jpeg_bomb()
    assert len(data) < 10_000
    assert_error(upload(api, data), 422, "bad_photo")


def test_an_empty_upload_and_an_oversized_one_are_refused(api):
    assert_error(upload(api, b""), 400, "bad_request")
    too_big = b"\xff\xd8\xff" + b"\0" * (20 * 1024 * 1024)
    assert_error(upload(api, too_big), 413, "too_large")


def test_where_a_photo_was_taken_never_reaches_the_store(api):
    data = photo_files.jpeg(800, 600, gps=True)
    assert photo_files.has_gps(data), "the test photo carries a GPS position"
    assert b"SN-4242-SECRET" in data
    photo = kept(api, data)
    stored = api.get(f"/api/v1/photos/{photo['id']}").content
    assert not photo_files.has_gps(stored)
    assert b"SN-4242-SECRET" not in stored and b"DiaryCam" not in stored
    assert stored[:2] == b"\xff\xd8" and (photo["width"], photo["height"]) == (800, 600)
    assert hashlib.sha256(stored).hexdigest() == photo["id"]


def test_an_entry_holds_photos_with_captions_and_the_list_shows_the_first(api):
    first, second = kept(api, photo_files.jpeg(640, 480)), kept(api, photo_files.png(100, 300), "image/png")
    entry = api.create("A day out", "By the river.",
                       photos=[{"id": first["id"], "caption": "강가에서"}, {"id": second["id"]}])
    assert entry["photos"] == [
        {"id": first["id"], "caption": "강가에서", "width": 640, "height": 480},
        {"id": second["id"], "caption": "", "width": 100, "height": 300},
    ]
    row = api.list_all()[0]
    assert row["photo"] == first["id"]

    # Reordered, one removed, a caption changed: a new version, conflicting like any edit.
    changed = api.patch(f"/api/v1/entries/{entry['id']}", headers={"If-Match": '"1"'},
                        json={"photos": [{"id": second["id"], "caption": "the other"}]})
    assert changed.status_code == 200, changed.text
    assert changed.json()["version"] == 2
    assert [p["id"] for p in changed.json()["photos"]] == [second["id"]]
    stale = api.patch(f"/api/v1/entries/{entry['id']}", headers={"If-Match": '"1"'}, json={"photos": []})
    assert_error(stale, 409, "conflict")
    # A PUT of the words alone leaves the photos as they are.
    words = api.put(f"/api/v1/entries/{entry['id']}", headers={"If-Match": '"2"'}, json={"title": "A day out", "body": "Rain."})
    assert words.status_code == 200 and [p["id"] for p in words.json()["photos"]] == [second["id"]]
    assert "photo" not in api.post("/api/v1/entries", json={"title": "No photo", "body": ""}).json()


def test_a_photo_alone_is_an_entry_but_nothing_at_all_is_not(api):
    photo = kept(api, photo_files.jpeg())
    entry = api.create("", "", photos=[{"id": photo["id"]}])
    assert entry["title"] == "" and entry["body"] == "" and len(entry["photos"]) == 1
    # Its last photo removed with no words left: blank, refused, the entry kept as it was.
    emptied = api.patch(f"/api/v1/entries/{entry['id']}", headers={"If-Match": '"1"'}, json={"photos": []})
    assert_error(emptied, 422, "blank_entry")
    assert len(api.get(f"/api/v1/entries/{entry['id']}").json()["photos"]) == 1
    assert_error(api.post("/api/v1/entries", json={"title": " ", "body": "", "photos": []}), 422, "blank_entry")


def test_an_entry_names_only_photos_the_diary_holds_each_once_at_most_thirty(api):
    unknown = "ab" * 32
    assert_error(api.post("/api/v1/entries", json={"title": "t", "body": "", "photos": [{"id": unknown}]}), 422, "bad_photos")
    assert_error(api.post("/api/v1/entries", json={"title": "t", "body": "", "photos": [{"id": "not-a-name"}]}), 400, "bad_request")
    photo = kept(api, photo_files.jpeg())
    twice = [{"id": photo["id"]}, {"id": photo["id"]}]
    assert_error(api.post("/api/v1/entries", json={"title": "t", "body": "", "photos": twice}), 422, "bad_photos")
    long_caption = [{"id": photo["id"], "caption": "글" * 1001}]
    assert_error(api.post("/api/v1/entries", json={"title": "t", "body": "", "photos": long_caption}), 422, "bad_photos")
    many = [kept(api, photo_files.png(8 + n, 8), "image/png")["id"] for n in range(31)]
    payload = assert_error(api.post("/api/v1/entries", json={"title": "t", "body": "", "photos": [{"id": i} for i in many]}),
                           422, "bad_photos")
    assert "30" in payload["message"]
    assert len(api.create("thirty", "", photos=[{"id": i} for i in many[:30]])["photos"]) == 30
    assert api.list_all()[0]["title"] == "thirty" and len(api.list_all()) == 1


def test_a_thumbnail_made_by_the_client_is_kept_and_served_for_good(api):
    photo = kept(api, photo_files.jpeg(1600, 1200))
    before = api.get(f"/api/v1/photos/{photo['id']}/thumbnail")
    assert before.status_code == 200 and before.headers["Content-Type"] == "image/jpeg"
    assert before.headers["Cache-Control"] == "private, no-cache", "the photo stands in, not for good"

    too_big = api.put(f"/api/v1/photos/{photo['id']}/thumbnail", data=photo_files.jpeg(1024, 768),
                      headers={"Content-Type": "image/jpeg"})
    assert_error(too_big, 422, "bad_photo")
    small = photo_files.jpeg(256, 192)
    response = api.put(f"/api/v1/photos/{photo['id']}/thumbnail", data=small, headers={"Content-Type": "image/jpeg"})
    assert response.status_code == 200, response.text
    assert response.json()["thumbnail"] is True
    after = api.get(f"/api/v1/photos/{photo['id']}/thumbnail")
    assert after.status_code == 200 and len(after.content) < len(before.content)
    assert "immutable" in after.headers["Cache-Control"]
    assert api.get(f"/api/v1/photos/{photo['id']}/thumbnail", headers={"If-None-Match": after.headers["ETag"]}).status_code == 304
    unknown = api.put(f"/api/v1/photos/{'cd' * 32}/thumbnail", data=small, headers={"Content-Type": "image/jpeg"})
    assert_error(unknown, 404, "not_found")


def test_photos_follow_their_entry_to_the_trash_and_go_when_it_is_deleted_for_good(api):
    shared, own = kept(api, photo_files.jpeg(300, 200)), kept(api, photo_files.png(50, 50), "image/png")
    doomed = api.create("doomed", "", photos=[{"id": shared["id"]}, {"id": own["id"]}])
    keeper = api.create("keeper", "", photos=[{"id": shared["id"]}])
    assert api.delete(f"/api/v1/entries/{doomed['id']}").status_code == 200
    # In the trash the entry keeps its photos, readable, restorable.
    assert api.get(f"/api/v1/photos/{own['id']}").status_code == 200
    assert api.get(f"/api/v1/entries/{doomed['id']}").json()["photos"][1]["id"] == own["id"]
    assert api.delete(f"/api/v1/trash/{doomed['id']}").status_code == 204
    assert_error(api.get(f"/api/v1/photos/{own['id']}"), 404, "not_found")
    assert api.get(f"/api/v1/photos/{shared['id']}").status_code == 200, "another entry still holds it"

    assert api.delete(f"/api/v1/entries/{keeper['id']}").status_code == 200
    assert api.delete("/api/v1/trash").status_code == 200
    assert_error(api.get(f"/api/v1/photos/{shared['id']}"), 404, "not_found")


def test_photos_are_their_owners_alone(api, server):
    photo = kept(api, photo_files.jpeg())
    anonymous = requests.get(f"{server.base_url}/api/v1/photos/{photo['id']}", timeout=30)
    assert_error(anonymous, 401, "unauthenticated")
    assert_error(requests.post(f"{server.base_url}/api/v1/photos", data=photo_files.jpeg(), timeout=30), 401, "unauthenticated")
    # A write from a page of another site is refused (CSRF), as every write is.
    forged = requests.post(f"{server.base_url}/api/v1/photos", data=photo_files.jpeg(),
                           headers={"Cookie": api.session.headers["Cookie"]}, timeout=30)
    assert forged.status_code == 403


def test_a_quota_bounds_what_a_diary_s_photos_take(start_server):
    server = start_server("--photo-quota", "1")
    api = Api(server.base_url)
    first = photo_files.jpeg(800, 600, quality=90, noise=True)
    assert 300_000 < len(first) < 500_000, len(first)
    assert upload(api, first).status_code == 201
    assert upload(api, photo_files.jpeg(800, 600, quality=90, noise=True)).status_code == 201
    payload = assert_error(upload(api, photo_files.jpeg(800, 600, quality=90, noise=True)), 413, "over_quota")
    assert "1 MB" in payload["message"] or "allowance" in payload["message"]
    assert upload(api, first).status_code == 200, "a photo already kept is no more room"


def test_one_writer_sends_at_most_four_photos_at_once(api, base_url):
    """Each upload holds a temporary file and the server's work: a fifth at once is refused with
    429 and Retry-After (the web app sends one at a time), and a place frees when one ends."""
    def half_sent():
        """A photo half sent, its sender slow: it holds one of the writer's places."""
        return diary_api.half_sent(base_url, "/api/v1/photos", "image/jpeg", b"\xff\xd8" + bytes(1000))

    held = [half_sent() for _ in range(4)]
    photo = photo_files.jpeg(64, 48)

    def fifth_refused():
        # A fifth that came before one of the four took its place, and that one was answered
        # (refused): send it again, so four are held.
        for i, connection in enumerate(held):
            if select.select([connection], [], [], 0)[0]:
                connection.close()
                held[i] = half_sent()
        response = upload(api, photo)
        return response.status_code == 429 and (response,)  # (a tuple: a 4xx response is falsy)

    try:
        (refused,) = wait_for(fifth_refused, timeout=20, message="a fifth photo at once to be refused")
        assert_error(refused, 429, "too_many_uploads")
        assert refused.headers["Retry-After"] == "1"
        assert "4 photos at once" in refused.json()["message"]
        held.pop().close()  # one of them gives up
        wait_for(lambda: upload(api, photo).status_code in (200, 201), timeout=20,
                 message="a place to free once an upload ends")
    finally:
        for connection in held:
            connection.close()
