// The console's shell: sign-in, the header with workspace and scope, and the hash router (one module per view).
import { h, replace, field, form, errorNotice, BIDI } from './dom.js';
import { session, get, setUnauthorizedHandler } from './api.js';

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
};

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const who = document.getElementById('who');
let context = null;
let generation = 0;
let shownPage = null;

function signIn(message) {
  nav.hidden = true;
  who.replaceChildren();
  const key = h('input', { type: 'password', autocomplete: 'off', spellcheck: 'false', required: true });
  const signInForm = form('Sign in', [
    h('p', {}, 'Paste an API key (', h('code', {}, 'linkd keys create --workspace NAME --scope admin'),
      '). It is kept in this tab only (sessionStorage) and sent as a Bearer header.'),
    field('API key', key, { pointer: '' }),
  ], 'Sign in', async () => {
    session.key = key.value.trim();
    try {
      await start();
    } catch (error) {
      session.clear();
      throw error;
    }
  });
  replace(main, h('h1', {}, 'linkd console'), message ? errorNotice(message) : null, signInForm);
  key.focus();
  document.title = 'Sign in · linkd console';
}

function signOut() {
  session.clear();
  context = null;
  signIn();
}

async function start() {
  const whoami = await get('/v1/whoami');
  const scope = whoami.key.scope;
  context = { whoami, scope, canWrite: scope !== 'read', isAdmin: scope === 'admin' };
  document.body.classList.toggle('read-only', !context.canWrite);
  const out = h('button', { type: 'button', class: 'secondary' }, 'Sign out');
  out.addEventListener('click', signOut);
  replace(who,
    h('span', {}, 'Workspace ', h('b', { id: 'workspace-name' }, whoami.workspace.name)),
    h('span', { class: 'badge', id: 'key-scope', title: 'The key\'s scope' }, `${scope} key`),
    whoami.key.name ? h('span', { class: 'muted' }, whoami.key.name) : null, out);
  nav.hidden = false;
  if (!location.hash || location.hash === '#' || location.hash === '#/') location.hash = '#/overview';
  else await route();
}

/** `#/rules/links.example.com?rule=…` → view `rules`, params `['links.example.com']`, query. */
function parseHash() {
  const [path, query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  let name = parts[0] || 'overview';
  if (name === 'apps' && parts[1]) name = 'app';
  if (name === 'domains' && parts[1]) name = parts[2] === 'diff' ? 'version-diff' : 'domain';
  if (name === 'links' && parts[1]) name = 'link';
  return { name, params: parts.slice(1), query: new URLSearchParams(query) };
}

async function route() {
  if (!context) return;
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
    if (mine !== generation) return;
    await module.render(view, { ...context, params, query, navigate: (hash) => { location.hash = hash; } });
  } catch (error) {
    if (mine === generation) view.append(errorNotice(error));
  }
  if (mine !== generation) return;
  const heading = view.querySelector('h1');
  document.title = `${heading ? heading.textContent.replace(BIDI, '') : 'linkd'} · linkd console`;
  view.dataset.ready = 'true';
  performance.mark(`view-ready:${name}`);
  main.focus({ preventScroll: true });
}

// A stacked table (class `stack`) shows one card a row on a phone: each cell carries its column's title for the CSS.
new MutationObserver(() => {
  for (const cell of main.querySelectorAll('table.stack td:not([data-label])')) {
    const title = cell.closest('table').tHead?.rows[0]?.cells[cell.cellIndex];
    cell.dataset.label = title ? title.textContent : '';
  }
}).observe(main, { childList: true, subtree: true });

setUnauthorizedHandler(() => { if (context) { session.clear(); context = null; signIn('The key is unknown or was revoked; sign in again.'); } });
window.addEventListener('hashchange', route);

if (session.key) {
  start().catch((error) => { session.clear(); signIn(error); });
} else {
  signIn();
}
