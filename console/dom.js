// Building the page: every server string goes in as text (a text node or a property), never as markup.

let serial = 0;

/** An element: `props` sets attributes (`class`, `for`, `aria-*`), properties for non-strings, `on*` listeners. */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  let value;
  for (const [name, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (name === 'value') value = v;
    else if (name === 'class') element.className = v;
    else if (name.startsWith('on') && typeof v === 'function') element.addEventListener(name.slice(2), v);
    else if (typeof v === 'boolean') element.toggleAttribute(name, v);
    else element.setAttribute(name, String(v));
  }
  append(element, children);
  if (value !== undefined) element.value = value;
  return element;
}

/** Bidi controls: names refuse them; one stored before may hold them. */
export const BIDI = /[\u202A-\u202E\u2066-\u2069]/g;

/** Appends children: nodes as they are, anything else as text (in a `<bdi>` when it holds a bidi control). */
export function append(element, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    const t = String(child);
    element.append(child instanceof Node ? child : t.search(BIDI) < 0 ? t : Object.assign(document.createElement('bdi'), { textContent: t }));
  }
  return element;
}

/** Replaces the children of `element`. */
export function replace(element, ...children) {
  element.replaceChildren();
  return append(element, children);
}

/**
 * A labelled form field around `control`. `pointer` is the JSON pointer of the body member it edits: a
 * problem's error with that pointer (or one below it) is shown under it.
 */
export function field(label, control, { pointer, hint } = {}) {
  const id = control.id || `f${++serial}`;
  control.id = id;
  if (pointer !== undefined) control.dataset.pointer = pointer;
  const error = h('p', { class: 'field-error', id: `${id}-error`, 'aria-live': 'polite' });
  const described = [hint ? `${id}-hint` : null, `${id}-error`].filter(Boolean).join(' ');
  control.setAttribute('aria-describedby', described);
  const isCheck = control.type === 'checkbox';
  const labelElement = h('label', { for: id }, label);
  return h('div', { class: isCheck ? 'field check-field' : 'field' },
    isCheck ? h('div', { class: 'check' }, control, labelElement) : [labelElement, control],
    hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null, error);
}

export const input = (props = {}) => h('input', { type: 'text', ...props });
export const checkbox = (checked, props = {}) => h('input', { type: 'checkbox', checked: !!checked, ...props });

/** A `<select>` of `[value, label]` pairs (or plain strings). */
export function select(options, selected, props = {}) {
  return h('select', { ...props, value: selected ?? '' },
    options.map((o) => (Array.isArray(o) ? h('option', { value: o[0] }, o[1]) : h('option', { value: o }, o))));
}

/** A form whose submit runs `onSubmit(form)` with its problems shown next to their fields. */
export function form(title, children, submitLabel, onSubmit, { extraActions = [] } = {}) {
  const status = h('p', { class: 'form-error', role: 'alert' });
  const button = h('button', { type: 'submit' }, submitLabel);
  const done = h('span', { class: 'form-done', role: 'status' });
  const element = h('form', { novalidate: true, 'aria-label': title },
    title ? h('h2', {}, title) : null, status, children, h('div', { class: 'actions' }, button, extraActions, done));
  /** Says that the submit worked (cleared by the next submit). */
  element.say = (text) => { done.textContent = text; };
  element.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearProblem(element);
    done.textContent = '';
    button.disabled = true;
    try {
      await onSubmit(element);
    } catch (error) {
      showProblem(element, error);
    } finally {
      button.disabled = false;
    }
  });
  return element;
}

/**
 * The members a form's person changed, for a `PATCH` that keeps everything else: `members` maps a body member to
 * `[controls, read]`; `body()` holds `read()` of each member whose controls no longer show what they showed when
 * `tracked` (or the last `reset()`) ran. A member the form does not show, or shows in a lossy form (a list split on
 * commas), is never sent unless its controls are edited.
 */
export function tracked(members) {
  const state = (controls) => controls.map((c) => (c.type === 'checkbox' ? String(c.checked) : c.value)).join('\u0000');
  let shown = {};
  const reset = () => { shown = Object.fromEntries(Object.entries(members).map(([name, [controls]]) => [name, state(controls)])); };
  reset();
  return {
    body() {
      const body = {};
      for (const [name, [controls, read]] of Object.entries(members)) if (state(controls) !== shown[name]) body[name] = read();
      return body;
    },
    reset,
  };
}

export function clearProblem(container) {
  for (const node of container.querySelectorAll('.field-error, .form-error')) node.textContent = '';
  for (const node of container.querySelectorAll('[aria-invalid]')) node.removeAttribute('aria-invalid');
}

/**
 * Shows an API error in `container`: each `errors[]` entry under the field whose `data-pointer` is its pointer
 * (or the nearest pointer above it: `/params/id/min` falls back to `/params/id`, then `/params`), the rest
 * (and the problem's `detail`, unless it repeats a field's error) in the container's `.form-error`. Focuses the first field in error unless `focus` is
 * false (a live preview must not take the focus from the field being typed in).
 */
export function showProblem(container, error, { focus = true } = {}) {
  const problem = error && error.problem ? error.problem : { title: String(error && error.message || error) };
  const general = container.querySelector('.form-error');
  const fields = [...container.querySelectorAll('[data-pointer]')];
  const unplaced = [];
  let first = null;
  for (const item of problem.errors || []) {
    const control = nearest(fields, item.pointer || '');
    if (!control) { unplaced.push(`${item.pointer || '(body)'}: ${item.detail}`); continue; }
    const box = document.getElementById(`${control.id}-error`);
    if (box) box.textContent = box.textContent ? `${box.textContent} ${item.detail}` : item.detail;
    control.setAttribute('aria-invalid', 'true');
    first = first || control;
  }
  // A problem of one field says its error as its detail: said under the field, it is not said again above.
  const detail = problem.detail || problem.title || 'The request failed.';
  const placed = first && (problem.errors || []).some((item) => item.detail === detail);
  const summary = [placed ? null : detail, ...unplaced].filter(Boolean).join(' ');
  if (general) general.textContent = summary;
  if (!focus) return;
  if (first) first.focus();
  else if (general) general.scrollIntoView({ block: 'nearest' });
}

function nearest(fields, pointer) {
  let path = pointer;
  for (;;) {
    const found = fields.find((f) => f.dataset.pointer === path);
    if (found) return found;
    if (!path) return null;
    path = path.slice(0, path.lastIndexOf('/'));
  }
}

/** An app's name, with its platform when another of `apps` has the same name ("Acme Shop (iOS)"). */
export function appName(app, apps) {
  const platform = app.platform === 'ios' ? 'iOS' : 'Android';
  return [...apps].some((a) => a !== app && a.id !== app.id && a.name === app.name) ? `${app.name} (${platform})` : app.name;
}

/** A table's header row of column titles. */
export const head = (...titles) => h('thead', {}, h('tr', {}, titles.map((t) => h('th', { scope: 'col' }, t))));

/** A term and its value in a `dl`. */
export const fact = (label, ...value) => h('div', {}, h('dt', { class: 'label' }, label), h('dd', {}, value));

/** A notice box (role status or alert). */
export const notice = (kind, ...children) => h('div', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, children);

/** The problem of an error as a notice. */
export const errorNotice = (error) => notice('error', (error.problem && (error.problem.detail || error.problem.title)) || String(error.message || error));

export function formatTime(text) {
  if (!text) return '';
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? String(text) : date.toLocaleString();
}

/** Pretty JSON of a value, as text. */
export const pretty = (value) => JSON.stringify(value, null, 2);

/** A button that copies `text()` to the clipboard and says so. */
export function copyButton(text, label = 'Copy') {
  const button = h('button', { type: 'button', class: 'secondary' }, label);
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text());
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Select the text to copy it';
    }
    setTimeout(() => { button.textContent = label; }, 2000);
  });
  return button;
}

/** Lines `name = value` → object; values through `parse` (default: as text). */
export function parseLines(text, parse = (v) => v) {
  const result = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (!line.trim()) continue;
    if (at < 0) { result[line.trim()] = parse(''); continue; }
    result[line.slice(0, at).trim()] = parse(line.slice(at + 1).trim());
  }
  return result;
}

export const formatLines = (object, format = (v) => v) =>
  Object.entries(object || {}).map(([k, v]) => `${k} = ${format(v)}`).join('\n');

/** A range of an analytics answer as every view says it: its first and last day, both included (its `to` is the exclusive
 * end, in the zone asked: 2026-12-08T00:00 ends on 2026-12-07). */
export function days(from, to) {
  let last = to.slice(0, 10);
  if (/T00:00:00/.test(to)) {
    const d = new Date(`${last}T12:00:00Z`);
    d.setUTCDate(d.getUTCDate() - 1);
    last = d.toISOString().slice(0, 10);
  }
  return `${from.slice(0, 10)} to ${last} (inclusive)`;
}
