"""What the server refuses, and how it says so."""

import http.client
import json
import uuid
from urllib.parse import urlsplit

import pytest

from diary_api import assert_error, auth_headers
from openapi_check import check

# Requests refused before they reach storage: not run again on PostgreSQL (conftest.py).
pytestmark = pytest.mark.same_on_every_backend

MIB = 1024 * 1024


# Blank entries

@pytest.mark.parametrize("title,body", [("", ""), ("   ", "\n\t \n"), ("\u3000", " ")])
def test_a_blank_entry_is_never_stored(api, title, body):
    response = api.post("/api/v1/entries", json={"title": title, "body": body})

    assert_error(response, 422, "blank_entry")
    assert api.list_all() == []


def test_an_entry_cannot_be_updated_to_blank(api):
    entry = api.create("Title", "Body")

    response = api.put(f"/api/v1/entries/{entry['id']}", json={"title": " ", "body": "\n"},
                       headers={"If-Match": '"1"'})

    assert_error(response, 422, "blank_entry")
    assert api.get(f"/api/v1/entries/{entry['id']}").json() == entry


# Limits

def test_a_title_of_1000_characters_is_accepted(api):
    title = "가" * 1000

    response = api.post("/api/v1/entries", json={"title": title, "body": ""})

    assert response.status_code == 201, response.text[:300]
    assert response.json()["title"] == title


def test_a_title_over_1000_characters_is_too_large(api):
    response = api.post("/api/v1/entries", json={"title": "a" * 1001, "body": "body"})

    assert_error(response, 413, "too_large")
    assert api.list_all() == []


def test_an_update_with_a_title_over_1000_characters_is_too_large(api):
    entry = api.create("Title", "Body")

    response = api.put(f"/api/v1/entries/{entry['id']}", json={"title": "a" * 1001, "body": "Body"},
                       headers={"If-Match": '"1"'})

    assert_error(response, 413, "too_large")


def test_a_body_of_exactly_1_mib_is_accepted(api):
    body = "a" * (MIB - 3) + "가"  # 1,048,576 bytes of UTF-8

    response = api.post("/api/v1/entries", json={"title": "Big", "body": body})

    assert response.status_code == 201, response.text[:300]
    assert api.get(f"/api/v1/entries/{response.json()['id']}").json()["body"] == body


def test_a_body_of_1_mib_and_1_byte_is_too_large(api):
    response = api.post("/api/v1/entries", json={"title": "Big", "body": "a" * (MIB + 1)})

    assert_error(response, 413, "too_large")
    assert api.list_all() == []


def test_a_body_limit_counts_utf8_bytes_not_characters(api):
    body = "가" * (MIB // 3 + 1)  # 349,526 characters, 1,048,578 bytes

    response = api.post("/api/v1/entries", json={"title": "Big", "body": body})

    assert_error(response, 413, "too_large")


def _raw_exchange(base_url, method, path, headers, chunks=()):
    """Send a request by hand; the response, or None if the server closed the connection first."""
    parts = urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.putrequest(method, path)
        for name, value in {**auth_headers(base_url), **headers}.items():
            connection.putheader(name, value)
        connection.endheaders()
        try:
            for chunk in chunks:
                connection.send(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server stopped reading: it may still have answered
        try:
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        except (ConnectionResetError, http.client.RemoteDisconnected):
            return None
    finally:
        connection.close()


def test_a_request_body_over_7_mib_is_refused_before_it_is_read(base_url):
    headers = {"Content-Type": "application/json", "Content-Length": str(8 * MIB)}

    # Only the headers are sent: a server that waits for the body times out here.
    try:
        exchange = _raw_exchange(base_url, "POST", "/api/v1/entries", headers)
    except TimeoutError:
        pytest.fail("the server waited for an 8 MiB body instead of refusing it from its Content-Length")

    assert exchange is not None, "the server closed the connection without an answer"
    status, response_headers, body = exchange
    check("POST", base_url + "/api/v1/entries", headers, None, status, response_headers, body)
    assert status == 413, body[:300]
    assert json.loads(body)["error"] == "too_large"


def test_a_chunked_request_body_over_7_mib_is_refused(base_url, api):
    headers = {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}
    piece = b'{"title":"x","body":"' + b"a" * (64 * 1024)
    chunks = [b"%x\r\n%s\r\n" % (len(piece), piece)]
    filler = b"a" * (64 * 1024)
    chunks += [b"%x\r\n%s\r\n" % (len(filler), filler)] * 128  # about 8 MiB in all
    chunks += [b'2\r\n"}\r\n', b"0\r\n\r\n"]

    exchange = _raw_exchange(base_url, "POST", "/api/v1/entries", headers, chunks)

    if exchange is not None:  # a server may also just close the connection
        status, response_headers, body = exchange
        check("POST", base_url + "/api/v1/entries", headers, None, status, response_headers, body)
        assert status == 413, body[:300]
        assert json.loads(body)["error"] == "too_large"
    assert api.list_all() == []


# Malformed requests

@pytest.mark.parametrize("payload", [b'{"title": "x", "body": ', b"not json", b"", b"[1, 2]", b'"a string"'])
def test_a_body_that_is_not_a_json_object_is_a_bad_request(api, payload):
    response = api.post("/api/v1/entries", data=payload, headers={"Content-Type": "application/json"})

    assert_error(response, 400, "bad_request")


@pytest.mark.parametrize("payload", [
    {"title": 5, "body": "x"},
    {"title": "x", "body": ["x"]},
    {"title": None, "body": "x"},
    {"id": "not-a-uuid", "title": "x", "body": "x"},
    {"id": 7, "title": "x", "body": "x"},
])
def test_a_field_of_the_wrong_type_is_a_bad_request(api, payload):
    response = api.post("/api/v1/entries", json=payload)

    assert_error(response, 400, "bad_request")
    assert api.list_all() == []


def test_an_update_with_a_field_of_the_wrong_type_is_a_bad_request(api):
    entry = api.create("Title", "Body")

    response = api.put(f"/api/v1/entries/{entry['id']}", json={"title": "Title", "body": 5},
                       headers={"If-Match": '"1"'})

    assert_error(response, 400, "bad_request")


def test_a_body_that_is_not_json_is_an_unsupported_media_type(api):
    response = api.post("/api/v1/entries", data=b'{"title":"x","body":"y"}', headers={"Content-Type": "text/plain"})

    assert_error(response, 415, "unsupported_media_type")
    assert api.list_all() == []


def test_an_update_that_is_not_json_is_an_unsupported_media_type(api):
    entry = api.create("Title", "Body")

    response = api.put(f"/api/v1/entries/{entry['id']}", data=b"title=x&body=y",
                       headers={"Content-Type": "application/x-www-form-urlencoded", "If-Match": '"1"'})

    assert_error(response, 415, "unsupported_media_type")


def test_a_tag_rename_that_is_not_json_is_an_unsupported_media_type(api):
    entry = api.create("Title", "Body", tags=["trip"])

    response = api.post("/api/v1/tags/rename", data=b"from=trip&to=travel",
                        headers={"Content-Type": "application/x-www-form-urlencoded"})

    assert_error(response, 415, "unsupported_media_type")
    assert api.get(f"/api/v1/entries/{entry['id']}").json()["tags"] == ["trip"]


# Unknown and malformed ids

ID_OPERATIONS = [
    ("GET", "/api/v1/entries/{id}"),
    ("PUT", "/api/v1/entries/{id}"),
    ("DELETE", "/api/v1/entries/{id}"),
    ("POST", "/api/v1/entries/{id}/restore"),
    ("DELETE", "/api/v1/trash/{id}"),
]


def _call(api, method, path):
    if method == "PUT":
        return api.put(path, json={"title": "x", "body": "y"}, headers={"If-Match": '"1"'})
    return api.request(method, path)


@pytest.mark.parametrize("method,template", ID_OPERATIONS)
def test_an_unknown_id_is_not_found(api, method, template):
    api.create("Someone else", "")

    response = _call(api, method, template.format(id=uuid.uuid4()))

    assert_error(response, 404, "not_found")


@pytest.mark.parametrize("method,template", ID_OPERATIONS)
@pytest.mark.parametrize("bad_id", ["not-a-uuid", "12345", "0b5c2a4e-8f6e-4c51-9b0c-3d1f2a6b7c8"])
def test_an_id_that_is_not_a_uuid_is_not_found(api, method, template, bad_id):
    # Documented choice: a malformed id names no entry, so it is 404 not_found like an unknown one.
    response = _call(api, method, template.format(id=bad_id))

    assert_error(response, 404, "not_found")


@pytest.mark.parametrize("if_match", ['"01"', '"+1"', "1.0", '"1 "', "-1"])
def test_an_if_match_that_is_not_exactly_a_version_is_refused(api, if_match):
    """ETags compare as exact strings: "01" and "+1" are not the entry's "1"."""
    entry = api.create("Kept", "as it was")
    response = api.put(f"/api/v1/entries/{entry['id']}", json={"title": "Changed", "body": ""}, headers={"If-Match": if_match})
    assert_error(response, 400, "bad_request")
    assert api.get(f"/api/v1/entries/{entry['id']}").json()["title"] == "Kept"
