#!/usr/bin/env python3
"""Requests answered during a database stall (docs/FAULTS.md), by hand, not part of the test suite.

Starts `linkd serve` on an embedded cluster of its own (a fresh --data-dir, 2 worker threads, a port the kernel
chooses, read from its log), registers a link domain and a stored link, asks once for what the probes will ask (so
the link, the resolve answer and the key are kept), then freezes the cluster with SIGSTOP (the postmaster and its
backends, as a hung disk or a lock pile-up would) for --seconds (default 20). Meanwhile clients keep meeting the
database: two API reads with a known key, one /readyz, two unknown API keys; and probes that need no database ask
in turn, each on a new connection: /healthz, the association file, the stored link's click, the kept resolve
answer, and /healthz on one kept-alive connection. Resumes the cluster (always), stops the server and prints each
probe's latency percentiles and what the clients got. Stops with the reason when the linkd it started exits.

A second mode starts a second `linkd serve` on the same --data-dir and reports what became of the first one's
database.

Usage: bench/connections/database-stall.py LINKD MIGRATIONS [--seconds N] [--second-server]
(run it through the checkout's wrapper, e.g. `/work/bin/inwt <checkout> python3 bench/connections/database-stall.py
.build/release/linkd migrations`).
"""
import collections, http.client, json, os, re, signal, subprocess, sys, tempfile, threading, time, uuid

binary, migrations = sys.argv[1], sys.argv[2]
seconds = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 20.0


def serve(data, log, *extra):
    """`linkd serve` on a port of the kernel's choice; its log (info: the "listening" line names the port) to `log`."""
    return subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", "--data-dir", data, "--migrations", migrations,
                             "--console", "off", "--access-log", "off", "--log-level", "info", *extra],
                            stderr=open(log, "w"), stdout=subprocess.DEVNULL)


def tail(log, lines=5):
    try: return " | ".join(open(log).read().strip().splitlines()[-lines:])
    except OSError: return ""


def port_of(server, log, timeout=120):
    """The port `server` listens on, from its log; exits with its last log lines when it stops first."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = re.search(r'"message":"listening".*?"http\.port":"(\d+)"', open(log).read())
        if found: return int(found.group(1))
        if server.poll() is not None: sys.exit(f"linkd exited (status {server.returncode}) before listening: {tail(log)}")
        time.sleep(0.05)
    sys.exit(f"linkd not listening after {timeout} s: {tail(log)}")


def request(port, method, path, headers={}, body=None, timeout=5, connection=None):
    c = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    c.request(method, path, body=body, headers=dict({} if connection else {"Connection": "close"}, **headers))
    r = c.getresponse(); b = r.read()
    if not connection: c.close()
    return r.status, dict(r.getheaders()), b


def wait_ready(server, log, port):
    for _ in range(1200):
        if server.poll() is not None: sys.exit(f"linkd exited (status {server.returncode}): {tail(log)}")
        try:
            if request(port, "GET", "/readyz")[0] == 200: return
        except OSError: pass
        time.sleep(0.05)
    sys.exit(f"linkd not ready: {tail(log)}")


def watch(server, log, stopping):
    """Stops the bench, with the reason, when the linkd it started exits on its own."""
    def run():
        while server.poll() is None:
            time.sleep(0.1)
        if not stopping.is_set():
            print(f"error: linkd (pid {server.pid}) exited during the run (status {server.returncode}): {tail(log)}", file=sys.stderr, flush=True)
            for p in frozen_processes:   # its cluster, if frozen, is left running for its own shutdown
                try: os.kill(p, signal.SIGCONT)
                except OSError: pass
            os._exit(2)
    threading.Thread(target=run, daemon=True).start()


frozen_processes = []   # what the stall froze, resumed whatever happens

if "--second-server" in sys.argv:
    data = tempfile.mkdtemp(prefix="second-server-")
    a = serve(data, data + "/first.log")
    p1 = port_of(a, data + "/first.log")
    wait_ready(a, data + "/first.log", p1)
    t0 = time.time(); b = serve(data, data + "/second.log")
    try: b.wait(timeout=60); code = b.returncode
    except subprocess.TimeoutExpired: b.send_signal(signal.SIGTERM); b.wait(); code = "SIGTERM after 60 s"
    print(f"second: exit {code} after {time.time()-t0:.1f} s; stderr: {tail(data + '/second.log', 1)[:200]}")
    time.sleep(1)
    try: print("first /readyz after the second:", request(p1, "GET", "/readyz")[:1])
    except OSError as e: print("first /readyz after the second:", e)
    a.send_signal(signal.SIGTERM); a.wait(timeout=60)
    sys.exit(0)

data = tempfile.mkdtemp(prefix="database-stall-")
log = data + "/serve.log"
server = serve(data, log, "--threads", "2")
stopping = threading.Event()
port = port_of(server, log)
wait_ready(server, log, port)
watch(server, log, stopping)
key = subprocess.run([binary, "keys", "create", "--workspace", "acme", "--data-dir", data, "--migrations", migrations],
                     capture_output=True, text=True).stdout.strip()
auth = {"Authorization": "Bearer " + key, "Content-Type": "application/json"}
host = "links.example.com"
print("domain", request(port, "POST", "/v1/domains", auth, json.dumps({"hostname": host, "webFallbackUrl": "https://www.example.com"}))[0])
print("link", request(port, "POST", "/v1/links", auth, json.dumps({"domain": host, "slug": "kept", "url": "https://www.example.com/kept"}))[0])
desktop = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
probes = [("healthz", "/healthz", {"Host": "localhost"}, 200),
          ("aasa", "/.well-known/apple-app-site-association", {"Host": host}, 200),
          ("kept link click", "/kept", {"Host": host, "User-Agent": desktop}, 302),
          ("kept resolve", f"/v1/resolve?url=https%3A%2F%2F{host}%2Fkept", {"Host": "localhost", "Authorization": "Bearer " + key}, 200)]
for name, path, headers, expected in probes:   # kept: the key, the link, the resolve answer
    for _ in range(100):
        if request(port, "GET", path, headers)[0] == expected: break
        time.sleep(0.05)
    else: sys.exit(f"{name}: not {expected} before the freeze")

pidfile = [os.path.join(r, "postmaster.pid") for r, _, f in os.walk(data, followlinks=True) if "postmaster.pid" in f][0]
postmaster = int(open(pidfile).read().split()[0])
procs = [postmaster] + [int(p) for p in os.listdir("/proc") if p.isdigit() and os.path.exists(f"/proc/{p}/stat")
                        and open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()[1] == str(postmaster)]
got = collections.defaultdict(collections.Counter)   # client -> status -> count
latencies = collections.defaultdict(list)             # probe -> [(seconds, status)]
stop = threading.Event()
frozen_processes.extend(procs)
for p in procs: os.kill(p, signal.SIGSTOP)
frozen = time.time()
try:
    def client(label, path, headers):
        while not stop.is_set():
            h = headers() if callable(headers) else headers
            try: s = str(request(port, "GET", path, h, timeout=seconds + 10)[0])
            except (OSError, http.client.HTTPException) as e: s = "no answer (" + type(e).__name__ + ")"
            got[label][s] += 1
    unknown = lambda: {"Authorization": "Bearer lk_" + uuid.uuid4().hex + "_" + "A" * 43}
    clients = [("API read", "/v1/domains", auth), ("API read", "/v1/links", auth), ("/readyz", "/readyz", {}),
               ("unknown key", "/v1/domains", unknown), ("unknown key", "/v1/domains", unknown)]
    threads = [threading.Thread(target=client, args=c) for c in clients]
    for t in threads: t.start()
    kept_alive = http.client.HTTPConnection("127.0.0.1", port, timeout=seconds + 10)
    while time.time() - frozen < seconds:
        for name, path, headers, expected in probes + [("healthz, kept-alive", "/healthz", {"Host": "localhost"}, 200)]:
            t0 = time.time()
            try: s = request(port, "GET", path, headers, timeout=seconds + 10, connection=kept_alive if "kept-alive" in name else None)[0]
            except (OSError, http.client.HTTPException) as e:
                s = "no answer (" + type(e).__name__ + ")"; kept_alive = http.client.HTTPConnection("127.0.0.1", port, timeout=seconds + 10)
            latencies[name].append((time.time() - t0, s == expected))
            if s != expected: got[name + " (probe)"][str(s)] += 1
        time.sleep(0.01)
finally:  # the cluster is always resumed
    stop.set()
    for p in procs: os.kill(p, signal.SIGCONT)
for t in threads: t.join()


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


print(f"{seconds:.0f} s frozen; probes on new connections (one kept-alive), latency in ms:")
print(f"| probe | answers | as expected | p50 | p90 | p99 | p99.9 | max |")
print(f"| --- | --- | --- | --- | --- | --- | --- | --- |")
for name, samples in latencies.items():
    ms = [s * 1000 for s, _ in samples]
    print(f"| {name} | {len(ms)} | {sum(1 for _, ok in samples if ok)} | " + " | ".join(f"{percentile(ms, p):.1f}" for p in (50, 90, 99, 99.9)) + f" | {max(ms):.1f} |")
for label, statuses in got.items():
    print(f"{label}: " + ", ".join(f"{n} x {s}" for s, n in sorted(statuses.items())))
stopping.set()
server.send_signal(signal.SIGTERM); server.wait(timeout=60)
