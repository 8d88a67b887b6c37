"""A webhook receiver for the tests: verifies every delivery with the Standard Webhooks reference library.

Usage: webhook_receiver.py CONTROL_FILE [PORT]

Listens on 127.0.0.1 (PORT, or a free one) and prints `listening 127.0.0.1 <port>`. CONTROL_FILE is JSON the test
rewrites at will: {"secret": "whsec_...", "statuses": [500, 500], "delays": [2]}: the secret to verify with, the
statuses to answer in turn before answering 200 (each status is used once, counted across requests), and the seconds
to wait before answering in turn (none after the list). Each request prints `arrived <id>` when it arrives and, just before
answering, `delivery <json>` with the id, timestamp, whether the signature verified, the status answered and the body.
"""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks import Webhook, WebhookVerificationError

control_file = sys.argv[1]
port = int(sys.argv[2]) if len(sys.argv) > 2 else 0
lock = threading.Lock()
answered = {"count": 0}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with lock:
            with open(control_file) as f:
                control = json.load(f)
            statuses = control.get("statuses", [])
            index = answered["count"]
            answered["count"] += 1
            status = statuses[index] if index < len(statuses) else 200
            delays = control.get("delays", [])
            delay = delays[index] if index < len(delays) else 0
        headers = {name.lower(): value for name, value in self.headers.items()}
        print("arrived %s" % headers.get("webhook-id"), flush=True)
        time.sleep(delay)
        try:
            Webhook(control["secret"]).verify(body, headers)
            verified = True
        except (WebhookVerificationError, KeyError, ValueError):
            verified = False
        # Recorded before answering: a sender that gave up waiting (its timeout, on a busy machine) closes the
        # connection, and the answer's write then fails, but the attempt did arrive and is counted.
        line = {"id": headers.get("webhook-id"), "timestamp": headers.get("webhook-timestamp"), "verified": verified,
                "status": status, "contentType": headers.get("content-type"), "body": body.decode("utf-8")}
        print("delivery " + json.dumps(line), flush=True)
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
print("listening 127.0.0.1 %d" % server.server_address[1], flush=True)
server.serve_forever()
