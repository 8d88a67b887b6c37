"""schemathesis hooks for scripts/fuzz-api: seed a few real resources, then point generated cases at them.

Loaded by schemathesis (SCHEMATHESIS_HOOKS) with LINKD_FUZZ_URL and LINKD_FUZZ_KEY set. On load it creates,
in the key's workspace, a team, an iOS and an Android app, a destination type on each, a link domain and its
rules. Before each call, a deterministic share of the generated path parameters, app ids and destination types
is replaced by those real ones, so reads and writes reach real rows (and rule compilation) instead of 404
and "no such app", association-file fetches name the seeded domain in Host, and most generated If-Match
headers (which match a version only by chance) are left out. DELETE keeps its generated parameters: the seeded rows stay for the whole run, and the
run's own admin key is never revoked.
"""

import json
import os
import urllib.request
import zlib

import schemathesis
from schemathesis.engine import observations
from requests.structures import CaseInsensitiveDict

BASE = os.environ["LINKD_FUZZ_URL"]
KEY = os.environ["LINKD_FUZZ_KEY"]
HOST = "links.example.com"
TEAM = "ABCDE12345"
DESTINATION = "widgetDetail"


def call(method, path, body=None):
    request = urllib.request.Request(BASE + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Authorization", "Bearer " + KEY)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def seed():
    call("POST", "/v1/teams", {"teamId": TEAM, "name": "Fuzz"})
    ios = call("POST", "/v1/apps", {"platform": "ios", "name": "Widgets", "teamId": TEAM,
                                    "bundleId": "com.example.widgets", "appStoreId": "1234567890"})["id"]
    android = call("POST", "/v1/apps", {"platform": "android", "name": "Widgets", "packageName": "com.example.widgets",
                                        "sha256CertFingerprints": [{"value": "AB" * 32}]})["id"]
    for app in (ios, android):
        call("POST", f"/v1/apps/{app}/destinations",
             {"name": DESTINATION, "title": "Widget", "params": {"id": {"type": "int", "min": 1}}})
    call("POST", "/v1/domains", {"hostname": HOST, "webFallbackUrl": "https://www.example.com"})
    rules = call("PUT", f"/v1/domains/{HOST}/rules", {"rules": [
        {"apps": [ios, android], "path": "/widget/{id}", "destination": {"type": DESTINATION}},
        {"apps": [ios], "path": "/help/*", "exclude": True},
    ]})["items"]
    return {"apps": [ios, android], "rule": rules[0]["id"]}


def _tolerant(same_origin_path):
    """schemathesis 4.32.5 reads URLs out of 2xx bodies with urlsplit, which raises ValueError for a bracketed
    host that is no IP address: resolve answers echo such links (`https://[x]/`), and the run stopped with a
    traceback. A link that cannot be split is no link to follow."""
    def wrapper(value, origin):
        try:
            return same_origin_path(value, origin)
        except ValueError:
            return None
    return wrapper


observations._same_origin_path = _tolerant(observations._same_origin_path)
SEEDED = seed()
# `lk_<key id in hex>_<secret>`: the run's own key, which DELETE /v1/keys/{id} must not revoke.
OWN_KEY_ID = KEY.split("_")[1]


def chosen(value, share=4):
    """Whether to replace `value`: a stable choice for (share - 1) in `share` values, so replays agree."""
    return zlib.crc32(json.dumps(value, sort_keys=True, default=str).encode()) % share != 0


def real_app(value):
    return SEEDED["apps"][zlib.crc32(str(value).encode()) % 2]


def point_body(value, key=None):
    """Replaces generated app ids, team IDs and destination types in a request body by seeded ones."""
    if isinstance(value, dict):
        out = {name: point_body(member, name) for name, member in value.items()}
        if key == "destination" and isinstance(out.get("type"), str) and chosen(out["type"]):
            out["type"] = DESTINATION
        if isinstance(out.get("teamId"), str) and chosen(out["teamId"]):
            out["teamId"] = TEAM
        return out
    if isinstance(value, list):
        if key in ("apps", "webcredentials", "appclips"):
            return [real_app(item) if isinstance(item, str) and chosen(item) else point_body(item) for item in value]
        return [point_body(item) for item in value]
    return value


@schemathesis.hook
def before_call(context, case, kwargs):
    path = case.operation.path
    if case.method.upper() == "DELETE":
        if path == "/v1/keys/{id}" and str(case.path_parameters.get("id", "")).replace("-", "").lower() == OWN_KEY_ID:
            case.path_parameters["id"] = "00000000-0000-0000-0000-000000000000"
        return
    if path.startswith("/.well-known/") or path == "/apple-app-site-association":
        # The association files are chosen by Host: ask for the seeded domain's most of the time.
        if chosen({**(case.headers or {}), **(case.query or {})}):
            if case.headers is None:
                case.headers = CaseInsensitiveDict()
            case.headers["Host"] = HOST
        return
    parameters = case.path_parameters or {}
    for name, value in list(parameters.items()):
        if not chosen(value):
            continue
        if name == "host":
            parameters[name] = HOST
        elif name == "teamId":
            parameters[name] = TEAM
        elif name == "name":
            parameters[name] = DESTINATION
        elif name == "id" and path.startswith("/v1/apps/"):
            parameters[name] = real_app(value)
        elif name == "id" and path.startswith("/v1/domains/"):
            parameters[name] = SEEDED["rule"]
    if isinstance(case.body, (dict, list)):
        case.body = point_body(case.body)
    # A generated If-Match names a version only by chance (a 412): send it a quarter of the time, so that most
    # changes of the seeded rows get past the precondition to the handler.
    if case.headers and "If-Match" in case.headers and chosen(case.headers["If-Match"]):
        del case.headers["If-Match"]
