"""The fixtures of the reliability tests (see reliability_support.py for what they use):
`account` (a diary file with user `tester` and a bearer token) and `server` (a running
`diary serve` on it, stopped afterwards).
What the tests measure with record_property is printed at the end of the run.
"""

from __future__ import annotations

import pytest

from reliability_support import Account, ServerProcess, diary_harness


@pytest.fixture
def account(tmp_path) -> Account:
    """A diary file, or with DIARY_TEST_BACKEND=postgres a new PostgreSQL database."""
    return Account(diary_harness.fresh_database(tmp_path / "diary.sqlite"))


@pytest.fixture
def server(account, tmp_path):
    """A running `diary serve` on the account's diary; stopped (SIGTERM, else kill) after."""
    srv = ServerProcess(account.database, workdir=tmp_path)
    srv.start()
    yield srv
    srv.stop()


# What the tests measured (record_property), shown at the end of every run, even without -s.
_measured: list = []


def pytest_runtest_logreport(report):
    if report.when == "call" and report.user_properties:
        _measured.append((report.nodeid, report.user_properties))


def pytest_terminal_summary(terminalreporter):
    if _measured:
        terminalreporter.section("reliability measurements")
        for nodeid, props in _measured:
            terminalreporter.write_line(f"{nodeid}: " + ", ".join(f"{k}={v}" for k, v in props))
