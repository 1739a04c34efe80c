"""The server's benchmarks: wrk against a running `diary serve` on a generated diary, logged in
with a personal access token, and a first visit in Chromium.

    python3 bench/server_bench.py --diary BIN --database DB --out FILE.md [--duration 10]
                                  [--baseline BENCH-BASELINE-BIN]

Measures, at 64 connections: the first list page, one entry, a search, and an autosave update
(PUT with If-Match: *); throughput, p50 and p99 latency; the server's peak RSS; and, in
Chromium, the bytes transferred on a first visit and the time to the first rendered list row.
With --baseline, also the same wrk against `bench-baseline`, a bare Hummingbird route answering a
constant body of the first list page's size: the physical limit the list page is judged against.
Writes a Markdown section with the goals of the web app issue. It judges nothing itself.
"""

import argparse
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

GOALS = {
    "list_p50_ms": 5.0,
    "list_rps": 10_000,
    "save_p99_ms": 10.0,
    "first_visit_kb": 30.0,
    "rss_mb": 100.0,
    "list_vs_baseline": 0.5,
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def token_for(diary, database):
    env = dict(os.environ, DIARY_DATABASE=database, DIARY_BCRYPT_COST="4")
    users = run([diary, "user", "list"], env=env).stdout
    if "bench" not in users:
        run([diary, "user", "add", "bench"], env=env, input="bench password\n")
    name = f"bench-{int(time.time())}"
    return run([diary, "token", "create", name, "--user", "bench"], env=env).stdout.strip()


def wrk(url, token, duration, script=None):
    cmd = ["wrk", "-t2", "-c64", f"-d{duration}s", "--latency", "-H", f"Authorization: Bearer {token}"]
    if script:
        cmd += ["-s", script]
    out = run(cmd + [url]).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))

    def percentile(p):
        m = re.search(rf"^\s+{p}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return {"rps": rps, "p50": percentile(50), "p99": percentile(99), "errors": int(non2xx.group(1)) if non2xx else 0}


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
    port = free_port()
    # Its stderr goes to a file, not a pipe: nobody reads a pipe during the run, and a full one would stall it.
    stderr = tempfile.TemporaryFile()
    process = subprocess.Popen([binary, str(port), str(size)], stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        for _ in range(200):
            if process.poll() is not None:
                stderr.seek(0)
                said = " ".join(stderr.read().decode(errors="replace").split())  # one line, for the table
                raise RuntimeError(f"exited with {process.returncode}" + (f": {said}" if said else ""))
            try:
                got = body_bytes(port, path, token)
                break
            except (OSError, http.client.HTTPException):
                time.sleep(0.05)
        else:
            raise RuntimeError(f"did not answer on port {port} within 10 s")
        # Its body must be the list page's size, or the comparison is not the one the goal asks for.
        if got != size:
            raise RuntimeError(f"answered {got} bytes, not {size}")
        return wrk(f"http://127.0.0.1:{port}{path}", token, duration)
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


def first_visit(base, token):
    """Bytes over the wire and time to the first row, in a fresh Chromium that logs in by cookie."""
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
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        transferred = {"bytes": 0}
        cdp.on("Network.loadingFinished", lambda e: transferred.__setitem__("bytes", transferred["bytes"] + e["encodedDataLength"]))
        start = time.perf_counter()
        page.goto(base + "/")
        page.wait_for_selector("#app li.row", timeout=30_000)
        first_row_ms = page.evaluate("performance.now()")
        page.wait_for_load_state("networkidle")
        wall_ms = (time.perf_counter() - start) * 1000
        browser.close()
        return {"kb": transferred["bytes"] / 1024, "first_row_ms": first_row_ms, "wall_ms": wall_ms}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--diary", required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--baseline", help="the bench-baseline binary (built beside `diary`)")
    args = parser.parse_args()

    # Without the baseline the rest still runs: say so here and in the section, judge nothing.
    skipped = None
    if not args.baseline:
        skipped = "no `bench-baseline` binary was given (`--baseline`)"
    elif not os.access(args.baseline, os.X_OK):
        skipped = f"`bench-baseline` is missing (`{args.baseline}`); build it with `swift build --product bench-baseline`"
    if skipped:
        print(f"server_bench: {skipped}: the baseline rows are skipped", file=sys.stderr)

    token = token_for(args.diary, args.database)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([args.diary, "serve", "--port", str(port), "--database", args.database, "--weather", "off"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/", timeout=1)
                break
            except OSError:
                time.sleep(0.05)
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
        rows = [
            ("the first list page", wrk(base + list_path, token, args.duration)),
            ("one entry", wrk(base + f"/api/v1/entries/{entry_id}", token, args.duration)),
            ("a search (serenity)", wrk(base + "/api/v1/search?q=serenity&limit=20", token, args.duration)),
            ("an autosave (PUT)", wrk(base + f"/api/v1/entries/{entry_id}", token, args.duration, save_script)),
        ]
        rss = peak_rss_mb(server.pid)
        visit = first_visit(base, token)
    finally:
        server.terminate()
        server.wait(timeout=20)

    lines = ["## The server", "",
             f"`diary serve` (release) on the same diary, logged in with a bearer token; `wrk -t2 -c64 -d{args.duration}s`.", "",
             "| request | requests/s | p50 (ms) | p99 (ms) | non-2xx |", "| --- | ---: | ---: | ---: | ---: |"]
    for name, r in rows:
        lines.append(f"| {name} | {r['rps']:,.0f} | {r['p50']:.2f} | {r['p99']:.2f} | {r['errors']} |")
        if name == "the first list page" and base_row:  # side by side with what it is judged against
            b = base_row
            lines.append(f"| a bare Hummingbird route, same body size (`bench-baseline`) | {b['rps']:,.0f} | "
                         f"{b['p50']:.2f} | {b['p99']:.2f} | {b['errors']} |")
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
        lines += [f"A first visit in Chromium (logged in, empty cache): **{visit['kb']:.1f} KB** transferred, "
                  f"first list row after **{visit['first_row_ms']:.0f} ms**.", ""]
    list_row, save_row = rows[0][1], rows[3][1]
    def verdict(ok):
        return "**met**" if ok else "**missed**"
    lines += ["| goal | measured | |", "| --- | --- | --- |",
              f"| first list page served in under 5 ms (p50) | {list_row['p50']:.2f} ms | {verdict(list_row['p50'] < GOALS['list_p50_ms'])} |",
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
    lines += [f"| p99 save under 10 ms at 64 connections | {save_row['p99']:.2f} ms | {verdict(save_row['p99'] < GOALS['save_p99_ms'])} |",
              f"| server memory under 100 MB | {rss:.1f} MB | {verdict(rss < GOALS['rss_mb'])} |"]
    if visit:
        lines.append(f"| under 30 KB on a first visit | {visit['kb']:.1f} KB | {verdict(visit['kb'] < GOALS['first_visit_kb'])} |")
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
