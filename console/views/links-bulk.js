// The Links list's many-link tools: the export of what the list shows (linkd's CSV, every page of
// GET /v1/links/export with the list's filters and order), and the actions on the ticked links, each link through
// the API's own single paths (PATCH with If-Match, DELETE), so every rule of one link holds, with a result a link.
import { h, input, field, notice, errorNotice } from '../dom.js';
import { call, enc } from '../api.js';

/** Saves `parts` (text) as a file named `name` through a blob URL (the key cannot ride on a plain link). */
function save(parts, name, type) {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const anchor = h('a', { href: url, download: name, hidden: true });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Every page of `GET /v1/links/export?query` as one CSV file (the header row once). */
export async function exportLinks(query, say) {
  let path = `/v1/links/export?${query}`;
  const parts = [];
  for (let page = 1; path; page++) {
    say(`Exporting… page ${page}`);
    const { data, response } = await call('GET', path, { accept: 'text/csv', text: true });
    // The header row has no line break of its own: a later page's ends at the first.
    parts.push(parts.length ? data.slice(data.indexOf('\n') + 1) : data);
    const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('Link') || '');
    path = next ? next[1] : null;
  }
  save(parts, 'links.csv', 'text/csv');
  say('Saved as links.csv.');
}

const actions = {
  tag: { label: 'Add tag', needs: 'Tag', run: (link, value) => ({ tags: [...new Set([...(link.tags || []), value])] }) },
  untag: { label: 'Remove tag', needs: 'Tag', run: (link, value) => ({ tags: (link.tags || []).filter((t) => t !== value) }) },
  campaign: { label: 'Set campaign', needs: 'Campaign (utm_campaign)', run: (link, value) => ({ campaign: { ...(link.campaign || {}), campaign: value } }) },
  expire: { label: 'Expire now', run: () => ({ expiresAt: new Date().toISOString().slice(0, 19) + 'Z' }) },
  delete: { label: 'Delete' },
};

/**
 * The bar of actions on the ticked links (`selected()`: their ids and short links): each link is read (its ETag),
 * changed and written on its own; `done()` reloads the list. linkd has no archive: "Expire now" is the nearest
 * (taps go to the link's fallback, else the domain's web fallback), undone by clearing the expiry.
 */
export function bulkBar(selected, done) {
  const value = input({ id: 'bulk-value', autocomplete: 'off' });
  const valueField = field('Tag', value);
  const choice = h('select', { id: 'bulk-action' }, Object.entries(actions).map(([key, a]) => h('option', { value: key }, a.label)));
  const count = h('span', { id: 'bulk-count', class: 'muted' });
  const results = h('div', { id: 'bulk-results', 'aria-live': 'polite' });
  const run = h('button', { type: 'submit' }, 'Apply');
  const showValue = () => {
    const needs = actions[choice.value].needs;
    valueField.hidden = !needs;
    if (needs) valueField.querySelector('label').firstChild.textContent = needs;
  };
  choice.addEventListener('change', showValue);
  const bar = h('form', { class: 'filters bulk', id: 'bulk-bar', 'aria-label': 'Ticked links', hidden: true },
    count, field('Action', choice), valueField, run,
    h('p', { class: 'hint' }, 'linkd has no archive: Expire now sends taps to the link\'s fallback (else the domain\'s website); clear the expiry to undo.'));
  showValue();
  bar.addEventListener('submit', async (event) => {
    event.preventDefault();
    const links = selected();
    const action = actions[choice.value];
    const text = value.value.trim();
    if (action.needs && !text) { results.replaceChildren(notice('error', `${action.needs} is empty.`)); value.focus(); return; }
    if (choice.value === 'delete' && !confirm(`Delete ${links.length} links? Taps on them will find nothing.`)) return;
    run.disabled = true;
    const rows = [];
    for (const { id, shortLink } of links) {
      try {
        const { data: link, etag } = await call('GET', `/v1/links/${enc(id)}`);
        if (choice.value === 'delete') await call('DELETE', `/v1/links/${enc(id)}`, { ifMatch: etag });
        else await call('PATCH', `/v1/links/${enc(id)}`, { body: action.run(link, text), ifMatch: etag });
        rows.push([shortLink, 'ok', choice.value === 'delete' ? 'deleted' : 'changed']);
      } catch (error) {
        const problem = error.problem || {};
        const detail = (problem.errors || []).map((e) => `${e.pointer}: ${e.detail}`).join('; ') || problem.detail || problem.title || String(error.message || error);
        rows.push([shortLink, 'error', `${error.status || ''} ${detail}`.trim()]);
      }
    }
    run.disabled = false;
    const failed = rows.filter((r) => r[1] === 'error').length;
    results.replaceChildren(
      notice(failed ? 'warn' : 'ok', `${action.label}: ${rows.length - failed} of ${rows.length} links done${failed ? `, ${failed} refused` : ''}.`),
      h('div', { class: 'table-wrap' }, h('table', { class: 'stack', 'aria-label': 'Result per link' },
        h('thead', {}, h('tr', {}, ['Link', 'Result'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, rows.map(([link, status, text]) => h('tr', { 'data-status': status },
          h('td', {}, h('code', {}, link.replace(/^https:\/\//, ''))),
          h('td', {}, h('span', { class: `badge ${status === 'ok' ? 'ok' : 'error'}` }, status), ' ', text)))))));
    await done().catch((error) => results.append(errorNotice(error)));
  });
  return {
    element: h('section', {}, bar, results),
    /** Shows the bar with the count of ticked links, or hides it when none is. */
    update(n) { bar.hidden = n === 0; count.textContent = `${n} ticked`; },
  };
}
