#!/usr/bin/env python3
"""Photos (issue 19) on the benchmark's diary, through the real server.

- Upload: a 4 MB photo (a phone's JPEG at full size: random detail, so it does not compress),
  one client after another: p50 and p99 of `POST /api/v1/photos`.
- Memory: 20 clients uploading 4 MB photos at once, several rounds: the server's peak resident
  memory (VmHWM), against the 200 MB goal (photos streamed to a file, never held whole). Each
  client is a writer of its own: one writer sends at most four at once (429 beyond).
- Growth: the database's bytes (file and WAL, after a checkpoint) per stored photo's bytes,
  against the 1.3× goal.
- The list with thumbnails: `--with-photos` entries of the diary (10,000 of 100,000 at the full
  size) given a small photo and a thumbnail each, then the first page (a 20-row page naming them)
  and a thumbnail with wrk.

Writes a Markdown section to --out; bench/report.py puts it in bench/RESULTS.md."""

from __future__ import annotations

import argparse
import concurrent.futures
import io
import json
import os
import random
import sqlite3
import statistics
import sys
import time
import urllib.request

import server_bench
from core_speed import CoreSpeed
from server_bench import peak_rss_mb, start_diary, token_for, wrk

try:
    from PIL import Image
except ImportError:  # the bench installs what the tests need; without Pillow there is no photo to send
    Image = None


def jpeg(width: int, height: int, seed: int, quality: int = 92) -> bytes:
    generator = random.Random(seed)
    pixels = bytes(generator.getrandbits(8) for _ in range(width * height * 3)) if width * height < 200_000 \
        else os.urandom(width * height * 3)
    out = io.BytesIO()
    Image.frombytes("RGB", (width, height), pixels).save(out, "JPEG", quality=quality)
    return out.getvalue()


def four_megabytes(seed: int) -> bytes:
    """A JPEG of about 4 MB: 2,400 × 1,800 pixels of detail at quality 92."""
    return jpeg(2400, 1800, seed)


def request(base, method, path, token, data=None, content_type=None):
    headers = {"Authorization": f"Bearer {token}"}
    if content_type:
        headers["Content-Type"] = content_type
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=120) as response:
        body = response.read()
        return response.status, (json.loads(body) if body[:1] in (b"{", b"[") else body)


def upload(base, token, data):
    status, photo = request(base, "POST", "/api/v1/photos", token, data, "image/jpeg")
    assert status in (200, 201), status
    return photo


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def database_bytes(path):
    return sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))


def checkpoint(path):
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--diary", required=True)
    parser.add_argument("--database", required=True, help="a copy of the benchmark's diary (photos are added to it)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--uploads", type=int, default=40, help="4 MB uploads, one after another")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--with-photos", type=int, default=10_000, help="entries given a photo for the list")
    parser.add_argument("--duration", type=int, default=10)
    args = parser.parse_args()
    if Image is None:
        sys.exit("photo_bench: Pillow is needed (pip install Pillow)")

    cores = CoreSpeed().start()
    server_bench.cores = cores
    token = token_for(args.diary, args.database)
    uploaders = [token_for(args.diary, args.database, user=f"uploader-{n + 1}") for n in range(args.clients)]
    server = start_diary(args.diary, args.database)
    lines = ["### Photos", ""]
    try:
        base, pid = server.base_url, server.process.pid
        photos = [four_megabytes(seed) for seed in range(args.uploads + args.clients * args.rounds)]
        size_mb = statistics.mean(len(p) for p in photos) / 1_048_576

        # One client after another.
        checkpoint(args.database)
        before = database_bytes(args.database)
        times, stored = [], 0
        for data in photos[:args.uploads]:
            start = time.perf_counter()
            photo = upload(base, token, data)
            times.append((time.perf_counter() - start) * 1000)
            stored += photo["bytes"]
        checkpoint(args.database)
        growth = (database_bytes(args.database) - before) / stored

        # Many at once; the server's peak memory over all of it.
        rss_before = peak_rss_mb(pid)
        with concurrent.futures.ThreadPoolExecutor(args.clients) as pool:
            for round_ in range(args.rounds):
                start = args.uploads + round_ * args.clients  # photos not sent before: each is stored
                list(pool.map(lambda sent: upload(base, *sent), zip(uploaders, photos[start:start + args.clients])))
        rss_peak = peak_rss_mb(pid)

        # The list with thumbnails: one entry in every so many given a small photo (as a phone's
        # would be, scaled), spread over the diary's years.
        ids, cursor = [], None
        while True:
            path = "/api/v1/entries?limit=100" + (f"&cursor={cursor}" if cursor else "")
            status, page = request(base, "GET", path, token)
            ids += [(row["id"], row["version"]) for row in page["entries"]]
            cursor = page["nextCursor"]
            if not cursor:
                break
        every = max(1, len(ids) // max(1, args.with_photos))
        ids = ids[::every][:args.with_photos]
        small = jpeg(96, 72, 1, quality=80)
        started = time.perf_counter()
        for n, (entry_id, version) in enumerate(ids):
            photo = upload(base, token, small[:-2] + n.to_bytes(4, "big") + small[-2:])
            request(base, "PUT", f"/api/v1/photos/{photo['id']}/thumbnail", token, small, "image/jpeg")
            req = urllib.request.Request(
                base + f"/api/v1/entries/{entry_id}", method="PATCH",
                data=json.dumps({"photos": [{"id": photo["id"]}]}).encode(),
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json", "If-Match": f'"{version}"'})
            urllib.request.urlopen(req, timeout=60).read()
        attach_seconds = time.perf_counter() - started
        status, page = request(base, "GET", "/api/v1/entries?limit=20", token)
        shown = sum(1 for row in page["entries"] if row.get("photo"))
        first_photo = next((row["photo"] for row in page["entries"] if row.get("photo")), None)
        list_row = wrk(base + "/api/v1/entries?limit=20", token, args.duration, pid=pid)
        thumb_row = wrk(base + f"/api/v1/photos/{first_photo}/thumbnail", token, args.duration, pid=pid) if first_photo else None
    finally:
        cores.stop()
        server.stop(timeout=20)

    def ms(value):
        return f"{value:.1f} ms"

    lines += [
        f"A photo of {size_mb:.1f} MB (a phone's JPEG at full size), {args.uploads} uploads one after another, "
        f"then {args.clients} clients at once for {args.rounds} rounds; the list after {len(ids):,} entries were "
        f"given a photo and a thumbnail each ({attach_seconds:.0f} s through the API).",
        "",
        "| measure | result | goal |",
        "| --- | --- | --- |",
        f"| upload of a 4 MB photo, p50 | {ms(percentile(times, 0.5))} | |",
        f"| upload of a 4 MB photo, p99 | {ms(percentile(times, 0.99))} | |",
        f"| the server's peak memory, {args.clients} uploading at once | {rss_peak:.0f} MB (before: {rss_before:.0f} MB) "
        f"| under 200 MB {'✅' if rss_peak < 200 else '❌'} |",
        f"| database growth per photo byte | {growth:.2f}× | at most 1.3× {'✅' if growth <= 1.3 else '❌'} |",
        f"| the list's first page ({shown} of 20 rows with a photo), 64 connections | "
        f"p50 {list_row['p50']:.1f} ms, p99 {list_row['p99']:.1f} ms, {list_row['rps']:,.0f}/s | |",
    ]
    if thumb_row:
        lines.append(f"| a thumbnail, 64 connections | p50 {thumb_row['p50']:.1f} ms, p99 {thumb_row['p99']:.1f} ms, "
                     f"{thumb_row['rps']:,.0f}/s | |")
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
