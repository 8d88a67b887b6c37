// A domain's association health (GET …/health, "Check now" POSTs …/checks) and the versions of its served files
// with a choice of two to compare (docs/HEALTH.md). A server without the checks (404 for the route) is said so.
import { h, notice, errorNotice, formatTime, pretty, head } from '../dom.js';
import { call, pagedTable, enc } from '../api.js';
import { movedView } from './moved.js';

const names = { aasa: 'Origin: apple-app-site-association', assetlinks: 'Origin: assetlinks.json', apple_cdn: "Apple's CDN (what iOS gets)" };
const tones = { current: 'ok', stale: 'warn', unknown: 'warn' };
const problems = { redirect: (d) => `redirects to ${d.location}`, status: (d) => `answers ${d.status}`, notJSON: () => 'not JSON',
  contentType: (d) => `served as ${d.contentType || 'no type'}`, tooLarge: (d) => `${d.bytes ?? 'over'} bytes, Apple reads 128 KB` };

const causes = { no_record: 'No DNS record.', no_resolver: 'This server cannot resolve names.', undetermined: 'No DNS answer.' };

/** What a check (or one origin file) saw, in words: why it could not run, what is wrong, or the version it holds. */
function saw(d, state) {
  if (d.problems?.length) return d.problems.map((p) => (problems[p] || (() => p))(d)).join('; ');
  if (d.reason) {
    const line = `${d.reason.kind}: ${d.reason.message}`;
    return d.reason.nextStep ? [line, h('p', { class: 'next-step', 'data-cause': d.reason.cause }, h('b', {}, causes[d.reason.cause] || 'Next step'), ' ', d.reason.nextStep)] : line;
  }
  if (d.listed === false) return `Google does not list ${d.packageName}`;
  if (d.missingFingerprints?.length) return `Google lacks the fingerprints ${d.missingFingerprints.join(', ')}`;
  if (state === 'missing') return `no copy (${d.status})`;
  const rules = d.rulesMatch === false ? 'Its dynamic rules are not the ones served. ' : '';
  if (state === 'stale') return `${rules}Replaced by version ${d.replacedBy} on ${formatTime(d.staleSince)}.`;
  return state === 'unknown' ? `${rules}Bytes of no version linkd kept (${d.etag || 'no ETag'}).` : 'What linkd serves now.';
}

function checkRow(label, c, d, state, appsByID) {
  return h('tr', { 'data-check': c.check, 'data-file': d.file, 'data-app': c.app, 'data-state': state },
    h('th', { scope: 'row' }, label),
    h('td', {}, h('span', { class: `badge ${tones[state] || 'error'}` }, state), ` since ${formatTime(state === 'stale' && d.staleSince || c.since)}`),
    h('td', {}, d.version ? `version ${d.version}` : '—'),
    h('td', { class: 'check-reason' }, saw(d, state),
      d.moved ? movedView(d.moved, d.corpus, appsByID, { verb: 'open otherwise on iOS until it refreshes', total: d.movedCount }) : null,
      h('details', {}, h('summary', {}, 'detail'), h('pre', {}, pretty(d)))),
    h('td', { class: 'muted' }, formatTime(c.checkedAt)));
}

/** One row a check, the origin's two files on a row each (their state from their own problems, reason or match). */
const rows = (c, appsByID) => (c.check === 'origin'
  ? ['aasa', 'assetlinks'].map((file) => {
    const d = { ...c.detail[file], file };
    const state = d.problems?.length ? 'misconfigured' : d.reason ? 'failing' : d.match || c.state;
    return checkRow(names[file], c, d, state, appsByID);
  })
  : checkRow(c.check === 'google' ? `Google for ${appsByID.get(c.app)?.name || c.app}` : names[c.check] || c.check, c, c.detail, c.state, appsByID));

/** The Health panel: each check's state, since when, the version the remote holds and the reason. */
export function healthPanel(host, context, appsByID) {
  const body = h('div', { id: 'health', 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Loading…'));
  const button = h('button', { type: 'button', class: 'secondary', id: 'check-now', hidden: !context.can('POST', '/v1/domains/{host}/checks') }, 'Check now');
  const draw = (data) => body.replaceChildren(
    // A domain no check has seen yet is neither healthy nor not.
    h('p', {}, data.checks.length
      ? h('span', { class: `badge ${data.healthy ? 'ok' : 'error'}`, id: 'health-overall' }, data.healthy ? 'healthy' : 'not healthy')
      : h('span', { class: 'badge warn', id: 'health-overall' }, 'not checked yet'),
      h('span', { class: 'muted' }, data.nextCheckAt ? ` Next background check ${formatTime(data.nextCheckAt)}.` : ' No background check.')),
    data.checks.length
      ? h('div', { class: 'table-wrap' }, h('table', { class: 'stack', 'aria-label': 'Health checks' },
        head('Check', 'State', 'Remote holds', 'What it saw', 'Checked'),
        h('tbody', {}, data.checks.map((c) => rows(c, appsByID)))))
      : h('p', { class: 'muted', id: 'health-none' }, 'No check has run yet: Check now, or wait for the background check.'));
  const failed = (error) => {
    if (error.status === 404 && /\/health' does not exist/.test(error.problem?.detail || '')) {
      button.hidden = true;
      body.replaceChildren(notice('warn', h('span', { id: 'health-unavailable' }, 'Health checks are not available on this server.')));
    } else body.replaceChildren(errorNotice(error));
  };
  button.addEventListener('click', async () => {
    button.disabled = true;
    const note = h('p', { class: 'muted' }, 'Checking Apple, Google and the origin…');
    body.prepend(note);
    try { draw((await call('POST', `/v1/domains/${enc(host)}/checks`)).data); } catch (error) { note.replaceWith(errorNotice(error)); }
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
  const compare = h('button', { type: 'button', class: 'secondary', id: 'compare-versions', disabled: true }, 'Compare the two ticked');
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
  const panel = h('section', { 'aria-labelledby': 'versions-title' },
    h('div', { class: 'actions' }, h('h2', { id: 'versions-title' }, 'Versions of the served files'), compare),
    h('p', { class: 'muted' }, 'Every change of the files, oldest first. Tick two to see what changed and which URLs moved.'), table);
  panel.ready = table.ready;
  return panel;
}
