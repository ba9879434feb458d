#!/usr/bin/env python3
"""A peer for the `lookup` benchmark: the same memory served by Python's standard library
(ThreadingHTTPServer + a dict loaded from the SQLite file), answering the same two exact
lookups as `bundlekit translate serve`: POST /translate (JSON, source and target given) and
GET /lookup?key=&lang=. Usage: libretranslate-peer.py MEMORY PORT"""
import json
import sqlite3
import sys
from collections import Counter, defaultdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

memory, port = sys.argv[1], int(sys.argv[2])
db = sqlite3.connect(memory)
units = {}
by_key = defaultdict(list)
for uid, bundle, tbl, key, variant, source in db.execute(
        "SELECT id, bundle, tbl, key, variant, source FROM units"):
    units[uid] = (bundle, tbl, key, variant, source)
    by_key[key].append(uid)
by_value = defaultdict(list)
by_unit = {}
for unit, language, value, comment in db.execute(
        "SELECT unit, language, value, comment FROM translations"):
    by_value[(value, language)].append(unit)
    by_unit[(unit, language)] = (value, comment)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        try:
            request = json.loads(self.rfile.read(length))
        except ValueError:
            return self.answer(400, {"error": "Invalid request"})
        q, source, target = request.get("q"), request.get("source"), request.get("target")
        if not q:
            return self.answer(400, {"error": "Invalid request: missing q parameter"})
        found = Counter()
        for unit in by_value.get((q, source), []):
            value = by_unit.get((unit, target))
            if value:
                found[value[0]] += 1
        text = found.most_common(1)[0][0] if found else q
        self.answer(200, {"translatedText": text})

    def do_GET(self):
        query = parse_qs(urlparse(self.path).query)
        key, lang = query.get("key", [""])[0], query.get("lang", [""])[0]
        records = []
        for unit in by_key.get(key, []):
            value = by_unit.get((unit, lang))
            if value:
                bundle, tbl, key_, variant, source = units[unit]
                records.append({"table": tbl, "key": key_, "variant": variant, "language": lang,
                                "value": value[0], "comment": value[1], "source": source})
        self.answer(200 if records else 404, {"key": key, "translations": records})


print(f"http://127.0.0.1:{port}", flush=True)
ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
