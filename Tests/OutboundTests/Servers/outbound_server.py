#!/usr/bin/env python3
"""A real HTTP or HTTPS server for OutboundTests, standing in for Apple's CDN, Google's API or a link domain.

Usage: outbound_server.py [CERT KEY]. Listens on 127.0.0.1 and a free port, prints "port N" first, then
"connection from PORT" for every connection it accepts and "request PATH from PORT" for every request it reads
(before answering; PORT is the client's), so the test sees what reached it and on which connection. A POST is
also printed, as "received {JSON}" (method, path, headers in lower case, the body's length and, up to 4 KiB, its
bytes in hex), before its answer.
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

    def do_POST(self):
        print("request %s from %d" % (self.path, self.client_address[1]), flush=True)
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        # A long body is reported by its length only: the line is read while it is written.
        seen = {"method": "POST", "path": self.path, "length": len(body),
                "body": body.hex() if len(body) <= 4096 else "",
                "headers": {name.lower(): value for name, value in self.headers.items()}}
        print("received %s" % json.dumps(seen), flush=True)
        url = urlsplit(self.path)
        size = int(parse_qs(url.query).get("bytes", ["0"])[0])
        if url.path == "/hook":
            self.answer(204, b"")
        elif url.path == "/hook-error":
            self.answer(500, b"receiver broke", [("Content-Type", "text/plain")])
        elif url.path == "/hook-redirect":
            self.answer(307, b"moved", [("Location", "/hook")])
        elif url.path == "/hook-large":
            self.answer(200, b"y" * size, [("Content-Type", "text/plain")])
        elif url.path == "/hook-large-unsized":
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            for _ in range(size // 1000):
                self.wfile.write(b"y" * 1000)
                self.wfile.flush()
        else:
            self.answer(404, b"not here")


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def verify_request(self, request, client_address):
        print("connection from %d" % client_address[1], flush=True)
        return True


def main():
    server = Server(("127.0.0.1", 0), Handler)
    if len(sys.argv) == 3:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("port %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
