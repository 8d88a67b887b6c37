#!/usr/bin/env python3
"""How soon a link created on one node is served by another (bench/links/run.sh, issue 29 item 4).

For each of COUNT links: POST /v1/links to node A (a typed link with a slug of its own), then poll node B's
GET /v1/resolve for the link's URL, on a kept-alive connection, every POLL seconds, until its answer carries the
link. Prints one line per link (to stderr, every 50th) and the percentiles of the time from A's 201 answer to
B's first answer with the link, and from the moment the POST was sent.

usage: nodes.py PORT_A PORT_B HOST ADMIN_KEY READ_KEY APP COUNT
"""
import http.client
import json
import os
import sys
import time
import urllib.parse

POLL = 0.001
TIMEOUT = 5.0


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1))))]


def main():
    port_a, port_b, host, admin, read, app, count = sys.argv[1:8]
    count = int(count)
    a = http.client.HTTPConnection("127.0.0.1", int(port_a))
    b = http.client.HTTPConnection("127.0.0.1", int(port_b))
    run = os.urandom(3).hex()
    after_answer, after_send, polls = [], [], []
    for i in range(count):
        slug = "node-%s-%d" % (run, i)
        url = "/v1/resolve?url=" + urllib.parse.quote("https://%s/%s" % (host, slug), safe="")
        # B asked once before: it knows the slug as absent, as a node that was asked before the link existed.
        b.request("GET", url, headers={"Authorization": "Bearer " + read})
        before = json.loads(b.getresponse().read())
        if "link" in before:
            sys.exit("node B answers %s before it is created" % slug)
        body = json.dumps({"domain": host, "slug": slug, "app": app,
                           "destination": {"type": "widgetDetail", "params": {"id": i + 1}}})
        sent = time.monotonic()
        a.request("POST", "/v1/links?acknowledgeMoves=true", body=body,
                  headers={"Authorization": "Bearer " + admin, "Content-Type": "application/json"})
        response = a.getresponse()
        answer = response.read()
        answered = time.monotonic()
        if response.status != 201:
            sys.exit("POST /v1/links on node A: %d %s" % (response.status, answer[:300]))
        n = 0
        while True:
            b.request("GET", url, headers={"Authorization": "Bearer " + read})
            reply = b.getresponse().read()
            now = time.monotonic()
            n += 1
            if b'"link":{' in reply:
                break
            if now - answered > TIMEOUT:
                sys.exit("node B did not serve %s within %.0f s" % (slug, TIMEOUT))
            time.sleep(POLL)
        after_answer.append((now - answered) * 1000)
        after_send.append((now - sent) * 1000)
        polls.append(n)
        if i % 50 == 0:
            print("  link %d: created in %.1f ms, served by B %.1f ms after A's answer (%d polls)"
                  % (i, (answered - sent) * 1000, after_answer[-1], n), file=sys.stderr)
    for name, values in (("after A's 201", after_answer), ("after the POST was sent", after_send)):
        print("B serves the link %-24s p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms  (%d links)"
              % (name, percentile(values, 50), percentile(values, 99), max(values), len(values)))
    print("polls of B per link: median %d, max %d" % (percentile(polls, 50), max(polls)))


if __name__ == "__main__":
    main()
