"""The server's benchmarks: wrk against a running `diary serve` on a generated diary, logged in
with a personal access token, and a first visit in Chromium.

    python3 bench/server_bench.py --diary BIN --database DB --out FILE.md [--duration 10] [--no-profile]
                                  [--baseline BENCH-BASELINE-BIN]

Measures, at 64 connections: the first list page, one entry, a search, and an autosave update
(PUT with If-Match: *); throughput, p50 and p99 latency; the server's peak RSS; and, in
Chromium, the bytes transferred on a first visit and the time to the first rendered list row.
With --baseline, also the same wrk against `bench-baseline`, a bare Hummingbird route answering a
constant body of the first list page's size: the physical limit the list page is judged against.
Writes a Markdown section with the goals of the web app issue. It judges nothing itself.

Every wrk row also gives the server's CPU time per request (utime + stime of the server process
from /proc/PID/stat over the run, divided by the requests wrk made): less sensitive than the wall
times to other work on a shared machine. When `perf` is installed, the list page and the autosave
are then profiled under the same load (`perf record -g -p SERVER` for 5 s of an 8 s wrk run): by
thread, by library, top self-time symbols and the inclusive time of Diary's, GRDB's, Hummingbird's,
SQLite's and JSON's symbols. The perf data files stay beside --out (or in --perf-dir).
"""

import argparse
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from core_speed import CoreSpeed, describe
from offline_open import KEPT, offline_open

# The tests' harness starts `diary serve` on a port the system picks (Tests/harness).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "harness"))
from diary_harness import Server  # noqa: E402

GOALS = {
    "list_p50_ms": 5.0,
    "list_rps": 10_000,
    "save_p99_ms": 10.0,
    "first_visit_kb": 30.0,
    "offline_open_ms": 500.0,
    "rss_mb": 100.0,
    "list_vs_baseline": 0.5,
}


ONE_CLIENT = "the first list page, one client at a time"
NEXT_PAGE = "the next list page (a cursor: not kept in memory)"


def start_diary(diary, database):
    """`diary serve --port 0` on the database, in the caller's environment (as a person would run
    it), started once it says where it listens; its output goes to a file beside the database."""
    server = Server(database, binary=diary, env=dict(os.environ),
                    log_path=os.path.join(os.path.dirname(os.path.abspath(database)), "bench-serve.log"))
    server.start(timeout=60)
    return server


def listening_port(pid):
    """The TCP port the process listens on (read from /proc), or None while it does not yet.
    bench-baseline takes port 0 but does not say which it got."""
    sockets = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            sockets.add(link[len("socket:["):-1])
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                if fields[3] == "0A" and fields[9] in sockets:  # 0A: LISTEN
                    return int(fields[1].rsplit(":", 1)[1], 16)
    return None


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def token_for(diary, database, user="bench"):
    env = dict(os.environ, DIARY_DATABASE=database, DIARY_BCRYPT_COST="4")
    users = run([diary, "user", "list"], env=env).stdout.split()
    if user not in users:
        run([diary, "user", "add", user], env=env, input="bench password\n")
    name = f"bench-{int(time.time())}"
    return run([diary, "token", "create", name, "--user", user], env=env).stdout.strip()


def cpu_seconds(pid):
    """utime + stime of a process (all its threads) so far, in seconds; None if it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # fields 14 and 15
    except (OSError, ValueError, IndexError):
        return None


def wrk_command(url, token, duration, script=None, connections=64):
    threads = min(2, connections)
    cmd = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--latency", "-H", f"Authorization: Bearer {token}"]
    if script:
        cmd += ["-s", script]
    return cmd + [url]


def cpu_per_request_us(before, after, requests):
    if before is None or after is None or not requests:
        return None
    return (after - before) / requests * 1e6


def settle(pid, limit=15.0):
    """Waits until the server is idle (under 5% of a core for half a second), at most `limit`
    seconds: the last requests of a row (searches whose clients have left) must not run into
    the next row's measurement."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        before = cpu_seconds(pid)
        time.sleep(0.5)
        after = cpu_seconds(pid)
        if before is None or after is None or after - before < 0.025:
            return


# Each row's speed of the machine's cores (see core_speed.py); started by `main`.
cores = None


def wrk(url, token, duration, script=None, pid=None, connections=64, warm_up=0):
    """One wrk run; with `pid`, also that server's CPU time per request over the run, after the
    server has settled. `warm_up` seconds of the same load run first, unmeasured (no longer than
    the row itself: a smoke run's rows are a second)."""
    if pid:
        settle(pid)
    if warm_up:
        run(wrk_command(url, token, min(warm_up, duration), script, connections))
    before = cpu_seconds(pid) if pid else None
    start = time.monotonic()
    out = run(wrk_command(url, token, duration, script, connections)).stdout
    end = time.monotonic()
    after = cpu_seconds(pid) if pid else None
    row = parse_wrk(out)
    row["cpu_us"] = cpu_per_request_us(before, after, row["requests"])
    row["cores"] = cores.during(start, end) if cores else []
    return row


def parse_wrk(out):
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    requests = int(re.search(r"(\d+) requests in", out).group(1))

    def percentile(p):
        m = re.search(rf"^\s+{p}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return {"rps": rps, "requests": requests, "p50": percentile(50), "p99": percentile(99),
            "errors": int(non2xx.group(1)) if non2xx else 0}


SAVE_WARM_UP_SECONDS = 3

SAVE_SCRIPT = """
wrk.method = "PUT"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["If-Match"] = "*"
local n = 0
request = function()
  n = n + 1
  local body = '{"title":"Autosave","body":"typing ' .. math.random(1, 1000000000) .. ' ' .. n .. '"}'
  return wrk.format(nil, nil, nil, body)
end
"""


def body_bytes(port, path, token):
    """The body's size as wrk gets it: the same request line and Authorization header, and no
    Accept-Encoding (wrk sends none, so the server answers uncompressed)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_accept_encoding=True)
        conn.putheader("Authorization", f"Bearer {token}")
        conn.endheaders()
        response = conn.getresponse()
        body = response.read()
        if response.status != 200 or response.getheader("Content-Encoding"):
            raise RuntimeError(f"GET {path}: {response.status}, Content-Encoding "
                               f"{response.getheader('Content-Encoding')!r}: not the page wrk gets")
        return len(body)
    finally:
        conn.close()


def baseline(binary, size, path, token, duration):
    """wrk against `bench-baseline PORT SIZE`: a bare Hummingbird route answering a constant body
    of `size` bytes. The same wrk, request and header as the list page's, so that only the server
    differs. Returns the wrk row, or raises with why it could not run."""
    # Its stderr goes to a file, not a pipe: nobody reads a pipe during the run, and a full one would stall it.
    stderr = tempfile.TemporaryFile()
    # Port 0: the system picks a free one, so no other program can take it between picking and binding.
    process = subprocess.Popen([binary, "0", str(size)], stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        for _ in range(200):
            if process.poll() is not None:
                stderr.seek(0)
                said = " ".join(stderr.read().decode(errors="replace").split())  # one line, for the table
                raise RuntimeError(f"exited with {process.returncode}" + (f": {said}" if said else ""))
            port = listening_port(process.pid)
            try:
                if port is None:
                    raise ConnectionRefusedError("not listening yet")
                got = body_bytes(port, path, token)
                break
            except (OSError, http.client.HTTPException):
                time.sleep(0.05)
        else:
            raise RuntimeError("did not answer within 10 s")
        # Its body must be the list page's size, or the comparison is not the one the goal asks for.
        if got != size:
            raise RuntimeError(f"answered {got} bytes, not {size}")
        return wrk(f"http://127.0.0.1:{port}{path}", token, duration, pid=process.pid)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        stderr.close()


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


PROFILE_WRK_SECONDS = 8   # wrk runs this long; perf records from 1 s in, for PERF_SECONDS
PERF_SECONDS = 5
PROFILE_SYMBOLS = re.compile(r"Diary|GRDB|Hummingbird|sqlite3|JSON")
LINE = 160


def demangler():
    """A command that demangles the Swift symbols in the text on its stdin, or None."""
    if shutil.which("swift-demangle"):
        return ["swift-demangle"]
    if shutil.which("swift"):
        try:
            run(["swift", "demangle"], input="", timeout=30)
            return ["swift", "demangle"]
        except (OSError, subprocess.SubprocessError):
            pass
    return None


def demangle(lines, command, simplified=True):
    """The lines with their Swift symbols demangled (`--simplified`: without module names and
    generic signatures), line for line; the lines as they were when that cannot be done."""
    if not command or not lines:
        return lines
    try:
        out = run(command + (["--simplified"] if simplified else []), input="\n".join(lines) + "\n",
                  timeout=60).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return lines
    return out if len(out) == len(lines) else lines


def matching(lines, command, pattern):
    """The lines whose symbol matches `pattern`, demangled and simplified. Matched on the full
    demangling, which keeps the module names (DiaryStore.…, Hummingbird.…) that the simplified one drops."""
    full = demangle(lines, command, simplified=False)
    return [short for short, long in zip(demangle(lines, command), full)
            if pattern.search(long) and not re.search(r"\]\s+(partial apply|reabstraction thunk)", short)]


def perf_report(data, *options, limit=None):
    """The lines of `perf report --stdio`, without its comments and blank lines."""
    try:
        out = subprocess.run(["perf", "report", "-i", data, "--stdio", "-g", "none", *options],
                             capture_output=True, text=True, timeout=600).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    lines = [l.rstrip() for l in out.splitlines() if l.strip() and not l.lstrip().startswith("#")]
    return lines[:limit] if limit else lines


def profile(name, url, token, script, pid, data):
    """wrk for PROFILE_WRK_SECONDS as in the timed row, and `perf record -g -p pid` for PERF_SECONDS
    of it. Returns a dict of what to write, or raises with why it could not run."""
    cmd = wrk_command(url, token, PROFILE_WRK_SECONDS, script)
    before = cpu_seconds(pid)
    load = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1)
        record = ["perf", "record", "-q", "-F", "999", "-g", "-p", str(pid), "-o", data]
        done = subprocess.run(record + ["--", "sleep", str(PERF_SECONDS)], capture_output=True, text=True)
        if done.returncode != 0 and load.poll() is None:
            # No hardware counters here (a VM, a container): a software clock instead.
            record[2:2] = ["-e", "task-clock"]
            done = subprocess.run(record + ["--", "sleep", str(PERF_SECONDS)], capture_output=True, text=True)
        out, _ = load.communicate(timeout=PROFILE_WRK_SECONDS + 60)
    finally:
        if load.poll() is None:
            load.kill()
            load.wait()
    after = cpu_seconds(pid)
    if done.returncode != 0 or not os.path.exists(data):
        said = " ".join((done.stderr or "").split())[-300:]
        raise RuntimeError(f"`perf record` exited with {done.returncode}" + (f": {said}" if said else ""))
    row = parse_wrk(out)
    command = demangler()
    inclusive = matching(perf_report(data, "--children", "--sort", "sym"), command, PROFILE_SYMBOLS)
    return {
        "name": name,
        "row": row,
        "cpu_us": cpu_per_request_us(before, after, row["requests"]),
        "data": data,
        "comm": perf_report(data, "--no-children", "--sort", "comm", "--percent-limit", "0.5", limit=10),
        "dso": perf_report(data, "--no-children", "--sort", "dso", limit=8),
        "self": demangle(perf_report(data, "--no-children", "--sort", "sym", limit=15), command),
        "inclusive": inclusive[:20],
        "demangled": command is not None,
    }


def first_visit(base, token):
    """Bytes over the wire and time to the first row, in a fresh Chromium that logs in by cookie;
    then a second visit in the same browser, whose app files the service worker answers.

    The first visit counts what the page fetched (the DevTools protocol's encoded lengths), what
    the service worker fetched as it installed (its own Resource Timing: nothing when the page
    had just fetched the same file), the worker's script (as the server sends it to a browser)
    and the manifest (Chromium fetches it when asked whether the app is installable; a phone
    does as the page opens). Icons are aside, as the issue counts it. Not in it, and said beside it: what the worker fetches a few seconds
    after the visit has settled (sw.js's LATER: the editor, the outbox), waited for here. The repeat
    visit counts the bytes of the app's files (anything but /api/) that still came over the
    network: 0 when the worker answered them all."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        context = browser.new_context()
        # Log in first (the cookie lands in this context), so the visit is the diary, not the form.
        response = context.request.post(base + "/api/v1/session",
                                        data=json.dumps({"name": "bench", "password": "bench password"}),
                                        headers={"Content-Type": "application/json", "Origin": base})
        if not response.ok:
            browser.close()
            return None

        def visit():
            """Opens the diary in a new page; returns the page and its loads as (url, bytes)."""
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            urls, loads = {}, []
            cdp.on("Network.responseReceived", lambda e: urls.__setitem__(e["requestId"], e["response"]["url"]))
            cdp.on("Network.loadingFinished", lambda e: loads.append((urls.get(e["requestId"], ""), e["encodedDataLength"])))
            page.goto(base + "/")
            page.wait_for_selector("#app li.row", timeout=30_000)
            return page, cdp, loads

        start = time.perf_counter()
        page, cdp, loads = visit()
        first_row_ms = page.evaluate("performance.now()")
        page.wait_for_load_state("networkidle")
        cdp.send("Page.getAppManifest")  # the manifest, fetched as a phone's browser would
        # The worker installs and takes the page (sw.js: clients.claim).
        deadline = time.monotonic() + 10
        while not page.evaluate("Boolean(navigator.serviceWorker.controller)") and time.monotonic() < deadline:
            time.sleep(0.05)
        page.wait_for_load_state("networkidle")
        wall_ms = (time.perf_counter() - start) * 1000
        # Icons aside, as the issue counts the budget (the page's favicon; the installed icons are
        # fetched by the browser itself, not by the page).
        icon_bytes = sum(n for url, n in loads if "/icons/" in url)
        page_bytes = sum(n for _, n in loads) - icon_bytes
        def worker_fetched():
            return sum(context.service_workers[0].evaluate(
                "performance.getEntriesByType('resource').map((e) => e.transferSize)")) if context.service_workers else 0
        install_bytes = worker_fetched()
        worker_bytes = install_bytes + script_bytes(base + "/sw.js")
        # A few seconds later the worker keeps the rest of the app (the page asks it): counted apart.
        kept_later = "Promise.all(['js/editor.js', 'editor.css', 'js/outbox.js', 'js/marks.js'].map((f) => caches.match(f))).then((k) => k.every(Boolean))"
        deadline = time.monotonic() + 20
        while not page.evaluate(kept_later) and time.monotonic() < deadline:
            time.sleep(0.1)
        later_bytes = worker_fetched() - install_bytes
        page.close()

        page, _, loads = visit()
        page.wait_for_load_state("networkidle")
        repeat_shell = sum(n for url, n in loads if "/api/" not in url)
        repeat_all = sum(n for _, n in loads)
        browser.close()
        return {"kb": (page_bytes + worker_bytes) / 1024, "worker_kb": worker_bytes / 1024, "first_row_ms": first_row_ms,
                "later_kb": later_bytes / 1024, "icon_kb": icon_bytes / 1024,
                "wall_ms": wall_ms, "repeat_shell_bytes": repeat_shell, "repeat_kb": repeat_all / 1024}


def script_bytes(url):
    """The bytes of the response a browser gets for `url` (Brotli asked for), headers included."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
        head = f"HTTP/1.1 {response.status} {response.reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in response.headers.items()) + "\r\n"
        return len(head.encode()) + len(body)


def profile_section(profiles, no_profile, base_row):
    """The profiles as Markdown: one heading a row, its figures in a fenced block."""
    lines = [""]
    if not profiles:
        return lines + [f"No profile of the server: {no_profile.rstrip('.')}."]
    lines += [f"Profiles under the same load: `wrk -t2 -c64 -d{PROFILE_WRK_SECONDS}s` with the timed row's request, "
              f"and from 1 s in `perf record -F 999 -g -p SERVER_PID -- sleep {PERF_SECONDS}` on `diary serve` "
              "(all its threads). Percentages are of the server's samples. Threads (Linux keeps 15 characters of a "
              "name): `NIO-SGLTN-*` are NIO's event loops (sockets, HTTP); `oot.default-qos` is libdispatch's "
              "`com.apple.root.default-qos` pool, which runs Swift concurrency's tasks (the route handlers); "
              "`-qos.overcommit` runs serial dispatch queues, GRDB's among them. In the last list, lines that "
              "only repeat the one above them (`partial apply for …`, thunks) are left out."]
    if no_profile:
        lines += ["", f"(A profile is missing: {no_profile.rstrip('.')}.)"]
    for p in profiles:
        r = p["row"]
        lines += ["", f"### Profile of the server: {p['name']}", ""]
        if not r["requests"]:
            lines.append(f"Nothing to profile: the server completed no request in the {PROFILE_WRK_SECONDS} s of wrk.")
            continue
        lines.append("```")
        lines.append("server CPU per request: " + ("—" if p["cpu_us"] is None else f"{p['cpu_us']:,.0f} µs")
                     + f" ({r['requests']:,} requests, {r['rps']:,.0f} requests/s under perf)")
        if base_row and base_row.get("cpu_us") is not None and p["name"] == "the first list page":
            lines.append(f"bench-baseline CPU per request (its timed row, same body size): {base_row['cpu_us']:,.0f} µs")
        for title, key in (("by thread (--sort comm):", "comm"), ("by library (--sort dso):", "dso"),
                           ("top symbols, self time (--sort sym):", "self"),
                           ("Diary, GRDB, Hummingbird, SQLite and JSON symbols, inclusive time "
                            "(--children --sort sym; children, self):", "inclusive")):
            lines += ["", title]
            lines += [l[:LINE] for l in p[key]] or ["(none)"]
        lines.append("```")
        lines += ["", f"(The perf data is kept in the results folder: `{os.path.basename(p['data'])}`"
                  + ("" if p["demangled"] else "; Swift symbols are not demangled: no `swift-demangle` was found")
                  + ".)"]
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--diary", required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--baseline", help="the bench-baseline binary (built beside `diary`)")
    parser.add_argument("--perf-dir", help="where the perf data files go (default: the folder of --out)")
    parser.add_argument("--no-profile", action="store_true",
                        help="no perf profiles under load (the smoke run: 30 s it need not spend)")
    args = parser.parse_args()
    perf_dir = args.perf_dir or os.path.dirname(os.path.abspath(args.out))

    # Without the baseline the rest still runs: say so here and in the section, judge nothing.
    skipped = None
    if not args.baseline:
        skipped = "no `bench-baseline` binary was given (`--baseline`)"
    elif not os.access(args.baseline, os.X_OK):
        skipped = f"`bench-baseline` is missing (`{args.baseline}`); build it with `swift build --product bench-baseline`"
    if skipped:
        print(f"server_bench: {skipped}: the baseline rows are skipped", file=sys.stderr)

    global cores
    cores = CoreSpeed().start()  # stopped once the rows are measured
    token = token_for(args.diary, args.database)
    server = start_diary(args.diary, args.database)
    port = server.port
    base = server.base_url
    try:
        request = urllib.request.Request(base + "/api/v1/entries?limit=1", headers={"Authorization": f"Bearer {token}"})
        entry_id = json.load(urllib.request.urlopen(request))["entries"][0]["id"]
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
            f.write(SAVE_SCRIPT)
            save_script = f.name
        list_path = "/api/v1/entries?limit=20"
        # The baseline runs while this server sits idle, and right before the list page, so that
        # both see the same machine (other work on it comes and goes). Its body is the page's size,
        # measured now, before the autosave rows below change the newest entry.
        list_bytes = body_bytes(port, list_path, token)
        base_row = None
        if not skipped:
            try:
                base_row = baseline(args.baseline, list_bytes, list_path, token, args.duration)
            except Exception as error:  # a broken baseline costs its rows, not the whole section
                skipped = f"`bench-baseline` failed: {error}".replace("|", "/")  # it lands in a table cell
                print(f"server_bench: {skipped}: the baseline rows are skipped", file=sys.stderr)
        pid = server.process.pid  # Popen starts `diary serve` itself, no shell: this is the server's pid
        # The next page's cursor, for a page the server does not keep in memory (only first pages are).
        request = urllib.request.Request(base + list_path, headers={"Authorization": f"Bearer {token}"})
        next_path = list_path + "&cursor=" + json.load(urllib.request.urlopen(request))["nextCursor"]
        rows = [
            ("the first list page", wrk(base + list_path, token, args.duration, pid=pid)),
            (ONE_CLIENT, wrk(base + list_path, token, args.duration, pid=pid, connections=1)),
            (NEXT_PAGE, wrk(base + next_path, token, args.duration, pid=pid)),
            ("one entry", wrk(base + f"/api/v1/entries/{entry_id}", token, args.duration, pid=pid)),
            ("a search (serenity)", wrk(base + "/api/v1/search?q=serenity&limit=20", token, args.duration, pid=pid)),
            # Steady state: the first seconds of saves on a fresh copy also grow the log file to
            # its working size (ext4 allocating blocks under each sync), which a running server
            # did once, long ago.
            ("an autosave (PUT)", wrk(base + f"/api/v1/entries/{entry_id}", token, args.duration, save_script, pid=pid,
                                      warm_up=SAVE_WARM_UP_SECONDS)),
        ]
        rss = peak_rss_mb(pid)
        cores.stop()  # the rest (a visit, profiles) reports no core speed
        visit_failed = None
        try:
            visit = first_visit(base, token)
        except Exception as error:  # a visit that fails costs its line, not the whole section
            visit = None
            visit_failed = " ".join(str(error).split("Call log:")[0].split())[:200]  # playwright's log is noise here
            print(f"server_bench: the first visit in Chromium failed: {visit_failed}", file=sys.stderr)
        offline_failed = None
        try:
            offline = offline_open(base, "bench", "bench password")
        except Exception as error:  # as above: the line is lost, not the section
            offline = None
            offline_failed = " ".join(str(error).split("Call log:")[0].split())[:200]
            print(f"server_bench: the list offline in Chromium failed: {offline_failed}", file=sys.stderr)
        # Profiles under load, after everything above, so that they change none of its numbers.
        profiles, no_profile = [], None
        if args.no_profile:
            no_profile = "not asked for (`--no-profile`: a smoke run)"
        elif not shutil.which("perf"):
            no_profile = "`perf` is not installed"
        else:
            os.makedirs(perf_dir, exist_ok=True)
            for name, key, url, script in (("the first list page", "list", base + list_path, None),
                                           (NEXT_PAGE, "next-page", base + next_path, None),
                                           ("an autosave (PUT)", "save", base + f"/api/v1/entries/{entry_id}", save_script)):
                print(f"server_bench: profiling {name} (perf, {PROFILE_WRK_SECONDS} s)", file=sys.stderr)
                try:
                    profiles.append(profile(name, url, token, script, pid,
                                            os.path.join(perf_dir, f"perf-server-{key}.data")))
                except Exception as error:  # a profile that cannot run costs its section, not the benchmark
                    no_profile = f"{error}"
                    print(f"server_bench: no profile of {name}: {error}", file=sys.stderr)
                    break
    finally:
        # A server that hangs must not outlive the benchmark: stop() kills it after 20 s.
        if server.stop(timeout=20) is None:
            print("server_bench: `diary serve` did not stop within 20 s of SIGTERM: killed", file=sys.stderr)

    lines = ["## The server", "",
             f"`diary serve` (release) on the same diary, logged in with a bearer token; `wrk -t2 -c64 -d{args.duration}s` "
             f"(`-t1 -c1` for the row with one client). Each row starts once the server is idle again; the "
             f"autosave row after {SAVE_WARM_UP_SECONDS} s of the same saves, unmeasured (the steady state: on a fresh "
             f"copy the first seconds also grow the write-ahead log file to its working size).", "",
             "| request | requests/s | p50 (ms) | p99 (ms) | non-2xx | server CPU per request (µs) | core speed (ns a step) |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    def cpu(r):
        return "—" if r.get("cpu_us") is None else f"{r['cpu_us']:,.0f}"
    def latency(r, p):  # wrk prints 0 for the percentiles of a run that completed no request
        return f"{r[p]:.2f}" if r["requests"] else "—"
    for name, r in rows:
        lines.append(f"| {name} | {r['rps']:,.0f} | {latency(r, 'p50')} | {latency(r, 'p99')} | {r['errors']} | {cpu(r)} | {describe(r['cores'])} |")
        if name == "the first list page" and base_row:  # side by side with what it is judged against
            b = base_row
            lines.append(f"| a bare Hummingbird route, same body size (`bench-baseline`) | {b['rps']:,.0f} | "
                         f"{latency(b, 'p50')} | {latency(b, 'p99')} | {b['errors']} | {cpu(b)} | {describe(b['cores'])} |")
    lines.append("")
    silent = [name for name, r in rows if not r["requests"]]
    if silent:
        lines += [f"**The server completed no request** during: {', '.join(silent)} (wrk got no answer within its "
                  f"{args.duration} s): it stopped answering.", ""]
    lines.append("*Server CPU per request* is the server process's user + system time over the run "
                 "(`/proc/PID/stat`, all its threads) divided by the requests wrk completed: it counts only "
                 "the server's work, so it moves less than the wall times when other work shares the machine.")
    lines.append("")
    lines.append("*Core speed* is how long each core took, in the median over the row, for one step of a fixed "
                 "Python loop timed every 100 ms in its thread's CPU time (`bench/core_speed.py`), core by core; "
                 "lower is faster. This machine's host slows each core by up to 3× from one second to the next "
                 "with nothing of ours running: rows run at different speeds are not comparable, and a slow row "
                 "says so here.")
    lines.append("")
    if base_row:
        lines.append(f"The baseline is `bench-baseline`: a bare Hummingbird route with no database, authentication "
                     f"or middleware, answering a constant JSON body of **{list_bytes:,} bytes**, the size of the first "
                     f"list page's body as `diary serve` sends it to wrk (uncompressed: wrk asks for no encoding). "
                     f"Same wrk, request and header; it ran just before the list page, while `diary serve` sat idle.")
    else:
        lines.append(f"No baseline: {skipped}. (The first list page's body is {list_bytes:,} bytes.)")
    lines += ["", f"Peak resident memory of the server after all of the above: **{rss:.1f} MB**.", ""]
    if visit:
        lines += [f"A first visit in Chromium (logged in, empty cache): **{visit['kb']:.1f} KB** transferred "
                  f"(the service worker's script and install {visit['worker_kb']:.1f} KB, and the manifest, included; "
                  f"the icon, {visit['icon_kb']:.1f} KB, aside), "
                  f"first list row after **{visit['first_row_ms']:.0f} ms**; a few seconds later the worker fetches "
                  f"the rest of the app for offline use (the editor, the outbox): **{visit['later_kb']:.1f} KB** more, "
                  f"not counted in the first visit. A second visit in the same browser: "
                  f"**{visit['repeat_shell_bytes']:,} bytes** of the app's files over the network (the worker answers them), "
                  f"{visit['repeat_kb']:.1f} KB in all (the API's answers).", ""]
    elif visit_failed:
        lines += [f"A first visit in Chromium failed: {visit_failed}", ""]
    if offline:
        lines += [f"The list offline, {offline['kept']:,} entries kept on the device (read into IndexedDB by the app, "
                  f"`bench/offline_open.py`), the context offline, a reload: first row after "
                  f"**{offline['first_row_ms']:.0f} ms**, the first 20 rows after {offline['first_page_ms']:.0f} ms "
                  f"(median of {offline['runs']} reloads, from the navigation's start).", ""]
    elif offline_failed:
        lines += [f"The list offline in Chromium failed: {offline_failed}", ""]
    named = dict(rows)
    list_row, one_row, save_row = named["the first list page"], named[ONE_CLIENT], named["an autosave (PUT)"]
    def verdict(ok):
        return "**met**" if ok else "**missed**"
    def ms_or_none(r, p):
        return f"{r[p]:.2f} ms" if r["requests"] else "no request completed"
    lines += ["| goal | measured | |", "| --- | --- | --- |",
              f"| first list page served in under 5 ms (p50, one client at a time; at 64 connections: "
              f"{ms_or_none(list_row, 'p50')}) | {ms_or_none(one_row, 'p50')} | "
              f"{verdict(one_row['requests'] and one_row['p50'] < GOALS['list_p50_ms'])} |",
              f"| 10,000 requests/s for it at 64 connections | {list_row['rps']:,.0f} | {verdict(list_row['rps'] >= GOALS['list_rps'])} |"]
    if base_row:
        ratio = list_row["rps"] / base_row["rps"]
        percent = f"{ratio:.0%}" if ratio >= 0.1 else f"{ratio:.1%}"  # a small share keeps a digit
        lines.append(f"| first list page ≥ 50% of a bare Hummingbird route's throughput (same body size) | "
                     f"{percent} ({list_row['rps']:,.0f} vs {base_row['rps']:,.0f} requests/s) | "
                     f"{verdict(ratio >= GOALS['list_vs_baseline'])} |")
    else:
        lines.append(f"| first list page ≥ 50% of a bare Hummingbird route's throughput (same body size) | "
                     f"not measured: {skipped} | skipped |")
    lines += [f"| p99 save under 10 ms at 64 connections | {ms_or_none(save_row, 'p99')} | "
              f"{verdict(save_row['requests'] and save_row['p99'] < GOALS['save_p99_ms'])} |",
              f"| server memory under 100 MB | {rss:.1f} MB | {verdict(rss < GOALS['rss_mb'])} |"]
    if visit:
        lines.append(f"| under 30 KB on a first visit | {visit['kb']:.1f} KB | {verdict(visit['kb'] < GOALS['first_visit_kb'])} |")
        lines.append(f"| a repeat visit fetches none of the app's files | {visit['repeat_shell_bytes']:,} bytes | "
                     f"{verdict(visit['repeat_shell_bytes'] == 0)} |")
    if offline:
        lines.append(f"| the list opens offline in under 500 ms, {KEPT:,} entries kept | {offline['first_row_ms']:.0f} ms | "
                     f"{verdict(offline['first_row_ms'] < GOALS['offline_open_ms'])} |")
    lines += profile_section(profiles, no_profile, base_row)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
