#!/usr/bin/env python3
"""Slow and idle clients against a running linkd (docs/CONNECTIONS.md), by hand, not part of the test suite.

Opens N connections that each send one header byte a second ("slow"), nothing ("idle"), or a whole request head
for POST /v1/deferred/claim (unauthenticated) and then one body byte a second ("body"); then, every second for D
seconds, times one normal GET /healthz on a new connection and counts how many of the N connections the server
still holds open. With --reopen, a closed slow connection is opened again at once, as an attacker would. Prints
one line a second and a summary: how many of the normal client's requests were answered 200, the median and
slowest answer.

Usage: bench/connections/slow-clients.py PORT [--count 1100] [--mode slow|idle|body] [--duration 15] [--reopen]
The process needs a descriptor limit above N (ulimit -n).
"""
import argparse, select, socket, time

parser = argparse.ArgumentParser()
parser.add_argument("port", type=int)
parser.add_argument("--count", type=int, default=1100)
parser.add_argument("--mode", choices=["slow", "idle", "body"], default="slow")
parser.add_argument("--duration", type=int, default=15)
parser.add_argument("--reopen", action="store_true")
args = parser.parse_args()

REQUEST = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
BODY_HEAD = (b"POST /v1/deferred/claim HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             b"Content-Length: 1000\r\n\r\n{")

def open_slow():
    s = socket.socket()
    s.setblocking(False)
    try:
        s.connect(("127.0.0.1", args.port))
    except BlockingIOError:
        pass
    if args.mode == "body":
        poller = select.poll()
        poller.register(s, select.POLLOUT)
        poller.poll(1000)
        try:
            s.send(BODY_HEAD)
        except OSError:
            pass
    return s

sockets = [open_slow() for _ in range(args.count)]
time.sleep(0.5)

def normal_request():
    start = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", args.port), timeout=5) as s:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
            ok = data.startswith(b"HTTP/1.1 200")
    except OSError:
        ok = False
    return ok, time.monotonic() - start

def still_open():
    alive = 0
    for s in sockets:
        if s.fileno() < 0:
            continue
        poller = select.poll()
        poller.register(s, select.POLLIN)
        if poller.poll(0):
            try:
                if s.recv(1, socket.MSG_PEEK) == b"":
                    s.close()
                    continue
            except OSError:
                s.close()
                continue
        alive += 1
    return alive

times, failures = [], 0
for second in range(args.duration):
    if args.mode != "idle":
        for s in sockets:
            if s.fileno() >= 0:
                try:
                    s.send(REQUEST[second:second + 1] if args.mode == "slow" else b"a")
                except OSError:
                    pass
    ok, elapsed = normal_request()
    times.append(elapsed)
    failures += 0 if ok else 1
    open_now = still_open()
    print(f"t={second:3d}s normal GET /healthz {'200' if ok else 'FAILED'} in {elapsed * 1000:7.1f} ms; "
          f"{open_now:5d} of {args.count} {args.mode} connections open", flush=True)
    if args.reopen:
        sockets = [s if s.fileno() >= 0 else open_slow() for s in sockets]
    time.sleep(max(0.0, 1.0 - elapsed))
times.sort()
print(f"summary: {args.count} {args.mode} connections{' (reopened)' if args.reopen else ''}, {args.duration} normal requests, "
      f"{args.duration - failures} answered 200, {failures} failed, median {times[len(times) // 2] * 1000:.1f} ms, "
      f"slowest {times[-1] * 1000:.1f} ms")
