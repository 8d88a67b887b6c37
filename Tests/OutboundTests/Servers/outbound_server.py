#!/usr/bin/env python3
"""A real HTTP or HTTPS server for OutboundTests, standing in for Apple's CDN, Google's API or a link domain.

Usage: outbound_server.py [CERT KEY]. Listens on 127.0.0.1 and a free port, prints "port N" first, then
"request PATH from PORT" for every request it reads (before answering; PORT is the client's), so the test sees
what reached it and on which connection.
"""
import json
import ssl
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out as two writes: without TCP_NODELAY each answer waits on a delayed ACK.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        print("request %s from %d" % (self.path, self.client_address[1]), flush=True)
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        size = int(query.get("bytes", ["0"])[0])
        if url.path == "/a/v1/links.example.com" or url.path == "/ok":
            self.answer(200, b'{"applinks":{"details":[]}}', [
                ("Content-Type", "application/json"), ("ETag", '"v1"'),
                ("Last-Modified", "Tue, 12 May 2026 10:00:00 GMT"),
                ("Cache-Control", "max-age=60"), ("Cache-Control", "public"), ("Age", "5")])
        elif url.path == "/headers":
            seen = {name.lower(): value for name, value in self.headers.items()}
            self.answer(200, json.dumps(seen).encode(), [("Content-Type", "application/json")])
        elif url.path == "/redirect":
            self.answer(301, b"moved", [("Location", "/moved")])
        elif url.path == "/moved":
            self.answer(200, b"you followed")
        elif url.path == "/large":
            self.answer(200, b"x" * size, [("Content-Type", "application/json")])
        elif url.path == "/large-unsized":
            # No Content-Length: the body ends when the connection closes.
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            for _ in range(size // 1000):
                self.wfile.write(b"x" * 1000)
                self.wfile.flush()
        elif url.path == "/stall":
            time.sleep(5)
            self.answer(200, b"late")
        else:
            self.answer(404, b"not here")


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if len(sys.argv) == 3:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("port %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
