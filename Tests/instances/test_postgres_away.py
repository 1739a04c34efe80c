"""PostgreSQL stopped under three running instances: each answers 503 with a message (and stays
up) while it is away, the web app keeps what the writer types, and everything recovers by
itself when PostgreSQL is back: the instances within seconds, the drafts then saved."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from conftest import until


def answers(diary, server, path="entries"):
    try:
        return diary.api(server, "GET", path, timeout=10)[0]
    except OSError as error:
        return str(error)


def every_instance_refuses_with_a_message(diary):
    for server in diary.servers:
        started = time.monotonic()
        status, headers, payload = diary.api(server, "GET", "entries", timeout=15)
        assert status == 503, (server.base_url, status, payload)
        assert payload["error"] == "storage_unavailable" and payload["message"], payload
        assert headers.get("Retry-After", "").isdigit(), dict(headers)
        assert time.monotonic() - started < 8, "a request waits at most a few seconds to be told"
        assert server.running(), f"{server.base_url} stopped while PostgreSQL was away:\n{server.log()}"


def test_the_web_app_keeps_the_drafts_while_postgresql_is_away_and_saves_them_after(diary, context, cluster):
    a = diary.servers[0].base_url
    status, _, entry = diary.api(a, "POST", "entries", {"title": "Before the outage", "body": "Saved."})
    assert status == 201
    page = context.new_page()
    page.goto(f"{a}/#/entry/{entry['id']}")
    body = page.get_by_role("textbox", name="Write here")
    expect(body).to_have_value("Saved.")

    cluster.stop()
    try:
        body.press("End")
        body.type(" Typed while the database was away.")
        expect(page.get_by_text("Not saved yet")).to_be_visible(timeout=15000)
        every_instance_refuses_with_a_message(diary)
        # A reload meanwhile: the kept words show at once, not after the server's answer.
        page.reload()
        expect(page.get_by_role("textbox", name="Write here")).to_have_value(
            "Saved. Typed while the database was away.")
        page.get_by_role("textbox", name="Write here").press("End")
        page.get_by_role("textbox", name="Write here").type(" And after the reload.")
    finally:
        cluster.start()

    for server in diary.servers:
        until(lambda: answers(diary, server) == 200, 15, f"{server.base_url} to recover by itself")
    until(lambda: diary.api(a, "GET", f"entries/{entry['id']}")[2]["body"]
          == "Saved. Typed while the database was away. And after the reload.",
          30, "the draft to be saved once PostgreSQL is back")


@pytest.mark.parametrize("outage", [30], ids=["30s"])
def test_instances_recover_by_themselves_after_a_long_outage(diary, cluster, outage):
    # postgres-nio's pool waits ever longer between attempts to connect (100 ms × 1.25 a time):
    # 30 s into an outage its next attempt is up to ~10 s away, and instances kept answering 503
    # that long after PostgreSQL was back. Each must answer within 5 s. A client asks all along.
    cluster.stop()
    try:
        deadline = time.monotonic() + outage
        while time.monotonic() < deadline:
            for server in diary.servers:
                assert answers(diary, server) == 503
            time.sleep(0.5)
        every_instance_refuses_with_a_message(diary)
    finally:
        cluster.start()
    back = time.monotonic()
    for server in diary.servers:
        until(lambda: answers(diary, server) == 200, 5, f"{server.base_url} to recover within seconds")
    recovered = time.monotonic() - back
    assert recovered < 5, recovered
    status, _, made = diary.api(diary.proxy.url, "POST", "entries", {"title": "After the outage", "body": ""})
    assert status == 201, made
