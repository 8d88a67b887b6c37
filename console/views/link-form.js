// A link's create and edit form. An edit PATCHes the members whose controls changed, a nested object as read with
// the edits over it, so what the form does not show is kept.
import { h, replace, field, form, input, select, checkbox, tracked, pretty, copyButton } from '../dom.js';
import { all, call, enc } from '../api.js';
import { paramControl } from './params.js';
import { targetingEditor, refuse, toLocal, fromLocal } from './link-targets.js';

const groups = {
  fallbacks: [['ios', 'iOS'], ['ipad', 'iPad'], ['android', 'Android'], ['desktop', 'Desktop']],
  campaign: [['source', 'Source'], ['medium', 'Medium'], ['campaign', 'Campaign'], ['term', 'Term'], ['content', 'Content']],
  preview: [['title', 'Title'], ['description', 'Description'], ['imageUrl', 'Image URL']],
};

/** Where a campaign usually comes from: a template sets the source and the medium (the UTM builder). */
const templates = [['newsletter', 'Newsletter', 'newsletter', 'email'], ['facebook', 'Facebook', 'facebook', 'social'],
  ['instagram', 'Instagram', 'instagram', 'social'], ['x', 'X (Twitter)', 'x', 'social'], ['linkedin', 'LinkedIn', 'linkedin', 'social'],
  ['google', 'Google Ads', 'google', 'cpc'], ['sms', 'SMS', 'sms', 'sms'], ['qr', 'QR code on print', 'qr', 'print']];

/**
 * The UTM builder over the campaign fields: a template fills source and medium, and the link as it will be shared,
 * with its `utm_*` items, is shown with a copy button (taps through it count under the same campaign as the link's
 * own fields; the URL's items win field by field).
 */
function utmBuilder(campaign, address, watched) {
  const [source, medium] = campaign.controls;
  const template = select([['', 'choose…'], ...templates.map(([key, label]) => [key, label])], '', { id: 'utm-template' });
  template.addEventListener('change', () => {
    const chosen = templates.find(([key]) => key === template.value);
    if (!chosen) return;
    for (const [control, value] of [[source, chosen[2]], [medium, chosen[3]]]) { control.value = value; control.dispatchEvent(new Event('input', { bubbles: true })); }
  });
  const tagged = h('code', { id: 'utm-url' });
  const show = () => {
    const items = new URLSearchParams();
    groups.campaign.forEach(([key], i) => { const v = campaign.controls[i].value.trim(); if (v) items.set(`utm_${key}`, v); });
    tagged.textContent = address() + (items.size ? `?${items}` : '');
  };
  for (const control of [...campaign.controls, ...watched]) control.addEventListener('input', show);
  for (const control of watched) control.addEventListener('change', show);
  show();
  campaign.element.append(field('Template', template, { hint: 'Sets the source and the medium.' }),
    h('p', { class: 'utm-url' }, 'Shared as ', tagged, ' ', copyButton(() => tagged.textContent)));
}

/** The form of `link` (null: a new link). `apps` the workspace's apps, `domains` its domains; `saved(link, etag)` after a save. */
export async function linkForm(link, etag, { apps, domains, saved }) {
  const old = link || {};
  const known = {};
  const typesOf = async (app) => (known[app] = known[app] || await all(`/v1/apps/${enc(app)}/destinations?limit=200`));

  const domain = select(domains.map((d) => d.hostname), old.domain || domains[0]?.hostname);
  const slug = input({ value: old.slug || '', autocomplete: 'off', placeholder: link ? '' : 'generated when empty' });
  const mode = select([['app', 'An app\'s destination'], ['url', 'A web page']], old.url ? 'url' : 'app');
  const app = select([['', 'choose an app'], ...apps.map((a) => [a.id, `${a.name} (${a.platform})`])], old.app || '');
  const type = select([], '');
  const url = input({ type: 'url', value: old.url || '', placeholder: 'https://www.example.com/spring' });
  const params = h('fieldset', { class: 'link-params', 'data-pointer': '/destination/params', id: 'link-params' }, h('legend', {}, 'Parameters'));
  const paramControls = [];
  let readers = [];

  const showParams = async () => {
    const types = app.value ? await typesOf(app.value) : [];
    const spec = types.find((t) => t.name === type.value);
    const same = old.destination && old.app === app.value && old.destination.type === type.value;
    const values = same ? old.destination.params || {} : {};
    const made = Object.entries(spec ? spec.params || {} : {}).map(([name, s]) => [name, paramControl(name, s, values[name])]);
    paramControls.splice(0, paramControls.length, ...made.map(([, p]) => p.control));
    readers = made.map(([name, p]) => [name, p.read]);
    const kept = Object.keys(values).filter((name) => !made.some(([n]) => n === name));
    replace(params, h('legend', {}, 'Parameters'), ...made.map(([, p]) => p.element),
      made.length ? null : h('p', { class: 'muted' }, spec ? 'This destination type has no parameters.' : 'Choose a destination type.'),
      kept.length ? h('p', { class: 'hint' }, `Kept as they are: ${kept.join(', ')} (not declared by the type).`) : null,
      h('p', { class: 'field-error', id: 'link-params-error' }));
  };
  const showTypes = async () => {
    const types = app.value ? await typesOf(app.value) : [];
    const names = types.map((t) => t.name);
    const current = old.app === app.value && old.destination ? old.destination.type : names[0] || '';
    if (current && !names.includes(current)) names.push(current);
    type.replaceChildren(...names.map((n) => h('option', { value: n }, n)));
    type.value = current;
    await showParams();
  };
  const appFields = h('div', { class: 'grid' }, field('App', app, { pointer: '/app' }), field('Destination type', type, { pointer: '/destination/type' }));
  const urlField = field('Web page URL', url, { pointer: '/url' });
  const showMode = () => { appFields.hidden = params.hidden = mode.value !== 'app'; urlField.hidden = mode.value !== 'url'; };
  app.addEventListener('change', showTypes);
  type.addEventListener('change', showParams);
  mode.addEventListener('change', showMode);
  await showTypes();
  showMode();

  const group = (member) => {
    const controls = groups[member].map(([key]) => input({ value: (old[member] || {})[key] || '', type: /Url|ios|ipad|android|desktop/.test(key) ? 'url' : 'text' }));
    const read = () => {
      const out = { ...(old[member] || {}) };
      groups[member].forEach(([key], i) => { if (controls[i].value.trim()) out[key] = controls[i].value.trim(); else delete out[key]; });
      return out;
    };
    const element = h('fieldset', { class: `link-${member}` }, h('legend', {}, member[0].toUpperCase() + member.slice(1)), h('div', { class: 'grid' },
      groups[member].map(([key, label], i) => field(label, controls[i], { pointer: `/${member}/${key}` }))));
    return { controls, read, element };
  };
  const fallbacks = group('fallbacks');
  const skipStore = checkbox(old.skipStore);
  fallbacks.element.append(field('Skip the store', skipStore, { pointer: '/skipStore',
    hint: 'A fallback replaces the website; phones still get the store first.' }));
  const campaign = group('campaign');
  utmBuilder(campaign, () => `https://${domain.value}/${slug.value.trim() || (link ? old.slug : '…')}`, [domain, slug]);
  const preview = group('preview');
  const tags = input({ value: (old.tags || []).join(', '), placeholder: 'spring, mail' });
  const expiresAt = input({ type: 'datetime-local', step: 1, value: old.expiresAt ? toLocal(old.expiresAt) : '' });
  const maxClicks = input({ type: 'number', min: 1, step: 1, value: old.maxClicks ?? '' });
  const name = input({ value: old.name || '' });
  const data = h('textarea', { rows: 3, spellcheck: 'false', value: old.data ? pretty(old.data) : '', placeholder: '{"coupon": "SPRING"}' });

  const readData = () => {
    if (!data.value.trim()) return null;
    let value;
    try { value = JSON.parse(data.value); } catch (error) { throw refuse('/data', `data is not JSON: ${error.message}`); }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw refuse('/data', 'data must be a JSON object.');
    return value;
  };
  const readDestination = () => {
    const next = { ...(old.app === app.value && old.destination?.type === type.value ? old.destination : {}), type: type.value };
    const values = { ...(next.params || {}) };
    for (const [key, read] of readers) { const v = read(); if (v === undefined) delete values[key]; else values[key] = v; }
    if (Object.keys(values).length) next.params = values; else delete next.params;
    return next;
  };
  const members = {
    domain: [[domain], () => domain.value],
    slug: [[slug], () => slug.value.trim() || null],
    fallbacks: [fallbacks.controls, fallbacks.read],
    skipStore: [[skipStore], () => skipStore.checked],
    campaign: [campaign.controls, campaign.read],
    preview: [preview.controls, preview.read],
    tags: [[tags], () => tags.value.split(',').map((t) => t.trim()).filter(Boolean)],
    expiresAt: [[expiresAt], () => (expiresAt.value ? fromLocal(expiresAt.value) : null)],
    maxClicks: [[maxClicks], () => (maxClicks.value === '' ? null : Number(maxClicks.value))],
    name: [[name], () => name.value.trim() || null],
    data: [[data], readData],
    // What the link opens: app and destination, or url; the others are cleared when it switches.
    target: [[mode, app, type, url, paramControls], () => (mode.value === 'url'
      ? { url: url.value.trim(), ...(old.app ? { app: null, destination: null } : {}) }
      : { app: app.value || null, destination: type.value ? readDestination() : null, ...(old.url ? { url: null } : {}) })],
  };
  const targeting = targetingEditor(link, { apps, typesOf,
    opening: () => Object.fromEntries(Object.entries(members.target[1]()).filter(([, v]) => v !== null && v !== '')) });
  // tracked() reads each control's value: the parameter controls are flattened in when read.
  const flat = Object.fromEntries(Object.entries(members).map(([k, [controls, read]]) => [k, [{ map: (f) => controls.flat().map(f) }, read]]));
  const changes = tracked(flat);

  // A save that would change what apps open (409 link-space-moves) lists the moves here and saves nothing until the
  // person accepts them; the next save then sends acknowledgeMoves=true (docs/LINKS.md, "The link space").
  const moves = h('div', { id: 'link-moves', class: 'link-moves' });
  const accept = checkbox(false, { id: 'accept-moves' });
  const acknowledged = () => (moves.childElementCount && accept.checked ? '?acknowledgeMoves=true' : '');
  const showMoves = (error) => {
    if (error.status !== 409 || !String(error.problem?.type).endsWith('/link-space-moves')) throw error;
    accept.checked = false;
    replace(moves, h('div', { class: 'notice error', role: 'alert' },
      h('p', {}, h('b', {}, 'Nothing was saved: this link would change what apps open. '), error.problem.detail || ''),
      h('ul', { id: 'link-moves-list' }, (error.problem.errors || []).map((e) => h('li', {}, e.detail))),
      h('label', {}, accept, ' I accept these moves: save the link anyway')));
    moves.scrollIntoView?.({ block: 'nearest' });
  };
  const remove = link ? h('button', { type: 'button', class: 'danger', id: 'delete-link' }, 'Delete link') : null;
  const element = form(link ? 'Edit link' : 'New link', [
    h('div', { class: 'grid' }, field('Domain', domain, { pointer: '/domain' }),
      field('Slug', slug, { pointer: '/slug', hint: link ? 'Changing it moves the link.' : 'Empty: a short one is generated.' }),
      field('Name', name, { pointer: '/name' }), field('Tags (comma-separated)', tags, { pointer: '/tags' })),
    h('fieldset', { class: 'link-target' }, h('legend', {}, 'Opens'), field('Link opens', mode), appFields, params, urlField),
    campaign.element, preview.element, fallbacks.element,
    h('div', { class: 'grid' }, field('Expires at (your time zone)', expiresAt, { pointer: '/expiresAt' }),
      field('Click limit', maxClicks, { pointer: '/maxClicks', hint: 'Stops opening after this many taps.' })),
    field('Data (a JSON object for the app)', data, { pointer: '/data' }),
    targeting.element,
    moves,
  ], link ? 'Save link' : 'Create link', async (element) => {
    if (!link) {
      const body = { domain: domain.value, ...members.target[1](), name: name.value.trim() || undefined, data: readData() ?? undefined,
        slug: slug.value.trim() || undefined, tags: members.tags[1](), fallbacks: fallbacks.read(), skipStore: skipStore.checked, campaign: campaign.read(), preview: preview.read(),
        expiresAt: members.expiresAt[1]() ?? undefined, maxClicks: members.maxClicks[1]() ?? undefined };
      const { targets, variants } = targeting.read();
      if (targets) body.targets = targets;
      if (variants) body.variants = variants;
      for (const key of ['app', 'destination', 'url']) if (body[key] === null) delete body[key];
      const answer = await call('POST', `/v1/links${acknowledged()}`, { body }).catch(showMoves);
      if (answer) saved(answer.data, answer.etag);
      return;
    }
    const { target, ...body } = changes.body();
    Object.assign(body, target);
    if (targeting.changed()) Object.assign(body, targeting.read());
    if (!Object.keys(body).length) { element.say('No changes to save.'); return; }
    const answer = await call('PATCH', `/v1/links/${enc(link.id)}${acknowledged()}`, { body, ifMatch: etag }).catch(showMoves);
    if (answer) saved(answer.data, answer.etag);
  }, { extraActions: remove ? [remove] : [] });
  element.deleteButton = remove;
  return element;
}
