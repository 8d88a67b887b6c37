// The audit log: every change of the workspace, newest first, each resource by name (a link's domain/slug, an app's
// name and platform, a webhook's URL), who made it (a person or a key, by name) and from where, filtered by kind of
// resource, by link, by webhook subscription or by person.
import { h, field, select, formatTime, pretty } from '../dom.js';
import { pagedTable, all } from '../api.js';
import { items } from './people.js';

const kinds = ['', 'key', 'team', 'app', 'destination', 'domain', 'rules', 'link', 'webhook', 'webhook_delivery'];

export async function render(view, context) {
  // `#/audit?entry=N` (a version's cause) loads pages until entry N is listed, and highlights it; `link=` and
  // `webhook=` (ids) narrow it to one link or subscription.
  const entry = context.query.get('entry');
  const [links, webhooks, members] = await Promise.all([all('/v1/links?limit=200', 5).catch(() => []),
    all('/v1/webhooks?limit=200', 5).catch(() => []), // webhooks need an admin key: without one, no choice
    context.can('GET', '/v1/members') ? items('/v1/members').catch(() => []) : []]);
  const kind = select(kinds.map((k) => [k, k || 'everything']), context.query.get('resourceType') || '');
  const link = select([['', 'every link'], ...links.map((l) => [l.id, `${l.domain}/${l.slug}`])], context.query.get('link') || '');
  const webhook = select([['', 'every webhook'], ...webhooks.map((w) => [w.id, w.url])], context.query.get('webhook') || '');
  const person = select([['', 'everyone'], ...members.map((m) => [m.person.id, m.person.name || m.person.email])], context.query.get('person') || '');
  const holder = h('div');
  const load = () => {
    const q = new URLSearchParams({ limit: '50' });
    if (kind.value) q.set('resourceType', kind.value);
    if (link.value) q.set('link', link.value);
    if (webhook.value) q.set('webhook', webhook.value);
    if (person.value) q.set('person', person.value);
    const state = new URLSearchParams(q);
    state.delete('limit');
    if (entry) state.set('entry', entry);
    history.replaceState(null, '', `#/audit${[...state].length ? `?${state}` : ''}`);
    const table = pagedTable(`/v1/audit?${q}`, [
      ['When', (e) => formatTime(e.at)],
      ['Action', (e) => e.action],
      ['Resource', (e) => [e.resourceType, ' ', e.resourceName ? h('span', { class: 'name', title: e.resourceId }, e.resourceName) : h('code', {}, e.resourceId)]],
      ['Who', (e) => [who(e), e.address ? h('div', { class: 'muted' }, e.address) : null]],
      ['Change', (e) => h('details', {}, h('summary', {}, 'before / after'),
        h('pre', {}, `before: ${pretty(e.before)}\nafter: ${pretty(e.after)}`))],
    ], { empty: 'No change recorded.', label: 'Audit log', stack: true, until: entry && ((e) => String(e.id) === entry),
      row: (e) => ({ 'data-id': e.id, class: String(e.id) === entry ? 'highlight' : null }) });
    holder.replaceChildren(table);
    return table.ready;
  };
  for (const control of [kind, link, webhook, person]) control.addEventListener('change', load);
  view.append(h('h1', {}, 'Audit log'), h('div', { class: 'grid' }, field('Resource type', kind), field('Link', link),
    webhooks.length ? field('Webhook', webhook) : null, members.length ? field('Person', person) : null), holder);
  await load();
}

/** Who made a change: a person or a key by name (a key without one by its id), or the command line. */
function who(entry) {
  const actor = entry.actor;
  if (actor) return actor.type === 'key' ? [actor.name || h('code', {}, String(actor.id).slice(0, 8)), ' (key)'] : h('span', { title: actor.id }, actor.name);
  return entry.keyId ? h('code', {}, entry.keyId.slice(0, 8)) : 'command line';
}
