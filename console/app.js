// The console's shell: the header with workspace, role and sign-out, the hash router (one module per view), and the
// way in: a session cookie (GET /v1/whoami answers for it), else the sign-in page (its own view).
import { h, replace, select, errorNotice, BIDI } from './dom.js';
import { session, get, call, setUnauthorizedHandler } from './api.js';
import { permissions } from './roles.js';

const views = {
  overview: () => import('./views/overview.js'),
  apps: () => import('./views/apps.js'),
  app: () => import('./views/app.js'),
  teams: () => import('./views/teams.js'),
  domains: () => import('./views/domains.js'),
  domain: () => import('./views/domain.js'),
  'version-diff': () => import('./views/version-diff.js'),
  rules: () => import('./views/rules.js'),
  links: () => import('./views/links.js'),
  link: () => import('./views/link.js'),
  resolve: () => import('./views/resolve.js'),
  analytics: () => import('./views/analytics.js'),
  code: () => import('./views/code.js'),
  keys: () => import('./views/keys.js'),
  webhooks: () => import('./views/webhooks.js'),
  audit: () => import('./views/audit.js'),
  members: () => import('./views/members.js'),
  sessions: () => import('./views/sessions.js'),
  sso: () => import('./views/sso.js'),
  'sign-in': () => import('./views/sign-in.js'),
  password: () => import('./views/one-time.js'),
  invitation: () => import('./views/one-time.js'),
};
// The one-time links' pages open signed in or not.
const open = ['password', 'invitation'];

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const who = document.getElementById('who');
let context = null;
let generation = 0;
let shownPage = null;
let apiDocument = null;
let message = null;

/** Signs in with whoami (the key in the tab, else the session cookie) and shows the view the hash names. */
async function start() {
  apiDocument ??= get('/openapi.json').catch(() => null);
  const [whoami, doc] = await Promise.all([get('/v1/whoami'), apiDocument]);
  const may = permissions(doc, whoami);
  context = { whoami, via: whoami.via || 'key', ...may };
  message = null;
  const out = h('button', { type: 'button', class: 'secondary', id: 'sign-out' }, 'Sign out');
  out.addEventListener('click', signOut);
  const spaces = whoami.workspaces || [];
  const space = spaces.length > 1
    ? select(spaces.map((w) => [w.id, `${w.name} (${w.role})`]), whoami.workspace.id, { id: 'workspace-switch', 'aria-label': 'Workspace' })
    : h('b', { id: 'workspace-name' }, whoami.workspace.name);
  space.addEventListener('change', () => switchTo(space.value));
  replace(who, h('span', {}, 'Workspace ', space),
    context.via === 'key' ? h('span', { class: 'badge', id: 'key-scope', title: 'The key\'s scope' }, `${may.scope} key`) : null,
    whoami.role ? h('span', { class: 'badge', id: 'role', title: whoami.person ? 'Your role in this workspace' : 'The role the key acts as' }, whoami.role) : null,
    whoami.person ? h('a', { href: '#/sessions', class: 'muted', id: 'person' }, whoami.person.email)
      : whoami.key?.name ? h('span', { class: 'muted' }, whoami.key.name) : null, out);
  // Only what the caller may open is listed: `data-op` is the operation a view needs first.
  for (const link of nav.querySelectorAll('a[data-op]')) {
    const [method, path] = link.dataset.op.split(' ');
    link.parentElement.hidden = !may.can(method, path) || (link.dataset.via && link.dataset.via !== context.via);
  }
  nav.hidden = false;
  if (!location.hash || location.hash === '#' || location.hash === '#/') location.hash = '#/overview';
  else await route();
}

async function switchTo(workspace) {
  try {
    await call('PUT', '/v1/sessions/current/workspace', { body: { workspace } });
    await start();
  } catch (error) {
    main.prepend(errorNotice(error));
  }
}

async function signOut() {
  if (context?.via === 'session') await call('DELETE', '/v1/sessions/current').catch(() => {});
  signedOut();
}

/** Forgets who signed in and shows the sign-in page (with `why`). */
function signedOut(why = null) {
  session.clear();
  context = null;
  message = why;
  nav.hidden = true;
  who.replaceChildren();
  route();
}

/** `#/rules/links.example.com?rule=…` → view `rules`, params `['links.example.com']`, query. */
function parseHash() {
  const [path, query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  let name = parts[0] || 'overview';
  if (name === 'apps' && parts[1]) name = 'app';
  if (name === 'domains' && parts[1]) name = parts[2] === 'diff' ? 'version-diff' : 'domain';
  if (name === 'links' && parts[1]) name = 'link';
  if (!context && !open.includes(name)) name = 'sign-in';
  return { name, params: parts.slice(1), query: new URLSearchParams(query) };
}

async function route() {
  const { name, params, query } = parseHash();
  const mine = ++generation;
  const section = { app: 'apps', domain: 'domains', 'version-diff': 'domains', link: 'links' }[name] || name;
  for (const link of nav.querySelectorAll('a')) {
    if (link.getAttribute('href') === `#/${section}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const loader = views[name];
  const view = h('div', { class: 'view', 'data-view': name });
  replace(main, view);
  // Another page starts at its top, not at the scroll of the one left; a new query of the same page keeps it.
  const page = location.hash.split('?')[0];
  if (page !== shownPage) window.scrollTo(0, 0);
  shownPage = page;
  if (!loader) { replace(view, h('h1', {}, 'Not found'), h('p', {}, 'There is no such view.')); return; }
  try {
    const module = await loader();
    const doc = await (apiDocument ??= get('/openapi.json').catch(() => null));
    if (mine !== generation) return;
    await module.render(view, { ...context, params, query, navigate: (hash) => { location.hash = hash; }, start, signedOut, message, doc });
  } catch (error) {
    if (mine === generation) view.append(errorNotice(error));
  }
  if (mine !== generation) return;
  const heading = view.querySelector('h1');
  document.title = `${heading ? heading.textContent.replace(BIDI, '') : 'linkd'} · linkd console`;
  view.dataset.ready = 'true';
  performance.mark(`view-ready:${name}`);
  if (!view.contains(document.activeElement)) main.focus({ preventScroll: true });
}

// A stacked table (class `stack`) shows one card a row on a phone: each cell carries its column's title for the CSS.
new MutationObserver(() => {
  for (const cell of main.querySelectorAll('table.stack td:not([data-label])')) {
    const title = cell.closest('table').tHead?.rows[0]?.cells[cell.cellIndex];
    cell.dataset.label = title ? title.textContent : '';
  }
}).observe(main, { childList: true, subtree: true });

setUnauthorizedHandler(() => {
  if (context) signedOut(context.via === 'key' ? 'The key is unknown or was revoked; sign in again.' : 'The session ended; sign in again.');
});
window.addEventListener('hashchange', route);

// A key in the tab, else the session cookie; without either, the sign-in page (a refused key says why).
const hadKey = !!session.key;
start().catch((error) => signedOut(hadKey || error.status !== 401 ? error : null));
