// The signed-in person's sessions: where and when each began and was last seen, signing one out, and "Sign out
// everywhere" (every session of the person, this one included). Sessions belong to people: a key has none.
import { h, formatTime, notice } from '../dom.js';
import { call, enc } from '../api.js';
import { items, table, confirmed } from './people.js';

export async function render(view, context) {
  view.append(h('h1', {}, 'Your sessions'));
  if (context.via !== 'session') {
    view.append(notice('warn', 'Sessions belong to people signed in with their email or SSO; this tab uses an API key.'));
    return;
  }
  const person = context.whoami.person;
  view.append(h('p', {}, 'Signed in as ', h('b', {}, person.name ? `${person.name} <${person.email}>` : person.email),
    '. Each browser or device you signed in with is a session; signing one out ends it at once.'));
  const list = h('div', { id: 'sessions' });
  async function load() {
    const rows = await items('/v1/sessions');
    list.replaceChildren(table('Sessions', rows, [
      ['Signed in', (s) => [formatTime(s.createdAt), s.via ? ` (${s.via})` : '']],
      ['Last seen', (s) => formatTime(s.lastSeenAt)],
      ['Expires', (s) => formatTime(s.expiresAt)],
      ['From', (s) => [s.address || '', s.userAgent ? h('div', { class: 'muted' }, s.userAgent) : null]],
      ['', (s) => (s.current ? h('span', { class: 'badge ok' }, 'this session')
        : confirmed('Sign out', 'Sign this session out?', async () => { await call('DELETE', `/v1/sessions/${enc(s.id)}`); await load(); },
          { class: 'secondary', 'aria-label': `Sign out the session from ${s.address || 'elsewhere'}` }))],
    ], (s) => s.id, 'No session.'));
  }
  const everywhere = confirmed('Sign out everywhere', 'Sign out every session, this one included?', async () => {
    await call('DELETE', '/v1/sessions');
    context.signedOut('You signed out everywhere.');
  }, { id: 'sign-out-everywhere' });
  view.append(list, h('div', { class: 'actions' }, everywhere));
  await load();
}
