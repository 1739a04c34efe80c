"""The sample diary, and the OpenAPI document the server serves."""

import json
from collections import Counter
from pathlib import Path

import pytest
import yaml

from diary_api import assert_error
from openapi_check import DOCUMENT

# The sample is an import (test_import_api runs on PostgreSQL) and the document a file: not run
# again on PostgreSQL (conftest.py).
pytestmark = pytest.mark.same_on_every_backend

# The seed sample the server loads, as the test fixtures keep it (a copy of the original records).
SAMPLE = Path(__file__).resolve().parents[1] / "fixtures/seed-sample.json"


def test_the_sample_diary_loads_into_an_empty_diary_once(api):
    loaded = api.post("/api/v1/sample")

    assert loaded.status_code == 201, loaded.text
    assert loaded.json() == {"imported": 15}
    rows = api.list_all()
    assert len(rows) == 15
    assert len({row["id"] for row in rows}) == 15, "the duplicate records are distinct entries"
    assert all(row["createdAt"] == "2020-12-22T15:35:33.000Z" for row in rows), [r["createdAt"] for r in rows]
    assert all(row["version"] == 1 and row["deletedAt"] is None for row in rows)

    again = api.post("/api/v1/sample")

    assert_error(again, 409, "not_empty")
    assert len(api.list_all()) == 15


@pytest.mark.skipif(not SAMPLE.exists(), reason=f"no {SAMPLE}")
def test_the_sample_diary_holds_the_original_records(api):
    records = json.loads(SAMPLE.read_text())
    api.post("/api/v1/sample")

    entries = [api.get(f"/api/v1/entries/{row['id']}").json() for row in api.list_all()]

    assert Counter((e["title"], e["body"]) for e in entries) == Counter((r["title"], r["body"]) for r in records)


def test_the_sample_diary_is_refused_when_the_diary_has_entries(api):
    api.create("Mine", "already here")

    assert_error(api.post("/api/v1/sample"), 409, "not_empty")
    assert len(api.list_all()) == 1


def test_the_sample_can_be_searched(api):
    api.post("/api/v1/sample")

    results = api.get("/api/v1/search", params={"q": "serenity", "limit": 100}).json()["results"]

    assert len(results) == 15


def test_the_server_serves_this_openapi_document(api):
    response = api.get("/api/v1/openapi.yaml")

    assert response.status_code == 200
    assert response.headers["Content-Type"].split(";")[0].strip() == "application/yaml"
    served = yaml.safe_load(response.content)
    assert served["openapi"] == "3.1.0"
    assert served == yaml.safe_load(DOCUMENT.read_bytes()), (
        "the served document differs from Sources/DiaryServer/Resources/openapi.yaml (rebuild the server?)"
    )


def test_the_document_is_valid_openapi_3_1():
    from openapi_spec_validator import validate
    from openapi_spec_validator.readers import read_from_filename

    spec, _ = read_from_filename(str(DOCUMENT))

    assert spec["openapi"] == "3.1.0"
    validate(spec)
