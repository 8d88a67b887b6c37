// The rules editor: a domain's ordered rules, a live preview of the association files they would publish with
// the lint findings mapped to the rule fields, a diff against the published file, and a save with If-Match.
import { h, field, input, checkbox, select, pretty, notice, errorNotice, clearProblem, showProblem, parseLines, formatLines } from '../dom.js';
import { call, get, all, enc } from '../api.js';
import { lineDiff } from '../diff.js';

export async function render(view, context) {
  const host = context.params[0];
  if (!host) return chooseDomain(view);
  const [apps, listed, aasa, assetlinks] = await Promise.all([
    all('/v1/apps?limit=200'), call('GET', `/v1/domains/${enc(host)}/rules`),
    get(`/v1/domains/${enc(host)}/aasa`), get(`/v1/domains/${enc(host)}/assetlinks`)]);
  const destinations = {};
  await Promise.all(apps.map(async (a) => { destinations[a.id] = await all(`/v1/apps/${a.id}/destinations?limit=200`); }));
  const state = { rules: listed.data.items.map(editable), etag: listed.etag, published: { aasa, assetlinks }, legacy: false };
  try { state.legacy = !!(await get(`/v1/domains/${enc(host)}`)).legacyPaths; } catch { /* the default */ }

  const status = h('div', { class: 'save-status', 'aria-live': 'polite' });
  const general = h('p', { class: 'form-error', role: 'alert' });
  const list = h('ol', { class: 'rules', 'aria-label': 'Rules, first match wins' });
  const preview = h('div', { class: 'preview', 'aria-live': 'polite' });
  const editor = h('div', { class: 'editor' }, general, list);
  const readOnly = !context.canWrite;
  const add = h('button', { type: 'button', class: 'secondary', id: 'add-rule', hidden: readOnly }, 'Add rule');
  const save = h('button', { type: 'button', id: 'save-rules', hidden: readOnly }, 'Save rules');
  view.append(h('h1', {}, `Rules of ${host}`),
    h('p', { class: 'actions' }, h('a', { href: `#/domains/${enc(host)}` }, '← Domain settings'),
      h('span', { class: 'muted', id: 'rules-version' }, `version ${state.etag || ''}`)),
    h('p', { class: 'muted' }, 'The first rule that matches a URL decides. A path with {captures} is a template (/widget/{id}, /docs/{rest*}); without braces it is an AASA pattern (/help/*).'),
    h('div', { class: 'split' }, h('section', { 'aria-label': 'Rules' }, editor, h('div', { class: 'actions' }, add, save), status),
      h('section', { 'aria-label': 'Preview', class: 'preview-column' }, h('h2', {}, 'Preview'), preview)));

  let timer = 0;
  let asked = 0;
  const changed = () => { clearTimeout(timer); timer = setTimeout(runPreview, 300); };

  function draw(focusIndex) {
    list.replaceChildren(...state.rules.map((rule, index) => ruleCard(rule, index)));
    if (focusIndex !== undefined) list.children[focusIndex]?.querySelector('input, select, button')?.focus();
    changed();
  }

  function ruleCard(rule, index) {
    const base = `/rules/${index}`;
    const update = () => { Object.assign(rule, read()); changed(); };
    const appBoxes = apps.map((a) => checkbox(rule.apps.includes(a.id), { value: a.id, disabled: readOnly }));
    const appsSet = h('fieldset', { 'data-pointer': `${base}/apps`, id: `rule-${index}-apps` }, h('legend', {}, 'Apps'),
      h('div', { class: 'grid' }, appBoxes.map((box, i) => field(`${apps[i].name} (${apps[i].platform})`, box))),
      h('p', { class: 'field-error', id: `rule-${index}-apps-error` }));
    const path = input({ value: rule.path ?? '', placeholder: '/widget/{id}', autocomplete: 'off', disabled: readOnly, class: 'rule-path' });
    const queryMode = select([['none', 'Any query'], ['pattern', 'Pattern'], ['items', 'Query items']],
      rule.query === undefined ? 'none' : typeof rule.query === 'string' ? 'pattern' : 'items', { disabled: readOnly });
    const queryText = h('textarea', { rows: 2, disabled: readOnly, placeholder: 'ref = {ref}',
      value: typeof rule.query === 'string' ? rule.query : formatLines(rule.query) });
    const fragment = input({ value: rule.fragment ?? '', disabled: readOnly });
    const exclude = checkbox(rule.exclude, { disabled: readOnly });
    const caseSensitive = select([['', 'domain default'], ['true', 'true'], ['false', 'false']], rule.caseSensitive === undefined ? '' : String(rule.caseSensitive), { disabled: readOnly });
    const percentEncoded = select([['', 'domain default'], ['true', 'true'], ['false', 'false']], rule.percentEncoded === undefined ? '' : String(rule.percentEncoded), { disabled: readOnly });
    const comment = input({ value: rule.comment ?? '', disabled: readOnly });
    const types = [...new Set(rule.apps.flatMap((id) => (destinations[id] || []).map((d) => d.name)))];
    const current = rule.destination?.type;
    if (current && !types.includes(current)) types.push(current);
    const destination = select([['', 'none'], ...types.map((t) => [t, t])], current || '', { disabled: readOnly, class: 'rule-destination' });
    const bindings = h('textarea', { rows: 2, disabled: readOnly, placeholder: 'id = {id}', value: formatLines(rule.destination?.params, (v) => String(v)) });
    const lint = h('div', { class: 'rule-lint' });
    const read = () => {
      const mode = queryMode.value;
      const next = {
        apps: appBoxes.filter((b) => b.checked).map((b) => b.value),
        path: path.value || undefined,
        query: mode === 'none' ? undefined : mode === 'pattern' ? queryText.value : parseLines(queryText.value),
        fragment: fragment.value || undefined,
        exclude: exclude.checked || undefined,
        caseSensitive: caseSensitive.value === '' ? undefined : caseSensitive.value === 'true',
        percentEncoded: percentEncoded.value === '' ? undefined : percentEncoded.value === 'true',
        comment: comment.value || undefined,
        destination: destination.value ? { type: destination.value, params: bindingValues(bindings.value) } : undefined,
      };
      if (next.destination && !Object.keys(next.destination.params).length) delete next.destination.params;
      return next;
    };
    for (const element of [path, queryMode, queryText, fragment, exclude, caseSensitive, percentEncoded, comment, destination, bindings, ...appBoxes]) {
      element.addEventListener('input', update);
      element.addEventListener('change', update);
    }
    for (const box of appBoxes) box.addEventListener('change', () => { const at = index; draw(); list.children[at]?.querySelector(`input[value="${box.value}"]`)?.focus(); });
    const move = (delta, label) => {
      const button = h('button', { type: 'button', class: 'secondary', hidden: readOnly, disabled: index + delta < 0 || index + delta >= state.rules.length,
        'aria-label': `${label} rule ${index + 1}` }, label);
      button.addEventListener('click', () => {
        const [moved] = state.rules.splice(index, 1);
        state.rules.splice(index + delta, 0, moved);
        draw(index + delta);
      });
      return button;
    };
    const remove = h('button', { type: 'button', class: 'danger', hidden: readOnly, 'aria-label': `Delete rule ${index + 1}` }, 'Delete');
    remove.addEventListener('click', () => { state.rules.splice(index, 1); draw(Math.max(0, index - 1)); });
    const highlight = context.query.get('rule') === rule.id;
    const card = h('li', { class: highlight ? 'rule highlight' : 'rule', 'data-index': index, 'data-rule-id': rule.id || '' },
      h('header', {}, h('h3', {}, `Rule ${index + 1}`, rule.id ? h('span', { class: 'muted mono' }, ` ${rule.id.slice(0, 8)}`) : ' (new)'),
        h('div', { class: 'actions' }, move(-1, 'Move up'), move(1, 'Move down'), remove)),
      lint, appsSet,
      h('div', { class: 'grid' },
        field('Path', path, { pointer: `${base}/path` }),
        field('Fragment', fragment, { pointer: `${base}/fragment` }),
        field('Query', queryMode),
        field('Query pattern or items (name = pattern)', queryText, { pointer: `${base}/query` })),
      h('div', { class: 'grid' },
        field('Exclude (matching URLs open no app)', exclude, { pointer: `${base}/exclude` }),
        field('caseSensitive', caseSensitive, { pointer: `${base}/caseSensitive` }),
        field('percentEncoded', percentEncoded, { pointer: `${base}/percentEncoded` }),
        field('Comment', comment, { pointer: `${base}/comment` })),
      h('div', { class: 'grid' },
        field('Destination', destination, { pointer: `${base}/destination` }),
        field('Parameter bindings (name = {capture} or a constant)', bindings, { pointer: `${base}/destination/params` })));
    if (highlight) setTimeout(() => card.scrollIntoView({ block: 'center' }), 0);
    return card;
  }

  async function runPreview() {
    const mine = ++asked;
    clearProblem(editor);
    for (const box of list.querySelectorAll('.rule-lint')) box.replaceChildren();
    let answer;
    try {
      answer = await call('POST', `/v1/domains/${enc(host)}/preview`, { body: { rules: state.rules.map(wire) } });
    } catch (error) {
      if (mine !== asked) return;
      showProblem(editor, error);
      preview.replaceChildren(notice('error', 'The rules cannot be saved as they are: see the fields marked.'));
      save.disabled = true;
      return;
    }
    if (mine !== asked) return;
    save.disabled = false;
    const result = answer.data;
    const owners = componentOwners(state.rules, apps, state.legacy);
    const findings = result.lint.map((finding) => {
      const owner = ownerOf(finding.pointer, owners);
      if (owner) {
        const card = list.children[owner.index];
        const box = card?.querySelector('.rule-lint');
        box?.append(h('p', { class: `lint ${finding.severity}`, role: 'note' }, `${finding.severity}: ${finding.message}`));
        const target = card?.querySelector(`[data-pointer="/rules/${owner.index}/${owner.field}"]`);
        if (target) target.setAttribute('aria-invalid', 'true');
      }
      return h('li', { class: `lint ${finding.severity}` }, h('b', {}, finding.code), ' ', finding.message,
        owner ? [' (', h('a', { href: '#', 'data-rule-index': owner.index, onclick: (e) => { e.preventDefault(); list.children[owner.index]?.querySelector('input')?.focus(); } }, `rule ${owner.index + 1}`), ')'] : ` at ${finding.pointer}`);
    });
    const limit = 128 * 1024;
    preview.replaceChildren(
      h('p', {}, h('span', { class: result.size > limit ? 'badge error' : 'badge ok', id: 'preview-size' }, `${result.size.toLocaleString()} bytes`),
        ` of Apple's ${limit.toLocaleString()}-byte limit`),
      h('h3', {}, 'Lint'),
      findings.length ? h('ul', { class: 'lint-list', id: 'lint-findings' }, findings) : h('p', { class: 'muted', id: 'lint-findings' }, 'No findings.'),
      h('h3', {}, 'Changes against the published apple-app-site-association'), diffView(state.published.aasa, result.aasa, 'aasa-diff'),
      h('h3', {}, 'Changes against the published assetlinks.json'), diffView(state.published.assetlinks, result.assetlinks, 'assetlinks-diff'),
      h('details', {}, h('summary', {}, 'apple-app-site-association that would be published'), h('pre', { id: 'preview-aasa' }, pretty(result.aasa))),
      h('details', {}, h('summary', {}, 'assetlinks.json that would be published'), h('pre', { id: 'preview-assetlinks' }, pretty(result.assetlinks))));
  }

  async function saveRules() {
    clearProblem(editor);
    status.replaceChildren(h('span', { class: 'muted' }, 'Saving…'));
    save.disabled = true;
    try {
      const answer = await call('PUT', `/v1/domains/${enc(host)}/rules`, { body: { rules: state.rules.map(wire) }, ifMatch: state.etag });
      state.etag = answer.etag;
      state.rules = answer.data.items.map(editable);
      state.published = { aasa: await get(`/v1/domains/${enc(host)}/aasa`), assetlinks: await get(`/v1/domains/${enc(host)}/assetlinks`) };
      view.querySelector('#rules-version').textContent = `version ${state.etag}`;
      status.replaceChildren(notice('ok', `Saved as version ${state.etag}. The served apple-app-site-association now holds these rules.`));
      draw();
    } catch (error) {
      if (error.status === 412) return conflict();
      showProblem(editor, error);
      status.replaceChildren(errorNotice(error));
    } finally {
      save.disabled = false;
    }
  }

  /** 412: someone changed the rules since they were loaded. Show their version; keep the draft until told. */
  async function conflict() {
    const latest = await call('GET', `/v1/domains/${enc(host)}/rules`);
    const theirs = latest.data.items;
    const load = h('button', { type: 'button', id: 'load-latest' }, 'Discard my edits and load the new version');
    const overwrite = h('button', { type: 'button', class: 'danger', id: 'keep-mine' }, 'Keep my edits (save again to replace theirs)');
    const box = notice('error', h('p', { id: 'conflict-message' },
      `The rules changed while you were editing: they are now at version ${latest.etag}, not ${state.etag}. Nothing was saved.`),
      h('p', {}, 'The new version:'),
      h('ol', { class: 'conflict-rules' }, theirs.map((r) => h('li', {}, h('code', {}, r.path || '(no path)'), r.destination ? ` → ${r.destination.type}` : '', r.exclude ? ' (exclude)' : ''))),
      h('div', { class: 'actions' }, load, overwrite));
    status.replaceChildren(box);
    load.addEventListener('click', async () => {
      state.rules = theirs.map(editable);
      state.etag = latest.etag;
      state.published = { aasa: await get(`/v1/domains/${enc(host)}/aasa`), assetlinks: await get(`/v1/domains/${enc(host)}/assetlinks`) };
      view.querySelector('#rules-version').textContent = `version ${state.etag}`;
      status.replaceChildren(notice('ok', `Loaded version ${state.etag}.`));
      draw();
    });
    overwrite.addEventListener('click', () => {
      state.etag = latest.etag;
      status.replaceChildren(notice('warn', `Your edits are kept; saving now replaces version ${latest.etag}.`));
    });
    load.focus();
  }

  add.addEventListener('click', () => {
    state.rules.push({ apps: apps.length ? [apps[0].id] : [], path: '' });
    draw(state.rules.length - 1);
  });
  save.addEventListener('click', saveRules);
  draw();
}

async function chooseDomain(view) {
  const domains = await all('/v1/domains?limit=200');
  view.append(h('h1', {}, 'Rules'), domains.length
    ? h('ul', {}, domains.map((d) => h('li', {}, h('a', { href: `#/rules/${enc(d.hostname)}` }, d.hostname))))
    : h('p', { class: 'muted' }, 'Register a domain first.'));
}

/** A rule as the editor keeps it: the members a client writes, its id kept for its identity and analytics. */
function editable(rule) {
  const { position, createdAt, updatedAt, ...rest } = rule;
  return rest;
}

/** A rule as sent: absent members left out. */
function wire(rule) {
  return JSON.parse(JSON.stringify(rule));
}

/** `id = {id}` lines → binding values: `{capture}` and text as strings, numbers and booleans as such. */
function bindingValues(text) {
  return parseLines(text, (value) => {
    if (value === 'true' || value === 'false') return value === 'true';
    if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
    return value;
  });
}

/**
 * Which rule wrote each AASA component: as linkd writes the file (docs/DESIGN.md), consecutive rules for the same
 * iOS apps share one `details` entry; with legacy paths each app of a run gets its own entry. `[detail][component]` → index.
 */
function componentOwners(rules, apps, legacy) {
  const ios = new Map(apps.filter((a) => a.platform === 'ios').map((a) => [a.id, a.appId]));
  const runs = [];
  rules.forEach((rule, index) => {
    const ids = rule.apps.filter((id) => ios.has(id)).map((id) => ios.get(id)).join(' ');
    if (!ids) return;
    if (runs.length && runs[runs.length - 1].ids === ids) runs[runs.length - 1].rules.push(index);
    else runs.push({ ids, rules: [index] });
  });
  return legacy ? runs.flatMap((run) => run.ids.split(' ').map(() => run.rules)) : runs.map((run) => run.rules);
}

/** `/applinks/details/0/components/1/~1` → `{index, field: 'path'}`. */
function ownerOf(pointer, owners) {
  const match = /^\/applinks\/details\/(\d+)\/components\/(\d+)(?:\/([^/]*))?/.exec(pointer || '');
  if (!match) return null;
  const index = owners[Number(match[1])]?.[Number(match[2])];
  if (index === undefined) return null;
  const key = (match[3] || '').replace(/~1/g, '/').replace(/~0/g, '~');
  const field = { '/': 'path', '?': 'query', '#': 'fragment', exclude: 'exclude', caseSensitive: 'caseSensitive', percentEncoded: 'percentEncoded' }[key] || 'path';
  return { index, field };
}

function diffView(before, after, id) {
  const lines = lineDiff(pretty(before).split('\n'), pretty(after).split('\n'));
  if (lines.every((l) => l.kind === 'same')) return h('p', { class: 'muted', id }, 'No change: this is the file being served.');
  return h('pre', { class: 'diff', id, 'aria-label': 'Lines starting with + are added, - removed' },
    lines.map((l) => h('span', { class: l.kind }, `${l.kind === 'add' ? '+ ' : l.kind === 'del' ? '- ' : '  '}${l.text}`)));
}
