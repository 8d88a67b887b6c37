"""A real OpenID Connect provider for the tests, its tokens signed with Authlib (PyPI, pinned in scripts/install-deps).

Usage: oidc_provider.py CLIENT_ID CLIENT_SECRET [PORT]

Listens on 127.0.0.1 (PORT, or a free one) and prints `listening 127.0.0.1 <port>`; its issuer is
`http://127.0.0.1:<port>`. It serves:

- GET  /.well-known/openid-configuration   discovery, with `Cache-Control: max-age=<max_age>`
- GET  /jwks                               an RSA key (kid rsa-1) and a P-256 key (kid ec-1); rsa-2 too once published
- GET  /authorize                          the code flow with PKCE S256: signs in the configured user at once and
                                           redirects back with `code` and `state`, or (control `login_form`) shows a
                                           form a browser submits with an email address
- POST /token                              client_secret_basic (read by Authlib), a code once, its redirect_uri and PKCE verifier
                                           checked; answers an ID token signed with the configured `alg`
- POST /mint                               {"header": {...}, "claims": {...}, "key": "rsa"|"ec"|"rsa-2"|"stranger"|"none"}:
                                           a token as given, signed by Authlib's jose (stranger: a key nobody publishes)
- POST /control                            JSON merged into the control: user {sub, email, email_verified, name,
                                           groups}, alg, max_age, publish_rsa2, login_form
- GET  /stats                              how often discovery, the keys and the token endpoint were asked
"""
import hashlib
import html
import json
import secrets
import sys
import threading
import time
import warnings
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

warnings.filterwarnings("ignore", message=".*deprecated.*")
from authlib.jose import JsonWebKey, JsonWebToken  # noqa: E402
from authlib.oauth2.rfc6749.util import extract_basic_authorization  # noqa: E402
from authlib.oauth2.rfc7636 import create_s256_code_challenge  # noqa: E402

client_id, client_secret = sys.argv[1], sys.argv[2]
port = int(sys.argv[3]) if len(sys.argv) > 3 else 0

keys = {
    "rsa": JsonWebKey.generate_key("RSA", 2048, is_private=True, options={"kid": "rsa-1"}),
    "ec": JsonWebKey.generate_key("EC", "P-256", is_private=True, options={"kid": "ec-1"}),
    "rsa-2": JsonWebKey.generate_key("RSA", 2048, is_private=True, options={"kid": "rsa-2"}),
    "stranger": JsonWebKey.generate_key("RSA", 2048, is_private=True, options={"kid": "stranger"}),
}
jose = JsonWebToken(["RS256", "ES256", "none"])
lock = threading.Lock()
control = {"user": {"sub": "user-1", "email": "ada@example.com", "email_verified": True, "name": "Ada Lovelace", "groups": []},
           "alg": "RS256", "max_age": 300, "publish_rsa2": False, "login_form": False}
stats = {"discovery": 0, "jwks": 0, "token": 0, "authorize": 0}
codes = {}


def sign(header, claims, key_name):
    if key_name == "none":
        return jose.encode(header, claims, None).decode()
    key = keys[key_name]
    if "kid" in header and header["kid"] != key.as_dict()["kid"]:
        # Authlib writes the key's own kid into the header: a copy of the key under the kid asked for.
        key = JsonWebKey.import_key(key.as_dict(is_private=True) | {"kid": header["kid"]})
    return jose.encode(header, claims, key).decode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    @property
    def issuer(self):
        return "http://127.0.0.1:%d" % server.server_address[1]

    def answer(self, status, body, content_type="application/json", headers=()):
        data = body if isinstance(body, bytes) else (json.dumps(body) if content_type == "application/json" else body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        with lock:
            max_age = control["max_age"]
        if url.path == "/.well-known/openid-configuration":
            with lock:
                stats["discovery"] += 1
            self.answer(200, {
                "issuer": self.issuer, "authorization_endpoint": self.issuer + "/authorize",
                "token_endpoint": self.issuer + "/token", "jwks_uri": self.issuer + "/jwks",
                "response_types_supported": ["code"], "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256", "ES256"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic"], "code_challenge_methods_supported": ["S256"],
            }, headers=[("Cache-Control", "public, max-age=%d" % max_age)])
        elif url.path == "/jwks":
            with lock:
                stats["jwks"] += 1
                names = ["rsa", "ec"] + (["rsa-2"] if control["publish_rsa2"] else [])
            self.answer(200, {"keys": [keys[n].as_dict(is_private=False) | {"use": "sig"} for n in names]},
                        headers=[("Cache-Control", "max-age=%d" % max_age)])
        elif url.path == "/authorize":
            self.authorize(query)
        elif url.path == "/stats":
            with lock:
                self.answer(200, dict(stats))
        else:
            self.answer(404, {"error": "not_found"})

    def authorize(self, query, email=None):
        with lock:
            stats["authorize"] += 1
            login_form = control["login_form"]
        if query.get("client_id") != client_id or query.get("response_type") != "code":
            return self.answer(400, "unknown client or response type", "text/plain")
        if query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
            return self.answer(400, "PKCE S256 is required", "text/plain")
        if login_form and email is None:
            fields = "".join('<input type="hidden" name="%s" value="%s">' % (html.escape(k), html.escape(v)) for k, v in query.items())
            page = ('<!doctype html><title>Test provider</title><form method="post" action="/authorize">%s'
                    '<label>Email <input id="email" name="email" type="email"></label>'
                    '<button id="sign-in" type="submit">Sign in</button></form>' % fields)
            return self.answer(200, page, "text/html; charset=utf-8")
        code = secrets.token_urlsafe(24)
        with lock:
            user = dict(control["user"])
            if email:
                user["email"] = email
            codes[code] = {"redirect_uri": query.get("redirect_uri"), "nonce": query.get("nonce"),
                           "challenge": query["code_challenge"], "user": user}
        target = query["redirect_uri"] + ("&" if "?" in query["redirect_uri"] else "?") + urlencode(
            {"code": code, "state": query.get("state", "")})
        self.answer(302, b"", "text/plain", headers=[("Location", target)])

    def do_POST(self):
        url = urlparse(self.path)
        raw = self.body()
        if url.path == "/authorize":
            form = {k: v[0] for k, v in parse_qs(raw.decode()).items()}
            return self.authorize(form, email=form.pop("email", ""))
        if url.path == "/token":
            return self.token({k: v[0] for k, v in parse_qs(raw.decode()).items()})
        if url.path == "/mint":
            request = json.loads(raw)
            return self.answer(200, sign(request.get("header", {}), request.get("claims", {}), request.get("key", "rsa")), "text/plain")
        if url.path == "/control":
            with lock:
                control.update(json.loads(raw))
            return self.answer(200, {})
        self.answer(404, {"error": "not_found"})

    def token(self, form):
        with lock:
            stats["token"] += 1
        if extract_basic_authorization(self.headers) != (client_id, client_secret):
            return self.answer(401, {"error": "invalid_client"})
        if form.get("grant_type") != "authorization_code":
            return self.answer(400, {"error": "unsupported_grant_type"})
        with lock:
            grant = codes.pop(form.get("code", ""), None)
            alg = control["alg"]
        if grant is None or grant["redirect_uri"] != form.get("redirect_uri"):
            return self.answer(400, {"error": "invalid_grant"})
        if create_s256_code_challenge(form.get("code_verifier", "")) != grant["challenge"]:
            return self.answer(400, {"error": "invalid_grant", "error_description": "PKCE verifier"})
        now = int(time.time())
        user = grant["user"]
        claims = {"iss": self.issuer, "sub": user["sub"], "aud": client_id, "iat": now, "exp": now + 300,
                  "nonce": grant["nonce"], "email": user["email"], "email_verified": user["email_verified"],
                  "name": user["name"], "groups": user["groups"]}
        key = "ec" if alg == "ES256" else "rsa"
        id_token = sign({"alg": alg, "kid": keys[key].as_dict()["kid"]}, claims, key)
        self.answer(200, {"access_token": secrets.token_urlsafe(24), "token_type": "Bearer", "expires_in": 300, "id_token": id_token},
                    headers=[("Cache-Control", "no-store")])

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
print("listening 127.0.0.1 %d" % server.server_address[1], flush=True)
server.serve_forever()
