// One app: its settings (PATCH with If-Match) and its destination types with the typed parameter editor.
import { h, field, form, input, checkbox, select, errorNotice, tracked, head, fact } from '../dom.js';
import { call, all, enc } from '../api.js';
import { fingerprintHint, formatFingerprints, parseFingerprints } from './apps.js';
import { describe } from './params.js';

const kinds = ['int', 'string', 'uuid', 'bool', 'enum'];

export async function render(view, context) {
  const id = context.params[0];
  let { data: app, etag } = await call('GET', `/v1/apps/${enc(id)}`);
  view.append(h('h1', {}, app.name), h('p', {}, h('a', { href: '#/apps' }, '← All apps')),
    h('dl', { class: 'grid' },
      fact('Platform', app.platform === 'ios' ? 'iOS' : 'Android'),
      fact(app.platform === 'ios' ? 'App ID' : 'Package', h('code', {}, app.appId || app.packageName)),
      fact('Id', h('code', {}, app.id))));

  if (context.can('PATCH', '/v1/apps/{id}')) {
    const name = input({ value: app.name });
    const iconUrl = input({ type: 'url', value: app.iconUrl || '', placeholder: 'https://…/icon.png' });
    const scheme = input({ value: app.customScheme || '' });
    const fields = [field('Name', name, { pointer: '/name' }), field('Custom URL scheme', scheme, { pointer: '/customScheme' }),
      field('Icon URL', iconUrl, { pointer: '/iconUrl', hint: 'Optional: shown beside the name on the landing page.' })];
    const extra = {};
    if (app.platform === 'ios') {
      extra.bundleId = input({ value: app.bundleId });
      extra.appStoreId = input({ value: app.appStoreId || '' });
      fields.push(field('Bundle ID', extra.bundleId, { pointer: '/bundleId' }), field('App Store ID', extra.appStoreId, { pointer: '/appStoreId' }));
    } else {
      extra.packageName = input({ value: app.packageName });
      extra.fingerprints = h('textarea', { rows: 3, value: formatFingerprints(app.sha256CertFingerprints) });
      extra.playStoreUrl = input({ value: app.playStoreUrl || '' });
      fields.push(field('Package name', extra.packageName, { pointer: '/packageName' }),
        field('Fingerprints', extra.fingerprints, { pointer: '/sha256CertFingerprints', hint: fingerprintHint }), field('Play Store URL', extra.playStoreUrl, { pointer: '/playStoreUrl' }));
    }
    const remove = h('button', { type: 'button', class: 'danger' }, 'Delete app');
    // PATCH only the members the person changed: the team, primaryDomain and anything shown lossily stay.
    const members = { name: [[name], () => name.value], iconUrl: [[iconUrl], () => iconUrl.value.trim() || null],
      customScheme: [[scheme], () => scheme.value.trim() || null] };
    if (app.platform === 'ios') {
      Object.assign(members, {
        bundleId: [[extra.bundleId], () => extra.bundleId.value.trim()],
        appStoreId: [[extra.appStoreId], () => extra.appStoreId.value.trim() || null],
      });
    } else {
      Object.assign(members, {
        packageName: [[extra.packageName], () => extra.packageName.value.trim()],
        sha256CertFingerprints: [[extra.fingerprints], () => parseFingerprints(extra.fingerprints.value)],
        playStoreUrl: [[extra.playStoreUrl], () => extra.playStoreUrl.value.trim() || null],
      });
    }
    const changes = tracked(members);
    const settings = form('Settings', h('div', { class: 'grid' }, fields), 'Save app', async (element) => {
      const body = changes.body();
      if (!Object.keys(body).length) { element.say('No changes to save.'); return; }
      const answer = await call('PATCH', `/v1/apps/${enc(id)}`, { body, ifMatch: etag });
      changes.reset();
      ({ data: app, etag } = answer);
      element.say('Saved.');
    }, { extraActions: [remove] });
    remove.addEventListener('click', async () => {
      if (!confirm(`Delete the app ${app.name}?`)) return;
      try { await call('DELETE', `/v1/apps/${enc(id)}`, { ifMatch: etag }); context.navigate('#/apps'); } catch (error) { settings.prepend(errorNotice(error)); }
    });
    view.append(settings);
  }

  const list = h('div');
  view.append(h('h2', {}, 'Destinations'), list);
  async function refresh() {
    const destinations = await all(`/v1/apps/${enc(id)}/destinations?limit=200`);
    list.replaceChildren(...(destinations.length ? [] : [h('p', { class: 'muted' }, 'No destination type yet.')]),
      ...destinations.map((d) => destinationCard(d)));
    if (context.can('POST', '/v1/apps/{id}/destinations')) list.append(destinationForm(null));
  }
  function destinationCard(destination) {
    const card = h('div', { class: 'card destination', 'data-name': destination.name },
      h('h3', {}, h('code', {}, destination.name), ' ', h('span', { class: 'destination-title' }, destination.title || '')),
      destination.description ? h('p', { class: 'destination-description' }, destination.description) : null,
      destination.requiresSignIn ? h('p', { class: 'muted' }, 'Requires sign-in.') : null,
      paramTable(destination.params));
    if (context.can('PUT', '/v1/apps/{id}/destinations/{name}')) {
      const edit = h('button', { type: 'button', class: 'secondary' }, 'Edit');
      const remove = h('button', { type: 'button', class: 'danger' }, 'Delete');
      edit.addEventListener('click', () => card.replaceWith(destinationForm(destination)));
      remove.addEventListener('click', async () => {
        if (!confirm(`Delete the destination ${destination.name}?`)) return;
        try { await call('DELETE', `/v1/apps/${enc(id)}/destinations/${enc(destination.name)}`); await refresh(); } catch (error) { card.append(errorNotice(error)); }
      });
      card.append(h('div', { class: 'actions' }, edit, remove));
    }
    return card;
  }
  function destinationForm(existing) {
    const name = input({ value: existing ? existing.name : '', disabled: !!existing, autocomplete: 'off', placeholder: 'widgetDetail' });
    const title = input({ value: existing ? existing.title || '' : '' });
    const rows = h('div', { class: 'params' });
    const add = h('button', { type: 'button', class: 'secondary' }, 'Add parameter');
    add.addEventListener('click', () => rows.append(paramRow('', { type: 'int' })));
    for (const [paramName, spec] of Object.entries(existing ? existing.params : {})) rows.append(paramRow(paramName, spec));
    const description = h('textarea', { rows: 2, value: existing ? existing.description || '' : '' });
    const imageUrl = input({ type: 'url', value: existing ? existing.imageUrl || '' : '', placeholder: 'https://…' });
    const requiresSignIn = checkbox(existing && existing.requiresSignIn);
    const cancel = existing ? h('button', { type: 'button', class: 'secondary' }, 'Cancel') : null;
    // The API replaces a destination whole (PUT): carry every writable member as read, and overwrite only those
    // whose controls the person changed, so nothing is lost that the form shows differently or not at all.
    const changes = tracked({
      title: [[title], () => title.value || null],
      description: [[description], () => description.value || null],
      imageUrl: [[imageUrl], () => imageUrl.value.trim() || null],
      requiresSignIn: [[requiresSignIn], () => requiresSignIn.checked],
    });
    const element = form(existing ? `Edit ${existing.name}` : 'New destination', [
      h('div', { class: 'grid' }, field('Name', name, { pointer: '/name' }), field('Title', title, { pointer: '/title', hint: 'Shown in link previews.' }),
        field('Description', description, { pointer: '/description', hint: 'Shown in link previews.' }),
        field('Image URL', imageUrl, { pointer: '/imageUrl', hint: 'An https image for link previews.' }),
        field('Requires sign-in', requiresSignIn, { pointer: '/requiresSignIn' })),
      h('fieldset', {}, h('legend', {}, 'Parameters'), rows, add),
    ], existing ? 'Save destination' : 'Create destination', async () => {
      const params = {};
      for (const row of rows.children) {
        const [key, spec] = row.read();
        params[key] = spec;
      }
      if (existing) {
        const { title: t, description: d, imageUrl: i, requiresSignIn: r } = existing;
        const body = { title: t ?? null, description: d ?? null, imageUrl: i ?? null, requiresSignIn: !!r, ...changes.body(), params };
        await call('PUT', `/v1/apps/${enc(id)}/destinations/${enc(existing.name)}`, { body });
      } else {
        const body = { name: name.value.trim(), title: title.value || null, description: description.value || null,
          imageUrl: imageUrl.value.trim() || null, requiresSignIn: requiresSignIn.checked, params };
        await call('POST', `/v1/apps/${enc(id)}/destinations`, { body });
      }
      await refresh();
    }, { extraActions: cancel ? [cancel] : [] });
    if (cancel) cancel.addEventListener('click', () => refresh());
    return element;
  }
  await refresh();
}

function paramTable(params) {
  const entries = Object.entries(params || {});
  if (!entries.length) return h('p', { class: 'muted' }, 'No parameters.');
  return h('table', {}, head('Parameter', 'Kind', 'Bounds', 'Optional'),
    h('tbody', {}, entries.map(([name, spec]) => h('tr', {}, h('td', {}, h('code', {}, name)), h('td', {}, spec.type),
      h('td', {}, describe(spec)), h('td', {}, spec.optional ? 'yes' : 'no')))));
}

/** One parameter of the editor: name, kind, the kind's bounds or values, optional. `read()` gives [name, spec]. */
function paramRow(name, spec) {
  const nameInput = input({ value: name, autocomplete: 'off', placeholder: 'id' });
  const kind = select(kinds, spec.type);
  const low = input({ type: 'number', value: spec.type === 'int' ? spec.min ?? '' : spec.minLength ?? '' });
  const high = input({ type: 'number', value: spec.type === 'int' ? spec.max ?? '' : spec.maxLength ?? '' });
  const loadedValues = spec.values;
  const shownValues = (loadedValues || []).join(', ');
  const values = input({ value: shownValues, placeholder: 'info, reviews' });
  const optional = checkbox(spec.optional);
  const remove = h('button', { type: 'button', class: 'danger' }, 'Remove');
  const lowField = field('Min', low);
  const highField = field('Max', high);
  const valuesField = field('Values (comma-separated)', values);
  const row = h('div', { class: 'grid param' }, field('Parameter name', nameInput), field('Kind', kind), lowField, highField, valuesField,
    field('Optional', optional), h('div', { class: 'actions' }, remove));
  const sync = () => {
    const bounded = kind.value === 'int' || kind.value === 'string';
    lowField.hidden = highField.hidden = !bounded;
    lowField.querySelector('label').textContent = kind.value === 'string' ? 'Min length' : 'Min';
    highField.querySelector('label').textContent = kind.value === 'string' ? 'Max length' : 'Max';
    valuesField.hidden = kind.value !== 'enum';
  };
  kind.addEventListener('change', sync);
  remove.addEventListener('click', () => row.remove());
  sync();
  row.read = () => {
    const key = nameInput.value.trim();
    const base = `/params/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    nameInput.dataset.pointer = base;
    kind.dataset.pointer = `${base}/type`;
    const spec = { type: kind.value };
    const number = (element) => (element.value === '' ? undefined : Number(element.value));
    if (kind.value === 'int') { spec.min = number(low); spec.max = number(high); low.dataset.pointer = `${base}/min`; high.dataset.pointer = `${base}/max`; }
    if (kind.value === 'string') { spec.minLength = number(low); spec.maxLength = number(high); low.dataset.pointer = `${base}/minLength`; high.dataset.pointer = `${base}/maxLength`; }
    if (kind.value === 'enum') {
      // The list as loaded while its text is untouched: a value may itself hold a comma.
      spec.values = values.value === shownValues && loadedValues ? loadedValues : values.value.split(',').map((v) => v.trim()).filter(Boolean);
      values.dataset.pointer = `${base}/values`;
    }
    if (optional.checked) spec.optional = true;
    optional.dataset.pointer = `${base}/optional`;
    return [key, spec];
  };
  return row;
}

