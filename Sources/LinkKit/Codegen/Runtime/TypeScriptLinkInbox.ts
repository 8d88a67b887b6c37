// ---- The inbox of arriving links, and deferred claims (the same in every generated file; docs/CODEGEN.md in linkd) ----

/**
 * Every link the app is opened with, whatever way it arrives: at launch, while running, in a notification's
 * payload, or as the deferred claim after the install (`LinkDeferredClaim`). It holds each destination until the
 * app says it is ready to show one (`appReady`) and, for a destination that requires sign-in, until a user is
 * signed in (`userSignedIn`); then it hands it out once, in arrival order. Every method returns the destinations
 * to open now, in order. JavaScript runs one thread per realm, so no lock is needed.
 *
 * Made with `events`, it reports each link it takes to linkd as an `open` (with the URL, whether or not this file
 * routes it: linkd attributes a stored link the table does not know), and the deferred claim reports the install.
 *
 * Made with a `resolver`, it resolves a targeted link itself (`LinkRouter.decide` answers `{needsResolve}` for it: its
 * destination depends on the visitor): linkd's answer for `visitor` arrives later and is taken as a destination is,
 * handed to `onResolved` (when set: what the inbox hands out then), else held for the next call that hands out. When
 * linkd cannot be reached or does not answer in time, that destination is the explicit error `{error: {code:
 * "resolve_unavailable", …}}`, never the rules' guess. Without a resolver a targeted link holds nothing.
 */
export class LinkInbox {
  /** The key of a notification payload's link (`{"link": "https://…"}`). */
  static readonly notificationKey = "link";
  private waiting: LinkDestination[] = [];

  /**
   * @param events where the opens this inbox takes, and the deferred claim's install, are reported; null for nowhere.
   * @param resolver resolves targeted links for `visitor`; null takes none.
   * @param visitor the visitor `resolver` resolves for.
   * @param onResolved gets what the inbox hands out when a resolved destination arrives; null holds it.
   */
  constructor(private ready: boolean = false, private signedIn: boolean = false, readonly events: LinkEvents | null = null,
              readonly resolver: LinkResolveClient | null = null, readonly visitor: LinkVisitor = {},
              public onResolved: ((handed: LinkDestination[]) => void) | null = null) {}

  /** Takes a destination (a deferred claim's, or one routed elsewhere). */
  receive(destination: LinkDestination): LinkDestination[] {
    this.waiting.push(destination);
    return this.release();
  }

  /**
   * Takes a link the app was opened with: nothing is held when it is not a link of the app. The open is reported either
   * way. A targeted link is resolved by `resolver`: its destination arrives later (`onResolved`).
   */
  receiveURL(url: string | { readonly href: string }): LinkDestination[] {
    if (this.events) this.events.reportOpen(typeof url === "string" ? url : url.href);
    const route = LinkRouter.decide(url);
    if (route && "open" in route) return this.receive(route.open);
    if (route) this.resolve(route.needsResolve);
    return this.release();
  }

  /** Resolves the targeted link `url` with `resolver` (none: nothing) and takes its destination when it arrives. */
  private resolve(url: string): void {
    if (!this.resolver) return;
    this.resolver.resolve(url, this.visitor).then((destination) => {
      if (!destination) return;
      this.waiting.push(destination);
      if (!this.onResolved) return;
      const handed = this.release();
      if (handed.length > 0) this.onResolved(handed);
    });
  }

  /** Takes the link of a notification's payload, under `LinkInbox.notificationKey`; nothing without one. */
  receiveNotification(payload: { readonly [key: string]: unknown }): LinkDestination[] {
    const link = payload[LinkInbox.notificationKey];
    return typeof link === "string" ? this.receiveURL(link) : this.release();
  }

  /** Reports that the app can show destinations: returns what was held for it. */
  appReady(): LinkDestination[] {
    this.ready = true;
    return this.release();
  }

  /** Reports a signed-in user: returns the held destinations that waited for one. */
  userSignedIn(): LinkDestination[] {
    this.signedIn = true;
    return this.release();
  }

  /** Reports that no user is signed in any more: held destinations that require sign-in are dropped. */
  userSignedOut(): void {
    this.signedIn = false;
    this.waiting = this.waiting.filter((destination) => !requiresSignIn(destination));
  }

  /** The destinations held now, in arrival order. */
  get held(): LinkDestination[] { return this.waiting.slice(); }

  /** Once the app is ready: every held destination that needs no user, or all of them with one. */
  private release(): LinkDestination[] {
    if (!this.ready) return [];
    const out = this.waiting.filter((destination) => this.signedIn || !requiresSignIn(destination));
    // A new array rather than `splice(…, ...kept)`: spreading a long list into one call can exceed the engine's
    // argument limit.
    this.waiting = this.waiting.filter((destination) => !this.signedIn && requiresSignIn(destination));
    return out;
  }
}

/** Where the install records that it claimed: `localStorage`, or any store with these two methods. */
export interface ClaimRecord {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The part of `fetch` a claim uses. */
export type ClaimFetch = (url: string, init: { method: string; headers: { [name: string]: string }; body: string }) =>
  Promise<{ status: number; text(): Promise<string> }>;

/**
 * The link a person tapped before installing the app, claimed once per install with `POST /v1/deferred/claim`
 * from the click token its landing page handed over (the Play referrer's `linkd_token`, or the claim link
 * `https://<domain>/_linkd/claim/<token>` on a domain that opted in). The token is the only credential.
 */
export class LinkDeferredClaim {
  static readonly recordKey = "linkd.deferredClaim.claimed";
  /** The domains whose iOS landing pages put a claim link on the pasteboard. */
  static readonly claimDomains: readonly string[] = CLAIM_DOMAINS;

  /**
   * @param server the base URL of linkd's API, under which `v1/deferred/claim` is.
   * @param record where the install records that it claimed.
   * @param fetcher `fetch`, by default the global one.
   */
  constructor(private readonly server: string, private readonly record: ClaimRecord,
              private readonly fetcher: ClaimFetch = (url, init) => (globalThis as unknown as { fetch: ClaimFetch }).fetch(url, init)) {}

  /** Whether this install has claimed already. */
  get hasClaimed(): boolean { return this.record.getItem(LinkDeferredClaim.recordKey) === "true"; }

  /** The token in an install referrer (`linkd_token=<token>&utm_source=…`); null without one. */
  static tokenFromReferrer(referrer: string | null | undefined): string | null {
    for (const item of (referrer || "").split("&")) {
      const token = item.indexOf("linkd_token=") === 0 ? item.slice("linkd_token=".length) : "";
      if (isToken(token)) return token;
    }
    return null;
  }

  /** The token of a claim link on a domain that opted in to pasteboard claims; null otherwise. */
  static tokenFromClaimLink(text: string | null | undefined): string | null {
    const link = (text || "").trim();
    for (const domain of LinkDeferredClaim.claimDomains) {
      const prefix = "https://" + domain + "/_linkd/claim/";
      if (link.indexOf(prefix) === 0 && isToken(link.slice(prefix.length))) return link.slice(prefix.length);
    }
    return null;
  }

  /**
   * Claims `token` unless this install has: the destination of the link tapped before the install, or null (none,
   * another app's link, a token claimed or expired already, or no answer). A definite answer (200, 404, 410, 422)
   * is recorded; without one (offline, 5xx) a later launch may try again.
   */
  async claim(token: string): Promise<LinkDestination | null> {
    if (this.hasClaimed || !isToken(token)) return null;
    let status: number, body: string;
    try {
      const response = await this.fetcher(this.server.replace(/\/+$/, "") + "/v1/deferred/claim",
        { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }) });
      status = response.status;
      body = await response.text();
    } catch (e) {
      return null;
    }
    if (status >= 500 || status === 429) return null;
    this.record.setItem(LinkDeferredClaim.recordKey, "true");
    return status === 200 ? decodeDestination(body) : null;
  }

  /**
   * Claims `token` and hands the destination to `inbox`: resolves to what `inbox` hands out now. The inbox's `events`
   * report the install with the token first (once per install, whatever the claim answers).
   */
  async claimInto(token: string, inbox: LinkInbox): Promise<LinkDestination[]> {
    if (inbox.events && isToken(token)) inbox.events.reportInstall(token);
    const destination = await this.claim(token);
    return destination ? inbox.receive(destination) : [];
  }
}

/** 32 lower-case hexadecimal digits, as linkd issues them. */
function isToken(text: string): boolean { return /^[0-9a-f]{32}$/.test(text); }
