"""The server's organizing views on the tagged diary (the corpus's variant B), issue 18: wrk
against a running `diary serve`, logged in with a personal access token, as bench/server_bench.py
measures its rows.

    python3 bench/organize_bench.py --diary BIN --database DB --stats CORPUS-B/stats.json
                                    --out FILE.md [--duration 10] [--judge]

Five requests, each first by one client at a time (`wrk -t1 -c1`: the time the server takes for
one, which the goal is about) and then at 64 connections (`wrk -t2 -c64`: how many a second two
cores give): a tag filter page (the corpus's benchmark tag, 20 entries), a calendar month, on
this day (a day of the year after the corpus, so it looks back over all 20 years), the tag list
and a year at a glance; days of Asia/Seoul. Each row gives requests/s, p50 and p99 latency (wrk's,
on loopback), the server's CPU time per request (/proc/PID/stat over the run) and the cores'
speed. Every answer is checked against the corpus's counts before anything is timed. With
--judge (the full size), the goal of issue 18, each under 20 ms at the server (p50, one client
at a time), is marked met or missed; otherwise nothing is judged.
"""

import argparse
import json
import sys
import urllib.parse
import urllib.request

import server_bench
from core_speed import CoreSpeed, describe
from server_bench import body_bytes, start_diary, token_for, wrk

GOAL_MS = 20.0
TIME_ZONE = "Asia/Seoul"
# On this day asks for a day of this year: the corpus ends in 2025, so every one of its 20 years
# is looked at, as for a writer who began 20 years ago.
ON_THIS_DAY_YEAR = 2026


def requests_for(stats):
    """(name, path, check) for each of the five requests; `check` takes the answer's JSON and
    returns what is wrong with it, or None."""
    tags = stats["tags"]
    tag, tagged = tags["benchmark"], tags["benchmark_entries"]
    day = stats["on_day"]["date"]  # 2015-05-03 at the full size
    month, year = day[:7], day[:4]
    on_this_day = f"{ON_THIS_DAY_YEAR}{day[4:]}"
    zone = urllib.parse.quote(TIME_ZONE, safe="")

    def tag_page(answer):
        entries = answer.get("entries", [])
        if len(entries) != min(20, tagged):
            return f"{len(entries)} entries, expected {min(20, tagged)}"
        if any(tag not in e.get("tags", []) for e in entries):
            return f"an entry without the tag {tag!r}"
        return None

    def calendar(answer):
        if answer.get("month") != month or not answer.get("days"):
            return f"month {answer.get('month')!r} with {len(answer.get('days') or [])} days written"
        return None

    def on_this_day_years(answer):
        years = answer.get("years") or []
        if not years or not all(y.get("entries") for y in years):
            return f"{len(years)} years with entries"
        return None

    def tag_list(answer):
        listed = answer.get("tags") or []
        if len(listed) != tags["distinct"]:
            return f"{len(listed)} tags, expected {tags['distinct']}"
        first = listed[0]
        if (first.get("tag"), first.get("count")) != (tag, tagged):
            return f"first {first}, expected {tag!r} on {tagged}"
        return None

    def year_at_a_glance(answer):
        if str(answer.get("year")) != year or not answer.get("entries"):
            return f"year {answer.get('year')!r} with {answer.get('entries')} entries"
        return None

    return [
        (f"a tag filter page (`{tag}`, {tagged:,} entries carry it; 20 shown)",
         f"/api/v1/entries?tag={urllib.parse.quote(tag, safe='')}", tag_page),
        (f"a calendar month ({month})", f"/api/v1/calendar?month={month}&timeZone={zone}", calendar),
        (f"on this day ({on_this_day}: 20 years back)", f"/api/v1/on-this-day?date={on_this_day}&timeZone={zone}",
         on_this_day_years),
        (f"the tag list ({tags['distinct']} tags, {tags['rows']:,} tag rows)", "/api/v1/tags", tag_list),
        (f"the year's statistics ({year})", f"/api/v1/year?year={year}&timeZone={zone}", year_at_a_glance),
    ]


def get_json(base, path, token):
    request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--diary", required=True)
    parser.add_argument("--database", required=True, help="the variant-B diary (a copy: the bench adds a user and a token)")
    parser.add_argument("--stats", required=True, help="the variant-B corpus's stats.json")
    parser.add_argument("--out", required=True)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--judge", action="store_true", help="judge the 20 ms goal (the full size)")
    args = parser.parse_args()
    with open(args.stats, encoding="utf-8") as f:
        stats = json.load(f)
    if stats.get("variant") != "B":
        sys.exit(f"organize_bench: {args.stats} is not variant B's (bench/corpus.py --variant B)")

    requests = requests_for(stats)
    cores = CoreSpeed().start()
    server_bench.cores = cores  # wrk() reads each row's core speed from it
    token = token_for(args.diary, args.database)
    server = start_diary(args.diary, args.database)
    wrong = []
    rows = []  # (name, path, bytes, one client's row, 64 connections' row)
    try:
        base, pid = server.base_url, server.process.pid
        for name, path, check in requests:
            try:
                problem = check(get_json(base, path, token))
            except (OSError, ValueError) as error:  # an HTTP error, a connection refused, not JSON
                problem = f"GET {path}: {error}"
            if problem:
                wrong.append(f"{name}: {problem}")
        if wrong:
            for w in wrong:
                print(f"organize_bench: wrong answer: {w}", file=sys.stderr)
        else:
            for name, path, _ in requests:
                size = body_bytes(server.port, path, token)
                one = wrk(base + path, token, args.duration, pid=pid, connections=1)
                many = wrk(base + path, token, args.duration, pid=pid)
                rows.append((name, path, size, one, many))
    finally:
        cores.stop()
        if server.stop(timeout=20) is None:
            print("organize_bench: `diary serve` did not stop within 20 s of SIGTERM: killed", file=sys.stderr)

    lines = ["### The server", "",
             f"`diary serve` (release) on the tagged diary, logged in with a bearer token; each request first by one "
             f"client at a time (`wrk -t1 -c1 -d{args.duration}s`), then at 64 connections (`wrk -t2 -c64 "
             f"-d{args.duration}s`); days of {TIME_ZONE}. Each row starts once the server is idle again. None of "
             f"these answers is kept in memory by the server: each request reads the database.", ""]
    if wrong:
        lines += ["**Not measured: the server's answers did not match the corpus:**", ""]
        lines += [f"- {w}" for w in wrong]
        lines.append("")
    else:
        lines += ["| request | body (bytes) | one client: p50 (ms) | p99 (ms) | requests/s | server CPU per request (µs) "
                  "| 64 connections: requests/s | p50 (ms) | p99 (ms) | server CPU per request (µs) | non-2xx | "
                  "core speed (ns a step; one client, 64) |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]

        def cpu(r):
            return "—" if r.get("cpu_us") is None else f"{r['cpu_us']:,.0f}"

        def latency(r, p):
            return f"{r[p]:.2f}" if r["requests"] else "—"

        for name, path, size, one, many in rows:
            lines.append(f"| {name} | {size:,} | {latency(one, 'p50')} | {latency(one, 'p99')} | {one['rps']:,.0f} | "
                         f"{cpu(one)} | {many['rps']:,.0f} | {latency(many, 'p50')} | {latency(many, 'p99')} | "
                         f"{cpu(many)} | {one['errors'] + many['errors']} | {describe(one['cores'])}; "
                         f"{describe(many['cores'])} |")
        lines += ["", "The requests: " + "; ".join(f"`GET {path}`" for _, path, *_ in rows) + ".", ""]
        lines += ["| goal (issue 18) | measured (p50, one client at a time; p99 beside it) | |", "| --- | --- | --- |"]
        for name, _, _, one, _ in rows:
            if not one["requests"]:
                measured, ok = "no request completed", False
            else:
                measured, ok = f"{one['p50']:.2f} ms (p99 {one['p99']:.2f} ms)", one["p50"] < GOAL_MS
            verdict = ("**met**" if ok else "**missed**") if args.judge else "not judged (smaller than the full size)"
            lines.append(f"| {name} under {GOAL_MS:.0f} ms at the server | {measured} | {verdict} |")
        lines.append("")
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    if wrong:
        sys.exit(1)


if __name__ == "__main__":
    main()
