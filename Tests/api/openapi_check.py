"""Holds every response the tests see to the OpenAPI document.

`check(method, url, request_headers, request_body, status, response_headers,
response_body)` validates one exchange with openapi-core: the status must be
documented for the operation, the documented headers present and well formed,
and the body must match the documented media type and schema. It raises
`AssertionError` with the exchange and every problem found.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Mapping, Optional
from urllib.parse import parse_qs, urlsplit

from openapi_core import OpenAPI
from openapi_core.datatypes import RequestParameters
from werkzeug.datastructures import Headers, ImmutableMultiDict

DOCUMENT = Path(__file__).resolve().parents[2] / "Sources/DiaryServer/Resources/openapi.yaml"


@lru_cache(maxsize=1)
def document() -> OpenAPI:
    return OpenAPI.from_file_path(str(DOCUMENT))


class _Request:
    """openapi_core.protocols.Request over plain values."""

    def __init__(self, method: str, url: str, headers: Mapping[str, str], body: Optional[bytes]):
        parts = urlsplit(url)
        self.host_url = f"{parts.scheme}://{parts.netloc}"
        self.path = parts.path
        self.method = method.lower()
        self.body = body
        headers = Headers(list(headers.items()))
        self.content_type = (headers.get("Content-Type") or "").lower()
        self.parameters = RequestParameters(
            query=ImmutableMultiDict(parse_qs(parts.query, keep_blank_values=True)),
            header=headers,
            cookie=ImmutableMultiDict(),
        )


class _Response:
    """openapi_core.protocols.Response over plain values."""

    def __init__(self, status: int, headers: Mapping[str, str], body: bytes):
        self.status_code = status
        self.headers = Headers(list(headers.items()))
        self.content_type = (self.headers.get("Content-Type") or "").lower()
        self.data = body


def _describe(error: BaseException) -> str:
    """The error and what caused it, down to each schema error, kept short."""
    lines = []
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        sub_errors = getattr(error, "schema_errors", None) or []
        if sub_errors:
            for sub in sub_errors:
                path = "/".join(str(p) for p in sub.absolute_path)
                lines.append(f"  at /{path}: {sub.message[:300]}")
        else:
            lines.append(f"{type(error).__name__}: {str(error)[:300]}")
        error = error.__cause__ or error.__context__
    return "\n".join(lines)


def check(
    method: str,
    url: str,
    request_headers: Mapping[str, str],
    request_body: Optional[bytes],
    status: int,
    response_headers: Mapping[str, str],
    response_body: bytes,
) -> None:
    request = _Request(method, url, request_headers, request_body)
    response = _Response(status, response_headers, response_body)
    try:
        document().validate_response(request, response)
    except Exception as error:  # openapi-core raises several families
        shown = response_body[:600].decode("utf-8", "replace")
        raise AssertionError(
            f"{method.upper()} {url} -> {status} does not match the OpenAPI document:\n"
            f"{_describe(error)}\n"
            f"response headers: {dict(response_headers)}\n"
            f"response body: {shown}"
        ) from None
