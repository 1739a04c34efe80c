"""Delete to the trash, list it, restore, and purge for good."""

import time

from diary_api import assert_error


def test_a_deleted_entry_goes_to_the_trash_and_can_be_restored(api):
    keep = api.create("Keep", "")
    entry = api.create("Oops", "deleted by mistake")
    path = f"/api/v1/entries/{entry['id']}"

    deleted = api.delete(path)

    assert deleted.status_code == 200, deleted.text
    trashed = deleted.json()
    assert trashed["id"] == entry["id"]
    assert trashed["deletedAt"] is not None
    assert trashed["deletedAt"] >= entry["createdAt"]
    assert (trashed["title"], trashed["body"]) == (entry["title"], entry["body"])
    assert [row["id"] for row in api.list_all()] == [keep["id"]]
    trash = api.list_all("/api/v1/trash")
    assert [row["id"] for row in trash] == [entry["id"]]
    assert trash[0]["deletedAt"] == trashed["deletedAt"]
    still_there = api.get(path)
    assert still_there.status_code == 200
    assert still_there.json()["deletedAt"] == trashed["deletedAt"]

    restored = api.post(f"{path}/restore")

    assert restored.status_code == 200, restored.text
    assert restored.json()["deletedAt"] is None
    assert (restored.json()["title"], restored.json()["body"]) == (entry["title"], entry["body"])
    assert {row["id"] for row in api.list_all()} == {keep["id"], entry["id"]}
    assert api.list_all("/api/v1/trash") == []
    assert api.get(path).json()["deletedAt"] is None


def test_the_trash_lists_the_most_recently_deleted_first(api):
    first, second, third = (api.create(f"Entry {n}", "") for n in range(3))
    for entry in (second, first, third):
        api.delete(f"/api/v1/entries/{entry['id']}")
        time.sleep(0.01)  # distinct deletion times

    trash = api.list_all("/api/v1/trash")

    assert [row["id"] for row in trash] == [third["id"], first["id"], second["id"]]


def test_the_trash_pages_with_a_cursor(api):
    entries = [api.create(f"Entry {n}", "") for n in range(5)]
    for entry in entries:
        api.delete(f"/api/v1/entries/{entry['id']}")

    first = api.get("/api/v1/trash", params={"limit": 2}).json()
    rows = api.list_all("/api/v1/trash", limit=2)

    assert len(first["entries"]) == 2 and first["nextCursor"] is not None
    assert sorted(row["id"] for row in rows) == sorted(entry["id"] for entry in entries)


def test_a_purged_entry_is_gone_for_good(api):
    entry = api.create("Secret", "to forget")
    path = f"/api/v1/entries/{entry['id']}"
    api.delete(path)

    purged = api.delete(f"/api/v1/trash/{entry['id']}")

    assert purged.status_code == 204, purged.text
    assert purged.content == b""
    assert_error(api.get(path), 404, "not_found")
    assert api.list_all("/api/v1/trash") == []
    assert api.list_all() == []
    assert_error(api.post(f"{path}/restore"), 404, "not_found")
