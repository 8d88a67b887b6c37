// Links: the workspace's stored links with their taps over 7 and 30 days, search, filters and order, their count,
// cursor pages, the export of what the list shows, actions on ticked links, and the import of a Firebase Takeout
// or linkd CSV file (a dry run's report first).
import { h, replace, field, form, input, select, errorNotice, head, checkbox } from '../dom.js';
import { get, call, all, enc } from '../api.js';
import { lastDays, state, target } from './link-parts.js';

/**
 * Taps per link id over the last `days` days: one `top?dimension=link` request for the whole workspace (bots
 * excluded). `floor` is the fewest taps a listed link has when the list is full: a link not in it has at most that.
 */
export async function taps(days, extra = '') {
  const data = await get(`/v1/analytics/top?dimension=link&limit=100&${lastDays(days)}${extra}`);
  const counts = new Map(data.items.map((item) => [item.link, item.hits]));
  return { counts, floor: data.items.length === 100 ? data.items[99].hits : 0 };
}

/** `text` on one line, cut with an ellipsis; whole in `title`. */
const clip = (text, tag = 'span') => h(tag, { class: 'clip', title: text }, text);

const tapCell = (figures, id) => (figures.counts.has(id) ? figures.counts.get(id)
  : figures.floor ? h('span', { class: 'muted', title: 'Not among the 100 most tapped links' }, `≤ ${figures.floor}`) : 0);

export async function render(view, context) {
  // Loaded here, not imported: a link's page imports this module's helpers and needs none of it.
  const [domains, { exportLinks, bulkBar }] = await Promise.all([all('/v1/domains?limit=200'), import('./links-bulk.js')]);
  const q = input({ type: 'search', placeholder: 'slug or name', id: 'links-q' });
  const domain = select([['', 'any'], ...domains.map((d) => d.hostname)], '');
  const tag = input({ placeholder: 'spring' });
  const campaign = input({ placeholder: 'spring', title: 'A part of the campaign name, any case' });
  const type = input({ placeholder: 'widgetDetail' });
  const sort = select([['-created', 'newest first'], ['created', 'oldest first'], ['slug', 'slug A→Z'], ['-slug', 'slug Z→A'],
    ['-clicks', 'most taps'], ['clicks', 'fewest taps']], '-created', { id: 'links-sort' });
  const filters = h('form', { class: 'filters', 'aria-label': 'Filters', role: 'search' },
    field('Search', q), field('Domain', domain), field('Tag', tag), field('Campaign', campaign), field('Destination type', type),
    field('Order', sort), h('button', { type: 'submit' }, 'Search'));
  const holder = h('div');
  const total = h('p', { id: 'links-count', class: 'muted', 'aria-live': 'polite' });
  const exported = h('span', { class: 'muted', id: 'export-status' });
  const exportButton = h('button', { type: 'button', class: 'secondary', id: 'export-links', hidden: !context.can('GET', '/v1/links/export') }, 'Export CSV');
  const ticked = new Map();
  const bulk = context.can('POST', '/v1/links/bulk') ? bulkBar(() => [...ticked].map(([id, shortLink]) => ({ id, shortLink })), () => load()) : null;
  view.append(h('h1', {}, 'Links'),
    context.can('POST', '/v1/links') ? h('p', {}, h('a', { class: 'button', href: '#/links/new', id: 'new-link' }, 'New link')) : '', filters,
    h('div', { class: 'actions links-tools' }, total, exportButton, exported), bulk ? bulk.element : '', holder);

  let figures = null;
  let query = null;
  exportButton.addEventListener('click', () => {
    const shown = new URLSearchParams(query);
    shown.delete('limit');
    exportLinks(shown, (text) => { exported.textContent = text; }).catch((error) => exported.replaceChildren(errorNotice(error)));
  });
  async function load() {
    query = new URLSearchParams({ limit: '50', sort: sort.value });
    for (const [name, control] of [['q', q], ['domain', domain], ['tag', tag], ['campaign', campaign], ['destinationType', type]]) {
      if (control.value.trim()) query.set(name, control.value.trim());
    }
    figures = figures || await Promise.all([taps(7), taps(30)]);
    ticked.clear();
    bulk?.update(0);
    const body = h('tbody');
    const status = h('div', { class: 'actions' });
    const all = bulk ? checkbox(false, { 'aria-label': 'Tick every listed link', id: 'tick-all' }) : null;
    all?.addEventListener('change', () => {
      for (const box of body.querySelectorAll('input.tick')) { box.checked = all.checked; box.dispatchEvent(new Event('change')); }
    });
    holder.replaceChildren(h('div', { class: 'table-wrap' }, h('table', { id: 'links-table', class: 'stack', 'aria-label': 'Links' },
      h('thead', {}, h('tr', {}, all ? h('th', { scope: 'col', class: 'tick-cell' }, all) : null,
        ['Link', 'Name', 'Opens', 'Campaign', 'Tags', 'State'].map((t) => h('th', { scope: 'col' }, t)),
        h('th', { scope: 'col', class: 'num' }, 'Taps 7 d'), h('th', { scope: 'col', class: 'num' }, '30 d'))), body)), status);
    let count = 0;
    async function page(path) {
      status.replaceChildren(h('span', { class: 'muted' }, 'Loading…'));
      const data = await get(path);
      if (data.total !== undefined) {
        const n = data.total;
        total.textContent = `${n} ${n === 1 ? 'link' : 'links'}${query.size > 2 ? (n === 1 ? ' matches' : ' match') : ''}`;
      }
      for (const link of data.items) {
        count++;
        const c = link.campaign || {};
        const box = bulk ? checkbox(false, { class: 'tick', 'aria-label': `Tick ${link.shortLink}` }) : null;
        box?.addEventListener('change', () => { if (box.checked) ticked.set(link.id, link.shortLink); else ticked.delete(link.id); bulk.update(ticked.size); });
        body.append(h('tr', { 'data-id': link.id }, box ? h('td', { class: 'tick-cell' }, box) : null,
          h('td', {}, h('a', { href: `#/links/${enc(link.id)}` }, clip(link.shortLink.replace(/^https:\/\//, ''), 'code'))),
          h('td', {}, link.name ? clip(link.name) : ''), h('td', {}, target(link)),
          h('td', { class: 'link-campaign' }, [c.campaign, c.source, c.medium].filter(Boolean).join(' · ')),
          h('td', {}, (link.tags || []).map((t) => [h('span', { class: 'badge' }, t), ' '])),
          h('td', {}, state(link)),
          h('td', { class: 'num taps-7' }, tapCell(figures[0], link.id)), h('td', { class: 'num taps-30' }, tapCell(figures[1], link.id))));
      }
      status.replaceChildren(count ? '' : h('span', { class: 'muted' }, query.size > 2 ? 'No link matches.' : 'No link yet.'));
      if (data.next) {
        status.append(h('span', { class: 'muted' }, `${count} shown`), ' ');
        const more = h('button', { type: 'button', class: 'secondary' }, 'Load more');
        more.addEventListener('click', () => page(data.next).catch((error) => status.replaceChildren(errorNotice(error))));
        status.append(more);
      }
    }
    await page(`/v1/links?${query}`);
  }
  filters.addEventListener('submit', (event) => {
    event.preventDefault();
    load().catch((error) => holder.replaceChildren(errorNotice(error)));
  });
  if (context.can('POST', '/v1/links/import')) view.append(importForm(domains, load));
  await load();
}

/** The import: a file or pasted text, its format; "Dry run" shows the report and saves nothing, "Import" creates. */
function importForm(domains, reload) {
  const file = h('input', { type: 'file', accept: '.csv,text/csv' });
  const text = h('textarea', { rows: 4, placeholder: 'Short link,Deep link,…', spellcheck: 'false' });
  const format = select([['firebase', 'Firebase Dynamic Links (Takeout)'], ['csv', 'linkd CSV (export)']], 'firebase');
  const domain = select([['', 'as the file says'], ...domains.map((d) => d.hostname)], '');
  const report = h('div', { id: 'import-report' });
  const real = h('button', { type: 'button', id: 'import-real' }, 'Import');
  async function run(dryRun) {
    const content = file.files[0] ? await file.files[0].text() : text.value;
    const query = `format=${format.value}&dryRun=${dryRun}${domain.value ? `&domain=${enc(domain.value)}` : ''}`;
    const { data } = await call('POST', `/v1/links/import?${query}`, { raw: content, contentType: 'text/csv' });
    replace(report, importReport(data));
    if (!dryRun) await reload();
  }
  const element = form('Import links', [
    h('p', { class: 'hint' }, 'A Google Takeout file of Firebase Dynamic Links, or a file of GET /v1/links/export. A dry run checks every row and saves nothing.'),
    h('div', { class: 'grid' }, field('CSV file', file), field('Format', format, { pointer: '' }), field('Domain', domain, { hint: 'linkd CSV rows without a domain go here.' })),
    field('Or paste the CSV', text),
  ], 'Dry run', () => run(true), { extraActions: [real] });
  real.addEventListener('click', async () => {
    real.disabled = true;
    try { await run(false); } catch (error) { report.replaceChildren(errorNotice(error)); } finally { real.disabled = false; }
  });
  element.addEventListener('submit', () => report.replaceChildren());
  return h('section', {}, element, report);
}

function importReport(data) {
  const summary = data.dryRun
    ? `Dry run: ${data.rows} rows, ${data.wouldCreate} would be created, ${data.refused} refused. Nothing was saved.`
    : `${data.rows} rows: ${data.created} created, ${data.refused} refused.`;
  return [
    h('p', { class: `notice ${data.refused ? 'warn' : 'ok'}`, id: 'import-summary' }, summary),
    (data.ignoredColumns || []).length ? h('p', { class: 'muted' }, 'Ignored columns: ', data.ignoredColumns.map((c) => `${c.column} (${c.name})`).join(', ')) : null,
    h('div', { class: 'table-wrap' }, h('table', { id: 'import-rows', 'aria-label': 'Import report' },
      head('Row', 'Status', 'Link or problems'),
      h('tbody', {}, data.results.map((r) => h('tr', { 'data-status': r.status }, h('td', { class: 'num' }, r.row),
        h('td', {}, h('span', { class: `badge ${r.status === 'refused' ? 'error' : 'ok'}` }, r.status)),
        h('td', {}, r.link
          ? [r.link.id ? h('a', { href: `#/links/${enc(r.link.id)}` }, h('code', {}, r.link.shortLink)) : h('code', {}, r.link.shortLink), ' → ', target(r.link)]
          : (r.problems || []).map((p) => h('div', {}, p.column ? h('b', {}, `${p.column}: `) : null, p.detail)))))))),
  ];
}
