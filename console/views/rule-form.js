// One rule of the rules editor: its one-line summary (path and query, apps, destination or exclusion) and the
// fields of the rule open for editing. A field writes only its own member of the rule, so members the editor does
// not show (`click`) or shows in another form (query items, bindings) stay as loaded until their field is edited.
import { h, field, input, checkbox, select, parseLines, formatLines, appName } from '../dom.js';

/** `/widget/{id}?ref={ref}#top`: what the rule matches, as one line. */
export function matchText(rule) {
  let text = rule.path || '(any path)';
  if (typeof rule.query === 'string') text += `?${rule.query}`;
  else if (rule.query && typeof rule.query === 'object') text += `?${Object.entries(rule.query).map(([k, v]) => `${k}=${v}`).join('&')}`;
  if (rule.fragment) text += `#${rule.fragment}`;
  return text;
}

/** The summary's parts: what it matches, for which apps, and what it opens. */
export function summaryParts(rule, appsByID) {
  const names = rule.apps.map((id) => (appsByID.has(id) ? appName(appsByID.get(id), appsByID.values()) : id.slice(0, 8)));
  const target = rule.exclude
    ? h('span', { class: 'badge warn rule-target' }, 'exclude')
    : rule.destination
      ? h('span', { class: 'rule-target' }, '→ ', h('code', {}, rule.destination.type))
      : h('span', { class: 'muted rule-target' }, 'no destination');
  return [
    h('code', { class: 'rule-match' }, matchText(rule)),
    h('span', { class: 'rule-apps', title: names.join(', ') }, names.length ? names.join(', ') : 'no app'),
    target,
    rule.id ? null : h('span', { class: 'badge' }, 'new'),
  ].filter(Boolean);
}

/**
 * The fields of `rule` (at `index`), editing it in place: `changed()` after each edit. `apps` the workspace's apps,
 * `destinations[appID]` their destination types.
 */
export function ruleFields(rule, index, { apps, destinations, readOnly, changed }) {
  const base = `/rules/${index}`;
  const id = `rule-${index}`;
  const set = (member, value) => {
    if (value === undefined) delete rule[member];
    else rule[member] = value;
    changed();
  };
  const on = (element, handler) => { element.addEventListener('input', handler); element.addEventListener('change', handler); };

  const known = new Set(apps.map((a) => a.id));
  const appBoxes = apps.map((a) => checkbox(rule.apps.includes(a.id), { value: a.id, disabled: readOnly }));
  const appsSet = h('fieldset', { class: 'rule-apps-field', 'data-pointer': `${base}/apps`, id: `${id}-apps` }, h('legend', {}, 'Apps'),
    h('div', { class: 'inline-checks' }, appBoxes.map((box, i) => h('div', { class: 'check' }, box,
      h('label', { for: (box.id = `${id}-app-${i}`) }, `${apps[i].name} (${apps[i].platform})`)))),
    h('p', { class: 'field-error', id: `${id}-apps-error` }));

  const path = input({ value: rule.path ?? '', placeholder: '/widget/{id}', autocomplete: 'off', disabled: readOnly, class: 'rule-path' });
  on(path, () => set('path', path.value || undefined));
  const fragment = input({ value: rule.fragment ?? '', disabled: readOnly, class: 'rule-fragment' });
  on(fragment, () => set('fragment', fragment.value || undefined));

  const queryMode = select([['none', 'Any query'], ['pattern', 'Pattern'], ['items', 'Query items']],
    rule.query === undefined ? 'none' : typeof rule.query === 'string' ? 'pattern' : 'items', { disabled: readOnly });
  const queryText = h('textarea', { rows: 1, disabled: readOnly, placeholder: 'ref = {ref}', title: 'A pattern (Pattern), or one item a line: name = pattern (Query items)', class: 'rule-query',
    value: typeof rule.query === 'string' ? rule.query : formatLines(rule.query) });
  const readQuery = () => {
    const mode = queryMode.value;
    set('query', mode === 'none' ? undefined : mode === 'pattern' ? queryText.value : parseLines(queryText.value));
  };
  on(queryMode, readQuery);
  on(queryText, readQuery);

  const destination = select([], '', { disabled: readOnly, class: 'rule-destination' });
  const fillTypes = () => {
    const types = [...new Set(rule.apps.flatMap((app) => (destinations[app] || []).map((d) => d.name)))];
    const current = rule.destination?.type;
    if (current && !types.includes(current)) types.push(current);
    destination.replaceChildren(...[['', 'none'], ...types.map((t) => [t, t])].map(([v, l]) => h('option', { value: v }, l)));
    destination.value = current || '';
  };
  fillTypes();
  const bindings = h('textarea', { rows: 1, disabled: readOnly, placeholder: 'id = {id}', class: 'rule-bindings',
    value: formatLines(rule.destination?.params) });
  let params = rule.destination?.params;
  const readDestination = () => {
    if (!destination.value) return set('destination', undefined);
    const next = { ...(rule.destination?.type === destination.value ? rule.destination : {}), type: destination.value };
    if (params && Object.keys(params).length) next.params = params;
    else delete next.params;
    set('destination', next);
  };
  on(destination, readDestination);
  // Bindings are text: "{capture}" or a constant, which the API keeps as text whatever its type.
  on(bindings, () => { params = parseLines(bindings.value); readDestination(); });

  for (const box of appBoxes) {
    box.addEventListener('change', () => {
      const ticked = appBoxes.filter((b) => b.checked).map((b) => b.value);
      set('apps', [...rule.apps.filter((app) => !known.has(app)), ...ticked]);
      fillTypes();
    });
  }

  const exclude = checkbox(rule.exclude, { disabled: readOnly });
  on(exclude, () => set('exclude', exclude.checked || undefined));
  const tri = (member) => {
    const control = select([['', 'domain default'], ['true', 'true'], ['false', 'false']],
      rule[member] === undefined ? '' : String(rule[member]), { disabled: readOnly });
    on(control, () => set(member, control.value === '' ? undefined : control.value === 'true'));
    return control;
  };
  const caseSensitive = tri('caseSensitive');
  const percentEncoded = tri('percentEncoded');
  const comment = input({ value: rule.comment ?? '', disabled: readOnly, class: 'rule-comment' });
  on(comment, () => set('comment', comment.value || undefined));

  return [
    appsSet,
    h('div', { class: 'rule-grid' },
      field('Path', path, { pointer: `${base}/path` }),
      field('Fragment', fragment, { pointer: `${base}/fragment` }),
      field('Query', queryMode),
      field('Query pattern or items', queryText, { pointer: `${base}/query` }),
      field('Destination', destination, { pointer: `${base}/destination` }),
      field('Bindings: name = {capture} or value', bindings, { pointer: `${base}/destination/params` }),
      field('caseSensitive', caseSensitive, { pointer: `${base}/caseSensitive` }),
      field('percentEncoded', percentEncoded, { pointer: `${base}/percentEncoded` }),
      field('Comment', comment, { pointer: `${base}/comment` }),
      field('Exclude: matching URLs open no app', exclude, { pointer: `${base}/exclude` })),
  ];
}
