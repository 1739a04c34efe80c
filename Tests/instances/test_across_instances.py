"""What one instance writes, every other instance shows at once: entries (through a browser and
its first-page cache), sessions and their CSRF tokens, and the count of failed logins."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from conftest import TESTER, request, until


def test_a_browser_writes_through_one_instance_and_reads_through_another(diary, context):
    a, b = diary.servers[0].base_url, diary.servers[1].base_url
    on_a = context.new_page()
    on_a.goto(a + "/")  # A's list, shown once: its first page is now kept in A's memory
    expect(on_a.get_by_text("Your diary is empty.")).to_be_visible()

    on_a.goto(a + "/#/new")
    on_a.get_by_role("textbox", name="Title").fill("Written through A")
    on_a.get_by_role("textbox", name="Write here").fill("A body typed on the first instance.")
    until(lambda: any(e["title"] == "Written through A" and e.get("excerpt", "").startswith("A body typed")
                      for e in diary.api(b, "GET", "entries")[2]["entries"]),
          10, "the entry written through A to be read through B")

    on_b = context.new_page()
    on_b.goto(b + "/")
    row = on_b.get_by_role("link", name=re.compile("Written through A"))
    expect(row).to_be_visible()
    row.click()
    expect(on_b.get_by_role("textbox", name="Write here")).to_have_value("A body typed on the first instance.")
    on_b.get_by_role("textbox", name="Title").fill("Edited through B")
    on_b.get_by_role("textbox", name="Write here").click()  # leaving the title saves at once
    until(lambda: diary.api(a, "GET", "entries")[2]["entries"][0]["title"] == "Edited through B",
          10, "B's edit to be on the first page A serves")

    on_a.goto(a + "/")
    expect(on_a.get_by_role("link", name=re.compile("Edited through B"))).to_be_visible()
    expect(on_a.get_by_text("Written through A")).to_have_count(0)


def test_a_session_made_on_one_instance_works_on_every_other_and_ends_on_all(diary):
    a, b, c = (s.base_url for s in diary.servers)
    status, headers, session = request("POST", a + "/api/v1/session", TESTER)
    assert status == 200, session
    mine = {"Cookie": "; ".join(x.split(";")[0] for x in headers.get_all("Set-Cookie")), "X-CSRF-Token": session["csrfToken"]}
    status, _, entry = request("POST", b + "/api/v1/entries", {"title": "With A's session", "body": ""}, mine)
    assert status == 201, entry  # B knows A's session and its CSRF token
    status, _, refused = request("POST", c + "/api/v1/entries", {"title": "No token", "body": ""}, {"Cookie": mine["Cookie"]})
    assert status == 403 and refused["error"] == "csrf", refused  # and C refuses a change without it
    status, _, _ = request("DELETE", c + "/api/v1/session", None, mine)
    assert status in (200, 204)
    for server in (a, b, c):
        status, _, answer = request("GET", server + "/api/v1/entries", None, mine)
        assert status == 401, f"{server} still takes a session ended on another instance: {answer}"


def test_failed_logins_spread_over_instances_are_counted_together(diary):
    # Through HAProxy, round robin: each wrong guess lands on another instance. The lock comes
    # after the same number of failures as on one instance (five), not five per instance.
    wrong = {"name": TESTER["name"], "password": "not the password"}
    answers = []
    for _ in range(6):
        status, _, payload = request("POST", diary.proxy.url + "/api/v1/session", wrong)
        answers.append((status, (payload or {}).get("error")))
    assert answers[:5] == [(401, "bad_login")] * 5, answers
    assert answers[5] == (429, "too_many_attempts"), answers
    for server in diary.servers:  # every instance now refuses even the right password
        status, _, payload = request("POST", server.base_url + "/api/v1/session", TESTER)
        assert status == 429, (server.base_url, status, payload)
