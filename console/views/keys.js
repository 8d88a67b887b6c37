// API keys: create (the secret is shown once), list, revoke. Admin keys only; others are told why. On a server whose
// keys act as a role, a key's role is chosen (never above the caller's) and the list says who created each key.
import { h, field, form, input, select, formatTime, copyButton, notice } from '../dom.js';
import { call, pagedTable, enc } from '../api.js';
import { roles } from '../roles.js';

export async function render(view, context) {
  view.append(h('h1', {}, 'API keys'));
  if (!context.can('GET', '/v1/keys')) {
    view.append(notice('warn', context.needs('Managing keys', 'GET', '/v1/keys')));
    return;
  }
  const withRoles = !!context.doc?.components?.schemas?.APIKeyCreate?.properties?.role;
  const list = () => pagedTable('/v1/keys?limit=50', [
    ['Name', (k) => k.name || h('span', { class: 'muted' }, '(no name)')],
    ['Prefix', (k) => h('code', {}, k.prefix)],
    ['Scope', (k) => k.scope],
    ...(withRoles ? [['Role', (k) => k.role || ''], ['Created by', (k) => k.createdBy?.email || h('span', { class: 'muted' }, 'command line')]] : []),
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
  // The role a key acts as: by default the one its scope implies; never above the caller's own.
  const role = select([['', 'implied by the scope'], ...roles.slice(0, roles.indexOf(context.role) + 1)], '', { name: 'role' });
  view.append(table, form('Create a key', [
    h('div', { class: 'grid' }, field('Name', name, { pointer: '/name' }), field('Scope', scope, { pointer: '/scope' }),
      withRoles ? field('Role', role, { pointer: '/role', hint: 'What the key may do, as a person of that role.' }) : null),
  ], 'Create key', async (element) => {
    const body = { name: name.value, scope: scope.value };
    if (withRoles && role.value) body.role = role.value;
    const { data } = await call('POST', '/v1/keys', { body });
    element.reset();
    const secret = h('p', { class: 'secret', id: 'new-key' }, data.key);
    created.replaceChildren(notice('ok', h('p', {}, `The ${data.scope} key, shown this once (linkd keeps only its hash):`), secret,
      h('div', { class: 'actions' }, copyButton(() => data.key, 'Copy key'))));
    refresh();
  }), created);
  await table.ready;
}
