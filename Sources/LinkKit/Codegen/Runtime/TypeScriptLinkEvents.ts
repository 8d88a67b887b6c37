// ---- Conversions reported to linkd (the same in every generated file; docs/CODEGEN.md and docs/EVENTS.md in linkd) ----

/** Where the queue is kept: `localStorage`, or any store with these two methods (a file written atomically, say). */
export interface EventStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The part of `fetch` the events use. */
export type EventFetch = (url: string, init: { method: string; headers: { [name: string]: string }; body: string }) =>
  Promise<{ status: number; headers: { get(name: string): string | null } }>;

/** An amount of money: minor units (cents; zero or more) and the ISO 4217 code in capitals. */
export interface EventValue {
  readonly minorUnits: number;
  readonly currency: string;
}

/**
 * The app's events for linkd's attribution (`POST /v1/events` with the app's publishable key): the install and the
 * opens by a link, which `LinkInbox` and `LinkDeferredClaim` report when the inbox is made with it, and the app's own
 * named events (`track("purchase", { minorUnits: 1299, currency: "EUR" })`).
 *
 * Every event is written to the queue in `storage` (one `setItem`, before `track` returns) and sent from there in
 * batches: the queue survives the page or process ending and any time offline, and each event keeps the idempotency
 * key it was given when tracked, so a batch sent again after a lost answer counts once. A failed send is tried again
 * after 1, 2, 4 … seconds (at most five minutes, with jitter), or after the `Retry-After` of a 429. The install is held
 * (and everything after it, so a purchase finds the install it follows) until the install's click token is known
 * (`reportInstall`, which the deferred claim calls) or `installWait` milliseconds have passed since the first launch.
 *
 * JavaScript runs one thread per realm; every change is made synchronously, and one sender runs at a time, so a
 * `track` from a callback while a batch is on its way is safe.
 */
export class LinkEvents {
  static readonly storageKey = "linkd.events";
  /** Most events the queue keeps: `track` refuses more while linkd cannot be reached. */
  static readonly capacity = 10000;
  private readonly visitor: string;
  /** When the install began waiting for its click token (the first launch, in milliseconds since 1970); 0 once queued. */
  private installSince = 0;
  /** The events to send, each the JSON object `POST /v1/events` takes, oldest first. */
  private queue: string[] = [];
  private sending = false;
  private attempt = 0;
  private failures = 0;
  private retryAt = 0;
  private wake: (() => void) | null = null;
  private readonly fetcher: EventFetch;
  private readonly installWait: number;
  private readonly batchSize: number;

  /**
   * @param server the base URL of linkd's API, under which `v1/events` is.
   * @param appKey the app's publishable key (`lkp_…`, `POST /v1/apps/{id}/event-key`), sent as `X-Linkd-App-Key`.
   * @param storage where the queue is kept.
   * @param options `fetch` (by default the global one), the install's wait for its token in milliseconds (30,000), the
   *   most events a request carries (100).
   */
  constructor(private readonly server: string, private readonly appKey: string, private readonly storage: EventStorage,
              options: { fetcher?: EventFetch; installWait?: number; batchSize?: number } = {}) {
    this.fetcher = options.fetcher || ((url, init) => (globalThis as unknown as { fetch: EventFetch }).fetch(url, init));
    this.installWait = options.installWait === undefined ? 30000 : options.installWait;
    this.batchSize = Math.max(1, Math.min(options.batchSize || 100, 1000));
    let text: string | null = null;
    try { text = storage.getItem(LinkEvents.storageKey); } catch (e) { text = null; }
    const lines = (text || "").split("\n").filter((line) => line.length > 0);
    const header = lines.length > 0 ? lines[0].split(" ") : [];
    if (header.length === 4 && header[0] === "linkd-events" && header[1] === "1" && header[2].length > 0) {
      this.visitor = header[2];
      this.installSince = Number(header[3]) || 0;
      this.queue = lines.slice(1).filter((line) => line[0] === "{" && line[line.length - 1] === "}");
    } else {
      // The first launch of this install (or its data was cleared): a new visitor, and the install to report.
      this.visitor = randomUUID();
      this.installSince = Date.now();
      this.save();
    }
    if (this.queue.length > 0 || this.installSince !== 0) this.start();
  }

  /** The id linkd attributes this install's named events through (`visitorId`): made at the first launch, kept. */
  get visitorId(): string { return this.visitor; }

  /** How many events wait to be sent (the install held for its token not counted). */
  get pending(): number { return this.queue.length; }

  /**
   * Tracks a named event (`signup`, `purchase`, `trial.started`: lower-case letters, digits, `_` and `.`, at most 64,
   * starting with a letter), with an optional value, as happening at `time`. Returns false, keeping nothing, for a
   * malformed name or value, or a full queue.
   */
  track(name: string, value: EventValue | null = null, time: Date = new Date()): boolean {
    if (!/^[a-z][a-z0-9_.]{0,63}$/.test(name) || name === "install" || name === "open") return false;
    const fields: [string, unknown][] = [["name", name]];
    if (value) {
      if (!(Number.isSafeInteger(value.minorUnits) && value.minorUnits >= 0) || !/^[A-Z]{3}$/.test(value.currency)) return false;
      fields.push(["value", value.minorUnits], ["currency", value.currency]);
    }
    return this.enqueue(fields, time.getTime());
  }

  /**
   * Reports that the app was opened with `url` (`LinkInbox` does, for every link it takes); a URL longer than linkd keeps
   * (2,000 characters) is not.
   */
  reportOpen(url: string): void {
    if (url.length > 2000) return;
    this.enqueue([["name", "open"], ["url", url]], Date.now());
  }

  /**
   * Reports the install, once per install, with the click token it came with (the deferred claim's; null for none):
   * releases the install held since the first launch. Later calls do nothing.
   */
  reportInstall(clickToken: string | null): void {
    if (this.installSince === 0) return;
    const token = clickToken && /^[0-9a-f]{32}$/.test(clickToken) ? clickToken : null;
    this.queue.unshift(this.installLine(this.installSince, token));
    this.installSince = 0;
    this.retryAt = 0;
    this.save();
    this.start();
    this.nudge();
  }

  /**
   * Sends what is queued now, without waiting for a retry's time: resolves to true once nothing is left, false when a
   * try failed (offline, an error) or the install still waits for its token (the queue stays for later).
   */
  async flush(): Promise<boolean> {
    const failures = this.failures;
    this.retryAt = 0;
    this.start();
    this.nudge();
    for (;;) {
      if (this.queue.length === 0 && this.installSince === 0) return true;
      if (this.failures > failures || (this.installSince !== 0 && Date.now() - this.installSince < this.installWait)) return false;
      await new Promise<void>((resolve) => { setTimeout(resolve, 20); });
    }
  }

  /** Queues an event with a fresh idempotency key; false when the queue is full. */
  private enqueue(fields: [string, unknown][], time: number): boolean {
    if (this.queue.length >= LinkEvents.capacity) return false;
    this.queue.push(this.line(fields, randomUUID(), time));
    this.save();
    this.start();
    return true;
  }

  /** Starts the one sender unless it runs. */
  private start(): void {
    if (this.sending) return;
    this.sending = true;
    void this.send();
  }

  private nudge(): void {
    const wake = this.wake;
    this.wake = null;
    if (wake) wake();
  }

  /** The sender: sends batches from the head of the queue until it is empty, waiting out the held install and the backoff. */
  private async send(): Promise<void> {
    for (;;) {
      const now = Date.now();
      let wait = 0;
      if (this.installSince !== 0) {
        if (now - this.installSince < this.installWait) {
          wait = this.installSince + this.installWait - now;
        } else {
          // No token came in time: the install is reported without one, at the time of the first launch.
          this.queue.unshift(this.installLine(this.installSince, null));
          this.installSince = 0;
          this.save();
        }
      }
      if (wait === 0) {
        if (this.queue.length === 0) {
          this.sending = false;
          return;
        }
        if (this.retryAt > now) wait = this.retryAt - now;
      }
      if (wait > 0) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          unref(setTimeout(() => this.nudge(), wait));
        });
        continue;
      }
      const batch = this.queue.slice(0, this.batchSize);
      const retryAfter = await this.post(batch);
      if (retryAfter === null) {
        this.queue = this.queue.slice(batch.length);
        this.attempt = 0;
        this.retryAt = 0;
        this.save();
      } else {
        this.attempt += 1;
        this.failures += 1;
        // 1, 2, 4 … seconds, at most five minutes, each between half and all of it; a 429's `Retry-After` as said.
        const backoff = Math.min(300000, 1000 * Math.pow(2, this.attempt - 1)) * (0.5 + Math.random() / 2);
        this.retryAt = Date.now() + (retryAfter >= 0 ? retryAfter : backoff);
      }
    }
  }

  /**
   * One batch to `POST /v1/events`: null when it is done with (taken, or a batch that can never be taken as it is,
   * dropped rather than blocking every later event); else the milliseconds a 429 asks to wait, or -1 to back off.
   */
  private async post(batch: string[]): Promise<number | null> {
    let status: number;
    let retryAfter: string | null = null;
    try {
      const response = await this.fetcher(this.server.replace(/\/+$/, "") + "/v1/events", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Linkd-App-Key": this.appKey },
        body: "{\"events\":[" + batch.join(",") + "]}",
      });
      status = response.status;
      retryAfter = response.headers.get("Retry-After");
    } catch (e) {
      return -1;
    }
    if (status >= 200 && status < 300) return null;
    if (status === 429) return retryAfter !== null && /^\s*\d+\s*$/.test(retryAfter) ? Number(retryAfter) * 1000 : -1;
    // Not signed in (a replaced key, a new one on the way), a timeout, the server's trouble: later.
    if (status === 401 || status === 403 || status === 408 || status >= 500) return -1;
    return null;
  }

  /** Writes the queue anew, in one `setItem`; kept in memory when the storage refuses (the next change tries again). */
  private save(): void {
    const text = ["linkd-events 1 " + this.visitor + " " + (this.installSince === 0 ? "-" : String(this.installSince))]
      .concat(this.queue).join("\n") + "\n";
    try { this.storage.setItem(LinkEvents.storageKey, text); } catch (e) { /* kept in memory */ }
  }

  private installLine(since: number, clickToken: string | null): string {
    const fields: [string, unknown][] = [["name", "install"]];
    if (clickToken) fields.push(["clickToken", clickToken]);
    return this.line(fields, this.visitor + "-install", since);
  }

  /** One event's JSON: its fields, the idempotency key, the visitor and the time (RFC 3339, milliseconds, UTC). */
  private line(fields: [string, unknown][], key: string, time: number): string {
    const all = fields.concat([["idempotencyKey", key], ["visitorId", this.visitor], ["time", new Date(time).toISOString()]]);
    return "{" + all.map(([name, value]) => JSON.stringify(name) + ":" + JSON.stringify(value)).join(",") + "}";
  }
}

/** A random (version 4) UUID: the platform's `crypto` where there is one. */
function randomUUID(): string {
  const bytes: number[] = [];
  const crypto = (globalThis as unknown as { crypto?: { getRandomValues(array: Uint8Array): Uint8Array } }).crypto;
  if (crypto && crypto.getRandomValues) {
    crypto.getRandomValues(new Uint8Array(16)).forEach((byte) => bytes.push(byte));
  } else {
    for (let i = 0; i < 16; i++) bytes.push(Math.floor(Math.random() * 256));
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.map((byte) => (byte < 16 ? "0" : "") + byte.toString(16)).join("");
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
}

/** Lets a Node.js process end while a timer waits (a browser's timers have no `unref`). */
function unref(timer: unknown): void {
  const handle = timer as { unref?: () => void };
  if (handle && typeof handle.unref === "function") handle.unref();
}
