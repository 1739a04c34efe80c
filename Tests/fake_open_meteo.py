"""A local stand-in for Open-Meteo, shared by the API and browser tests: real HTTP on
127.0.0.1, answering the provider's documented JSON, so no test reaches the internet."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class FakeOpenMeteo:
    """A local Open-Meteo on 127.0.0.1. GET /v1/forecast answers the documented JSON with
    `current` (by default WMO code 61 at night, 3.4 °C: "Slight rain", icon rain-night);
    every request's query is kept in `requests`; each answer waits `delay` seconds first."""

    def __init__(self):
        self.requests = []
        self.delay = 0.0
        self.current = {"time": "2026-11-22T01:00", "interval": 900,
                        "temperature_2m": 3.4, "weather_code": 61, "is_day": 0}
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                url = urlsplit(self.path)
                query = {k: v[-1] for k, v in parse_qs(url.query).items()}
                fake.requests.append(query)
                time.sleep(fake.delay)
                if url.path != "/v1/forecast":
                    self.send_error(404)
                    return
                body = json.dumps({
                    "latitude": float(query.get("latitude", 0)), "longitude": float(query.get("longitude", 0)),
                    "generationtime_ms": 0.04, "utc_offset_seconds": 0, "timezone": "GMT",
                    "timezone_abbreviation": "GMT", "elevation": 38.0,
                    "current_units": {"time": "iso8601", "interval": "seconds", "temperature_2m": "°C",
                                      "weather_code": "wmo code", "is_day": ""},
                    "current": dict(fake.current),
                }).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
