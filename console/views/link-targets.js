// A link's targeting in its form (docs/LINKS.md, "Targeting and experiments"): the ordered targets, each with its
// conditions said in words, what it opens and its split, and the link's own split. Each target and variant is
// edited as a copy of what was read, so a member the editor does not show is sent back as it came.
import { h, replace, field, input, select, checkbox } from '../dom.js';
import { paramControl } from './params.js';

/** `2026-12-31T23:59:59Z` as a `datetime-local` value in the browser's zone, and back as RFC 3339 UTC. */
export const toLocal = (text) => { const d = new Date(text); return new Date(d.getTime() - d.getTimezoneOffset() * 6e4).toISOString().slice(0, 19); };
export const fromLocal = (value) => new Date(value).toISOString().slice(0, 19) + 'Z';

/** A refusal of the form itself, shown at its field as an API problem would be. */
export const refuse = (pointer, detail) => Object.assign(new Error(detail), { problem: { title: 'Check the form.', errors: [{ pointer, detail }] } });

const regions = new Intl.DisplayNames(['en'], { type: 'region' });
const tongues = new Intl.DisplayNames(['en'], { type: 'language' });
const named = (names, code) => { try { return names.of(code) || code; } catch { return code; } };
export const countryName = (code) => (code === 'unknown' ? 'an unknown country' : named(regions, code.toUpperCase()));
export const languageName = (tag) => named(tongues, tag);
const platformNames = { ios: 'iOS', android: 'Android', desktop: 'a desktop', other: 'another platform' };
export const devices = ['mobile', 'tablet', 'desktop', 'other'];
const utmKeys = ['source', 'medium', 'campaign'];

/** Comma-separated text as a list (undefined when empty), and back. */
const items = (text) => { const list = text.split(',').map((t) => t.trim()).filter(Boolean); return list.length ? list : undefined; };
const joined = (list) => (list || []).join(', ');

/** A version as people write it: the API keeps `12.0.0` for `12`. */
const short = (v) => v.replace(/(\.0)+$/, '');
/** Platform ranges as text: `android 12+, ios 16-17.4, ios -15, desktop`; parse gives the list or a reason. */
const versions = (p, [both, from, upTo]) => (p.minVersion && p.maxVersion ? `${both[0]}${short(p.minVersion)}${both[1]}${short(p.maxVersion)}`
  : p.minVersion ? `${from[0]}${short(p.minVersion)}${from[1]}` : p.maxVersion ? `${upTo}${short(p.maxVersion)}` : '');
const rangeText = (p) => p.platform + versions(p, [[' ', '-'], [' ', '+'], ' -']);
function parseRanges(text) {
  const out = [];
  for (const part of text.split(',').map((t) => t.trim()).filter(Boolean)) {
    const m = /^(ios|android|desktop|other)(?:\s+(?:(\d+(?:\.\d+){0,2})\+|(\d+(?:\.\d+){0,2})?\s*-\s*(\d+(?:\.\d+){0,2})))?$/i.exec(part);
    if (!m) return { reason: `"${part}" is not a platform with versions: say ios, android 12+, ios 16-17.4 or ios -15.` };
    const range = { platform: m[1].toLowerCase() };
    if (m[2] || m[3]) range.minVersion = m[2] || m[3];
    if (m[4]) range.maxVersion = m[4];
    out.push(range);
  }
  return { list: out.length ? out : undefined };
}

/** What a target asks, in words: "Visitors from Germany, Austria on Android 12+ with German see". */
export function inWords(c = {}, apps = []) {
  const parts = [];
  if (c.countries) parts.push(`from ${c.countries.map(countryName).join(', ')}`);
  if (c.platforms) parts.push(`on ${c.platforms.map((p) => platformNames[p.platform] + versions(p, [[' ', ' to '], [' ', '+'], ' up to '])).join(' or ')}`);
  if (c.devices) parts.push(`on a ${c.devices.join(' or ')} device`);
  if (c.browsers) parts.push(`in ${c.browsers.join(' or ')}`);
  if (c.languages) parts.push(`with ${c.languages.map(languageName).join(' or ')}`);
  if (c.apps) parts.push(`in the app ${c.apps.map((id) => apps.find((a) => a.id === id)?.name || id).join(' or ')}`);
  if (c.window?.from) parts.push(`from ${new Date(c.window.from).toLocaleString()}`);
  if (c.window?.until) parts.push(`until ${new Date(c.window.until).toLocaleString()}`);
  if (c.referrers) parts.push(`coming from ${c.referrers.join(' or ')}`);
  const utm = utmKeys.filter((k) => c.utm?.[k]).map((k) => `utm_${k}=${c.utm[k]}`);
  if (utm.length) parts.push(`through ${utm.join(' and ')}`);
  return parts.length ? `Visitors ${parts.join(' ')} see` : 'All visitors see';
}

/** What a target or variant opens, in words. */
export function opensWords(o) {
  if (o.url) return o.url;
  if (!o.destination?.type) return 'nothing chosen yet';
  const params = Object.entries(o.destination.params || {}).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', ');
  return o.destination.type + (params ? ` (${params})` : '');
}

/** A group whose problems (its pointer or one below it, when no field claims them) show under it. */
let serial = 0;
function group(tag, props, pointer, ...children) {
  const id = `tg${++serial}`;
  return h(tag, { ...props, id, 'data-pointer': pointer }, children, h('p', { class: 'field-error', id: `${id}-error`, 'aria-live': 'polite' }));
}

/**
 * The targeting section of `link`'s form. `context`: `apps`, `typesOf(app)` (the app's destination types) and
 * `opening()` (what the link itself opens, to start a split with). `read()` gives `{targets, variants}` (each null
 * when there are none) or throws a refusal at its field; `changed()` says whether anything was edited.
 */
export function targetingEditor(link, context) {
  const copy = (value) => (value === undefined || value === null ? undefined : JSON.parse(JSON.stringify(value)));
  const targets = copy(link?.targets) || [];
  const own = { variants: copy(link?.variants) };
  const bad = new Map(); // pointer → reason, for text that does not parse yet
  let changed = false;
  const touched = () => { changed = true; };
  const list = h('ol', { class: 'targets', id: 'targets' });
  const ownSplit = h('div');

  const render = () => {
    bad.clear();
    replace(list, targets.map((t, i) => targetBox(t, i)));
    replace(ownSplit, splitBox(own, '', 'Split of the link\'s own destination (visitors no target takes)'));
  };

  /** A text control writing `apply(value)` into the draft on each edit, then redrawing the words. */
  const bound = (control, apply, words) => {
    const handler = () => { apply(control.type === 'checkbox' ? control.checked : control.value); touched(); words?.(); };
    control.addEventListener('input', handler);
    control.addEventListener('change', handler);
    return control;
  };

  function opensBox(o, at, words) {
    const mode = select([['app', 'An app\'s destination'], ['url', 'A web page']], o.url ? 'url' : 'app');
    const app = select([['', 'choose an app'], ...context.apps.map((a) => [a.id, `${a.name} (${a.platform})`])], o.app || '');
    const type = select([], '');
    const url = input({ type: 'url', value: o.url || '', placeholder: 'https://www.example.com/offer' });
    const params = h('div', { class: 'grid' });
    const appFields = h('div', { class: 'grid' }, field('App', app, { pointer: `${at}/app` }), field('Destination type', type, { pointer: `${at}/destination/type` }));
    const urlField = field('Web page URL', url, { pointer: `${at}/url` });
    const showParams = async () => {
      const spec = (o.app ? await context.typesOf(o.app) : []).find((t) => t.name === type.value);
      const values = o.destination?.params || {};
      replace(params, Object.entries(spec?.params || {}).map(([name, s]) => {
        const p = paramControl(name, s, values[name], at);
        bound(p.control, () => {
          const v = p.read();
          const next = { ...(o.destination.params || {}) };
          if (v === undefined) delete next[name]; else next[name] = v;
          if (Object.keys(next).length) o.destination.params = next; else delete o.destination.params;
        }, words);
        return p.element;
      }));
    };
    const showTypes = async () => {
      const names = (o.app ? await context.typesOf(o.app) : []).map((t) => t.name);
      const current = o.destination?.type || '';
      if (current && !names.includes(current)) names.push(current);
      type.replaceChildren(h('option', { value: '' }, 'choose a type'), ...names.map((n) => h('option', { value: n }, n)));
      type.value = current;
      await showParams();
    };
    const show = () => { appFields.hidden = params.hidden = mode.value !== 'app'; urlField.hidden = mode.value !== 'url'; };
    bound(mode, (v) => {
      if (v === 'url') { delete o.app; delete o.destination; o.url = url.value.trim(); } else { delete o.url; if (app.value) o.app = app.value; }
      show();
    }, words);
    bound(app, (v) => { if (v) o.app = v; else delete o.app; delete o.destination; showTypes(); }, words);
    bound(type, (v) => {
      if (v) o.destination = { ...(o.destination?.type === v ? o.destination : {}), type: v }; else delete o.destination;
      showParams();
    }, words);
    bound(url, (v) => { o.url = v.trim(); }, words);
    showTypes();
    show();
    return h('div', { class: 'opens' }, field('Opens', mode), appFields, params, urlField);
  }

  /** The split of `owner` (a target, or the link as `{variants}` at pointer ''): rows of name, weight, stop, share. */
  function splitBox(owner, at, legend, said) {
    const box = group('fieldset', { class: 'experiment' }, `${at}/variants`, h('legend', {}, legend));
    const shares = () => {
      const running = (owner.variants || []).reduce((sum, v) => sum + (v.stopped ? 0 : v.weight || 0), 0);
      for (const [i, v] of (owner.variants || []).entries()) {
        const out = box.querySelector(`[data-share="${i}"]`);
        if (out) out.textContent = v.stopped ? 'stopped: 0%' : `${running ? Math.round((1000 * (v.weight || 0)) / running) / 10 : 0}% of visitors`;
      }
    };
    const redraw = () => { box.replaceWith(splitBox(owner, at, legend, said)); said?.(); };
    const start = () => {
      const base = at ? owner : context.opening();
      const opening = copy({ app: base.app, destination: base.destination, url: base.url });
      owner.variants = [{ name: 'A', weight: 50, ...opening }, { name: 'B', weight: 50, ...copy(opening) }];
      touched();
      redraw();
    };
    if (!owner.variants?.length) {
      box.append(h('p', { class: 'muted' }, 'No split: every visitor gets the same.'),
        h('div', { class: 'actions' }, h('button', { type: 'button', class: 'secondary', 'data-action': 'split', onclick: start }, 'Split visitors between variants')));
      return box;
    }
    owner.variants.forEach((v, j) => {
      const vat = `${at}/variants/${j}`;
      const name = bound(input({ value: v.name || '', autocomplete: 'off' }), (x) => { v.name = x.trim(); }, said);
      const weight = bound(input({ type: 'number', min: 0, max: 10000, step: 1, value: v.weight ?? 0 }), (x) => { v.weight = x === '' ? 0 : Number(x); }, shares);
      const stopped = bound(checkbox(v.stopped), (x) => { if (x) v.stopped = true; else delete v.stopped; }, shares);
      const remove = h('button', { type: 'button', class: 'secondary', onclick: () => {
        owner.variants.splice(j, 1);
        if (owner.variants.length < 2) delete owner.variants;
        touched();
        redraw();
      } }, owner.variants.length > 2 ? 'Remove variant' : 'Remove the split');
      box.append(group('div', { class: 'variant', 'data-variant': j }, vat,
        h('div', { class: 'grid' }, field('Variant name', name, { pointer: `${vat}/name` }),
          field('Weight', weight, { pointer: `${vat}/weight`, hint: h('span', { 'data-share': j }) }),
          field('Stopped', stopped, { pointer: `${vat}/stopped` })),
        opensBox(v, vat), h('div', { class: 'actions' }, remove)));
    });
    box.append(h('div', { class: 'actions' }, h('button', { type: 'button', class: 'secondary', 'data-action': 'add-variant', onclick: () => {
      const last = owner.variants[owner.variants.length - 1];
      owner.variants.push({ name: String.fromCharCode(65 + owner.variants.length), weight: 50, ...copy({ app: last.app, destination: last.destination, url: last.url }) });
      touched();
      redraw();
    } }, 'Add variant')));
    shares();
    return box;
  }

  function targetBox(t, i) {
    const at = `/targets/${i}`;
    const c = (t.conditions = t.conditions || {});
    const words = h('p', { class: 'target-words', 'data-target-words': i });
    const say = () => { words.textContent = `${inWords(c, context.apps)}: ${opensWords(t)}${t.variants?.length ? `, split ${t.variants.map((v) => v.name).join(' / ')}` : ''}.`; };
    const set = (key, value) => { if (value === undefined) delete c[key]; else c[key] = value; };
    const listField = (label, key, hint, map = (x) => x) => field(label,
      bound(input({ value: joined(c[key]), autocomplete: 'off' }), (v) => set(key, items(v)?.map(map)), say), { pointer: `${at}/conditions/${key}`, hint });
    const platforms = bound(input({ value: (c.platforms || []).map(rangeText).join(', '), autocomplete: 'off', placeholder: 'android 12+, ios 16-17.4' }), (v) => {
      const parsed = parseRanges(v);
      if (parsed.reason) bad.set(`${at}/conditions/platforms`, parsed.reason); else { bad.delete(`${at}/conditions/platforms`); set('platforms', parsed.list); }
    }, say);
    const checks = (label, key, options) => group('fieldset', { class: 'checks' }, `${at}/conditions/${key}`, h('legend', {}, label),
      options.map(([value, text]) => h('label', {}, bound(checkbox((c[key] || []).includes(value), { value }), (on) => {
        const next = new Set(c[key] || []);
        if (on) next.add(value); else next.delete(value);
        set(key, next.size ? options.map(([v]) => v).filter((v) => next.has(v)) : undefined);
      }, say), ` ${text}`)));
    const when = (end) => bound(input({ type: 'datetime-local', step: 1, value: c.window?.[end] ? toLocal(c.window[end]) : '' }), (v) => {
      const next = { ...(c.window || {}) };
      if (v) next[end] = fromLocal(v); else delete next[end];
      set('window', Object.keys(next).length ? next : undefined);
    }, say);
    const utm = (key) => field(`utm_${key}`, bound(input({ value: c.utm?.[key] || '', autocomplete: 'off' }), (v) => {
      const next = { ...(c.utm || {}) };
      if (v.trim()) next[key] = v.trim(); else delete next[key];
      set('utm', Object.keys(next).length ? next : undefined);
    }, say), { pointer: `${at}/conditions/utm/${key}` });
    const move = (to) => () => { targets.splice(to, 0, targets.splice(i, 1)[0]); touched(); render(); list.querySelectorAll('.target')[to]?.querySelector('h3')?.focus(); };
    const more = ['browsers', 'apps', 'window', 'referrers', 'utm'].some((k) => c[k]);
    say();
    return group('li', { class: 'target', 'data-target': i }, at,
      h('h3', { tabindex: -1 }, `Target ${i + 1}`), words,
      field('Target name', bound(input({ value: t.name || '', autocomplete: 'off' }), (v) => { t.name = v.trim(); }), { pointer: `${at}/name` }),
      group('fieldset', { class: 'conditions' }, `${at}/conditions`, h('legend', {}, 'Visitors it takes (every condition given must hold)'),
        h('div', { class: 'grid' },
          listField('Countries', 'countries', 'Codes: DE, AT (unknown: no country found).', (x) => (x.toLowerCase() === 'unknown' ? 'unknown' : x.toUpperCase())),
          field('Platforms and versions', platforms, { pointer: `${at}/conditions/platforms`, hint: 'android 12+, ios 16-17.4, ios -15, desktop' }),
          listField('Languages', 'languages', 'Tags: de, pt-BR (de takes de-AT).')),
        checks('Devices', 'devices', devices.map((d) => [d, d])),
        h('details', { open: more }, h('summary', {}, 'More conditions: browser, app, time, referrer, campaign'),
          h('div', { class: 'grid' },
            listField('Browsers', 'browsers', 'uap-core families: Chrome Mobile, Mobile Safari.'),
            listField('Came from (referrer hosts)', 'referrers', 'www.example.com'),
            field('From (your time zone)', when('from'), { pointer: `${at}/conditions/window/from` }),
            field('Until', when('until'), { pointer: `${at}/conditions/window/until` }),
            utmKeys.map(utm)),
          context.apps.length ? checks('The app asking (resolve callers)', 'apps', context.apps.map((a) => [a.id, `${a.name} (${a.platform})`])) : null)),
      group('fieldset', { class: 'target-opens' }, `${at}`, h('legend', {}, 'It opens'), opensBox(t, at, say)),
      splitBox(t, at, 'Split (A/B)', say),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'secondary', 'data-action': 'up', disabled: i === 0, onclick: move(i - 1) }, 'Move up'),
        h('button', { type: 'button', class: 'secondary', 'data-action': 'down', disabled: i === targets.length - 1, onclick: move(i + 1) }, 'Move down'),
        h('button', { type: 'button', class: 'danger', 'data-action': 'remove', onclick: () => { targets.splice(i, 1); touched(); render(); } }, 'Remove target')));
  }

  const add = h('button', { type: 'button', class: 'secondary', id: 'add-target', onclick: () => {
    const base = context.opening();
    targets.push({ name: `target ${targets.length + 1}`, conditions: {}, ...copy({ app: base.app, destination: base.destination, url: base.url }) });
    touched();
    render();
    list.lastElementChild?.querySelector('input')?.focus();
  } }, 'Add target');
  render();
  const element = h('fieldset', { class: 'targeting', id: 'targeting' }, h('legend', {}, 'Targeting'),
    h('p', { class: 'hint' }, 'The first target whose conditions all hold decides; a visitor no target takes gets the link\'s own destination. Clicks linkd serves are targeted; an app opened by a universal link asks resolve (docs/LINKS.md).'),
    list, h('div', { class: 'actions' }, add), ownSplit);
  return {
    element,
    changed: () => changed,
    read() {
      const [pointer, reason] = [...bad.entries()][0] || [];
      if (pointer) throw refuse(pointer, reason);
      return { targets: targets.length ? targets : null, variants: own.variants?.length ? own.variants : null };
    },
  };
}
