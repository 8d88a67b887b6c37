#!/usr/bin/env python3
"""A real HTTP or HTTPS server for HealthChecksTests, standing in for a link domain's front, Apple's CDN or
Google's Digital Asset Links API, answering what a routes file says.

Usage: health_server.py ROUTES [CERT KEY [443]]. With CERT and KEY it speaks HTTPS only; with 443 it listens on
port 443 of a random loopback address (127.x.y.z, retried while taken), else on 127.0.0.1 and a free port. It
prints "listening ADDR PORT" first, then "request HOST PATH" for every request it reads (before answering).

ROUTES is a JSON file read at every request: {"<path with query>" or "<path>": {"status": 200, "headers":
[["Content-Type", "application/json"]], "body": "text", "repeat": n (the body n times), "delay": seconds}}; a
path it does not name answers 404.
"""
import json
import random
import socket
import ssl
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit
import threading

# One line a request, whole: threads answering at once must not interleave their lines.
OUTPUT = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def do_GET(self):
        with OUTPUT:
            sys.stdout.write("request %s %s\n" % (self.headers.get("Host", "-"), self.path))
            sys.stdout.flush()
        with open(self.server.routes) as f:
            routes = json.load(f)
        route = routes.get(self.path) or routes.get(urlsplit(self.path).path)
        if route is None:
            route = {"status": 404, "body": "not here", "headers": [["Content-Type", "text/plain"]]}
        time.sleep(route.get("delay", 0))
        body = route.get("body", "").encode() * route.get("repeat", 1)
        self.send_response(route.get("status", 200))
        for name, value in route.get("headers", []):
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main():
    routes = sys.argv[1]
    tls = len(sys.argv) >= 4
    if len(sys.argv) == 5 and sys.argv[4] == "443":
        for _ in range(100):
            address = "127.%d.%d.%d" % (random.randint(1, 254), random.randint(1, 254), random.randint(2, 254))
            try:
                server = ThreadingHTTPServer((address, 443), Handler)
                break
            except OSError:
                continue
    else:
        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.routes = routes
    if tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[2], sys.argv[3])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("listening %s %d" % server.server_address[:2], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
