#!/usr/bin/env python3
"""Slow and idle clients against a running linkd (docs/CONNECTIONS.md), by hand, not part of the test suite.

Opens N connections that each send one header byte a second ("slow") or nothing ("idle"), then, every second for
D seconds, times one normal GET /healthz on a new connection and counts how many of the N connections the server
still holds open. Prints one line a second and a summary: the normal client's slowest answer and how many of its
requests failed.

Usage: bench/connections/slow-clients.py PORT [--count 1100] [--mode slow|idle] [--duration 15]
The process needs a descriptor limit above N (ulimit -n).
"""
import argparse, select, socket, time

parser = argparse.ArgumentParser()
parser.add_argument("port", type=int)
parser.add_argument("--count", type=int, default=1100)
parser.add_argument("--mode", choices=["slow", "idle"], default="slow")
parser.add_argument("--duration", type=int, default=15)
args = parser.parse_args()

REQUEST = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
sockets = []
for _ in range(args.count):
    s = socket.socket()
    s.setblocking(False)
    try:
        s.connect(("127.0.0.1", args.port))
    except BlockingIOError:
        pass
    sockets.append(s)
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

worst, failures = 0.0, 0
for second in range(args.duration):
    if args.mode == "slow":
        for s in sockets:
            if s.fileno() >= 0:
                try:
                    s.send(REQUEST[second:second + 1])
                except OSError:
                    pass
    ok, elapsed = normal_request()
    worst = max(worst, elapsed)
    failures += 0 if ok else 1
    print(f"t={second:3d}s normal GET /healthz {'200' if ok else 'FAILED'} in {elapsed * 1000:7.1f} ms; "
          f"{still_open():5d} of {args.count} {args.mode} connections open", flush=True)
    time.sleep(max(0.0, 1.0 - elapsed))
print(f"summary: {args.count} {args.mode} connections, {args.duration} normal requests, "
      f"{failures} failed, slowest {worst * 1000:.1f} ms")
