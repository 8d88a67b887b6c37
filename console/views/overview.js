// Overview: each domain's association status (last fetches from the fetch log, size against Apple's limit,
// lint findings), taps today and in the last 7 days (counted as Analytics counts them by default: clicks on links,
// bots excluded), and the top unmatched URLs.
import { h, formatTime, errorNotice, head, days } from '../dom.js';
import { call, get, all, enc } from '../api.js';

const limit = 128 * 1024;

export async function render(view, context) {
  const domains = await all('/v1/domains?limit=200', 5);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  // Taps as Analytics counts them by default (source=click, bots excluded), over the same days as its periods.
  const q = (period) => `period=${period}&tz=${enc(zone)}`;
  const [todays, weeks, unmatched] = await Promise.all([
    get(`/v1/analytics/summary?${q('today')}`), get(`/v1/analytics/summary?${q('7d')}`),
    get(`/v1/analytics/top?${q('7d')}&source=all&dimension=path&outcome=no_match&limit=10`)]);
  const stat = (title, id, value, href) => h('div', { class: 'stat' }, h('span', { class: 'muted' }, title),
    h('b', { id }, href ? h('a', { href }, value.toLocaleString()) : value.toLocaleString()));
  view.append(h('h1', {}, 'Overview'),
    h('div', { class: 'stats' }, stat('Taps today', 'hits-today', todays.hits, '#/analytics?period=today'),
      stat('Taps, last 7 days', 'hits-week', weeks.hits, '#/analytics?period=7d'), stat('Domains', 'domain-count', domains.length)),
    h('p', { class: 'muted', id: 'overview-counts' }, `Taps: clicks on links, bots excluded, as Analytics counts them; the last 7 days are ${days(weeks.from, weeks.to)}.`));
  if (!domains.length) {
    view.append(h('p', {}, 'No domain yet. ', context.can('POST', '/v1/domains') ? h('a', { href: '#/domains' }, 'Register one') : '', ' — the README\'s quick start does it in five steps: team, app, destination, domain, rules.'));
  }
  const rows = h('tbody');
  view.append(h('h2', {}, 'Domains'), h('div', { class: 'table-wrap' }, h('table', { id: 'domain-status' },
    head('Domain', 'Apple (AASA)', 'Google (assetlinks)', 'AASA size', 'Lint', 'Taps, last 7 days'), rows)));
  await Promise.all(domains.map(async (domain) => {
    const row = h('tr', { 'data-host': domain.hostname }, h('td', {}, h('a', { href: `#/domains/${enc(domain.hostname)}` }, domain.hostname)));
    rows.append(row);
    try {
      const host = enc(domain.hostname);
      // The preview of the stored rules gives the published file's size and lint findings.
      const [detail, aasa, lint, hits] = await Promise.all([
        get(`/v1/domains/${host}`), call('GET', `/v1/domains/${host}/aasa`),
        call('POST', `/v1/domains/${host}/preview`, { body: {} }).then((answer) => answer.data), get(`/v1/analytics/summary?${q('7d')}&host=${host}`)]);
      const fetches = detail.lastFetch || {};
      const findings = lint.lint.length;
      row.append(
        h('td', {}, fetched(fetches['apple-app-site-association'], aasa.etag)),
        h('td', {}, fetched(fetches['assetlinks.json'])),
        h('td', {}, h('span', { class: lint.size > limit ? 'badge error' : 'badge ok' }, `${(lint.size / 1024).toFixed(1)} KB`), ` / 128 KB`),
        h('td', {}, findings ? h('a', { href: `#/rules/${host}`, class: 'badge warn' }, `${findings} finding${findings > 1 ? 's' : ''}`) : h('span', { class: 'badge ok' }, 'clean')),
        h('td', { class: 'num' }, hits.hits.toLocaleString()));
    } catch (error) {
      row.append(h('td', { colspan: 5 }, errorNotice(error)));
    }
  }));
  view.append(h('h2', {}, 'Top unmatched URLs, last 7 days (taps and API resolves)'), unmatched.items.length
    ? h('table', { id: 'top-unmatched' }, h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Path'), h('th', { scope: 'col' }, 'Domain'), h('th', { scope: 'col', class: 'num' }, 'Hits'))),
      h('tbody', {}, unmatched.items.map((item) => h('tr', {}, h('td', {}, h('code', {}, item.path)), h('td', {}, item.host || ''), h('td', { class: 'num' }, item.hits)))))
    : h('p', { class: 'muted', id: 'top-unmatched' }, 'None: every link of the last 7 days was claimed by a rule.'));
}

/** The fetch log's last fetch of a file: when, by whom, and whether it got the version served now. */
function fetched(fetch, currentETag) {
  if (!fetch) return h('span', { class: 'badge warn' }, 'never fetched');
  const agent = /AASA-Bot|com\.apple/i.test(fetch.userAgent) ? 'Apple CDN' : /Google/i.test(fetch.userAgent) ? 'Google' : fetch.userAgent;
  const current = currentETag && fetch.etag ? fetch.etag === currentETag : null;
  return [h('span', { class: fetch.status < 400 ? 'badge ok' : 'badge error' }, String(fetch.status)), ` ${formatTime(fetch.at)} by ${agent}`,
    current === false ? h('span', { class: 'badge warn' }, ' older version') : null];
}
