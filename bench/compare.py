"""Two builds of `diary`, side by side, on the same diary: whether a change made the hot paths
slower or faster by more than the machine's own drift.

    python3 bench/compare.py --a OLD/diary --b NEW/diary --database DB [--rounds 3] [--duration 8]

The machine's speed moves by a third within the hour (see RESULTS.md), so one run of each build
says little. The builds take turns, round after round (A B, B A, A B…), on copies of the same
database, and each row gives both builds' median over the rounds of the server's CPU time per
request (the column least moved by other work), requests/s and p99. Rows: the first list page,
one entry, an autosave (PUT, after 3 s of the same saves, unmeasured); then, with hyperfine, the
commands `diary list -n 20` and `diary new`. It judges nothing: read the medians and the spread.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import urllib.request
import json

from server_bench import SAVE_SCRIPT, SAVE_WARM_UP_SECONDS, start_diary, token_for, wrk

ROWS = ("the first list page", "one entry", "an autosave (PUT)")


def server_round(diary, database, duration, folder):
    copy = os.path.join(folder, "round.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(copy + suffix):
            os.remove(copy + suffix)
    subprocess.run(["sqlite3", database, f".backup '{copy}'"], check=True)
    # The copy's hundreds of MB are written back before anything is timed: a round that ran
    # while they were had a p99 of 392 ms for its autosaves.
    subprocess.run(["sync"], check=True)
    token = token_for(diary, copy)
    server = start_diary(diary, copy)
    try:
        base = server.base_url
        request = urllib.request.Request(base + "/api/v1/entries?limit=1", headers={"Authorization": f"Bearer {token}"})
        entry_id = json.load(urllib.request.urlopen(request))["entries"][0]["id"]
        script = os.path.join(folder, "save.lua")
        with open(script, "w") as f:
            f.write(SAVE_SCRIPT)
        pid = server.process.pid
        return {
            ROWS[0]: wrk(base + "/api/v1/entries?limit=20", token, duration, pid=pid),
            ROWS[1]: wrk(base + f"/api/v1/entries/{entry_id}", token, duration, pid=pid),
            ROWS[2]: wrk(base + f"/api/v1/entries/{entry_id}", token, duration, script, pid=pid, warm_up=SAVE_WARM_UP_SECONDS),
        }
    finally:
        server.stop()


def command_round(a, b, database, folder):
    """hyperfine's medians (ms) of `list -n 20` and `new` for both builds, in one hyperfine run each."""
    copy = os.path.join(folder, "commands.sqlite")
    if not os.path.exists(copy):
        subprocess.run(["sqlite3", database, f".backup '{copy}'"], check=True)
    found = {}
    for name, arguments in (("diary list -n 20", "list -n 20"), ("diary new", "new Bench --body compared")):
        out = os.path.join(folder, "hyperfine.json")
        subprocess.run(["hyperfine", "-N", "--warmup", "3", "--runs", "30", "--export-json", out,
                        f"{a} {arguments}", f"{b} {arguments}"],
                       check=True, capture_output=True, env=dict(os.environ, DIARY_DATABASE=copy))
        results = json.load(open(out))["results"]
        found[name] = [r["median"] * 1000 for r in results]
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--a", required=True, help="the old build's diary binary")
    parser.add_argument("--b", required=True, help="the new build's diary binary")
    parser.add_argument("--database", required=True, help="a diary made by scripts/bench (bench/work/diary-N.sqlite)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=8)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="diary-compare-")
    runs = {"a": [], "b": []}
    commands = {"a": {}, "b": {}}
    try:
        for round_number in range(args.rounds):
            order = ("a", "b") if round_number % 2 == 0 else ("b", "a")
            for which in order:
                runs[which].append(server_round(getattr(args, which), args.database, args.duration, folder))
            for name, (a_ms, b_ms) in command_round(args.a, args.b, args.database, folder).items():
                commands["a"].setdefault(name, []).append(a_ms)
                commands["b"].setdefault(name, []).append(b_ms)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    print(f"{args.rounds} rounds; medians over the rounds (each round's values in brackets)\n")
    print("| request | A CPU µs | B CPU µs | A req/s | B req/s | A p99 ms | B p99 ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for row in ROWS:
        def column(which, key, digits):
            values = [run[row][key] for run in runs[which]]
            return f"{statistics.median(values):.{digits}f} [{', '.join(f'{v:.{digits}f}' for v in values)}]"
        print(f"| {row} | {column('a', 'cpu_us', 0)} | {column('b', 'cpu_us', 0)} | {column('a', 'rps', 0)} | "
              f"{column('b', 'rps', 0)} | {column('a', 'p99', 2)} | {column('b', 'p99', 2)} |")
    print("\n| command | A median ms | B median ms |")
    print("| --- | ---: | ---: |")
    for name in commands["a"]:
        a_values, b_values = commands["a"][name], commands["b"][name]
        print(f"| `{name}` | {statistics.median(a_values):.1f} [{', '.join(f'{v:.1f}' for v in a_values)}] | "
              f"{statistics.median(b_values):.1f} [{', '.join(f'{v:.1f}' for v in b_values)}] |")


if __name__ == "__main__":
    main()
