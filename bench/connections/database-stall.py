#!/usr/bin/env python3
"""Requests answered during a database stall (docs/FAULTS.md), by hand, not part of the test suite.

Starts `linkd serve` on an embedded cluster of its own (a fresh --data-dir, 2 worker threads), registers a link
domain, then freezes the cluster with SIGSTOP (the postmaster and its backends, as a hung disk or a lock pile-up
would) and, for 4 s, runs 6 clients sending well-formed unknown API keys while one client probes /healthz, the
association file and a click on new connections. Resumes the cluster (always), stops the server and prints how
many probes were answered within a second and how the unknown keys were answered. A second mode starts a second
`linkd serve` on the same --data-dir and reports what became of the first one's database.

Usage: bench/connections/database-stall.py LINKD MIGRATIONS [--second-server]
(run it through the checkout's wrapper, e.g. `/work/bin/inwt <checkout> python3 bench/connections/database-stall.py
.build/debug/linkd migrations`).
"""
import json, os, signal, socket, subprocess, sys, tempfile, threading, time, uuid, http.client
binary, migrations = sys.argv[1], sys.argv[2]
if "--second-server" in sys.argv:
    data = tempfile.mkdtemp(prefix="second-server-")
    def serve(port):
        return subprocess.Popen([binary, "serve", "--listen", f"127.0.0.1:{port}", "--data-dir", data, "--migrations", migrations,
                                 "--console", "off", "--log-level", "warning"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    def ready(port):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=3); c.request("GET", "/readyz"); r = c.getresponse(); b = r.read(); return r.status, b[:120]
        except Exception as e: return 0, str(e)
    p1 = 19000 + os.getpid() % 500
    a = serve(p1)
    for _ in range(600):
        if ready(p1)[0] == 200: break
        time.sleep(0.1)
    t0 = time.time(); b = serve(p1 + 1)
    try: err = b.communicate(timeout=60)[1]; code = b.returncode
    except subprocess.TimeoutExpired: b.send_signal(signal.SIGTERM); err = b.communicate()[1]; code = "SIGTERM after 60 s"
    print(f"second: exit {code} after {time.time()-t0:.1f} s; stderr: {err.strip().splitlines()[-1][:200] if err.strip() else ''}")
    time.sleep(1)
    print("first /readyz after the second:", ready(p1))
    a.send_signal(signal.SIGTERM); a.wait(timeout=60)
    sys.exit(0)
data = tempfile.mkdtemp(prefix="database-stall-")
port = 18000 + os.getpid() % 1000
log = open(data + "/serve.log", "w")
server = subprocess.Popen([binary, "serve", "--listen", f"127.0.0.1:{port}", "--data-dir", data, "--migrations", migrations,
                           "--threads", "2", "--console", "off", "--log-level", "warning"], stderr=log, stdout=log)
def req(method, path, headers={}, body=None, timeout=5):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    c.request(method, path, body=body, headers=dict({"Connection": "close"}, **headers))
    r = c.getresponse(); b = r.read(); c.close(); return r.status, dict(r.getheaders()), b
for _ in range(600):
    try:
        if req("GET", "/readyz")[0] == 200: break
    except Exception: pass
    time.sleep(0.1)
key = subprocess.run([binary, "keys", "create", "--workspace", "acme", "--data-dir", data, "--migrations", migrations],
                     capture_output=True, text=True).stdout.strip()
auth = {"Authorization": "Bearer " + key, "Content-Type": "application/json"}
host = "links.example.com"
print("domain", req("POST", "/v1/domains", auth, json.dumps({"hostname": host, "webFallbackUrl": "https://www.example.com"}))[0])
time.sleep(0.5)
pg = [p for p in os.popen("ls /proc").read().split() if p.isdigit()]
pidfile = [os.path.join(r, "postmaster.pid") for r, _, f in os.walk(data, followlinks=True) if "postmaster.pid" in f][0]
postmaster = int(open(pidfile).read().split()[0])
procs = [postmaster] + [int(p) for p in pg if os.path.exists(f"/proc/{p}/stat") and open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()[1] == str(postmaster)]
for p in procs: os.kill(p, signal.SIGSTOP)
stop = False; unknown = []
try:
    def attacker():
        while not stop:
            k = "lk_" + uuid.uuid4().hex + "_" + "A" * 43
            try: s, h, _ = req("GET", "/v1/domains", {"Authorization": "Bearer " + k}, timeout=4); unknown.append((s, "Retry-After" in h))
            except Exception: unknown.append((0, False))
    threads = [threading.Thread(target=attacker) for _ in range(6)]
    for t in threads: t.start()
    time.sleep(0.3)
    probes = []; start = time.time()
    while time.time() - start < 4:
        for path, h in [("/healthz", "localhost"), ("/.well-known/apple-app-site-association", host), ("/click", host)]:
            t0 = time.time()
            try: s = req("GET", path, {"Host": h}, timeout=2)[0]
            except Exception: s = 0
            probes.append((path, s, time.time() - t0))
        time.sleep(0.05)
finally:  # the cluster is always resumed
    stop = True
    for p in procs: os.kill(p, signal.SIGCONT)
for t in threads: t.join()
ok = [p for p in probes if p[1] in (200, 302) and p[2] < 1]
print(f"probes answered within 1 s: {len(ok)} of {len(probes)}; slowest {max(p[2] for p in probes):.2f} s")
print(f"unknown-key requests: {len(unknown)}, answered {sum(1 for u in unknown if u[0])}, 503+Retry-After {sum(1 for u in unknown if u[0]==503 and u[1])}")
server.send_signal(signal.SIGTERM); server.wait(timeout=60)
