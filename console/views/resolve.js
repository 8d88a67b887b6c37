// Resolve tester: URLs (universal links and custom schemes), one a line, through POST /v1/resolve; each line gets
// its own answer, a malformed one its error.
import { h, field, form, select, checkbox, pretty, head } from '../dom.js';
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
  ], 'Resolve', async () => {
    const lines = urls.value.split('\n').map((l) => l.trim()).filter(Boolean);
    const answers = await resolveEach(lines, platform.value, log.checked);
    results.replaceChildren(table(answers));
  }), results);
}

/**
 * Each line answered on its own, as `POST /v1/resolve` answers each URL: batches of the API's 1,000 at most; when
 * the API refuses a batch for some of its lines (422 with `/urls/N` pointers, which makes it resolve none), those
 * lines get their error as their result and the rest are asked again. Any other problem fails the form.
 */
async function resolveEach(lines, platform, log) {
  const results = new Array(lines.length);
  for (let start = 0; start < lines.length; start += 1000) {
    let pending = lines.slice(start, start + 1000).map((url, i) => ({ url, line: start + i }));
    while (pending.length) {
      try {
        const { data } = await call('POST', '/v1/resolve', { body: { urls: pending.map((p) => p.url), platform, log } });
        data.results.forEach((result, i) => { results[pending[i].line] = result; });
        break;
      } catch (error) {
        const refused = new Map();
        const errors = error.status === 422 ? error.problem?.errors || [] : [];
        for (const item of errors) {
          const match = /^\/urls\/(\d+)$/.exec(item.pointer || '');
          if (!match || !pending[Number(match[1])]) throw error;
          refused.set(Number(match[1]), item.detail);
        }
        if (!refused.size) throw error;
        for (const [index, detail] of refused) results[pending[index].line] = { url: pending[index].url, outcome: 'malformed', reason: detail };
        pending = pending.filter((_, index) => !refused.has(index));
      }
    }
  }
  return results;
}

function table(results) {
  return h('table', { id: 'resolve-results' },
    head('URL', 'Outcome', 'App', 'Rule', 'Destination'),
    h('tbody', {}, results.map((r) => h('tr', { 'data-outcome': r.outcome },
      h('td', {}, h('code', {}, r.url)),
      h('td', {}, h('span', { class: `badge ${r.outcome === 'open_app' ? 'ok' : r.outcome === 'invalid_param' || r.outcome === 'malformed' ? 'error' : 'warn'}` }, r.outcome),
        r.reason ? ` (${r.reason})` : ''),
      h('td', {}, r.app ? h('code', {}, r.app.appId || r.app.packageName) : r.outcome === 'malformed' ? '' : h('span', { class: 'muted' }, 'browser')),
      h('td', {}, r.rule ? h('a', { href: `#/rules/${enc(r.domain)}?rule=${enc(r.rule.id)}`, class: 'rule-link' }, `rule ${r.rule.position + 1}`) : ''),
      h('td', {}, r.destination ? h('code', { class: 'destination' }, JSON.stringify(r.destination)) : fallback(r))))));
}

function fallback(r) {
  const web = r.fallbacks?.web;
  return web ? h('span', { class: 'muted' }, `web: ${web}`) : h('span', { class: 'muted' }, pretty(r.fallbacks || {}) === '{}' ? '' : JSON.stringify(r.fallbacks));
}
