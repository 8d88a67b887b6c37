// Members and invitations of the workspace: the members with their roles (an owner changes a role or removes a
// member, each asked first), and the invitations (an owner invites by email with a role; the one-time link is shown
// once, to copy; pending ones are listed and revoked). What the caller's role may not do is not offered.
import { h, field, form, input, select, formatTime, copyButton, notice } from '../dom.js';
import { call, enc } from '../api.js';
import { roles } from '../roles.js';
import { items, table, confirmed } from './people.js';

export async function render(view, context) {
  view.append(h('h1', {}, 'Members'));
  if (!context.can('GET', '/v1/members')) {
    view.append(notice('warn', context.needs('Listing the members', 'GET', '/v1/members')));
    return;
  }
  const members = h('div', { id: 'members' });
  const invitations = h('div', { id: 'invitations' });
  const me = context.whoami.person?.id;
  const canEdit = context.can('PATCH', '/v1/members/{personId}');
  const canRemove = context.can('DELETE', '/v1/members/{personId}');

  async function loadMembers() {
    const rows = await items('/v1/members');
    members.replaceChildren(table('Members', rows, [
      ['Name', (m) => m.person.name || h('span', { class: 'muted' }, '(no name)')],
      ['Email', (m) => m.person.email],
      ['Role', (m) => {
        if (!canEdit) return m.role;
        const role = select(roles, m.role, { 'aria-label': `Role of ${m.person.email}`, class: 'member-role' });
        role.addEventListener('change', async () => {
          const yourself = m.person.id === me ? ' You change your own role.' : '';
          if (!confirm(`Make ${m.person.email} ${role.value}?${yourself}`)) { role.value = m.role; return; }
          try {
            await call('PATCH', `/v1/members/${enc(m.person.id)}`, { body: { role: role.value } });
            if (m.person.id === me) await context.start();
            else await loadMembers();
          } catch (error) { role.value = m.role; alert(error.message); }
        });
        return role;
      }],
      ['Member since', (m) => formatTime(m.createdAt)],
      ['', (m) => (canRemove ? confirmed('Remove', `Remove ${m.person.email} from ${context.whoami.workspace.name}? Their sessions end at once.`,
        async () => { await call('DELETE', `/v1/members/${enc(m.person.id)}`); await loadMembers(); },
        { 'aria-label': `Remove ${m.person.email}` }) : null)],
    ], (m) => m.person.id, 'No member yet.'));
  }

  async function loadInvitations() {
    const rows = await items('/v1/invitations');
    const canRevoke = context.can('DELETE', '/v1/invitations/{id}');
    invitations.replaceChildren(table('Invitations', rows, [
      ['Email', (i) => i.email],
      ['Role', (i) => i.role],
      ['Invited', (i) => [formatTime(i.createdAt), i.invitedBy?.email ? ` by ${i.invitedBy.email}` : '']],
      ['Expires', (i) => formatTime(i.expiresAt)],
      ['State', (i) => i.acceptedAt ? `accepted ${formatTime(i.acceptedAt)}` : i.revokedAt ? `revoked ${formatTime(i.revokedAt)}`
        : i.state || 'pending'],
      ['', (i) => (canRevoke && !i.acceptedAt && !i.revokedAt && (!i.state || i.state === 'pending')
        ? confirmed('Revoke', `Revoke the invitation of ${i.email}? Its link stops working.`,
          async () => { await call('DELETE', `/v1/invitations/${enc(i.id)}`); await loadInvitations(); },
          { 'aria-label': `Revoke the invitation of ${i.email}` }) : null)],
    ], (i) => i.id, 'No invitation.'));
  }

  view.append(members);
  await loadMembers();
  if (!context.can('GET', '/v1/invitations')) return;
  const created = h('div', { 'aria-live': 'polite', id: 'invited' });
  const email = input({ type: 'email', name: 'email', autocomplete: 'off' });
  const role = select(roles, 'viewer', { name: 'role' });
  view.append(h('h2', {}, 'Invitations'), invitations);
  if (context.can('POST', '/v1/invitations')) {
    view.append(form('Invite someone', [
      h('div', { class: 'grid' }, field('Email', email, { pointer: '/email' }), field('Role', role, { pointer: '/role' })),
    ], 'Invite', async (element) => {
      const { data } = await call('POST', '/v1/invitations', { body: { email: email.value.trim(), role: role.value } });
      element.reset();
      const link = h('p', { class: 'secret', id: 'invitation-link' }, data.link);
      created.replaceChildren(notice('ok', h('p', {}, `The invitation of ${data.invitation?.email || ''}, shown this once: send this link `
        + 'to the person (it is also mailed when the server sends mail).'), link, h('div', { class: 'actions' }, copyButton(() => data.link, 'Copy link'))));
      await loadInvitations();
    }), created);
  }
  await loadInvitations();
}
