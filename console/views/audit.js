// The audit log: every change of the workspace, newest first, filtered by kind of resource.
import { h, field, select, formatTime, pretty } from '../dom.js';
import { pagedTable, enc } from '../api.js';

const kinds = ['', 'key', 'team', 'app', 'destination', 'domain', 'rules'];

export async function render(view, context) {
  // `#/audit?entry=N` (a version's cause) loads pages until entry N is listed, and highlights it.
  const entry = context.query.get('entry');
  const kind = select(kinds.map((k) => [k, k || 'everything']), '');
  const holder = h('div');
  const load = () => {
    const table = pagedTable(`/v1/audit?limit=50${kind.value ? `&resourceType=${enc(kind.value)}` : ''}`, [
      ['When', (e) => formatTime(e.at)],
      ['Action', (e) => e.action],
      ['Resource', (e) => [e.resourceType, ' ', h('code', {}, e.resourceId)]],
      ['Key', (e) => (e.keyId ? h('code', {}, e.keyId.slice(0, 8)) : 'command line')],
      ['Change', (e) => h('details', {}, h('summary', {}, 'before / after'),
        h('pre', {}, `before: ${pretty(e.before)}\nafter: ${pretty(e.after)}`))],
    ], { empty: 'No change recorded.', label: 'Audit log', until: entry && ((e) => String(e.id) === entry),
      row: (e) => ({ 'data-id': e.id, class: String(e.id) === entry ? 'highlight' : null }) });
    holder.replaceChildren(table);
    return table.ready;
  };
  kind.addEventListener('change', load);
  view.append(h('h1', {}, 'Audit log'), h('div', { class: 'grid' }, field('Resource type', kind)), holder);
  await load();
}
