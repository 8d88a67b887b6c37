// Overview: each domain's association status (last fetches from the fetch log, size against Apple's limit,
// lint findings), hits today and this week, and the top unmatched URLs.
import { h, formatTime, errorNotice, head } from '../dom.js';
import { call, get, all, enc } from '../api.js';

const limit = 128 * 1024;

export async function render(view, context) {
  const domains = await all('/v1/domains?limit=200', 5);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const today = new Date().toLocaleDateString('en-CA', { timeZone: zone });
  const week = new Date(Date.now() - 6 * 86400000).toLocaleDateString('en-CA', { timeZone: zone });
  const q = (from) => `from=${from}&tz=${enc(zone)}&source=all`; // every source: the domains' traffic, resolves and claims too
  const [todays, weeks, unmatched] = await Promise.all([
    get(`/v1/analytics/summary?${q(today)}`), get(`/v1/analytics/summary?${q(week)}`),
    get(`/v1/analytics/top?${q(week)}&dimension=path&outcome=no_match&limit=10`)]);
  view.append(h('h1', {}, 'Overview'),
    h('div', { class: 'stats' },
      h('div', { class: 'stat' }, h('span', { class: 'muted' }, 'Hits today'), h('b', { id: 'hits-today' }, todays.hits.toLocaleString())),
      h('div', { class: 'stat' }, h('span', { class: 'muted' }, 'Hits this week'), h('b', { id: 'hits-week' }, weeks.hits.toLocaleString())),
      h('div', { class: 'stat' }, h('span', { class: 'muted' }, 'Domains'), h('b', {}, domains.length))));
  if (!domains.length) {
    view.append(h('p', {}, 'No domain yet. ', context.canWrite ? h('a', { href: '#/domains' }, 'Register one') : '', ' — the README\'s quick start does it in five steps: team, app, destination, domain, rules.'));
  }
  const rows = h('tbody');
  view.append(h('h2', {}, 'Domains'), h('div', { class: 'table-wrap' }, h('table', { id: 'domain-status' },
    head('Domain', 'Apple (AASA)', 'Google (assetlinks)', 'AASA size', 'Lint', 'Hits this week'), rows)));
  await Promise.all(domains.map(async (domain) => {
    const row = h('tr', { 'data-host': domain.hostname }, h('td', {}, h('a', { href: `#/domains/${enc(domain.hostname)}` }, domain.hostname)));
    rows.append(row);
    try {
      const host = enc(domain.hostname);
      // The preview of the stored rules gives the published file's size and lint findings.
      const [detail, aasa, lint, hits] = await Promise.all([
        get(`/v1/domains/${host}`), call('GET', `/v1/domains/${host}/aasa`),
        call('POST', `/v1/domains/${host}/preview`, { body: {} }).then((answer) => answer.data), get(`/v1/analytics/summary?${q(week)}&host=${host}`)]);
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
  view.append(h('h2', {}, 'Top unmatched URLs this week'), unmatched.items.length
    ? h('table', { id: 'top-unmatched' }, h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Path'), h('th', { scope: 'col' }, 'Domain'), h('th', { scope: 'col', class: 'num' }, 'Hits'))),
      h('tbody', {}, unmatched.items.map((item) => h('tr', {}, h('td', {}, h('code', {}, item.path)), h('td', {}, item.host || ''), h('td', { class: 'num' }, item.hits)))))
    : h('p', { class: 'muted', id: 'top-unmatched' }, 'None: every link this week was claimed by a rule.'));
}

/** The fetch log's last fetch of a file: when, by whom, and whether it got the version served now. */
function fetched(fetch, currentETag) {
  if (!fetch) return h('span', { class: 'badge warn' }, 'never fetched');
  const agent = /AASA-Bot|com\.apple/i.test(fetch.userAgent) ? 'Apple CDN' : /Google/i.test(fetch.userAgent) ? 'Google' : fetch.userAgent;
  const current = currentETag && fetch.etag ? fetch.etag === currentETag : null;
  return [h('span', { class: fetch.status < 400 ? 'badge ok' : 'badge error' }, String(fetch.status)), ` ${formatTime(fetch.at)} by ${agent}`,
    current === false ? h('span', { class: 'badge warn' }, ' older version') : null];
}
