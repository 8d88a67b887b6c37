// A domain's association health (GET …/health, "Check now" POSTs …/checks) and the versions of its served files
// with a choice of two to compare (docs/HEALTH.md). A server without the checks (404 for the route) is said so.
import { h, notice, errorNotice, formatTime, pretty } from '../dom.js';
import { call, pagedTable, enc } from '../api.js';
import { movedView } from './moved.js';

const names = { origin: 'Origin (https://host/.well-known/)', apple_cdn: "Apple's CDN (what iOS gets)", google: 'Google' };
const tones = { current: 'ok', stale: 'warn', unknown: 'warn' };

/** A reason as text: a string, or `{kind, message}` as the outbound client words a failure. */
const words = (r) => (r && typeof r === 'object' ? [r.kind, r.message || r.detail].filter(Boolean).join(': ') : r);

function checkRow(c, appsByID) {
  const d = c.detail && typeof c.detail === 'object' ? c.detail : {};
  const app = c.app && (appsByID.get(c.app)?.name || c.app);
  const version = d.version ?? d.n;
  return h('tr', { 'data-check': c.check, 'data-app': c.app, 'data-state': c.state },
    h('th', { scope: 'row' }, names[c.check] || c.check, app ? [' for ', h('b', {}, app)] : ''),
    h('td', {}, h('span', { class: `badge ${tones[c.state] || 'error'}` }, c.state), c.since ? ` since ${formatTime(c.since)}` : ''),
    h('td', {}, version ? `version ${version}` : '—'),
    h('td', { class: 'check-reason' }, words(d.reason) || words(d.error) || (c.healthy ? 'as served now' : ''),
      Array.isArray(d.moved) ? movedView(d.moved, d.corpus, appsByID, { verb: 'are decided the old way' }) : null,
      h('details', {}, h('summary', {}, 'what it saw'), h('pre', {}, pretty(d)))),
    h('td', { class: 'muted' }, formatTime(c.checkedAt)));
}

/** The Health panel: each check's state, since when, the version the remote holds and the reason. */
export function healthPanel(host, context, appsByID) {
  const body = h('div', { id: 'health', 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Loading…'));
  const button = h('button', { type: 'button', class: 'secondary', id: 'check-now', hidden: !context.canWrite }, 'Check now');
  const draw = (data) => {
    const checks = Array.isArray(data) ? data : data.checks || data.items || [];
    body.replaceChildren(checks.length
      ? h('div', { class: 'table-wrap' }, h('table', { 'aria-label': 'Health checks' },
        h('thead', {}, h('tr', {}, ['Check', 'State', 'Remote holds', 'Reason', 'Checked'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, checks.map((c) => checkRow(c, appsByID)))))
      : h('p', { class: 'muted', id: 'health-none' }, h('span', { class: 'badge warn' }, 'unknown'), ' Not checked yet.'));
  };
  const failed = (error) => {
    if (error.status === 404 && /\/(health|checks)' does not exist/.test(error.problem?.detail || '')) {
      button.hidden = true;
      body.replaceChildren(notice('warn', h('span', { id: 'health-unavailable' }, 'Health checks are not available on this server.')));
    } else body.replaceChildren(errorNotice(error));
  };
  button.addEventListener('click', async () => {
    button.disabled = true;
    body.prepend(h('p', { class: 'muted' }, 'Checking Apple, Google and the origin…'));
    try { draw((await call('POST', `/v1/domains/${enc(host)}/checks`)).data); } catch (error) { failed(error); }
    button.disabled = false;
  });
  const panel = h('section', { 'aria-labelledby': 'health-title' },
    h('div', { class: 'actions' }, h('h2', { id: 'health-title' }, 'Health'), button), body);
  panel.ready = call('GET', `/v1/domains/${enc(host)}/health`).then((r) => draw(r.data), failed);
  return panel;
}

/** The versions of the served files, oldest first and paged; tick two and Compare opens their diff. */
export function versionsPanel(host, context) {
  const base = `#/domains/${enc(host)}/diff/`;
  const compare = h('button', { type: 'button', id: 'compare-versions', disabled: true }, 'Compare the two ticked');
  const ticked = [];
  const tick = (v) => {
    const box = h('input', { type: 'checkbox', value: v.n, 'aria-label': `Compare version ${v.n}`, class: 'compare' });
    box.addEventListener('change', () => {
      if (box.checked) ticked.push(box);
      else ticked.splice(ticked.indexOf(box), 1);
      if (ticked.length > 2) ticked.shift().checked = false;
      compare.disabled = ticked.length !== 2;
    });
    return box;
  };
  compare.addEventListener('click', () => {
    const [a, b] = ticked.map((box) => Number(box.value)).sort((x, y) => x - y);
    context.navigate(`${base}${a}/${b}`);
  });
  const table = pagedTable(`/v1/domains/${enc(host)}/association/versions?limit=50`, [
    ['', tick],
    ['Version', (v) => [h('b', {}, String(v.n)), v.n > 1 ? [' ', h('a', { href: `${base}${v.n - 1}/${v.n}` }, `diff with ${v.n - 1}`)] : '']],
    ['Since', (v) => formatTime(v.createdAt)],
    ['Cause', (v) => (v.auditId != null ? h('a', { href: `#/audit?entry=${v.auditId}` }, `change #${v.auditId}`)
      : v.cause === 'found' ? 'found at load (files changed outside linkd)' : v.cause)],
    ['ETags', (v) => h('code', {}, `AASA ${v.aasaEtag.replace(/"/g, '').slice(0, 8)} · assetlinks ${v.assetlinksEtag.replace(/"/g, '').slice(0, 8)}`)],
  ], { empty: 'No version recorded yet.', label: 'Versions', row: (v) => ({ 'data-n': v.n }) });
  const panel = h('section', { 'aria-labelledby': 'versions-title' }, h('h2', { id: 'versions-title' }, 'Versions of the served files'),
    h('p', { class: 'muted' }, 'Every change of the served files, oldest first. Tick two versions to see what changed and which URLs moved.'),
    table, h('div', { class: 'actions' }, compare));
  panel.ready = table.ready;
  return panel;
}
