"""The generated-client check's two steps (scripts/client-check runs them, in the openapi-python-client venv).

`generate DOC OUT`: generates the client from the OpenAPI document DOC into OUT and prints, verbatim, each warning
the generator gives about the document; the media types it has no code for (CSV, NDJSON, PNG, SVG, XML) are expected
and only counted. Exits 1 when there is any other warning.

`drive`: the README's quick start through the generated client (imported from PYTHONPATH) against the `linkd
serve` at $LINKD_URL with the admin key $LINKD_KEY: every answer must be an instance of the generated model of its
documented response, with no raw dict anywhere in it. Request bodies are built with the models' `from_dict`.
"""
import re
import sys
import time

# What the generator cannot generate code for, in a request body or a response: expected, not a fault of the document.
UNSUPPORTED_MEDIA = {"text/csv", "application/x-ndjson", "image/png", "image/svg+xml", "application/xml"}


def expected(detail):
    match = re.fullmatch(r"Unsupported content type (\S+)", detail)
    if match:
        return match.group(1) in UNSUPPORTED_MEDIA
    match = re.fullmatch(r"Cannot parse response for status code .* \(Unsupported content_type ([^()]+)\), "
                         r"response will be omitted from generated client", detail)
    return bool(match) and set(match.group(1).split(", ")) <= UNSUPPORTED_MEDIA


def generate(document, output):
    from pathlib import Path
    from openapi_python_client import generate as generate_client
    from openapi_python_client.config import Config, ConfigFile, MetaType

    config = Config.from_sources(ConfigFile(post_hooks=[]), MetaType.NONE, Path(document), "utf-8",
                                 overwrite=True, output_path=Path(output))
    errors = generate_client(config=config)
    unexpected = [error for error in errors if not expected(str(error.detail or ""))]
    for error in unexpected:
        data = getattr(error, "data", None)
        print(f"{error.level.name} {error.header}\n{error.detail or ''}")
        if data is not None and hasattr(data, "model_dump_json"):
            print(data.model_dump_json(indent=2, exclude_unset=True, by_alias=True))
        print()
    print(f"{len(errors)} warnings, {len(errors) - len(unexpected)} of them unsupported media types")
    return 1 if unexpected else 0


class Driver:
    def __init__(self, url, key):
        from linkd_client import AuthenticatedClient, Client
        self.client = AuthenticatedClient(base_url=url, token=key, raise_on_unexpected_status=True)
        self.anonymous = Client(base_url=url, raise_on_unexpected_status=True)
        self.links_host = Client(base_url=url, headers={"Host": "links.example.com"}, raise_on_unexpected_status=True)
        self.calls = 0
        self.models = set()

    def check(self, label, answer, model):
        """`answer` is a `model`, and nothing in it is a raw dict (free-form maps are models with `additional_properties`)."""
        self.calls += 1
        assert isinstance(answer, model), f"{label}: {type(answer).__name__} is not {model.__name__}: {answer!r}"[:2000]
        self.walk(label, answer)
        return answer

    def walk(self, label, value):
        if isinstance(value, dict):
            raise AssertionError(f"{label}: a raw dict: {value!r}"[:2000])
        if isinstance(value, list):
            for index, item in enumerate(value):
                self.walk(f"{label}[{index}]", item)
        elif hasattr(type(value), "__attrs_attrs__"):
            self.models.add(type(value).__name__)
            for field in type(value).__attrs_attrs__:
                item = getattr(value, field.name)
                if field.name == "additional_properties":
                    for name, member in item.items():
                        # A free-form object (a link's `data`) holds what the caller stored, as it was.
                        if not type(value).__name__.endswith("Data") and not type(value).__name__.endswith("DataType0"):
                            self.walk(f"{label}.{name}", member)
                else:
                    self.walk(f"{label}.{field.name}", item)


def drive(url, key):
    import httpx
    from linkd_client import models as m
    from linkd_client.api.analytics import analytics_summary, analytics_timeseries, analytics_top
    from linkd_client.api.apps import create_app, get_app
    from linkd_client.api.association_files import get_aasa, get_asset_links, get_domain_aasa
    from linkd_client.api.destinations import create_destination
    from linkd_client.api.domains import create_domain, get_domain
    from linkd_client.api.links import build_links, create_link, get_link, list_links
    from linkd_client.api.resolve import claim_deferred_link, resolve_ur_ls, resolve_url
    from linkd_client.api.rules import preview_rules, replace_rules
    from linkd_client.api.teams import create_team

    d = Driver(url, key)
    c = d.client
    d.check("create team", create_team.sync(client=c, body=m.TeamCreate.from_dict({"teamId": "ABCDE12345", "name": "Acme"})), m.Team)
    ios = d.check("create app", create_app.sync(client=c, body=m.IOSAppCreate.from_dict({
        "platform": "ios", "name": "Widgets", "teamId": "ABCDE12345", "bundleId": "com.example.widgets",
        "appStoreId": "1234567890", "customScheme": "widgets"})), m.IOSApp)
    android = d.check("create android app", create_app.sync(client=c, body=m.AndroidAppCreate.from_dict({
        "platform": "android", "name": "Widgets", "packageName": "com.example.widgets",
        "sha256CertFingerprints": [{"value": "ab" * 32}],
        "playStoreUrl": "https://play.google.com/store/apps/details?id=com.example.widgets"})), m.AndroidApp)
    d.check("get app", get_app.sync(str(ios.id), client=c), m.IOSApp)
    for app in (ios, android):
        d.check("create destination", create_destination.sync(str(app.id), client=c, body=m.DestinationCreate.from_dict({
            "name": "widgetDetail", "title": "Widget", "params": {"id": {"type": "int", "min": 1}}})), m.Destination)
    d.check("create domain", create_domain.sync(client=c, body=m.DomainCreate.from_dict({
        "hostname": "links.example.com", "webFallbackUrl": "https://www.example.com"})), m.Domain)
    rules = {"rules": [{"apps": [str(ios.id), str(android.id)], "path": "/widget/{id}", "destination": {"type": "widgetDetail"}}]}
    d.check("replace rules", replace_rules.sync("links.example.com", client=c, body=m.RuleListReplace.from_dict(rules)), m.RuleList)
    preview = d.check("preview", preview_rules.sync("links.example.com", client=c, body=m.PreviewRequest.from_dict({})), m.Preview)
    assert isinstance(preview.aasa, m.AASAFile) and isinstance(preview.aasa.applinks, m.AASAAppLinks)

    # The association files, once the catalog has the rules (it follows the database through NOTIFY).
    deadline = time.monotonic() + 10
    while True:
        aasa = d.check("AASA", get_aasa.sync(client=d.links_host), m.AASAFile)
        details = aasa.applinks.details
        if details and details[0].components or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    component = details[0].components[0]
    assert isinstance(component, m.AASAComponent) and component.additional_properties["/"] == "/widget/?*", component
    assert details[0].app_i_ds == ["ABCDE12345.com.example.widgets"], details[0]
    d.check("domain AASA", get_domain_aasa.sync("links.example.com", client=c), m.AASAFile)
    statements = get_asset_links.sync(client=d.links_host)
    d.calls += 1
    assert isinstance(statements, list) and all(isinstance(s, m.AssetLinksStatement) for s in statements), statements
    assert isinstance(statements[0].target, m.AssetLinksTarget) and statements[0].target.package_name == "com.example.widgets"
    d.walk("assetlinks", statements)

    resolved = d.check("resolve", resolve_url.sync(client=c, url_query="https://links.example.com/widget/42"), m.ResolveResult)
    assert isinstance(resolved.destination, m.TypedDestination), resolved.destination
    assert resolved.destination.params["id"] == 42 and isinstance(resolved.rule, m.RulePosition) and isinstance(resolved.app, m.ResolvedApp)
    failed = d.check("resolve, bad param", resolve_url.sync(client=c, url_query="https://links.example.com/widget/abc"), m.ResolveResult)
    assert isinstance(failed.destination, m.DestinationFailure) and isinstance(failed.destination.error, m.DestinationError), failed
    scheme = d.check("resolve a scheme", resolve_url.sync(client=c, url_query="widgets://widget/42"), m.ResolveResult)
    assert isinstance(scheme.links, m.Links) and scheme.links.scheme == "widgets://widget/42", scheme.links

    built = d.check("build", build_links.sync(client=c, body=m.LinkBuild.from_dict({
        "app": str(ios.id), "destination": {"type": "widgetDetail", "params": {"id": 42}}})), m.BuiltLink)
    assert built.universal == "https://links.example.com/widget/42" and isinstance(built.rule, m.RulePosition), built
    batch = d.check("build a batch", build_links.sync(client=c, body=m.LinkBuildBatch.from_dict({"links": [
        {"app": str(ios.id), "destination": {"type": "widgetDetail", "params": {"id": 7}}},
        {"app": str(ios.id), "destination": {"type": "widgetDetail", "params": {"id": 0}}}]})), m.BuiltLinkBatch)
    assert isinstance(batch.results[0], m.BuiltLink) and isinstance(batch.results[1], m.BatchItemFailure), batch
    assert isinstance(batch.results[1].error, m.Problem), batch.results[1]
    many = d.check("resolve a batch", resolve_ur_ls.sync(client=c, body=m.ResolveBatchRequest.from_dict({
        "urls": ["https://links.example.com/widget/7", "https://links.example.com/nothing"]})), m.ResolveBatch)
    assert [type(r.destination).__name__ for r in many.results][0] == "TypedDestination", many

    # A stored link, then a click on it from Android: the landing page's Play Store link carries a click token
    # (HTML, read as the app's install referrer would get it), which the app claims once.
    link = d.check("create link", create_link.sync(client=c, body=m.LinkCreate.from_dict({
        "domain": "links.example.com", "slug": "spring", "app": str(ios.id), "destination": {"type": "widgetDetail", "params": {"id": 42}},
        "campaign": {"source": "mail", "campaign": "spring"}, "preview": {"title": "Spring"}, "data": {"coupon": "SPRING"}})), m.Link)
    assert isinstance(link.preview, m.LinkPreview) and isinstance(link.destination, m.LinkDestination), link
    d.check("get link", get_link.sync(str(link.id), client=c), m.Link)
    page = d.check("list links", list_links.sync(client=c), m.LinkPage)
    assert all(isinstance(item, m.Link) for item in page.items)
    android_ua = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36"
    landing = httpx.get(url + "/spring", headers={"Host": "links.example.com", "User-Agent": android_ua})
    token = re.search(r"linkd_token%3D([0-9a-f]{32})", landing.text)
    assert token, f"no click token on the Android landing page ({landing.status_code})"
    claimed = d.check("deferred claim", claim_deferred_link.sync(client=d.anonymous, body=m.DeferredClaim(token=token.group(1))), m.ResolveResult)
    assert isinstance(claimed.destination, m.TypedDestination) and isinstance(claimed.link, m.ResolvedLink), claimed
    d.check("get domain", get_domain.sync("links.example.com", client=c), m.Domain)

    # Analytics: what the hits above became, once the hit writer has counted them (it writes in the background).
    deadline = time.monotonic() + 20
    while True:
        summary = d.check("summary", analytics_summary.sync(client=c, source=m.AnalyticsSummarySource.ALL), m.AnalyticsSummary)
        if summary.by_source.click > 0 and summary.by_source.claim > 0 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert summary.by_source.resolve > 0 and summary.by_source.click > 0, summary
    assert isinstance(summary.by_source, m.AnalyticsSourceCounts) and isinstance(summary.filters, m.AnalyticsFilters), summary
    compared = d.check("summary, compared", analytics_summary.sync(client=c, period=m.AnalyticsSummaryPeriod.TODAY,
                                                                    compare=m.AnalyticsSummaryCompare.PREVIOUS), m.AnalyticsSummary)
    assert compared.previous is not None and not isinstance(compared.previous, type(None)), compared
    series = d.check("timeseries", analytics_timeseries.sync(client=c, source=m.AnalyticsTimeseriesSource.ALL,
                                                             group_by=m.AnalyticsTimeseriesGroupBy.LINK), m.AnalyticsTimeseries)
    assert series.buckets and all(isinstance(b, m.AnalyticsBucket) for b in series.buckets), series
    assert series.names and series.names[str(link.id)].slug == "spring", series.names
    top = d.check("top", analytics_top.sync(client=c, dimension=m.AnalyticsTopDimension.DESTINATION, source=m.AnalyticsTopSource.ALL),
                  m.AnalyticsTop)
    assert top.items and all(isinstance(item, m.AnalyticsTopItem) for item in top.items), top
    assert top.items[0].destination == "widgetDetail" and top.items[0].title == "Widget" and top.items[0].hits > 0, top.items[0]
    d.check("top paths", analytics_top.sync(client=c, dimension=m.AnalyticsTopDimension.PATH, compare=m.AnalyticsTopCompare.PREVIOUS),
            m.AnalyticsTop)
    print(f"{d.calls} answers, each its model ({len(d.models)} model classes met, no raw dict)")
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "generate":
        sys.exit(generate(sys.argv[2], sys.argv[3]))
    import os
    sys.exit(drive(os.environ["LINKD_URL"], os.environ["LINKD_KEY"]))
