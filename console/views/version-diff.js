// Two versions of a domain's served files compared (`#/domains/{host}/diff/{from}/{to}`): the URLs whose iOS or
// Android decision moved and the line differences of both files (GET …/association/diff and …/versions/{n}).
import { h, notice, formatTime } from '../dom.js';
import { get, all, enc } from '../api.js';
import { diffView } from '../diff.js';
import { movedView } from './moved.js';

export async function render(view, context) {
  const [host, , from, to] = context.params;
  const base = `/v1/domains/${enc(host)}/association`;
  const [diff, before, after, apps] = await Promise.all([get(`${base}/diff?from=${enc(from)}&to=${enc(to)}`),
    get(`${base}/versions/${enc(from)}`), get(`${base}/versions/${enc(to)}`), all('/v1/apps?limit=200')]);
  const side = (v) => `version ${v.n} of ${formatTime(v.createdAt)}`;
  const files = (title, key) => [h('h2', {}, title), diffView(before[key], after[key], `version-${key}-diff`, { context: 3, same: 'Unchanged.' })];
  view.append(h('h1', {}, `${host}: version ${from} → ${to}`),
    h('p', { class: 'actions' }, h('a', { href: `#/domains/${enc(host)}` }, `← ${host}`),
      h('span', { class: 'muted' }, `From ${side(diff.from)} to ${side(diff.to)}.`)),
    ...diff.warnings.map((w) => notice('warn', w)),
    h('h2', {}, 'URLs whose decision moved'),
    movedView(diff.moved, diff.corpus, new Map(apps.map((a) => [a.id, a])), { id: 'diff-moved', verb: 'changed', open: true }),
    ...files('apple-app-site-association', 'aasa'), ...files('assetlinks.json', 'assetlinks'));
}
