"""The list opening offline from the device's copy, in Chromium: the web app's budget is under
500 ms with 2,000 entries kept on the device (IndexedDB, js/device.js).

    python3 bench/offline_open.py [--diary BIN] [--entries 2000] [--runs 5]

Alone, it starts `diary serve` on a throwaway diary and writes that many entries through the API;
bench/server_bench.py calls offline_open() on the benchmark's own diary instead.

The device is filled the way a writer fills it, by the app's own reading of the list (2,000 rows,
a page of 100 at a time through js/device.js), then the context goes offline and the page is
reloaded. Measured from the reload's navigation start (performance.now() in the new page) to the
first row on screen and to the first page of rows (20); the median of `runs` reloads is reported,
each with the worker answering the app's files and the device answering the list, as offline.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "harness"))
from diary_harness import Server  # noqa: E402

KEPT = 2000

# Reads the list through the app's module, so the device keeps it as it would for a writer.
FILL = """async (count) => {
  const device = await import('./js/device.js');
  let cursor = null, kept = 0;
  do {
    const page = await device.listEntries(cursor, device.writer(), 100);
    kept += page.entries.length;
    cursor = page.nextCursor;
  } while (cursor && kept < count);
  // The pages are kept as they come, without being waited for: wait for the last write.
  for (let i = 0; i < 250 && (await device.count()) < Math.min(kept, count); i++) await new Promise((r) => setTimeout(r, 20));
  return device.count();
}"""


def offline_open(base, name, password, entries=KEPT, runs=5):
    """{'kept', 'first_row_ms', 'first_page_ms'}: medians over `runs` offline reloads; None without Playwright."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        try:
            context = browser.new_context(base_url=base)
            response = context.request.post(base + "/api/v1/session", data=json.dumps({"name": name, "password": password}),
                                            headers={"Content-Type": "application/json", "Origin": base})
            if not response.ok:
                return None
            page = context.new_page()
            page.goto("/")
            page.wait_for_selector("#app li.row", timeout=30_000)
            deadline = time.monotonic() + 15
            while not page.evaluate("Boolean(navigator.serviceWorker.controller)"):
                if time.monotonic() > deadline:
                    raise RuntimeError("the service worker did not take the page")
                time.sleep(0.05)
            kept = page.evaluate(FILL, entries)
            context.set_offline(True)
            first_row, first_page = [], []
            for _ in range(runs):
                page.reload()
                page.wait_for_selector("#app li.row", timeout=30_000)
                first_row.append(page.evaluate("performance.now()"))
                wait_rows(page, 20)
                first_page.append(page.evaluate("performance.now()"))
            return {"kept": kept, "first_row_ms": statistics.median(first_row),
                    "first_page_ms": statistics.median(first_page), "runs": runs}
        finally:
            browser.close()


def wait_rows(page, count, timeout=30.0):
    """Polled from Python: the app's Content-Security-Policy refuses wait_for_function's eval."""
    deadline = time.monotonic() + timeout
    while page.evaluate("document.querySelectorAll('#app li.row').length") < count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"fewer than {count} rows offline")
        time.sleep(0.005)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--diary", default=os.environ.get("DIARY_BIN"))
    parser.add_argument("--entries", type=int, default=KEPT)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = Server(os.path.join(folder, "diary.sqlite"), **({"binary": args.diary} if args.diary else {}))
        server.start(timeout=60)
        try:
            base = server.base_url
            account = {"name": "bench", "password": "bench password"}
            request = urllib.request.Request(base + "/api/v1/setup", data=json.dumps(account).encode(), method="POST",
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as response:
                cookie = "; ".join(c.split(";")[0] for c in response.headers.get_all("Set-Cookie"))
                csrf = json.loads(response.read())["csrfToken"]
            for n in range(args.entries):
                body = json.dumps({"title": f"Day {n}", "body": f"What happened on day {n}. " * 20}).encode()
                urllib.request.urlopen(urllib.request.Request(base + "/api/v1/entries", data=body, method="POST", headers={
                    "Content-Type": "application/json", "Cookie": cookie, "X-CSRF-Token": csrf}), timeout=30).read()
            result = offline_open(base, account["name"], account["password"], args.entries, args.runs)
        finally:
            server.stop(timeout=20)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
