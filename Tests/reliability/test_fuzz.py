"""Schemathesis (4.x) fuzzes the API from the document the server itself serves.

Over 1,000 generated requests (valid and invalid data, plus stateful sequences built from
the links schemathesis infers: create, then read, update, trash, restore, purge), with the
bearer token: no answer may be a 5xx, and every answer must match the document (status code,
content type, headers and body schema).

The seed is random on each run and printed; set RELIABILITY_FUZZ_SEED to replay one.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys

import pytest

MIN_REQUESTS = 1000
MAX_EXAMPLES = 150          # per operation and phase: 1,300 to 1,700 requests in all
CHECKS = ",".join([
    "not_a_server_error",
    "response_schema_conformance",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
])


def test_fuzzing_the_api_finds_no_server_error_and_no_schema_violation(server, account, tmp_path,
                                                                       record_property):
    pytest.importorskip("schemathesis", reason="pip install schemathesis (see Tests/requirements.txt)")
    seed = int(os.environ.get("RELIABILITY_FUZZ_SEED") or random.randrange(1, 2**31))
    reports = tmp_path / "schemathesis"
    command = [
        sys.executable, "-m", "schemathesis.cli", "run", f"{server.api}/openapi.yaml",
        "--header", f"Authorization: Bearer {account.token}",
        "--checks", CHECKS,
        "--max-examples", str(MAX_EXAMPLES),
        "--seed", str(seed),
        "--workers", "1",
        "--request-timeout", "30",
        "--generation-database", "none",
        "--report", "json,vcr",
        "--report-dir", str(reports),
        "--output-truncate", "false",
        "--no-color",
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path,
                            env={**os.environ, "NO_COLOR": "1"})
    output = result.stdout + result.stderr
    output = output.replace(account.token, "[token]")

    report_files = list(reports.glob("json-*.json"))
    assert report_files, f"schemathesis wrote no report (exit {result.returncode}):\n{output[-4000:]}"
    report = json.loads(report_files[0].read_text())
    cassettes = list(reports.glob("vcr-*.yaml"))
    requests_sent = 0
    statuses: dict = {}
    for cassette in cassettes:
        text = cassette.read_text(errors="replace")
        requests_sent += len(re.findall(r"^- id:", text, flags=re.M))
        for code in re.findall(r"^\s+code: '(\d+)'", text, flags=re.M):
            statuses[code] = statuses.get(code, 0) + 1

    record_property("seed", seed)
    record_property("requests", requests_sent)
    record_property("test_cases", report["test_cases"]["generated"])
    record_property("statuses", dict(sorted(statuses.items())))

    if result.returncode != 0 or report["failures"] or report["errors"]:
        failures = output[output.find("FAILURES"):] if "FAILURES" in output else output[-6000:]
        pytest.fail(f"schemathesis found problems (replay with RELIABILITY_FUZZ_SEED={seed}):\n"
                    f"{failures[:12000]}", pytrace=False)
    assert not [c for c in statuses if c.startswith("5")], f"5xx answers: {statuses}"
    assert requests_sent >= MIN_REQUESTS, f"only {requests_sent} requests were generated"
    assert server.running(), f"the server died during fuzzing:\n{server.log()}"
