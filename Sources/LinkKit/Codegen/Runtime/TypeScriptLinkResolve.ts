/** What the app does with a URL (`LinkRouter.decide`): open a destination decided here, or ask linkd's resolve, because the URL is a targeted link whose destination depends on the visitor. */
export type LinkRoute = { open: LinkDestination } | { needsResolve: string };

/** The visitor a targeted link is decided for; a value left out is left to linkd (the caller's address's country, the request's languages); without `visitorId` the visitor is in no experiment. */
export interface LinkVisitor { visitorId?: string; country?: string; language?: string; osVersion?: string }

/** What `LinkResolveClient` calls: `fetch`'s shape, for a GET. */
export type ResolveFetch = (url: string, init: { method: string; headers: { [name: string]: string }; signal?: unknown }) =>
  Promise<{ status: number; text(): Promise<string> }>;

/**
 * Asks linkd's `GET /v1/resolve` what a targeted link opens for this visitor (`LinkRouter.decide` answers
 * `{needsResolve}` for it): the visitor's context goes with it (their variant's key, country, languages, OS version;
 * this app and its platform), so the app gets the server's answer, never the rules' alone.
 */
export class LinkResolveClient {
  /** The error destination's code when linkd gives no answer (offline, a timeout, a 5xx, a refused key). */
  static readonly unavailable = "resolve_unavailable";

  /**
   * @param server the base URL of linkd's API, under which `v1/resolve` is.
   * @param key a key with read scope, sent as `Authorization: Bearer`; null for a linkd that resolves without one.
   * @param fetcher `fetch`, by default the global one.
   * @param timeoutMs how long a resolve may take before it counts as unanswered.
   */
  constructor(private readonly server: string, private readonly key: string | null = null,
              private readonly fetcher: ResolveFetch = (url, init) => (globalThis as unknown as { fetch: ResolveFetch }).fetch(url, init),
              private readonly timeoutMs: number = 15000) {}

  /**
   * The destination linkd answers for `url` and `visitor`; null when the app opens nothing there (a web page, another
   * app). When linkd cannot be reached, does not answer within `timeoutMs` or answers no success: the error destination
   * `{error: {code: "resolve_unavailable", …}}`, so the app shows its own error screen rather than guess.
   */
  async resolve(url: string | { readonly href: string }, visitor: LinkVisitor = {}): Promise<LinkDestination | null> {
    const items: [string, string | undefined][] = [
      ["url", typeof url === "string" ? url : url.href], ["platform", PLATFORM], ["app", APP_ID],
      ["visitorId", visitor.visitorId], ["country", visitor.country], ["language", visitor.language], ["osVersion", visitor.osVersion],
    ];
    const query = items.filter((item) => item[1] !== undefined).map((item) => item[0] + "=" + encodeURIComponent(item[1] as string)).join("&");
    const headers: { [name: string]: string } = this.key !== null ? { Authorization: "Bearer " + this.key } : {};
    let status: number, body: string;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => { timer = setTimeout(() => resolve("late"), this.timeoutMs); });
    // A request given up is aborted where the runtime can (it would hold a connection, and Node.js's event loop, open).
    const Abort = (globalThis as unknown as { AbortController?: new () => { signal: unknown; abort(): void } }).AbortController;
    const abort = Abort ? new Abort() : null;
    try {
      const address = this.server.replace(/\/+$/, "") + "/v1/resolve?" + query;
      const answered = (async () => {
        const response = await this.fetcher(address, abort ? { method: "GET", headers, signal: abort.signal } : { method: "GET", headers });
        return { status: response.status, body: await response.text() };
      })();
      const first = await Promise.race([answered, late]);
      if (first === "late") {
        answered.catch(() => undefined);
        if (abort) abort.abort();
        return unanswered("linkd did not answer in time.");
      }
      status = first.status;
      body = first.body;
    } catch (e) {
      return unanswered("linkd could not be reached.");
    } finally {
      clearTimeout(timer);
    }
    if (status !== 200) return unanswered("linkd answered no success.");
    let answer: { outcome?: unknown; app?: { id?: unknown } };
    try { answer = JSON.parse(body); } catch (e) { return unanswered("linkd answered no success."); }
    // A destination only where resolve says this app opens the URL.
    const opens = (answer.outcome === "open_app" || answer.outcome === "invalid_param") && answer.app !== undefined && answer.app.id === APP_ID;
    return opens ? decodeDestination(body) : null;
  }

  /** Resolves `url` and hands the destination to `inbox`: resolves to what `inbox` hands out now. */
  async resolveInto(url: string | { readonly href: string }, visitor: LinkVisitor, inbox: LinkInbox): Promise<LinkDestination[]> {
    const destination = await this.resolve(url, visitor);
    return destination ? inbox.receive(destination) : [];
  }
}

function unanswered(detail: string): LinkDestination { return { error: { code: LinkResolveClient.unavailable, detail } }; }
