// The URLs a change moves (`moved` of POST …/preview and GET …/association/diff, docs/HEALTH.md): a summary line
// that opens onto a table of each URL's iOS and Android decision before → after.
import { h, head, appName } from '../dom.js';

/** A decision in words: the app (by name) and the destination it opens, or the browser and why. */
function decisionText(d, appsByID) {
  const app = d.app ? (appsByID.has(d.app.id) ? appName(appsByID.get(d.app.id), appsByID.values()) : d.app.appId || d.app.packageName) : '';
  const to = d.destination;
  if (d.outcome === 'open_app') {
    return to ? `${app}: ${to.type}${to.link ? ` (link ${to.link})` : to.params ? ` ${JSON.stringify(to.params)}` : ''}` : app;
  }
  if (d.outcome === 'invalid_param') return `${app}, refused: ${to?.error?.detail || 'invalid parameter'}`;
  return d.outcome === 'excluded' ? `browser (excluded${app ? ` by ${app}` : ''})` : 'browser';
}

const path = (m) => m.url.replace(/^https?:\/\/[^/]+/, '');
const side = (move, appsByID) => (move.changed
  ? h('td', {}, decisionText(move.from, appsByID), ' → ', h('b', {}, decisionText(move.to, appsByID)))
  : h('td', { class: 'muted' }, `unchanged: ${decisionText(move.to, appsByID)}`));

/**
 * `moved` (of `total`) as a `details` element (`id`), closed unless `open`: its summary says "N URLs {verb}: the first three…"
 * and what was compared (`corpus`); the table holds URL, iOS and Android.
 */
export function movedView(moved, corpus, appsByID, { id, verb, open = false, total }) {
  const count = total ?? moved.length;
  const first = moved.slice(0, 3).map(path).join(', ');
  // At most 500 rows (the API may list fewer than `total`).
  const rows = moved.slice(0, 500).map((m) => h('tr', { 'data-url': m.url, title: m.url },
    h('td', {}, h('code', {}, path(m))), side(m.ios, appsByID), side(m.android, appsByID)));
  const compared = corpus ? ` among ${corpus.size} compared (${corpus.examples} from the rules' examples, ${corpus.hits} hit in 7 days, ` +
    `${corpus.links} links${corpus.cut ? '; a bound left more out' : ''})` : '';
  if (!count) return h('p', { id, class: 'moved-urls muted' }, `No URL ${verb}`, compared);
  return h('details', { id, class: 'moved-urls', open },
    h('summary', {}, h('b', {}, `${count} URL${count > 1 ? 's' : ''} ${verb}: `), h('span', { class: 'muted' }, `${first}${count > 3 ? ', …' : ''}`, compared)),
    h('div', { class: 'table-wrap' }, h('table', { class: 'stack', 'aria-label': 'Moved URLs' },
      head('URL', 'iOS', 'Android'), h('tbody', {}, rows)), rows.length < count ? h('p', { class: 'muted' }, `The first ${rows.length} of ${count}.`) : null));
}
