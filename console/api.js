// The linkd REST API as the console calls it: the key from sessionStorage as a Bearer header (never in a URL), or
// else the session cookie (same origin only), problem+json errors as APIError, ETags for If-Match, cursor pages.
import { h, append, errorNotice } from './dom.js';

const storageName = 'linkd.console.key';

export const session = {
  get key() { return sessionStorage.getItem(storageName); },
  set key(value) { sessionStorage.setItem(storageName, value); },
  clear() { sessionStorage.removeItem(storageName); },
};

export class APIError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/** Called with no argument when the key or session stops working (401): the app signs out. */
export let onUnauthorized = () => {};
export function setUnauthorizedHandler(handler) { onUnauthorized = handler; }

/**
 * One API call. Returns `{data, etag, response}`; `text: true` reads the body as text, `blob: true` as a Blob;
 * `raw` is a body sent as it is with `contentType` (a CSV file), `body` one sent as JSON.
 * @throws APIError for any non-2xx answer (problem+json, or a stand-in problem).
 */
export async function call(method, path, { body, raw, contentType, ifMatch, accept = 'application/json', text = false, blob = false } = {}) {
  const headers = { Accept: accept };
  if (session.key) headers.Authorization = `Bearer ${session.key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (raw !== undefined) headers['Content-Type'] = contentType;
  if (ifMatch) headers['If-Match'] = ifMatch;
  const response = await fetch(path, {
    method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)), cache: 'no-store',
    credentials: session.key ? 'omit' : 'same-origin',
  });
  if (!response.ok) {
    let problem;
    try { problem = await response.json(); } catch { problem = { title: response.statusText || `HTTP ${response.status}` }; }
    if (typeof problem !== 'object' || problem === null) problem = { title: `HTTP ${response.status}` };
    if (response.status === 401) onUnauthorized();
    throw new APIError(response.status, problem);
  }
  const etag = response.headers.get('ETag');
  if (response.status === 204) return { data: null, etag, response };
  const data = blob ? await response.blob() : text ? await response.text() : await response.json();
  return { data, etag, response };
}

export const get = async (path) => (await call('GET', path)).data;

/** Every item of a paginated list, following `next` (at most `maxPages` pages). */
export async function all(path, maxPages = 20) {
  const items = [];
  let next = path;
  for (let page = 0; next && page < maxPages; page++) {
    const data = await get(next);
    items.push(...data.items);
    next = data.next;
  }
  return items;
}

export const enc = encodeURIComponent;

/**
 * A table filled page by page from `path` with the API's cursors: `columns` are `[header, item => cell]`, `row(item)`
 * a row's attributes; a "Load more" button follows `next`. With `until(item)`, pages are followed (at most 20) until
 * an item satisfies it, and its row is scrolled into view. With `stack`, a phone shows it one card a row (console.css).
 */
export function pagedTable(path, columns, { empty = 'Nothing yet.', label, row = () => ({}), until, stack } = {}) {
  const body = h('tbody');
  const table = h('table', { 'aria-label': label, class: stack ? 'stack' : null },
    h('thead', {}, h('tr', {}, columns.map(([title, , cls]) => h('th', { scope: 'col', class: cls }, title)))), body);
  const status = h('div', { class: 'actions' });
  const wrap = h('div', { class: 'table-wrap' }, table, status);
  let count = 0;
  let pages = 0;
  async function load(next) {
    status.replaceChildren(h('span', { class: 'muted' }, 'Loading…'));
    try {
      const data = await get(next);
      let found = null;
      for (const item of data.items) {
        count++;
        const tr = h('tr', row(item), columns.map(([, cell, cls]) => h('td', { class: cls }, cell(item))));
        if (until && until(item)) found = tr;
        body.append(tr);
      }
      if (found) { until = null; setTimeout(() => found.scrollIntoView({ block: 'center' }), 0); }
      if (until && data.next && ++pages < 20) return load(data.next);
      status.replaceChildren();
      if (!count) append(status, h('span', { class: 'muted' }, empty));
      if (data.next) {
        const more = h('button', { type: 'button', class: 'secondary' }, 'Load more');
        more.addEventListener('click', () => load(data.next));
        status.append(more);
      }
    } catch (error) {
      status.replaceChildren(errorNotice(error));
    }
  }
  wrap.ready = load(path);
  return wrap;
}
