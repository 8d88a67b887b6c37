// Resolve tester: URLs (universal links and custom schemes), one a line, through POST /v1/resolve.
import { h, field, form, select, checkbox, pretty } from '../dom.js';
import { call, enc } from '../api.js';

export async function render(view, context) {
  const urls = h('textarea', { rows: 6, id: 'resolve-urls', placeholder: 'https://links.example.com/widget/42\nwidgets://widget/42',
    value: context.query.get('url') || '' });
  const platform = select([['ios', 'iOS'], ['android', 'Android']], 'ios');
  const log = checkbox(false);
  const results = h('div', { class: 'table-wrap', 'aria-live': 'polite' });
  view.append(h('h1', {}, 'Resolve'), form(null, [
    field('URLs, one a line', urls, { pointer: '/urls' }),
    h('div', { class: 'grid' }, field('Platform', platform, { pointer: '/platform' }), field('Count these lookups in analytics', log, { pointer: '/log' })),
  ], 'Resolve', async (element) => {
    const lines = urls.value.split('\n').map((l) => l.trim()).filter(Boolean);
    // A problem at /urls/N names the Nth line: point it at the textarea, with the line number.
    try {
      const { data } = await call('POST', '/v1/resolve', { body: { urls: lines, platform: platform.value, log: log.checked } });
      results.replaceChildren(table(data.results));
    } catch (error) {
      for (const item of error.problem?.errors || []) {
        const line = /^\/urls\/(\d+)/.exec(item.pointer || '');
        if (line) item.detail = `Line ${Number(line[1]) + 1}: ${item.detail}`;
      }
      throw error;
    }
  }), results);
}

function table(results) {
  return h('table', { id: 'resolve-results' },
    h('thead', {}, h('tr', {}, ['URL', 'Outcome', 'App', 'Rule', 'Destination'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, results.map((r) => h('tr', { 'data-outcome': r.outcome },
      h('td', {}, h('code', {}, r.url)),
      h('td', {}, h('span', { class: `badge ${r.outcome === 'open_app' ? 'ok' : r.outcome === 'invalid_param' ? 'error' : 'warn'}` }, r.outcome),
        r.reason ? ` (${r.reason})` : ''),
      h('td', {}, r.app ? h('code', {}, r.app.appId || r.app.packageName) : h('span', { class: 'muted' }, 'browser')),
      h('td', {}, r.rule ? h('a', { href: `#/rules/${enc(r.domain)}?rule=${enc(r.rule.id)}`, class: 'rule-link' }, `rule ${r.rule.position + 1}`) : ''),
      h('td', {}, r.destination ? h('code', { class: 'destination' }, JSON.stringify(r.destination)) : fallback(r))))));
}

function fallback(r) {
  const web = r.fallbacks?.web;
  return web ? h('span', { class: 'muted' }, `web: ${web}`) : h('span', { class: 'muted' }, pretty(r.fallbacks || {}) === '{}' ? '' : JSON.stringify(r.fallbacks));
}
