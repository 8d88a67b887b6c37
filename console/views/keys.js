// API keys: create (the secret is shown once), list, revoke. Admin keys only; others are told why.
import { h, field, form, input, select, formatTime, copyButton, notice } from '../dom.js';
import { call, pagedTable, enc } from '../api.js';

export async function render(view, context) {
  view.append(h('h1', {}, 'API keys'));
  if (!context.can('GET', '/v1/keys')) {
    view.append(notice('warn', context.needs('Managing keys', 'GET', '/v1/keys')));
    return;
  }
  const list = () => pagedTable('/v1/keys?limit=50', [
    ['Name', (k) => k.name || h('span', { class: 'muted' }, '(no name)')],
    ['Prefix', (k) => h('code', {}, k.prefix)],
    ['Scope', (k) => k.scope],
    ['Created', (k) => formatTime(k.createdAt)],
    ['State', (k) => {
      if (k.revokedAt) return `revoked ${formatTime(k.revokedAt)}`;
      if (k.id === context.whoami.key?.id) return 'this key';
      const revoke = h('button', { type: 'button', class: 'danger', 'aria-label': `Revoke key ${k.prefix}` }, 'Revoke');
      revoke.addEventListener('click', async () => {
        if (!confirm(`Revoke ${k.prefix}? Clients using it stop working at once.`)) return;
        try { await call('DELETE', `/v1/keys/${enc(k.id)}`); refresh(); } catch (error) { alert(error.message); }
      });
      return revoke;
    }],
  ], { label: 'API keys' });
  let table = list();
  const refresh = () => { const next = list(); table.replaceWith(next); table = next; };
  const created = h('div', { 'aria-live': 'polite' });
  const name = input({ name: 'name' });
  const scope = select(['read', 'write', 'admin'], 'read', { name: 'scope' });
  view.append(table, form('Create a key', [
    h('div', { class: 'grid' }, field('Name', name, { pointer: '/name' }), field('Scope', scope, { pointer: '/scope' })),
  ], 'Create key', async (element) => {
    const { data } = await call('POST', '/v1/keys', { body: { name: name.value, scope: scope.value } });
    element.reset();
    const secret = h('p', { class: 'secret', id: 'new-key' }, data.key);
    created.replaceChildren(notice('ok', h('p', {}, `The ${data.scope} key, shown this once (linkd keeps only its hash):`), secret,
      h('div', { class: 'actions' }, copyButton(() => data.key, 'Copy key'))));
    refresh();
  }), created);
  await table.ready;
}
