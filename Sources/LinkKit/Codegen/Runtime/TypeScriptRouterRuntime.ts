// ---- The interpreter of `table` (the same in every generated file; docs/CODEGEN.md in linkd) ----

/** The URLs that open a destination. */
export interface LinkURLs { universal: string; scheme: string | null }
/**
 * What `LinkRouter.buildResult` gives: the URLs, or why there are none: the parameter at fault, with the reason in
 * `POST /v1/links/build`'s words for a value the server refuses; or no parameter when no rule of the primary domain
 * prints the destination and routes back to it.
 */
export type LinkBuildResult = { ok: true; urls: LinkURLs } | { ok: false; error: { param?: string; detail: string } };

type Bytes = number[];
type Value = number | string | boolean;
/**
 * One element of a compiled pattern: a literal, `?` (one character), `*`, a pattern that never matches, a character
 * class (`anyCase`: either case), or a substitution variable's alternatives.
 */
type Glob = { literal: string } | "one" | "star" | "never" | { characterClass: string; anyCase?: boolean } | { alternatives: Glob[][] };
/** One element of a template: a literal, a capture of one segment, an optional one (possibly empty), the rest (`{name*}`), or a raw pattern's text, printed by `build` and capturing nothing. */
type Part = { literal: string } | { capture: string } | { optional: string } | { rest: string } | { printed: string };
/** A manifest path attribute, named as the manifest names it; `pathAdvancedPattern` pre-parsed: per token `[minimum, maximum (-1: none), inverted, low, high, ...]` in UTF-16 code units. */
type ManifestPath = { path: string } | { pathPrefix: string } | { pathPattern: string } | { pathAdvancedPattern: number[][] };
/** A `dynamic_app_link_components` entry, its patterns as simple globs. */
interface Dynamic { path?: string; fragment?: string; query?: { name: string; value: string }[] }

/**
 * The table as `linkTable` writes it, every field by its name, the defaults left out: the scheme, the domain its URLs
 * resolve on (a host), the destination specs and the domains, each with its rules inline in entries (runs of
 * consecutive rules for the same apps, as the AASA file's `details`: earlier entries decide first). `decides` says
 * whose semantics decide: iOS's, Android's manifest alone, or the manifest and the dynamic rules.
 */
interface LinkTable { scheme?: string; schemeDomain?: string; specs?: LinkSpec[]; domains?: LinkDomain[] }
interface LinkSpec { type: string; requiresSignIn?: boolean; params?: { name: string; kind: string; optional?: boolean; min?: string; max?: string; values?: string[] }[] }
interface LinkDomain { host: string; decides: "ios" | "android" | "androidDynamicRules"; apps: string[]; app?: string; entries?: { apps: string[]; rules: LinkRule[] }[]; targeted?: string[] }
interface LinkRule {
  path?: Glob[]; parent?: Glob[]; query?: Glob[]; items?: { name: string; pattern: Glob[] }[]; fragment?: Glob[];
  caseSensitive?: boolean; percentEncoded?: boolean; exclude?: boolean; never?: boolean; capture?: LinkCapture; manifest?: ManifestPath[]; dynamic?: Dynamic[];
}
interface LinkCapture { type: string; path?: Part[]; items?: { name: string; template?: Part[] }[]; fragment?: Part[]; params?: { name: string; capture?: string; constant?: string }[] }

/** The table read once: every domain's rules numbered together, each domain's groups (per listed app, entry and rule numbers alternately) numbering them. */
interface Table { scheme: string | null; schemeDomain: number; specs: Spec[]; domains: Domain[]; rules: Rule[] }
interface Spec { type: string; requiresSignIn: boolean; params: ParamSpec[] }
interface ParamSpec { name: string; kind: string; optional: boolean; min: string | null; max: string | null; values: string[] }
/** `app`: this app's index among the listed apps (-1: not listed); `android`: 0 iOS's semantics, 1 Android's manifest, 2 and its dynamic rules; `targeted`: the slugs of its targeted links (only resolve answers them). */
interface Domain { host: string; groups: number[][]; appGroups: number[]; app: number; android: number; targeted: string[] }
interface Rule { slot: number; exclude: boolean; never: boolean; path: Glob[] | null; parent: Glob[] | null; queryString: Glob[] | null; items: Item[]; fragment: Glob[] | null; capture: Capture | null; manifest: ManifestPath[]; dynamic: Dynamic[] }
interface Item { name: string; pattern: Glob[] }
/** A template element by kind, with its literal text or capture name. */
interface TemplateToken { kind: "literal" | "capture" | "optional" | "rest" | "printed"; text: string }
interface Capture { path: TemplateToken[] | null; fragment: TemplateToken[] | null; items: CaptureItem[]; type: string; params: Param[] }
interface CaptureItem { name: string; template: TemplateToken[] | null }
interface Param { name: string; constant: boolean; value: string }

function readTable(written: LinkTable): Table {
  const parts = (list: Part[] | undefined): TemplateToken[] | null =>
    list ? list.map((part): TemplateToken => {
      if ("literal" in part) return { kind: "literal", text: part.literal };
      if ("capture" in part) return { kind: "capture", text: part.capture };
      if ("optional" in part) return { kind: "optional", text: part.optional };
      if ("rest" in part) return { kind: "rest", text: part.rest };
      return { kind: "printed", text: part.printed };
    }) : null;
  const rules: Rule[] = [];
  const domains = (written.domains ?? []).map((domain): Domain => {
    const groups: number[][] = domain.apps.map(() => []);
    for (const entry of domain.entries ?? []) {
      for (const rule of entry.rules) {
        const number = rules.length;
        for (const name of entry.apps) if (domain.apps.indexOf(name) >= 0) groups[domain.apps.indexOf(name)].push(number, number);
        const capture = rule.capture;
        rules.push({
          slot: (rule.percentEncoded === false ? 2 : 0) + (rule.caseSensitive === false ? 1 : 0), exclude: rule.exclude === true, never: rule.never === true,
          path: rule.path ?? null, parent: rule.parent ?? null, queryString: rule.query ?? null, items: rule.items ?? [], fragment: rule.fragment ?? null,
          capture: capture ? {
            type: capture.type, path: parts(capture.path), fragment: parts(capture.fragment),
            items: (capture.items ?? []).map((item) => ({ name: item.name, template: parts(item.template) })),
            params: (capture.params ?? []).map((param) => ({ name: param.name, constant: param.constant !== undefined, value: param.constant ?? param.capture ?? param.name })),
          } : null,
          manifest: rule.manifest ?? [], dynamic: rule.dynamic ?? [],
        });
      }
    }
    const android = domain.decides === "ios" ? 0 : domain.decides === "android" ? 1 : 2;
    return {
      host: domain.host, groups, appGroups: domain.apps.map((_, i) => i), app: domain.app === undefined ? -1 : domain.apps.indexOf(domain.app), android,
      targeted: domain.targeted ?? [],
    };
  });
  const specs = (written.specs ?? []).map((spec): Spec => ({
    type: spec.type, requiresSignIn: spec.requiresSignIn === true,
    params: (spec.params ?? []).map((param) => ({ name: param.name, kind: param.kind, optional: param.optional === true, min: param.min ?? null, max: param.max ?? null, values: param.values ?? [] })),
  }));
  const schemeDomain = domains.map((domain) => domain.host).indexOf(written.schemeDomain ?? "");
  return { scheme: written.scheme ?? null, schemeDomain: written.schemeDomain === undefined ? -1 : schemeDomain, specs, domains, rules };
}

const table: Table = readTable(linkTable);

function utf8(text: string): Bytes {
  const out: Bytes = [];
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low < 0xe000) { c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00); i++; } else { c = 0xfffd; }
    } else if (c >= 0xd800 && c < 0xe000) { c = 0xfffd; }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return out;
}

/** UTF-8 to text; an invalid sequence becomes U+FFFD. */
function text(bytes: Bytes): string {
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    let need = 0, c = 0, min = 0;
    if (b < 0x80) { out += String.fromCharCode(b); i++; continue; }
    if (b >= 0xc2 && b < 0xe0) { need = 1; c = b & 31; min = 0x80; }
    else if (b >= 0xe0 && b < 0xf0) { need = 2; c = b & 15; min = 0x800; }
    else if (b >= 0xf0 && b < 0xf5) { need = 3; c = b & 7; min = 0x10000; }
    else { out += "\ufffd"; i++; continue; }
    let j = 1;
    for (; j <= need; j++) {
      const n = bytes[i + j];
      if (n === undefined || (n & 0xc0) !== 0x80) break;
      c = (c << 6) | (n & 63);
    }
    if (j <= need || c < min || c > 0x10ffff || (c >= 0xd800 && c < 0xe000)) { out += "\ufffd"; i += Math.max(1, j); continue; }
    out += String.fromCodePoint ? String.fromCodePoint(c) : String.fromCharCode(c);
    i += need + 1;
  }
  return out;
}

function scalars(value: string): number {
  let count = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (!(c >= 0xdc00 && c < 0xe000 && i > 0 && value.charCodeAt(i - 1) >= 0xd800 && value.charCodeAt(i - 1) < 0xdc00)) count++;
  }
  return count;
}

function excerpt(value: string): string {
  if (scalars(value) <= 64) return value;
  let out = "", count = 0;
  for (let i = 0; i < value.length && count < 61; i++) {
    const c = value.charCodeAt(i);
    out += value[i];
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < value.length) { out += value[i + 1]; i++; }
    count++;
  }
  return out + "...";
}

const isDigit = (b: number) => b >= 0x30 && b <= 0x39;
const isUpper = (b: number) => b >= 0x41 && b <= 0x5a;
const isLower = (b: number) => b >= 0x61 && b <= 0x7a;
const hexValue = (b: number) => (isDigit(b) ? b - 0x30 : b >= 0x61 && b <= 0x66 ? b - 87 : b >= 0x41 && b <= 0x46 ? b - 55 : -1);

function percentDecoded(bytes: Bytes): Bytes {
  const out: Bytes = [];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x25 && i + 2 < bytes.length && hexValue(bytes[i + 1]) >= 0 && hexValue(bytes[i + 2]) >= 0) {
      out.push(hexValue(bytes[i + 1]) * 16 + hexValue(bytes[i + 2]));
      i += 2;
    } else out.push(bytes[i]);
  }
  return out;
}

function lowercased(bytes: Bytes): Bytes {
  if (bytes.every((b) => b < 0x80)) return bytes.map((b) => (isUpper(b) ? b + 32 : b));
  return utf8(text(bytes).toLowerCase());
}

function equalBytes(a: Bytes, b: Bytes): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Decimal integers as text, compared without losing 64-bit precision. */
function compareDecimal(a: string, b: string): number {
  const na = a[0] === "-", nb = b[0] === "-";
  if (na !== nb) return na ? -1 : 1;
  const da = na ? a.slice(1) : a, db = nb ? b.slice(1) : b;
  const magnitude = da.length !== db.length ? da.length - db.length : da < db ? -1 : da > db ? 1 : 0;
  return na ? -magnitude : magnitude;
}

function canonicalInt(value: string): string | null {
  if (!/^-?[0-9]+$/.test(value)) return null;
  const negative = value[0] === "-";
  const digits = (negative ? value.slice(1) : value).replace(/^0+/, "") || "0";
  const canonical = (negative && digits !== "0" ? "-" : "") + digits;
  if (compareDecimal(canonical, "9223372036854775807") > 0 || compareDecimal(canonical, "-9223372036854775808") < 0) return null;
  return canonical;
}

type Converted = { value: Value; text: string } | { reason: string };

/** resolve's conversion of a captured (decoded) value to the declared type. */
function convert(spec: ParamSpec, value: string): Converted {
  switch (spec.kind) {
    case "string": {
      const length = scalars(value);
      if (spec.min !== null && length < Number(spec.min)) return { reason: `is shorter than ${spec.min} characters` };
      if (spec.max !== null && length > Number(spec.max)) return { reason: `is longer than ${spec.max} characters` };
      return { value, text: value };
    }
    case "int": {
      const canonical = canonicalInt(value);
      if (canonical === null) return { reason: `'${excerpt(value)}' is not an integer` };
      if (spec.min !== null && compareDecimal(canonical, spec.min) < 0) return { reason: `${canonical} is less than the minimum ${spec.min}` };
      if (spec.max !== null && compareDecimal(canonical, spec.max) > 0) return { reason: `${canonical} is greater than the maximum ${spec.max}` };
      return { value: Number(canonical), text: canonical };
    }
    case "uuid": {
      if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(value)) return { reason: `'${excerpt(value)}' is not a UUID` };
      return { value: value.toLowerCase(), text: value.toLowerCase() };
    }
    case "bool": {
      const lower = value.toLowerCase();
      if (lower === "true" || lower === "1" || lower === "yes") return { value: true, text: "true" };
      if (lower === "false" || lower === "0" || lower === "no") return { value: false, text: "false" };
      return { reason: `'${excerpt(value)}' is not a boolean (true/false, 1/0, yes/no)` };
    }
    default:
      if (spec.values.indexOf(value) < 0) return { reason: `'${excerpt(value)}' is not one of ${spec.values.join(", ")}` };
      return { value, text: value };
  }
}

type Op = { kind: "L"; bytes: Bytes } | { kind: "?" } | { kind: "*" } | { kind: "N" } | { kind: "C"; name: string; anyCase: boolean } | { kind: "V"; alternatives: Op[][] };

function compileOps(tokens: Glob[]): Op[] {
  return tokens.map((token): Op => {
    if (token === "one") return { kind: "?" };
    if (token === "star") return { kind: "*" };
    if (token === "never") return { kind: "N" };
    if ("literal" in token) return { kind: "L", bytes: utf8(token.literal) };
    if ("characterClass" in token) return { kind: "C", name: token.characterClass, anyCase: token.anyCase === true };
    return { kind: "V", alternatives: token.alternatives.map(compileOps) };
  });
}

function classContains(name: string, b: number, anyCase: boolean): boolean {
  switch (name) {
    case "alpha": return isUpper(b) || isLower(b);
    case "upper": return isUpper(b) || (anyCase && isLower(b));
    case "lower": return isLower(b) || (anyCase && isUpper(b));
    case "alnum": return isUpper(b) || isLower(b) || isDigit(b);
    case "digit": return isDigit(b);
    default: return hexValue(b) >= 0;
  }
}

function globMatches(ops: Op[], input: Bytes): boolean {
  const failed: boolean[] = [];
  const n = input.length;
  const boundary = (t: number) => t >= n || (input[t] & 0xc0) !== 0x80;
  const search = (e: number, s: number): boolean => {
    if (e === ops.length) return s === n;
    const key = e * (n + 1) + s;
    if (failed[key]) return false;
    let found = false;
    const op = ops[e];
    switch (op.kind) {
      case "L":
        found = s + op.bytes.length <= n && op.bytes.every((b, i) => input[s + i] === b) && search(e + 1, s + op.bytes.length);
        break;
      case "?": {
        if (s < n) { let next = s + 1; while (next < n && (input[next] & 0xc0) === 0x80) next++; found = search(e + 1, next); }
        break;
      }
      case "*":
        for (let t = n; t >= s; t--) if (boundary(t) && search(e + 1, t)) { found = true; break; }
        break;
      case "C":
        found = s < n && classContains(op.name, input[s], op.anyCase) && search(e + 1, s + 1);
        break;
      case "V":
        outer: for (const alternative of op.alternatives) {
          for (let t = n; t >= s; t--) if (globMatches(alternative, input.slice(s, t)) && search(e + 1, t)) { found = true; break outer; }
        }
        break;
      default:
        found = false;
    }
    if (!found) failed[key] = true;
    return found;
  };
  return search(0, 0);
}

interface Form { percentEncoded: boolean; caseSensitive: boolean }
const formOf = (slot: number): Form => ({ percentEncoded: slot < 2, caseSensitive: slot % 2 === 0 });
const slotOf = (form: Form) => (form.percentEncoded ? 0 : 2) + (form.caseSensitive ? 0 : 1);

function transform(bytes: Bytes, form: Form): Bytes {
  let result = form.percentEncoded ? bytes : percentDecoded(bytes);
  if (!form.caseSensitive) result = lowercased(result);
  return result;
}

/** A URL's path, query and fragment, and their forms computed once each. */
class Subject {
  private paths: (Bytes | undefined)[] = [];
  private queries: (Bytes | undefined)[] = [];
  private fragments: (Bytes | undefined)[] = [];
  private lists: ({ name: Bytes; value: Bytes }[] | undefined)[] = [];
  constructor(readonly path: Bytes, readonly query: Bytes, readonly fragmentBytes: Bytes) {}
  pathIn(form: Form): Bytes {
    const slot = slotOf(form);
    let known = this.paths[slot];
    if (!known) { known = transform(this.path, form).slice(); while (known.length > 0 && known[known.length - 1] === 0x2f) known.pop(); this.paths[slot] = known; }
    return known;
  }
  queryIn(form: Form): Bytes { const slot = slotOf(form); return this.queries[slot] || (this.queries[slot] = transform(this.query, form)); }
  fragmentIn(form: Form): Bytes { const slot = slotOf(form); return this.fragments[slot] || (this.fragments[slot] = transform(this.fragmentBytes, form)); }
  /** Split on `&`, then the first `=`, before decoding; empty pieces skipped; no `=` is the empty value. */
  items(form: Form): { name: Bytes; value: Bytes }[] {
    const slot = slotOf(form);
    const known = this.lists[slot];
    if (known) return known;
    const list: { name: Bytes; value: Bytes }[] = [];
    let start = 0;
    while (start < this.query.length) {
      let end = start;
      while (end < this.query.length && this.query[end] !== 0x26) end++;
      if (end > start) {
        let equals = start;
        while (equals < end && this.query[equals] !== 0x3d) equals++;
        list.push({ name: transform(this.query.slice(start, equals), form), value: equals < end ? transform(this.query.slice(equals + 1, end), form) : [] });
      }
      start = end + 1;
    }
    return (this.lists[slot] = list);
  }
}

interface CompiledRule { form: Form; never: boolean; path: Op[] | null; parent: Op[] | null; queryString: Op[] | null; items: { name: Bytes; pattern: Op[] }[]; fragment: Op[] | null }

let compiledRules: CompiledRule[] | null = null;
function compiled(): CompiledRule[] {
  if (compiledRules) return compiledRules;
  const ops = (tokens: Glob[] | null) => (tokens ? compileOps(tokens) : null);
  return (compiledRules = table.rules.map((rule) => ({
    form: formOf(rule.slot), never: rule.never, path: ops(rule.path), parent: ops(rule.parent), queryString: ops(rule.queryString),
    items: rule.items.map((item) => ({ name: utf8(item.name), pattern: compileOps(item.pattern) })), fragment: ops(rule.fragment),
  })));
}

function ruleMatches(rule: CompiledRule, subject: Subject): boolean {
  if (rule.never) return false;
  if (rule.path) {
    const path = subject.pathIn(rule.form);
    if (!globMatches(rule.path, path) && (!rule.parent || !globMatches(rule.parent, path))) return false;
  }
  if (rule.queryString && !globMatches(rule.queryString, subject.queryIn(rule.form))) return false;
  if (rule.items.length > 0) {
    const present = subject.items(rule.form);
    for (const item of rule.items) {
      let seen = false;
      for (const candidate of present) {
        if (!equalBytes(candidate.name, item.name)) continue;
        seen = true;
        if (!globMatches(item.pattern, candidate.value)) return false;   // every repeated item must match
      }
      if (!seen && !globMatches(item.pattern, [])) return false;   // an absent item reads as ""
    }
  }
  if (rule.fragment && !globMatches(rule.fragment, subject.fragmentIn(rule.form))) return false;
  return true;
}

// ---- Matching for an Android app (Android's PatternMatcher and dynamic rules, docs/ANDROID.md in linkd) ----

/** A URL as Android compares it: the decoded path, query items and fragment (JavaScript strings are UTF-16, as Java's). */
class AndroidURL {
  readonly path: string;
  readonly items: [string, string][];
  readonly fragment: string;
  constructor(path: Bytes, query: Bytes, fragment: Bytes) {
    const decoded = (bytes: Bytes) => text(percentDecoded(bytes));
    this.path = decoded(path);
    this.fragment = decoded(fragment);
    this.items = [];
    let piece: Bytes = [];
    for (const b of query.concat([0x26])) {
      if (b !== 0x26) { piece.push(b); continue; }
      if (piece.length > 0) {
        const equals = piece.indexOf(0x3d);
        this.items.push(equals < 0 ? [decoded(piece), ""] : [decoded(piece.slice(0, equals)), decoded(piece.slice(equals + 1))]);
      }
      piece = [];
    }
  }

  /** The deciding entry of one app's rules: the first rule whose manifest attributes match puts the URL in the app's scope; then, with dynamic rules, the first rule with a matching dynamic entry decides (an exclusion too), else the manifest's rule does. */
  first(list: number[], dynamic: boolean): [number, number] | null {
    let claimed: [number, number] | null = null;
    for (let i = 0; i < list.length && !claimed; i += 2) if (table.rules[list[i + 1]].manifest.some((a) => this.attribute(a))) claimed = [list[i], list[i + 1]];
    if (!claimed || !dynamic) return claimed;
    for (let i = 0; i < list.length; i += 2) if (table.rules[list[i + 1]].dynamic.some((e) => this.entry(e))) return [list[i], list[i + 1]];
    return null;
  }

  /** Whether the path matches a manifest attribute. */
  attribute(attribute: ManifestPath): boolean {
    if ("path" in attribute) return this.path === attribute.path;
    if ("pathPrefix" in attribute) return this.path.slice(0, attribute.pathPrefix.length) === attribute.pathPrefix;
    if ("pathPattern" in attribute) return simpleGlob(attribute.pathPattern, this.path);
    return advancedGlob(attribute.pathAdvancedPattern, this.path);
  }

  /** Whether a dynamic entry matches: its path, its fragment, and each named query item, present with one instance matching. */
  entry(entry: Dynamic): boolean {
    if (entry.path !== undefined && !simpleGlob(entry.path, this.path)) return false;
    if (entry.fragment !== undefined && !simpleGlob(entry.fragment, this.fragment)) return false;
    return (entry.query ?? []).every((query) => this.items.some((item) => item[0] === query.name && simpleGlob(query.value, item[1])));
  }
}

/** `pathPattern`, read once left to right: `x*` takes every following `x`; `.*` takes input up to the first unit equal to the pattern's next one (never a longer run); a backslash escapes. */
function simpleGlob(pattern: string, input: string): boolean {
  if (pattern.length === 0) return input.length === 0;
  let p = 0, s = 0;
  while (p < pattern.length && s < input.length) {
    let unit = pattern[p++];
    const escaped = unit === "\\";
    if (escaped) unit = p < pattern.length ? pattern[p++] : "\0";
    const starred = p < pattern.length && pattern[p] === "*";
    if (!starred) {
      if (!(unit === "." && !escaped) && input[s] !== unit) return false;
      s++;
      continue;
    }
    p++;
    if (unit === "." && !escaped) {
      if (p >= pattern.length) return true;
      let next = pattern[p];
      if (next === "\\" && p + 1 < pattern.length) next = pattern[++p];
      while (s < input.length && input[s] !== next) s++;
      if (s >= input.length) return false;
      p++;
      s++;
    } else {
      while (s < input.length && input[s] === unit) s++;
    }
  }
  if (p >= pattern.length && s >= input.length) return true;
  return p === pattern.length - 2 && pattern[p] === "." && pattern[p + 1] === "*";
}

/** `pathAdvancedPattern` from its tokens (`[minimum, maximum, inverted, low, high, ...]`): each takes as many units as it accepts, up to its maximum, and at least its minimum; the input must be used up. */
function advancedGlob(tokens: number[][], input: string): boolean {
  let s = 0;
  for (const n of tokens) {
    const maximum = n[1] < 0 ? Infinity : n[1];
    const accepts = (unit: number) => {
      let member = false;
      for (let i = 3; i + 1 < n.length; i += 2) if (n[i] <= unit && unit <= n[i + 1]) member = true;
      return member !== (n[2] === 1);
    };
    let taken = 0;
    while (taken < maximum && s + taken < input.length && accepts(input.charCodeAt(s + taken))) taken++;
    if (taken < n[0]) return false;
    s += taken;
  }
  return s >= input.length;
}

interface URLParts { scheme: string; host: string; hasUserInfo: boolean; path: Bytes; query: Bytes | null; fragment: Bytes | null }

function encodeRaw(bytes: Bytes): Bytes {
  const hex = "0123456789ABCDEF";
  const out: Bytes = [];
  for (const b of bytes) {
    if (b <= 0x20 || b >= 0x7f) out.push(0x25, hex.charCodeAt(b >> 4), hex.charCodeAt(b & 15)); else out.push(b);
  }
  return out;
}

/** A URL split as linkd splits it (RFC 3986 §3): raw bytes beyond printable ASCII percent-encoded. */
function parseURL(url: string): URLParts | null {
  const bytes = utf8(url);
  const colon = bytes.indexOf(0x3a);
  const schemeByte = (b: number) => isUpper(b) || isLower(b) || isDigit(b) || b === 0x2b || b === 0x2d || b === 0x2e;
  if (colon <= 0 || !bytes.slice(0, colon).every(schemeByte) || isDigit(bytes[0]) || [0x2b, 0x2d, 0x2e].indexOf(bytes[0]) >= 0) return null;
  const scheme = text(lowercased(bytes.slice(0, colon)));
  const slashes = bytes.length >= colon + 3 && bytes[colon + 1] === 0x2f && bytes[colon + 2] === 0x2f;
  // A custom-scheme URL has no authority: what stands where a host would is its path's first segment, with
  // or without `//` (`widgets://widget/42`, `widgets:///widget/42`, `widgets:widget/42`, `widgets:/widget/42`).
  const web = scheme === "https" || scheme === "http";
  if (web && !slashes) return null;
  const authorityStart = slashes ? colon + 3 : colon + 1;
  let authorityEnd = authorityStart;
  while (web && authorityEnd < bytes.length && [0x2f, 0x3f, 0x23].indexOf(bytes[authorityEnd]) < 0) authorityEnd++;
  const authority = bytes.slice(authorityStart, authorityEnd);
  const at = authority.lastIndexOf(0x40);
  const hostStart = at >= 0 ? authorityStart + at + 1 : authorityStart;
  let hostEnd = authorityEnd;
  const hostPart = bytes.slice(hostStart, authorityEnd);
  const portColon = hostPart.lastIndexOf(0x3a);
  if (portColon >= 0 && hostPart.slice(portColon).indexOf(0x5d) < 0) {
    hostEnd = hostStart + portColon;
    const digits = hostPart.slice(portColon + 1);
    if (digits.length > 0 && (!digits.every(isDigit) || Number(text(digits)) > 65535)) return null;
  }
  if (hostEnd > hostStart && bytes[hostEnd - 1] === 0x2e) hostEnd--;
  const host = text(lowercased(bytes.slice(hostStart, hostEnd)));
  let end = bytes.length;
  let fragment: Bytes | null = null;
  let query: Bytes | null = null;
  const hash = bytes.indexOf(0x23, authorityEnd);
  if (hash >= 0) { fragment = encodeRaw(bytes.slice(hash + 1, end)); end = hash; }
  const mark = bytes.slice(0, end).indexOf(0x3f, authorityEnd);
  if (mark >= 0) { query = encodeRaw(bytes.slice(mark + 1, end)); end = mark; }
  const path = encodeRaw(bytes.slice(authorityEnd, end));
  return { scheme, host, hasUserInfo: at >= 0, path: !web && path.length > 0 && path[0] !== 0x2f ? [0x2f].concat(path) : path, query, fragment };
}

/** `optional`: a `{name}` capture a link may leave out (it takes zero characters or more). */
type TemplateElement = { literal: Bytes } | { capture: string; rest: boolean; optional: boolean };

/** A path or query-value template with captures, matched as resolve matches it. */
function templateCaptures(tokens: TemplateToken[], raw: Bytes, isPath: boolean, caseSensitive: boolean, percentEncoded: boolean, found: Map<string, string>): boolean {
  let subject = percentEncoded ? raw.slice() : utf8(text(percentDecoded(raw)));
  const pattern: TemplateElement[] = tokens.map((token) => (token.kind === "literal" || token.kind === "printed" ? { literal: utf8(token.text) } : { capture: token.text, rest: token.kind === "rest", optional: token.kind !== "capture" }));
  if (isPath) {
    while (subject.length > 1 && subject[subject.length - 1] === 0x2f) subject.pop();
    if (subject[0] !== 0x2f) subject = [0x2f].concat(subject);
    const first = pattern[0];
    if (first && "literal" in first && first.literal[0] !== 0x2f) pattern[0] = { literal: [0x2f].concat(first.literal) };
    else if (first && "capture" in first) pattern.unshift({ literal: [0x2f] });
  }
  const fold = (b: number) => (isUpper(b) ? b + 32 : b);
  const equal = (a: Bytes, b: Bytes) => a.length === b.length && a.every((x, i) => (caseSensitive ? x === b[i] : fold(x) === fold(b[i])));
  const record = (name: string, bytes: Bytes) => {
    if (found.has(name)) return;
    const value = utf8(text(bytes));
    found.set(name, text(percentEncoded ? percentDecoded(value) : value));
  };
  const match = (p: number, start: number, end: number): boolean => {
    if (p === pattern.length) return start === end;
    const element = pattern[p];
    if ("literal" in element) {
      const bytes = element.literal;
      if (end - start >= bytes.length && equal(subject.slice(start, start + bytes.length), bytes)) return match(p + 1, start + bytes.length, end);
      const next = pattern[p + 1];
      if (isPath && bytes[bytes.length - 1] === 0x2f && next && "capture" in next && (next.rest || (next.optional && p + 2 === pattern.length)) && end - start === bytes.length - 1 && equal(subject.slice(start, end), bytes.slice(0, -1))) {
        record(next.capture, []);
        return true;
      }
      return false;
    }
    if (element.rest) { record(element.capture, subject.slice(start, end)); return true; }
    let limit = subject.indexOf(0x2f, start);
    if (limit < 0 || limit > end) limit = end;
    for (let stop = limit; stop > start || (element.optional && stop === start); stop--) {
      if (match(p + 1, stop, end)) { record(element.capture, subject.slice(start, stop)); return true; }
    }
    return false;
  };
  return match(0, 0, subject.length);
}

type Found = { type: string; params: { [name: string]: Value } } | { error: { code: string; param?: string; detail: string } };

function destinationOf(capture: Capture, subject: Subject, form: Form): Found {
  const found = new Map<string, string>();
  // `printed` tokens (a raw pattern's text, to print) capture nothing.
  const take = (tokens: TemplateToken[] | null, raw: Bytes, isPath: boolean) => {
    const template = tokens ? tokens.filter((token) => token.kind !== "printed") : [];
    return template.length === 0 || templateCaptures(template, raw, isPath, form.caseSensitive, form.percentEncoded, found);
  };
  let fits = take(capture.path, subject.path, true) && take(capture.fragment, subject.fragmentBytes, false);
  if (capture.items.length > 0) {
    const raw = subject.items({ percentEncoded: true, caseSensitive: true });
    const named = subject.items(form);
    for (const item of capture.items) {
      if (!fits) break;
      const name = utf8(form.caseSensitive ? item.name : item.name.toLowerCase());
      let value: Bytes = [];
      for (let i = 0; i < named.length; i++) if (equalBytes(named[i].name, name)) { value = raw[i].value; break; }
      fits = take(item.template, value, false);
    }
  }
  if (!fits) return { error: { code: "invalid_param", detail: "The URL is claimed by the rule's AASA pattern but does not fit its template (a capture such as {id} takes one path segment)." } };
  const spec = table.specs.filter((s) => s.type === capture.type)[0];
  if (!spec) return { error: { code: "unknown_destination", detail: `The app has no destination type '${capture.type}'.` } };
  const params: { [name: string]: Value } = {};
  for (const param of spec.params) {
    const bound = capture.params.filter((p) => p.name === param.name)[0];
    let value: string | undefined;
    if (bound && bound.constant) value = bound.value;
    else { value = found.get(bound ? bound.value : param.name); if (value === "") value = undefined; }
    if (value === undefined) {
      if (param.optional) continue;
      return { error: { code: "missing_param", param: param.name, detail: `The link has no value for the required parameter '${param.name}'.` } };
    }
    const converted = convert(param, value);
    if ("reason" in converted) return { error: { code: "invalid_param", param: param.name, detail: `The parameter '${param.name}' is invalid: ${converted.reason}.` } };
    params[param.name] = converted.value;
  }
  return { type: capture.type, params };
}

function governing(host: string): number {
  for (let i = 0; i < table.domains.length; i++) if (table.domains[i].host === host || table.domains[i].host === "*." + host) return i;
  let rest = host;
  while (rest.indexOf(".") >= 0) {
    rest = rest.slice(rest.indexOf(".") + 1);
    for (let i = 0; i < table.domains.length; i++) if (table.domains[i].host === "*." + rest) return i;
  }
  return -1;
}

function routeFound(url: string): Found | { needsResolve: string } | null {
  const parsed = parseURL(url);
  if (!parsed) return null;
  const path = parsed.path;
  let index: number;
  let onlySelf = false;
  if (table.scheme !== null && parsed.scheme === table.scheme && table.schemeDomain >= 0) {
    index = table.schemeDomain;
    onlySelf = true;
  } else {
    if (parsed.scheme !== "https" || parsed.hasUserInfo) return null;
    index = governing(parsed.host);
    if (index < 0) return null;
  }
  const domain = table.domains[index];
  if (domain.app < 0) return null;
  // A stored link's slug is its path after `/`, as linkd reads it.
  if (domain.targeted.length > 0 && path[0] === 0x2f && domain.targeted.indexOf(text(path.slice(1))) >= 0) return { needsResolve: url };
  const rules = compiled();
  const subject = new Subject(path, parsed.query || [], parsed.fragment || []);
  const android = domain.android > 0 ? new AndroidURL(path, parsed.query || [], parsed.fragment || []) : null;
  const first = (group: number): [number, number] | null => {
    const list = domain.groups[group];
    if (android) return android.first(list, domain.android === 2);
    for (let i = 0; i < list.length; i += 2) if (ruleMatches(rules[list[i + 1]], subject)) return [list[i], list[i + 1]];
    return null;
  };
  let winner: { app: number; entry: number; rule: number } | null = null;
  if (onlySelf) {
    const found = first(domain.appGroups[domain.app]);
    if (found && !table.rules[found[1]].exclude) winner = { app: domain.app, entry: found[0], rule: found[1] };
  } else {
    const decided = new Map<number, [number, number] | null>();
    domain.appGroups.forEach((group, app) => {
      if (!decided.has(group)) decided.set(group, first(group));
      const found = decided.get(group);
      if (!found || table.rules[found[1]].exclude) return;
      if (!winner || found[0] < winner.entry) winner = { app, entry: found[0], rule: found[1] };
    });
  }
  const chosen = winner as { app: number; entry: number; rule: number } | null;
  if (!chosen || chosen.app !== domain.app) return null;
  const capture = table.rules[chosen.rule].capture;
  return capture ? destinationOf(capture, subject, formOf(table.rules[chosen.rule].slot)) : null;
}

function quoted(value: string): string {
  let out = "\"";
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x22) out += "\\\"";
    else if (c === 0x5c) out += "\\\\";
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x0d) out += "\\r";
    else if (c === 0x09) out += "\\t";
    else if (c < 0x20) out += "\\u00" + (c < 16 ? "0" : "") + c.toString(16);
    else out += value[i];
  }
  return out + "\"";
}

/** The destination in resolve's `destination` JSON shape, byte for byte. */
export function toJSON(destination: LinkDestination): string {
  if ("error" in destination) {
    const e = destination.error;
    return "{\"error\":{\"code\":" + quoted(e.code) + (e.param !== undefined ? ",\"param\":" + quoted(e.param) : "") + ",\"detail\":" + quoted(e.detail) + "}}";
  }
  const params = destination.params as { [name: string]: Value | undefined };
  const names = Object.keys(params).filter((name) => params[name] !== undefined).sort();
  return "{\"type\":" + quoted(destination.type) + ",\"params\":{" + names.map((name) => {
    const value = params[name];
    return quoted(name) + ":" + (typeof value === "string" ? quoted(value) : String(value));
  }).join(",") + "}}";
}

/** Whether links to this destination are for signed-in users (`LinkInbox` holds them until one is). */
export function requiresSignIn(destination: LinkDestination): boolean {
  if ("error" in destination) return false;
  const spec = table.specs.filter((s) => s.type === destination.type)[0];
  return !!spec && spec.requiresSignIn;
}

/** Reads a resolve answer (or its `destination` member alone) into a destination; null when it has none. */
export function decodeDestination(json: string): LinkDestination | null {
  let node: any;
  try { node = JSON.parse(json); } catch (e) { return null; }
  if (node && typeof node === "object" && "destination" in node) node = node.destination;
  if (!node || typeof node !== "object") return null;
  if (node.error && typeof node.error.code === "string" && typeof node.error.detail === "string") {
    const error: { code: string; param?: string; detail: string } = { code: node.error.code, detail: node.error.detail };
    if (typeof node.error.param === "string") error.param = node.error.param;
    return { error } as LinkDestination;
  }
  const spec = table.specs.filter((s) => s.type === node.type)[0];
  if (!spec || !node.params || typeof node.params !== "object") return null;
  const params: { [name: string]: Value } = {};
  for (const name of Object.keys(node.params)) {
    const param = spec.params.filter((p) => p.name === name)[0];
    const value = node.params[name];
    if (!param || ["string", "number", "boolean"].indexOf(typeof value) < 0) return null;
    const converted = convert(param, String(value));
    if ("reason" in converted) return null;
    params[name] = converted.value;
  }
  // Own members only: a parameter may be named like an Object member (`constructor`, `toString`).
  if (spec.params.some((p) => !p.optional && !Object.prototype.hasOwnProperty.call(params, p.name))) return null;
  return { type: spec.type, params } as LinkDestination;
}

function encodeComponent(value: string, keepingSlashes: boolean): string {
  const hex = "0123456789ABCDEF";
  let out = "";
  for (const b of utf8(value)) {
    if (isUpper(b) || isLower(b) || isDigit(b) || b === 0x2d || b === 0x2e || b === 0x5f || b === 0x7e || (keepingSlashes && b === 0x2f)) out += String.fromCharCode(b);
    else out += "%" + hex[b >> 4] + hex[b & 15];
  }
  return out;
}

function printCapture(capture: Capture, params: { [name: string]: Value | undefined }): string | null {
  const captures = new Map<string, string>();
  for (const name of Object.keys(params)) {
    const value = params[name];
    if (value === undefined) continue;
    const bound = capture.params.filter((p) => p.name === name)[0];
    if (bound && bound.constant) continue;
    captures.set(bound ? bound.value : name, String(value));
  }
  const render = (tokens: TemplateToken[]): string | null => {
    let out = "";
    for (const token of tokens) {
      const value = captures.get(token.text);
      if (token.kind === "literal" || token.kind === "printed") out += token.text;
      else if (token.kind === "optional" || token.kind === "rest") out += encodeComponent(value ?? "", token.kind === "rest");
      else if (value === undefined || value === "") return null;
      else out += encodeComponent(value, false);
    }
    return out;
  };
  // As the server's builder: a raw path with wildcards (null) names no one URL; an item or fragment whose captures
  // are all left out is left out (an absent item reads as empty), an item printing empty from an optional capture
  // too; a raw item or fragment with wildcards prints nothing, and the route check decides.
  const names = (tokens: TemplateToken[]) => tokens.filter((token) => token.kind === "capture" || token.kind === "optional" || token.kind === "rest").map((token) => token.text);
  let path = capture.path ? render(capture.path) : null;
  if (path === null) return null;
  if (path[0] !== "/") path = "/" + path;
  const items: string[] = [];
  for (const item of capture.items) {
    if (!item.template) continue;
    const captured = names(item.template);
    if (captured.length > 0 && captured.every((name) => !captures.has(name))) continue;
    const value = render(item.template);
    if (value === null) return null;
    if (value === "" && captured.length > 0) continue;
    items.push(encodeComponent(item.name, false) + "=" + value);
  }
  if (items.length > 0) path += "?" + items.join("&");
  if (capture.fragment) {
    const captured = names(capture.fragment);
    const fragment = render(capture.fragment);
    if (captured.length === 0 || captured.some((name) => captures.has(name))) {
      if (fragment === null) return null;
      path += "#" + fragment;
    } else if (fragment) {
      path += "#" + fragment;
    }
  }
  return path;
}

/** Routes this app's universal links and custom-scheme URLs as linkd's resolve does, without the network. */
export const LinkRouter = {
  /** The ETag of the rules this file was generated from. */
  etag: ETAG,
  /** The app's id and platform, as `LinkResolveClient` names them to linkd. */
  appID: APP_ID,
  platform: PLATFORM,
  /**
   * What `url` opens in this app: resolve's decision; null when the app opens nothing, its rule names no destination,
   * or it is a targeted link (`decide` says so: only linkd's resolve, with the visitor's context, answers it).
   */
  route(url: string | { readonly href: string }): LinkDestination | null {
    const decided = LinkRouter.decide(url);
    return decided && "open" in decided ? decided.open : null;
  },
  /**
   * What the app does with `url`: open a destination decided here, as resolve decides it (`{open}`); or, for a
   * targeted link (its destination depends on the visitor: targets or an experiment), ask linkd (`{needsResolve}`,
   * which `LinkResolveClient.resolve` does with the visitor's context). Null when the app opens nothing.
   */
  decide(url: string | { readonly href: string }): LinkRoute | null {
    const found = routeFound(typeof url === "string" ? url : url.href);
    if (!found) return null;
    return "needsResolve" in found ? found : { open: found as LinkDestination };
  },
  /** A destination's URLs, null when it has none (`buildResult` says why). */
  build(destination: LinkDestination): LinkURLs | null {
    const result = LinkRouter.buildResult(destination);
    return result.ok ? result.urls : null;
  },
  /**
   * A destination's URLs: the first rule of the primary domain bound to its type that prints it and routes back to it
   * (a URL an earlier rule or exclusion would shadow is never returned); or why there is none.
   */
  buildResult(destination: LinkDestination): LinkBuildResult {
    const spec = "error" in destination ? undefined : table.specs.filter((s) => s.type === destination.type)[0];
    if ("error" in destination || !spec) return { ok: false, error: { detail: "An invalid destination has no link." } };
    // The values as the server checks them (`DestinationType.values`), in the type's order.
    const given = destination.params as { [name: string]: Value | undefined };
    for (const param of spec.params) {
      const value = given[param.name];
      if (value === undefined) continue;
      const text = String(value);
      if (text === "") return { ok: false, error: { param: param.name, detail: `The parameter '${param.name}' cannot be empty: resolve reads an empty value as absent.` } };
      const converted = convert(param, text);
      if ("reason" in converted) return { ok: false, error: { param: param.name, detail: `The parameter '${param.name}' is invalid: ${converted.reason}.` } };
    }
    const wanted = toJSON(destination);
    const indices = table.schemeDomain >= 0 ? [table.schemeDomain] : table.domains.map((_, i) => i);
    for (const index of indices) {
      const domain = table.domains[index];
      if (domain.app < 0) continue;
      const host = domain.host.indexOf("*.") === 0 ? domain.host.slice(2) : domain.host;
      const group = domain.groups[domain.appGroups[domain.app]];
      for (let i = 1; i < group.length; i += 2) {
        const capture = table.rules[group[i]].capture;
        if (!capture || capture.type !== destination.type) continue;
        const tail = printCapture(capture, destination.params as { [name: string]: Value | undefined });
        if (tail === null) continue;
        const universal = "https://" + host + tail;
        const routed = LinkRouter.route(universal);
        if (!routed || toJSON(routed) !== wanted) continue;
        let scheme: string | null = null;
        if (table.scheme !== null && index === table.schemeDomain) {
          const url = table.scheme + "://" + (tail[0] === "/" ? tail.slice(1) : tail);
          const back = LinkRouter.route(url);
          scheme = back && toJSON(back) === wanted ? url : null;
        }
        return { ok: true, urls: { universal, scheme } };
      }
    }
    return { ok: false, error: { detail: `No rule of the primary domain bound to '${destination.type}' prints these parameters and routes back to them.` } };
  },
};
