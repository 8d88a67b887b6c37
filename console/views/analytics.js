// Analytics: time series (Chart.js from Debian's libjs-chart.js), top lists, outcome and platform shares, CSV.
import { h, field, form, input, select, checkbox, notice, errorNotice } from '../dom.js';
import { call, get, all } from '../api.js';

const dimensions = [['path', 'Top paths'], ['destination', 'Top destinations'], ['rule', 'Top rules'], ['referrer', 'Top referrers'], ['utm_campaign', 'Top campaigns']];
const palette = ['#1d4ed8', '#b91c1c', '#166534', '#a16207', '#7c3aed', '#0e7490', '#be185d', '#4b5563'];
let chart = null;

const day = (date) => date.toISOString().slice(0, 10);

export async function render(view, context) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  if (!zones.includes('UTC')) zones.unshift('UTC');
  const domains = await all('/v1/domains?limit=200');
  const today = new Date();
  const from = input({ type: 'date', value: context.query.get('from') || day(new Date(today.getTime() - 6 * 86400000)) });
  const to = input({ type: 'date', value: context.query.get('to') || day(today) });
  const tz = select(zones.length ? zones : [zone], context.query.get('tz') || zone);
  const interval = select([['day', 'Day'], ['hour', 'Hour']], context.query.get('interval') || 'day');
  const groupBy = select([['', 'nothing'], 'outcome', 'platform', 'destination', 'rule', 'host', 'app', 'source'], context.query.get('groupBy') || '');
  const host = select([['', 'all domains'], ...domains.map((d) => [d.hostname, d.hostname])], context.query.get('host') || '');
  const bots = checkbox(context.query.get('includeBots') === 'true');
  const output = h('div', { 'aria-live': 'polite' });
  const query = () => {
    const q = new URLSearchParams({ from: from.value, to: to.value, tz: tz.value, includeBots: String(bots.checked) });
    if (host.value) q.set('host', host.value);
    return q;
  };
  const settings = form('Range and filters', h('div', { class: 'grid' },
    field('From', from, { pointer: 'from' }), field('To (inclusive)', to, { pointer: 'to' }), field('Time zone', tz, { pointer: 'tz' }),
    field('Interval', interval, { pointer: 'interval' }), field('Group by', groupBy, { pointer: 'groupBy' }),
    field('Domain', host, { pointer: 'host' }), field('Include bots', bots, { pointer: 'includeBots' })),
  'Show', async () => show());
  view.append(h('h1', {}, 'Analytics'), settings, output);

  async function show() {
    const q = query();
    const series = new URLSearchParams(q);
    series.set('interval', interval.value);
    if (groupBy.value) series.set('groupBy', groupBy.value);
    const [summary, timeseries, ...tops] = await Promise.all([
      get(`/v1/analytics/summary?${q}`), get(`/v1/analytics/timeseries?${series}`),
      ...dimensions.map(([dimension]) => get(`/v1/analytics/top?${q}&dimension=${dimension}&limit=10`)),
    ]);
    const canvas = h('canvas', { id: 'timeseries-chart', role: 'img', 'aria-label': `Hits per ${interval.value}` });
    const csv = h('div', { class: 'actions' }, h('span', { class: 'label' }, 'CSV:'),
      csvButton('Time series', `/v1/analytics/timeseries?${series}`, 'timeseries.csv'),
      csvButton('Summary', `/v1/analytics/summary?${q}`, 'summary.csv'),
      ...dimensions.map(([dimension, title]) => csvButton(title, `/v1/analytics/top?${q}&dimension=${dimension}&limit=100`, `top-${dimension}.csv`)));
    output.replaceChildren(
      h('div', { class: 'stats' }, stat('Hits', summary.hits, 'stat-hits'), stat('Unique visitors', summary.uniqueVisitors, 'stat-visitors'),
        stat('Bot share', `${Math.round((summary.botShare || 0) * 1000) / 10} %`, 'stat-bots')),
      csv,
      h('h2', {}, 'Time series'), h('div', { class: 'chart-box' }, canvas), seriesTable(timeseries),
      h('div', { class: 'split' }, shareTable('Outcomes', summary.byOutcome, summary.hits, 'share-outcome'),
        shareTable('Platforms', summary.byPlatform, summary.hits, 'share-platform')),
      h('div', { class: 'split' }, dimensions.map(([dimension, title], i) => topTable(title, dimension, tops[i].items))));
    drawChart(canvas, timeseries);
  }
  await show().catch((error) => output.replaceChildren(errorNotice(error)));
}

const stat = (label, value, id) => h('div', { class: 'stat' }, h('span', { class: 'muted' }, label), h('b', { id }, typeof value === 'number' ? value.toLocaleString() : value));

function seriesTable(timeseries) {
  return h('details', {}, h('summary', {}, 'The figures as a table'), h('table', { id: 'timeseries-table' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Start'), h('th', { scope: 'col', class: 'num' }, 'Hits'))),
    h('tbody', {}, timeseries.buckets.map((b) => h('tr', {}, h('td', {}, b.start), h('td', { class: 'num' }, b.total))))));
}

function shareTable(title, counts, total, id) {
  const entries = Object.entries(counts || {});
  return h('section', {}, h('h2', {}, title), h('table', { id },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, title.slice(0, -1)), h('th', { scope: 'col', class: 'num' }, 'Hits'), h('th', { scope: 'col', class: 'num' }, 'Share'))),
    h('tbody', {}, entries.map(([key, hits]) => h('tr', { 'data-key': key }, h('td', {}, key), h('td', { class: 'num' }, hits),
      h('td', { class: 'num' }, total ? `${Math.round((hits / total) * 1000) / 10} %` : '–'))))));
}

function topTable(title, dimension, items) {
  return h('section', {}, h('h2', {}, title), items.length
    ? h('table', { id: `top-${dimension}` },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, dimension), h('th', { scope: 'col' }, 'Where'), h('th', { scope: 'col', class: 'num' }, 'Hits'))),
      h('tbody', {}, items.map((item) => h('tr', {}, h('td', {}, h('code', {}, String(item[dimension] ?? '(none)'))),
        h('td', {}, item.host || item.app || ''), h('td', { class: 'num' }, item.hits)))))
    : h('p', { class: 'muted', id: `top-${dimension}` }, 'No hits.'));
}

function drawChart(canvas, timeseries) {
  if (chart) { chart.destroy(); chart = null; }
  if (typeof window.Chart !== 'function') {
    canvas.replaceWith(notice('warn', 'Charts need Chart.js (Debian\'s libjs-chart.js) on the server; the figures are in the table below.'));
    return;
  }
  const labels = timeseries.buckets.map((b) => b.start.slice(0, timeseries.interval === 'hour' ? 16 : 10).replace('T', ' '));
  const groups = [...new Set(timeseries.buckets.flatMap((b) => Object.keys(b.groups || {})))];
  const datasets = timeseries.groupBy
    ? groups.map((g, i) => ({ label: g, data: timeseries.buckets.map((b) => (b.groups || {})[g] || 0), backgroundColor: palette[i % palette.length] }))
    : [{ label: 'Hits', data: timeseries.buckets.map((b) => b.total), backgroundColor: palette[0] }];
  chart = new window.Chart(canvas, {
    type: 'bar',
    data: { labels, datasets },
    options: { animation: false, responsive: true, maintainAspectRatio: false,
      scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } },
  });
}

/** A CSV download: fetched with the key (a plain link could not carry it), saved through a blob URL. */
function csvButton(label, path, filename) {
  const button = h('button', { type: 'button', class: 'secondary', 'data-csv': filename }, label);
  button.addEventListener('click', async () => {
    try {
      const { data } = await call('GET', path, { accept: 'text/csv', text: true });
      const url = URL.createObjectURL(new Blob([data], { type: 'text/csv' }));
      const link = h('a', { href: url, download: filename, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) { alert(error.message); }
  });
  return button;
}

