// Analytics (`#/analytics`, and a link's analytics tab): the time series (Debian's libjs-chart.js),
// totals, shares and top lists of /v1/analytics with names, filters as removable chips (an item of a top
// list filters by it), a period picker, the comparison with the previous period, CSV; a link's or a campaign's funnel.
import { h, field, form, input, select, checkbox, notice, errorNotice, days } from '../dom.js';
import { call, get, all, enc } from '../api.js';

/** The top lists: dimension, title; paths and referrers are counted per domain and outcome only. */
const lists = [['utm_campaign', 'Campaigns', 'Campaign'], ['utm_source', 'Sources', 'Source'], ['link', 'Links', 'Link'],
  ['country', 'Countries', 'Country'], ['os', 'Operating systems', 'OS'], ['browser', 'Browsers', 'Browser'], ['device', 'Devices', 'Device'],
  ['destination', 'Destinations', 'Destination'], ['rule', 'Rules', 'Rule'], ['path', 'Paths', 'Path'], ['referrer', 'Referrers', 'Referrer']];
const perDomain = ['path', 'referrer'];
/** The filters shown as chips, with their names; an item of the top list of one of these filters by it. */
const names = { country: 'Country', os: 'OS', browser: 'Browser', device: 'Device', utm_campaign: 'Campaign',
  utm_source: 'Source', link: 'Link', app: 'App', outcome: 'Outcome', served: 'Served' };
const palette = ['#1d4ed8', '#b91c1c', '#166534', '#a16207', '#7c3aed', '#0e7490', '#be185d', '#4b5563'];
let chart = null;
/** A GET retried once after a 503 (database busy). */
const ask = (path) => get(path).catch((error) => (error.status === 503
  ? new Promise((resolve) => { setTimeout(resolve, 1000); }).then(() => get(path)) : Promise.reject(error)));
let regions = null;
try { regions = new Intl.DisplayNames([navigator.language || 'en'], { type: 'region' }); } catch { /* codes only */ }

const day = (date) => date.toISOString().slice(0, 10);
const none = (v) => v === undefined || v === null || v === '' || v === '(none)';
/** Germany (DE) for DE. */
const country = (code) => { let name = null; try { name = regions && regions.of(code); } catch { /* not a region */ } return name && name !== code ? `${name} (${code})` : code; };

const platformName = (p) => (p === 'ios' ? 'iOS' : p === 'android' ? 'Android' : p);
/** What a visitor was served (the API's `served` values), in words. */
const servedNames = { landing: 'Landing page (phone)', desktop_page: 'Desktop page (QR code)', store: 'Store', web_page: 'The link\'s web page',
  link_fallback: 'The link\'s fallback', web_fallback: 'Web fallback', preview: 'Preview (bots)', expired: 'Expired-link page',
  not_found: 'Nowhere to go (404)', claim: 'Deferred claim (app)', redirect: 'Redirect (recorded before these were told apart)' };
/** What a top list's hits without a value are, by dimension (Unknown when not named here). */
const unknownNames = { utm_campaign: 'No campaign', utm_source: 'No source', link: 'No stored link (a rule\'s URL)',
  destination: 'No destination (no app opens it)', rule: 'No rule matched', app: 'No app', referrer: 'No referrer' };
/** What the figures count, by `source`. */
const counted = { click: 'Taps', resolve: 'Resolves', claim: 'Claims', all: 'Hits (all sources)' };

/** What an item's id stands for: a link's slug, an app's name and platform, a rule's position and path, a destination's
 * title, type and app (one type can be declared by several apps). */
function label(dimension, value, named = {}) {
  if (none(value)) return 'Unknown';
  if (dimension === 'country') return country(value);
  if (dimension === 'link') return named.slug || value;
  if (dimension === 'app') return named.name ? `${named.name}${named.platform ? ` (${platformName(named.platform)})` : ''}` : value;
  if (dimension === 'rule') return named.path ? `${named.position !== undefined ? `#${named.position + 1} ` : ''}${named.path}` : value;
  if (dimension === 'destination') {
    const app = named.appName ? ` · ${named.appName} (${platformName(named.appPlatform)})` : '';
    return `${named.title ? `${named.title} (${value})` : value}${app}`;
  }
  if (dimension === 'served') return servedNames[value] || value;
  return String(value);
}


/** +12% from 50, −5% from 20, ±0, or "new" from nothing, as text (the sign says it, not only the colour). */
function change(now, before) {
  if (before === undefined || before === null) return null;
  const text = before ? `${now >= before ? '+' : '−'}${Math.abs(Math.round(((now - before) / before) * 100))}% from ${before.toLocaleString()}` : now ? 'new' : '±0';
  return h('span', { class: `change ${now > before ? 'up' : now < before ? 'down' : ''}`, title: `Previous period: ${before.toLocaleString()}` }, text);
}

export async function render(view, context) {
  view.append(h('h1', {}, 'Analytics'));
  await panel(view, { query: context.query, base: '#/analytics?' });
}

/**
 * The analytics of the workspace, or of one link (`link`: its id; no paths, referrers, links or rules then, which
 * a link's hits do not narrow). `query` is the state to start from; each Show writes it back at `base` in the hash.
 */
export async function panel(root, { query, base, link = null }) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  if (!zones.includes('UTC')) zones.unshift('UTC');
  const domains = link ? [] : await all('/v1/domains?limit=200');
  const shown = link ? lists.filter(([d]) => !['link', 'rule', ...perDomain].includes(d)) : lists;
  const today = new Date();
  const period = select([['today', 'Today'], ['yesterday', 'Yesterday'], ['7d', 'Last 7 days'], ['30d', 'Last 30 days'],
    ['90d', 'Last 90 days'], ['custom', 'Custom range']], query.get('period') || (query.get('from') ? 'custom' : '7d'));
  const from = input({ type: 'date', value: query.get('from') || day(new Date(today.getTime() - 6 * 864e5)) });
  const to = input({ type: 'date', value: query.get('to') || day(today) });
  const tz = select(zones.length ? zones : [zone], query.get('tz') || zone);
  const interval = select([['day', 'Day'], ['hour', 'Hour']], query.get('interval') || 'day');
  const groupBy = select([['', 'nothing'], 'outcome', 'platform', 'source', 'served', 'country', 'os', 'browser', 'device',
    ...(link ? [] : ['link']), 'utm_campaign', 'utm_source', 'app', 'rule', 'destination', 'host'], query.get('groupBy') || '');
  const host = select([['', 'all domains'], ...domains.map((d) => [d.hostname, d.hostname])], query.get('host') || '');
  const source = select([['click', 'Clicks (taps)'], ['resolve', 'Resolves (API)'], ['claim', 'Claims (deferred)'], ['all', 'All hits']],
    query.get('source') || 'click');
  const sort = select([['hits', 'Hits'], ['visitors', 'Unique visitors']], query.get('sort') || 'hits');
  const compare = checkbox(query.get('compare') === 'previous');
  const bots = checkbox(query.get('includeBots') === 'true');
  const filters = new Map(Object.keys(names).filter((k) => query.get(k) && !(link && k === 'link')).map((k) => [k, query.get(k)]));
  const known = new Map();
  const custom = [field('From', from, { pointer: 'from' }), field('To (inclusive)', to, { pointer: 'to' })];
  const toggle = () => custom.forEach((f) => { f.hidden = period.value !== 'custom'; });
  period.addEventListener('change', toggle);
  toggle();
  const addKind = select(Object.keys(names).filter((k) => !['link', 'app', 'outcome', 'served'].includes(k)).map((k) => [k, names[k]]), 'os');
  const addValue = input({ placeholder: 'iOS, DE, mobile, spring24…' });
  const add = h('button', { type: 'button', class: 'secondary' }, 'Add filter');
  const addFilter = () => {
    const value = addValue.value.trim();
    if (!value) return;
    filters.set(addKind.value, addKind.value === 'country' ? value.toUpperCase() : value); // ISO codes are capitals
    addValue.value = '';
    show();
  };
  add.addEventListener('click', addFilter);
  addValue.addEventListener('keydown', (event) => { if (event.key === 'Enter') { event.preventDefault(); addFilter(); } });
  const chips = h('ul', { class: 'chips', 'aria-label': 'Filters', tabindex: '-1' });
  const output = h('div', { 'aria-busy': 'false' });
  const said = h('p', { class: 'visually-hidden', role: 'status' }); // what a screen reader hears after each Show
  const more = ['groupBy', 'host'].some((k) => query.get(k)) || query.get('interval') === 'hour' || query.get('includeBots') === 'true';
  const settings = form('Range and filters', [h('div', { class: 'grid tight' },
    field('Period', period, { pointer: 'period' }), custom, field('Count', source, { pointer: 'source' }),
    field('Rank lists by', sort, { pointer: 'sort' }), field('Compare with the previous period', compare, { pointer: 'compare' })),
  h('details', { class: 'more', open: more }, h('summary', {}, 'Time zone, interval, grouping', link ? '' : ', domain', ', bots'),
    h('div', { class: 'grid tight' }, field('Time zone', tz, { pointer: 'tz' }), field('Interval', interval, { pointer: 'interval' }),
      field('Group by', groupBy, { pointer: 'groupBy' }), link ? null : field('Domain', host, { pointer: 'host' }),
      field('Include bots', bots, { pointer: 'includeBots' }))),
  h('div', { class: 'actions end' }, field('Filter by', addKind), field('Value', addValue), add), chips],
  'Show', async () => show());
  root.append(settings, said, output);

  /** The parameters of every request: the period, the filters, the source. */
  const params = () => {
    const q = new URLSearchParams({ tz: tz.value, source: source.value, includeBots: String(bots.checked) });
    if (period.value === 'custom') { q.set('from', from.value); q.set('to', to.value); } else q.set('period', period.value);
    if (compare.checked) q.set('compare', 'previous');
    if (host.value) q.set('host', host.value);
    for (const [k, v] of filters) q.set(k, v);
    if (link) q.set('link', link);
    return q;
  };

  function drawChips() {
    chips.replaceChildren(...[...filters].map(([k, v]) => {
      const text = `${names[k]}: ${known.get(`${k}\u0000${v}`) || label(k, v)}`;
      const remove = h('button', { type: 'button', class: 'chip-remove', 'aria-label': `Remove filter ${text}` }, '×');
      remove.addEventListener('click', () => { filters.delete(k); show().then(() => chips.focus()); });
      return h('li', { class: 'chip', 'data-filter': k }, text, remove);
    }));
    if (!filters.size) chips.append(h('li', { class: 'muted' }, 'No filters: pick an item of a list below to filter by it.'));
  }

  let asked = 0;
  async function show() {
    const mine = ++asked; // a later Show wins over an earlier one still loading
    const q = params();
    const state = new URLSearchParams(q);
    if (link) state.delete('link');
    state.set('interval', interval.value);
    state.set('sort', sort.value);
    if (groupBy.value) state.set('groupBy', groupBy.value);
    history.replaceState(null, '', base + state);
    drawChips();
    output.setAttribute('aria-busy', 'true');
    const series = new URLSearchParams(q);
    series.set('interval', interval.value);
    if (groupBy.value) series.set('groupBy', groupBy.value);
    const narrowed = [...q.keys()].some((k) => k in names && k !== 'outcome'); // what paths and referrers cannot be filtered by
    const top = (d) => `/v1/analytics/top?${q}&dimension=${d}&limit=10&sort=${perDomain.includes(d) ? 'hits' : sort.value}`;
    // A link's or a campaign's funnel: its clicks, installs, opens and named events (docs/EVENTS.md, "Funnels").
    const funnelPath = link || filters.has('utm_campaign') ? `/v1/analytics/funnel?${funnelParams(q)}` : null;
    try {
      const { funnelOf } = await import('./funnel.js');
      const funnel = funnelPath ? funnelOf(ask, funnelPath, { title: 'Conversions', id: 'funnel' }) : null;
      const [summary, timeseries, ...tops] = await Promise.all([ask(`/v1/analytics/summary?${q}`), ask(`/v1/analytics/timeseries?${series}`),
        ...shown.map(([d]) => (perDomain.includes(d) && narrowed ? null : ask(top(d)).catch((error) => ({ error }))))]);
      if (mine !== asked) return;
      const canvas = h('canvas', { id: 'timeseries-chart', role: 'img', 'aria-label': `Hits per ${interval.value}` });
      // A list without hits: nothing listed and nothing unknown (taps without a country still make a list).
      const empty = (t) => t && t.items && !t.items.length && !(t.unknown && t.unknown.hits);
      const p = summary.previous;
      output.replaceChildren(
        h('p', { class: 'muted', id: 'analytics-range' }, days(summary.from, summary.to),
          p ? ` compared with ${days(summary.previousFrom, summary.previousTo)}` : '',
          `. Counting ${counted[summary.source].toLowerCase()}${summary.includeBots ? ', bots included' : ', bots excluded'}.`),
        h('div', { class: 'stats' }, stat(counted[summary.source], summary.hits, 'stat-hits', p && p.hits),
          stat('Unique visitors', summary.uniqueVisitors, 'stat-visitors', p && p.uniqueVisitors),
          stat('Bot share (of all hits)', `${Math.round((summary.botShare || 0) * 1000) / 10} %`, 'stat-bots')),
        funnel ? await funnel : null,
        h('h2', {}, 'Over time'), h('div', { class: 'chart-box' }, canvas), seriesTable(timeseries),
        h('div', { class: 'split' }, shown.map(([d, title, one], i) => (empty(tops[i]) ? null
          : topTable(d, title, one, tops[i], summary, sort.value, filterBy, (s) => { sort.value = s; show().then(() => output.querySelector(`#top-${d} h2`).focus()); })))),
        // Lists without hits, on one line.
        h('ul', { class: 'chips empty-lists', 'aria-label': 'Lists without hits' }, shown.map(([d, title], i) => (empty(tops[i])
          ? h('li', { id: `top-${d}`, class: 'muted' }, `${title}: no hits.`) : null))),
        h('div', { class: 'split' }, shareTable('What visitors got', 'Served', summary.byServed, summary.hits, 'share-served',
          'Resolves (API answers: nothing served)', (k) => label('served', k)),
        shareTable('Outcomes (what the rules decided)', 'Outcome', summary.byOutcome, summary.hits, 'share-outcome'),
        shareTable('Platforms', 'Platform', summary.byPlatform, summary.hits, 'share-platform')),
        h('div', { class: 'actions' }, h('span', { class: 'label' }, 'CSV:'),
          csvButton('Time series', `/v1/analytics/timeseries?${series}`, 'timeseries.csv'),
          csvButton('Summary', `/v1/analytics/summary?${q}`, 'summary.csv'),
          ...shown.map(([d, title], i) => (tops[i] && !tops[i].error ? csvButton(title, top(d).replace('limit=10', 'limit=100'), `top-${d}.csv`) : null))));
      await chartLoaded();
      if (mine !== asked) return;
      drawChart(canvas, timeseries);
      said.textContent = `${summary.hits} hits, ${summary.uniqueVisitors} unique visitors${filters.size ? `, filtered by ${[...filters.keys()].map((k) => names[k]).join(', ')}` : ''}.`;
    } catch (error) {
      if (mine === asked) output.replaceChildren(errorNotice(error));
    }
    if (mine === asked) output.setAttribute('aria-busy', 'false');
  }

  function filterBy(dimension, value, text) {
    known.set(`${dimension}\u0000${value}`, text);
    filters.set(dimension, value);
    show().then(() => chips.focus()); // the item is gone with the old lists: the focus goes to the filters
  }

  if (filters.get('link')) get(`/v1/links/${enc(filters.get('link'))}`).then((l) => { known.set(`link\u0000${l.id}`, l.slug); drawChips(); }, () => {});
  await show();
}

/** The parameters of `q` for a funnel: all but the comparison (a filter events are not counted under answers a 400). */
function funnelParams(q) {
  const funnel = new URLSearchParams(q);
  funnel.delete('compare');
  return funnel;
}

function stat(title, value, id, before) {
  return h('div', { class: 'stat' }, h('span', { class: 'muted' }, title),
    h('b', { id }, typeof value === 'number' ? value.toLocaleString() : value),
    before !== undefined && before !== null ? h('span', { id: `${id}-change` }, change(value, before)) : null);
}

/** The series as a table: hits and visitors per bucket, and per named group. */
function seriesTable(timeseries) {
  const p = timeseries.previous;
  const groups = [...new Set(timeseries.buckets.flatMap((b) => Object.keys(b.groups || {})))];
  const named = timeseries.names || {};
  const num = (text) => h('th', { scope: 'col', class: 'num' }, text);
  return h('details', {}, h('summary', {}, 'The figures as a table'), h('div', { class: 'table-wrap' }, h('table', { id: 'timeseries-table' },
    p ? h('caption', {}, `Previous period: ${p.total} hits, ${p.visitors} unique visitors`) : null,
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Start'), num('Hits'), num('Visitors'), groups.map((g) => num(label(timeseries.groupBy, g, named[g]))))),
    h('tbody', {}, timeseries.buckets.map((b) => h('tr', {}, h('td', {}, b.start), h('td', { class: 'num' }, b.total), h('td', { class: 'num' }, b.visitors),
      groups.map((g) => h('td', { class: 'num' }, (b.groups || {})[g] || 0))))))));
}

/** Shares of `total`: the values with hits, and what they leave of the total (`rest`: hits without a value), so that
 * the rows add up. */
function shareTable(title, one, counts, total, id, rest = 'Unknown', name = (k) => k) {
  if (counts === null) return h('section', {}, h('h2', {}, title), h('p', { class: 'muted', id }, 'Not counted with these filters.'));
  const rows = Object.entries(counts || {}).filter(([, hits]) => hits);
  const left = total - rows.reduce((sum, [, hits]) => sum + hits, 0);
  if (left > 0) rows.push(['', left]);
  const pct = (hits) => (total ? `${Math.round((hits / total) * 1000) / 10} %` : '–');
  return h('section', {}, h('h2', {}, title), h('table', { id },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, one), h('th', { scope: 'col', class: 'num' }, 'Hits'), h('th', { scope: 'col', class: 'num' }, 'Share'))),
    h('tbody', {}, rows.map(([key, hits]) => h('tr', { 'data-key': key }, h('td', {}, key ? name(key) : rest), h('td', { class: 'num' }, hits),
      h('td', { class: 'num' }, pct(hits))))),
    h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, 'Total'), h('td', { class: 'num' }, total), h('td', { class: 'num' }, pct(total))))));
}

/** A bar of `share` (0…1) drawn through the CSSOM (the CSP forbids style attributes), and the percentage. */
function bar(share) {
  const fill = h('span');
  fill.style.width = `${Math.round(share * 1000) / 10}%`;
  return h('span', { class: 'share' }, h('span', { class: 'bar', 'aria-hidden': 'true' }, fill), `${Math.round(share * 1000) / 10} %`);
}

/** A top list: items by name (a button filtering by it), hits, visitors, share, change. */
function topTable(dimension, title, one, answer, summary, sort, filterBy, resort) {
  const head = h('h2', { tabindex: '-1' }, title);
  if (!answer) return h('section', { id: `top-${dimension}` }, head, h('p', { class: 'muted' }, `${title} are counted per domain and outcome: remove the other filters to see them.`));
  // 400: the filters and this list are not counted together (docs/HITS.md).
  if (answer.error) return h('section', { id: `top-${dimension}` }, head, answer.error.status === 400 ? h('p', { class: 'muted' }, 'Not counted with these filters.') : errorNotice(answer.error));
  const items = answer.items;
  const visitors = !perDomain.includes(dimension);
  const by = visitors ? sort : 'hits';
  const all = answer.total || { hits: summary.hits, visitors: summary.uniqueVisitors };
  const total = by === 'visitors' ? all.visitors : all.hits;
  const share = (hits, seen) => bar(total ? Math.min(1, (by === 'visitors' ? seen || 0 : hits) / total) : 0);
  // What the items leave out, so that the rows add up to the total (visitors only where each is in one row).
  const extra = [];
  if (answer.unknown && answer.unknown.hits) {
    extra.push(h('tr', { class: 'unknown' }, h('td', {}, unknownNames[dimension] || 'Unknown'),
      h('td', { class: 'num' }, answer.unknown.hits.toLocaleString()), visitors ? h('td', { class: 'num' }, (answer.unknown.visitors ?? 0).toLocaleString()) : null,
      h('td', {}, share(answer.unknown.hits, answer.unknown.visitors))));
  }
  if (answer.others && answer.others.hits) {
    extra.push(h('tr', { class: 'others' }, h('td', {}, `${answer.others.values.toLocaleString()} more not listed`),
      h('td', { class: 'num' }, answer.others.hits.toLocaleString()), visitors ? h('td', { class: 'num' }, '–') : null,
      h('td', {}, by === 'visitors' ? '' : share(answer.others.hits))));
  }
  const overlap = visitors && answer.visitorsAddUp === false && items.length + extra.length > 1;
  const column = (key, text) => h('th', { scope: 'col', class: 'num', 'aria-sort': by === key ? 'descending' : null },
    visitors && by !== key ? h('button', { type: 'button', class: 'sort', title: `Rank by ${text.toLowerCase()}`, onclick: () => resort(key) }, text) : text);
  return h('section', { id: `top-${dimension}` }, head, h('div', { class: 'table-wrap' }, h('table', { 'aria-label': title, class: 'ranked' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, one),
      column('hits', 'Hits'), visitors ? column('visitors', 'Visitors') : null, h('th', { scope: 'col' }, 'Share'))),
    h('tbody', {}, items.map((item) => {
      const value = item[dimension];
      const text = label(dimension, value, item);
      const where = item.host && dimension !== 'host' ? h('span', { class: 'muted where' }, item.host) : null;
      const name = dimension in names && !none(value)
        ? h('button', { type: 'button', class: 'item', 'data-value': value, title: `Show only ${title.toLowerCase()}: ${text}`, onclick: () => filterBy(dimension, value, text) }, text)
        : h('span', {}, text);
      return h('tr', { 'data-value': none(value) ? '' : value }, h('td', {}, name, where),
        h('td', { class: 'num' }, item.hits.toLocaleString(), change(item.hits, item.previousHits)),
        visitors ? h('td', { class: 'num' }, (item.visitors ?? 0).toLocaleString(), change(item.visitors ?? 0, item.previousVisitors)) : null,
        h('td', {}, share(item.hits, item.visitors)));
    }), extra),
    h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, 'Total'), h('td', { class: 'num' }, all.hits.toLocaleString()),
      visitors ? h('td', { class: 'num' }, (all.visitors ?? 0).toLocaleString()) : null, h('td', {}, ''))))),
  overlap ? h('p', { class: 'muted note' }, 'A visitor can be in several rows (two ', title.toLowerCase(), ' tapped): visitors add up to more than the total.') : null);
}

/** Loads Debian's Chart.js once, for the views that draw a chart only; settles whether or not the server has it. */
let chartScript = null;
function chartLoaded() {
  chartScript ??= new Promise((resolve) => {
    const script = h('script', { src: 'vendor/chart.min.js' });
    script.addEventListener('load', resolve);
    script.addEventListener('error', resolve);
    document.head.append(script);
  });
  return chartScript;
}

function drawChart(canvas, timeseries) {
  if (chart) { chart.destroy(); chart = null; }
  if (typeof window.Chart !== 'function') {
    canvas.replaceWith(notice('warn', 'Charts need Chart.js (Debian\'s libjs-chart.js) on the server; the figures are in the table below.'));
    return;
  }
  const labels = timeseries.buckets.map((b) => b.start.slice(0, timeseries.interval === 'hour' ? 16 : 10).replace('T', ' '));
  const groups = [...new Set(timeseries.buckets.flatMap((b) => Object.keys(b.groups || {})))];
  const named = timeseries.names || {};
  const datasets = timeseries.groupBy
    ? groups.map((g, i) => ({ label: label(timeseries.groupBy, g, named[g]), data: timeseries.buckets.map((b) => (b.groups || {})[g] || 0), backgroundColor: palette[i % palette.length] }))
    : [{ label: 'Hits', data: timeseries.buckets.map((b) => b.total), backgroundColor: palette[0] }];
  chart = new window.Chart(canvas, {
    type: 'bar',
    data: { labels, datasets },
    options: { animation: false, responsive: true, maintainAspectRatio: false,
      scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } },
  });
}

/** A CSV download: fetched with the key (a plain link could not carry it), saved through a blob URL. */
function csvButton(title, path, filename) {
  const button = h('button', { type: 'button', class: 'secondary', 'data-csv': filename }, title);
  button.addEventListener('click', async () => {
    try {
      const { data } = await call('GET', path, { accept: 'text/csv', text: true });
      const url = URL.createObjectURL(new Blob([data], { type: 'text/csv' }));
      const anchor = h('a', { href: url, download: filename, hidden: true });
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) { alert(error.message); }
  });
  return button;
}
