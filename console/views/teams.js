// Teams: the Apple team IDs of the workspace.
import { h, field, form, input, formatTime } from '../dom.js';
import { call, pagedTable, enc } from '../api.js';

export async function render(view, context) {
  const list = () => pagedTable('/v1/teams?limit=50', [
    ['Team ID', (t) => h('code', {}, t.teamId)],
    ['Name', (t) => t.name],
    ['Created', (t) => formatTime(t.createdAt)],
    ...(context.can('DELETE', '/v1/teams/{teamId}') ? [['', (t) => {
      const remove = h('button', { type: 'button', class: 'danger', 'aria-label': `Delete team ${t.teamId}` }, 'Delete');
      remove.addEventListener('click', async () => {
        if (!confirm(`Delete team ${t.teamId}?`)) return;
        try {
          await call('DELETE', `/v1/teams/${enc(t.teamId)}`);
          refresh();
        } catch (error) { alert(error.message); }
      });
      return remove;
    }]] : []),
  ], { empty: 'No team yet: an iOS app needs its Apple team ID registered first.', label: 'Teams' });
  let table = list();
  const refresh = () => { const next = list(); table.replaceWith(next); table = next; };
  view.append(h('h1', {}, 'Teams'), table);
  if (context.can('POST', '/v1/teams')) {
    const teamId = input({ name: 'teamId', maxlength: 10, autocomplete: 'off', placeholder: 'ABCDE12345' });
    const name = input({ name: 'name' });
    view.append(form('Register a team', [
      h('div', { class: 'grid' }, field('Apple team ID', teamId, { pointer: '/teamId' }), field('Name', name, { pointer: '/name' })),
    ], 'Register team', async (element) => {
      await call('POST', '/v1/teams', { body: { teamId: teamId.value.trim(), name: name.value } });
      element.reset();
      refresh();
    }));
  }
  await table.ready;
}
