// The rules editor: a domain's ordered rules as a compact list with one rule open for editing, reordered by drag
// or by keyboard; a live preview of the association files they would publish with the lint findings placed on the
// rules and their fields; a diff against the published files; and a save with If-Match, always in reach.
import { h, pretty, notice, errorNotice, clearProblem, showProblem } from '../dom.js';
import { call, get, all, enc } from '../api.js';
import { diffView } from '../diff.js';
import { ruleFields, summaryParts } from './rule-form.js';
import { movedView } from './moved.js';

export async function render(view, context) {
  const host = context.params[0];
  if (!host) return chooseDomain(view);
  const [apps, listed, aasa, assetlinks] = await Promise.all([
    all('/v1/apps?limit=200'), call('GET', `/v1/domains/${enc(host)}/rules`),
    get(`/v1/domains/${enc(host)}/aasa`), get(`/v1/domains/${enc(host)}/assetlinks`)]);
  const appsByID = new Map(apps.map((a) => [a.id, a]));
  const destinations = {};
  await Promise.all(apps.map(async (a) => { destinations[a.id] = await all(`/v1/apps/${a.id}/destinations?limit=200`); }));
  const state = { rules: [], etag: listed.etag, saved: '', published: { aasa, assetlinks }, legacy: false, open: null, placed: [], problem: null };
  const load = (items, etag) => {
    state.rules = items.map(editable);
    state.saved = canonical(state.rules);
    state.etag = etag;
  };
  load(listed.data.items, listed.etag);
  try { state.legacy = !!(await get(`/v1/domains/${enc(host)}`)).legacyPaths; } catch { /* the default */ }
  const wanted = context.query.get('rule');
  state.open = state.rules.find((r) => wanted && r.id === wanted) || null;

  const readOnly = !context.can('PUT', '/v1/domains/{host}/rules');
  const general = h('p', { class: 'form-error', role: 'alert' });
  const list = h('ol', { class: 'rules', 'aria-label': 'Rules, first match wins' });
  const preview = h('div', { class: 'preview', 'aria-live': 'polite' });
  const editor = h('div', { class: 'editor' }, general, list);
  const status = h('div', { class: 'save-status', 'aria-live': 'polite' });
  const announce = h('p', { class: 'visually-hidden', 'aria-live': 'assertive', id: 'rules-announce' });
  const add = h('button', { type: 'button', class: 'secondary', id: 'add-rule', hidden: readOnly }, 'Add rule');
  const save = h('button', { type: 'button', id: 'save-rules', hidden: readOnly }, 'Save rules');
  const dirty = h('span', { class: 'badge', id: 'rules-dirty', hidden: readOnly });
  const summary = h('span', { class: 'muted', id: 'preview-summary' }, 'Previewing…');
  view.append(h('h1', {}, `Rules of ${host}`),
    h('p', { class: 'actions' }, h('a', { href: `#/domains/${enc(host)}` }, '← Domain settings'),
      h('span', { class: 'muted', id: 'rules-version' }, `version ${state.etag || ''}`)),
    h('div', { class: 'rules-toolbar', role: 'group', 'aria-label': 'Save and add' }, add, save, dirty, summary),
    status, announce,
    h('div', { class: 'split' },
      h('section', { 'aria-label': 'Rules' },
        h('p', { class: 'muted hint', id: 'reorder-hint' }, 'The first rule that matches a URL decides. ',
          readOnly ? '' : 'Move a rule by dragging ⠿, or focus ⠿ and press ↑ ↓ (Home, End). ',
          'A path with {captures} is a template (/widget/{id}); without braces an AASA pattern (/help/*).'),
        editor),
      h('section', { 'aria-label': 'Preview', class: 'preview-column' }, h('h2', {}, 'Preview'), preview)));

  let timer = 0;
  let asked = 0;
  /** A rule changed: its summary, the unsaved-changes mark, and (debounced) the preview. */
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(runPreview, 300);
    markDirty();
    const index = state.rules.indexOf(state.open);
    const summaryButton = list.children[index]?.querySelector('.rule-summary');
    if (summaryButton) summaryButton.replaceChildren(...summaryParts(state.open, appsByID));
  };
  const markDirty = () => {
    const unsaved = canonical(state.rules) !== state.saved;
    dirty.textContent = unsaved ? 'Unsaved changes' : 'Saved';
    dirty.className = unsaved ? 'badge warn' : 'badge ok';
  };

  /** Draws the list; `edited` when the rules themselves changed (then the preview runs again). */
  function draw({ edited = false, focus } = {}) {
    list.replaceChildren(...state.rules.map((rule, index) => ruleItem(rule, index)));
    if (edited) {
      changed();
    } else {
      markDirty();
      place(state.placed);
      if (state.problem) showProblem(editor, state.problem, { focus: false });
    }
    if (focus) focus();
  }

  function ruleItem(rule, index) {
    const isOpen = rule === state.open;
    const id = `rule-${index}`;
    const toggle = h('button', { type: 'button', class: 'rule-summary', id: `${id}-summary`, 'data-pointer': `/rules/${index}`,
      'aria-expanded': String(isOpen), 'aria-controls': `${id}-body`, title: rule.comment || undefined },
    summaryParts(rule, appsByID));
    toggle.addEventListener('click', () => {
      state.open = isOpen ? null : rule;
      draw({ focus: () => list.children[index]?.querySelector(isOpen ? '.rule-summary' : '.rule-body input, .rule-body select')?.focus() });
    });
    const handle = readOnly ? null : h('button', { type: 'button', class: 'rule-handle', 'aria-describedby': 'reorder-hint',
      'aria-label': `Move rule ${index + 1} of ${state.rules.length}`, title: 'Drag, or press ↑ ↓, to move this rule' }, '⠿');
    const item = h('li', { class: `rule${isOpen ? ' open' : ''}${wanted && rule.id === wanted ? ' highlight' : ''}`,
      'data-index': index, 'data-rule-id': rule.id || '' },
    h('div', { class: 'rule-row' }, handle, h('span', { class: 'rule-position', 'aria-hidden': 'true' }, String(index + 1)), toggle,
      h('span', { class: 'badge rule-finding-count', hidden: true })),
    h('p', { class: 'field-error', id: `${id}-summary-error` }),
    h('div', { class: 'rule-lint' }),
    isOpen ? ruleBody(rule, index) : null);
    if (handle) reorderable(handle, item, index);
    if (isOpen && wanted && rule.id === wanted && !state.scrolled) {
      state.scrolled = true;
      setTimeout(() => item.scrollIntoView({ block: 'center' }), 0);
    }
    return item;
  }

  function ruleBody(rule, index) {
    const actions = [];
    if (!readOnly) {
      const move = (delta, label) => {
        const button = h('button', { type: 'button', class: 'secondary', disabled: index + delta < 0 || index + delta >= state.rules.length,
          'aria-label': `${label} rule ${index + 1}` }, label);
        button.addEventListener('click', () => moveRule(index, index + delta, () => list.children[index + delta]?.querySelector('.rule-body button:not(:disabled)')?.focus()));
        return button;
      };
      const remove = h('button', { type: 'button', class: 'danger', 'aria-label': `Delete rule ${index + 1}` }, 'Delete');
      remove.addEventListener('click', () => {
        state.rules.splice(index, 1);
        state.open = null;
        draw({ edited: true, focus: () => list.children[Math.max(0, index - 1)]?.querySelector('.rule-summary')?.focus() });
      });
      actions.push(move(-1, 'Move up'), move(1, 'Move down'), remove);
    }
    const close = h('button', { type: 'button', class: 'secondary rule-close' }, 'Close');
    close.addEventListener('click', () => { state.open = null; draw({ focus: () => list.children[index]?.querySelector('.rule-summary')?.focus() }); });
    return h('div', { class: 'rule-body', id: `rule-${index}-body` },
      ruleFields(rule, index, { apps, destinations, readOnly, changed }),
      h('div', { class: 'actions' }, actions, readOnly ? null : close));
  }

  function moveRule(from, to, focus) {
    if (to < 0 || to >= state.rules.length || to === from) { focus?.(); return; }
    const [moved] = state.rules.splice(from, 1);
    state.rules.splice(to, 0, moved);
    draw({ edited: true, focus });
    announce.textContent = `Rule moved to position ${to + 1} of ${state.rules.length}.`;
  }

  /** Reordering by keyboard (the handle's arrow keys, Home, End) and by dragging it (pointer events: mouse and touch). */
  function reorderable(handle, item, index) {
    const focusHandle = (at) => () => list.children[at]?.querySelector('.rule-handle')?.focus();
    handle.addEventListener('keydown', (event) => {
      const last = state.rules.length - 1;
      const to = { ArrowUp: index - 1, ArrowDown: index + 1, Home: 0, End: last }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      moveRule(index, Math.max(0, Math.min(last, to)), focusHandle(Math.max(0, Math.min(last, to))));
    });
    handle.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      const startY = event.pageY;
      const others = [...list.children].filter((other) => other !== item);
      let to = index;
      item.classList.add('dragging');
      // The row follows the pointer; a line shows where it goes: before the first other row whose middle is below.
      const follow = (move) => {
        // Near the window's top (under the toolbar) or bottom edge the page scrolls along.
        if (move.clientY < 90) scrollBy(0, -16);
        else if (move.clientY > innerHeight - 40) scrollBy(0, 16);
        item.style.transform = `translateY(${move.pageY - startY}px)`;
        to = others.filter((other) => { const box = other.getBoundingClientRect(); return box.top + box.height / 2 < move.clientY; }).length;
        for (const other of others) other.classList.remove('drop-before', 'drop-after');
        if (to < others.length) others[to].classList.add('drop-before');
        else others[others.length - 1]?.classList.add('drop-after');
      };
      const end = (commit) => {
        document.removeEventListener('pointermove', follow);
        document.removeEventListener('pointerup', drop);
        document.removeEventListener('pointercancel', cancel);
        for (const other of others) other.classList.remove('drop-before', 'drop-after');
        item.classList.remove('dragging');
        item.style.transform = '';
        if (commit) moveRule(index, to, focusHandle(to));
      };
      const drop = () => end(true);
      const cancel = () => end(false);
      document.addEventListener('pointermove', follow);
      document.addEventListener('pointerup', drop);
      document.addEventListener('pointercancel', cancel);
    });
  }

  /** Takes the last preview's findings and problems off the rules (without redrawing the field being typed in). */
  function unplace() {
    clearProblem(editor);
    for (const box of list.querySelectorAll('.rule-lint')) box.replaceChildren();
    for (const count of list.querySelectorAll('.rule-finding-count')) { count.hidden = true; count.textContent = ''; }
  }

  /** Puts the preview's findings on their rules (a line under the summary, a count) and fields (marked invalid). */
  function place(placed) {
    for (const { index, field, finding } of placed) {
      const item = list.children[index];
      if (!item) continue;
      item.querySelector('.rule-lint').append(h('p', { class: `lint ${finding.severity}`, role: 'note' }, `${finding.severity}: ${finding.message}`));
      const count = item.querySelector('.rule-finding-count');
      count.hidden = false;
      count.textContent = String(Number(count.textContent || 0) + 1);
      count.className = `badge ${finding.severity === 'error' ? 'error' : 'warn'} rule-finding-count`;
      count.title = `${count.textContent} lint finding(s)`;
      const target = item.querySelector(`[data-pointer="/rules/${index}/${field}"]`);
      if (target) target.setAttribute('aria-invalid', 'true');
    }
  }

  function openRule(index) {
    state.open = state.rules[index] || null;
    draw({ focus: () => list.children[index]?.querySelector('.rule-body input, .rule-body select')?.focus() });
    list.children[index]?.scrollIntoView({ block: 'nearest' });
  }

  async function runPreview() {
    const mine = ++asked;
    let answer;
    try {
      answer = await call('POST', `/v1/domains/${enc(host)}/preview`, { body: { rules: state.rules.map(wire) } });
    } catch (error) {
      if (mine !== asked) return;
      state.placed = [];
      state.problem = error;
      unplace();
      showProblem(editor, error, { focus: false });
      preview.replaceChildren(notice('error', 'The rules cannot be saved as they are: see the rules marked.'));
      summary.textContent = 'Cannot be saved as they are';
      save.disabled = true;
      return;
    }
    if (mine !== asked) return;
    state.problem = null;
    save.disabled = false;
    const result = answer.data;
    const owners = componentOwners(state.rules, apps, state.legacy);
    state.placed = [];
    const findings = result.lint.map((finding) => {
      const owner = ownerOf(finding.pointer, owners);
      if (owner) state.placed.push({ ...owner, finding });
      return h('li', { class: `lint ${finding.severity}` }, h('b', {}, finding.code), ' ', finding.message,
        owner ? [' (', h('a', { href: '#', 'data-rule-index': owner.index, onclick: (e) => { e.preventDefault(); openRule(owner.index); } }, `rule ${owner.index + 1}`), ')'] : ` at ${finding.pointer}`);
    });
    unplace();
    place(state.placed);
    const limit = 128 * 1024;
    const moved = result.moved || [];
    summary.textContent = `${result.size.toLocaleString()} bytes · ${findings.length ? `${findings.length} lint finding${findings.length > 1 ? 's' : ''}` : 'no lint finding'}` +
      (moved.length ? ` · ${moved.length} URL${moved.length > 1 ? 's' : ''} would change` : '');
    // What the draft moves against what the domain serves now (docs/HEALTH.md); once opened it stays open across previews.
    const movedBox = result.moved ? movedView(moved, result.corpus, appsByID, { id: 'moved-urls', verb: 'would change', open: state.movedOpen }) : null;
    movedBox?.addEventListener('toggle', () => { state.movedOpen = movedBox.open; });
    preview.replaceChildren(
      h('p', {}, h('span', { class: result.size > limit ? 'badge error' : 'badge ok', id: 'preview-size' }, `${result.size.toLocaleString()} bytes`),
        ` of Apple's ${limit.toLocaleString()}-byte limit`),
      movedBox,
      h('h3', {}, 'Lint'),
      findings.length ? h('ul', { class: 'lint-list', id: 'lint-findings' }, findings) : h('p', { class: 'muted', id: 'lint-findings' }, 'No findings.'),
      h('h3', {}, 'Changes against the published apple-app-site-association'), diffView(state.published.aasa, result.aasa, 'aasa-diff'),
      h('h3', {}, 'Changes against the published assetlinks.json'), diffView(state.published.assetlinks, result.assetlinks, 'assetlinks-diff'),
      h('details', {}, h('summary', {}, 'apple-app-site-association that would be published'), h('pre', { id: 'preview-aasa' }, pretty(result.aasa))),
      h('details', {}, h('summary', {}, 'assetlinks.json that would be published'), h('pre', { id: 'preview-assetlinks' }, pretty(result.assetlinks))));
  }

  const published = async () => ({ aasa: await get(`/v1/domains/${enc(host)}/aasa`), assetlinks: await get(`/v1/domains/${enc(host)}/assetlinks`) });
  const reopen = (id) => { state.open = (id && state.rules.find((r) => r.id === id)) || null; };

  async function saveRules() {
    clearProblem(editor);
    status.replaceChildren(h('span', { class: 'muted' }, 'Saving…'));
    save.disabled = true;
    const openIndex = state.rules.indexOf(state.open);
    try {
      const answer = await call('PUT', `/v1/domains/${enc(host)}/rules`, { body: { rules: state.rules.map(wire) }, ifMatch: state.etag });
      load(answer.data.items, answer.etag);
      state.open = state.rules[openIndex] || null;
      state.published = await published();
      view.querySelector('#rules-version').textContent = `version ${state.etag}`;
      status.replaceChildren(notice('ok', `Saved as version ${state.etag}. The served apple-app-site-association now holds these rules.`));
      draw({ edited: true });
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
    const loadLatest = h('button', { type: 'button', id: 'load-latest' }, 'Discard my edits and load the new version');
    const overwrite = h('button', { type: 'button', class: 'danger', id: 'keep-mine' }, 'Keep my edits (save again to replace theirs)');
    const box = notice('error', h('p', { id: 'conflict-message' },
      `The rules changed while you were editing: they are now at version ${latest.etag}, not ${state.etag}. Nothing was saved.`),
      h('p', {}, 'The new version:'),
      h('ol', { class: 'conflict-rules' }, theirs.map((r) => h('li', {}, h('code', {}, r.path || '(no path)'), r.destination ? ` → ${r.destination.type}` : '', r.exclude ? ' (exclude)' : ''))),
      h('div', { class: 'actions' }, loadLatest, overwrite));
    status.replaceChildren(box);
    loadLatest.addEventListener('click', async () => {
      const openID = state.open?.id;
      load(theirs, latest.etag);
      reopen(openID);
      state.published = await published();
      view.querySelector('#rules-version').textContent = `version ${state.etag}`;
      status.replaceChildren(notice('ok', `Loaded version ${state.etag}.`));
      draw({ edited: true });
    });
    overwrite.addEventListener('click', () => {
      state.etag = latest.etag;
      status.replaceChildren(notice('warn', `Your edits are kept; saving now replaces version ${latest.etag}.`));
    });
    box.scrollIntoView({ block: 'nearest' });
    loadLatest.focus();
  }

  add.addEventListener('click', () => {
    const rule = { apps: newRuleApps(state.rules, apps, host), path: '' };
    state.rules.push(rule);
    state.open = rule;
    const at = state.rules.length - 1;
    draw({ edited: true, focus: () => list.children[at]?.querySelector('.rule-path')?.focus() });
    list.children[at]?.scrollIntoView({ block: 'nearest' });
  });
  save.addEventListener('click', saveRules);
  draw({ edited: true });
}

/**
 * The apps a new rule starts with: every app of the domain's other rules (in the workspace's order); for a domain
 * without rules, the apps whose primary domain it is, or else every app.
 */
function newRuleApps(rules, apps, host) {
  const used = new Set(rules.flatMap((r) => r.apps));
  const ordered = [...apps.map((a) => a.id).filter((id) => used.has(id)), ...[...used].filter((id) => !apps.some((a) => a.id === id))];
  if (ordered.length) return ordered;
  const primary = apps.filter((a) => a.primaryDomain === host).map((a) => a.id);
  return primary.length ? primary : apps.map((a) => a.id);
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

/** The rules as comparable text (members in name order), to tell a draft from what was loaded. */
function canonical(rules) {
  const sorted = (value) => (Array.isArray(value) ? value.map(sorted)
    : value && typeof value === 'object' ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k])])) : value);
  return JSON.stringify(sorted(rules.map(wire)));
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
