// One domain's settings: defaults, substitution variables, web fallback, legacy paths, the apps listed under
// webcredentials and appclips, and the click behaviour when the server has it (the landing-page feature); above
// them the domain's association health and the versions of its files (views/association.js).
import { h, field, form, input, checkbox, select, parseLines, formatLines, pretty, errorNotice, tracked } from '../dom.js';
import { call, all, enc } from '../api.js';
import { healthPanel, versionsPanel } from './association.js';

const triState = (value) => select([['', 'iOS default'], ['true', 'true'], ['false', 'false']], value === undefined ? '' : String(value));
const readTri = (element) => (element.value === '' ? null : element.value === 'true');

export async function render(view, context) {
  const host = context.params[0];
  let { data: domain, etag } = await call('GET', `/v1/domains/${enc(host)}`);
  const apps = await all('/v1/apps?limit=200');
  view.append(h('h1', {}, domain.hostname),
    h('p', { class: 'actions' }, h('a', { href: '#/domains' }, '← All domains'), h('a', { class: 'button', href: `#/rules/${enc(host)}` }, 'Edit rules'),
      h('a', { class: 'button secondary', href: `#/analytics?host=${enc(host)}` }, 'Analytics')),
    h('p', {}, 'Apple fetches ', h('code', {}, domain.aasaUrl)));
  const health = healthPanel(host, context, new Map(apps.map((a) => [a.id, a])));
  const versions = versionsPanel(host, context);
  view.append(health, versions);
  await Promise.all([health.ready, versions.ready]);

  const defaults = domain.defaults || {};
  const caseSensitive = triState(defaults.caseSensitive);
  const percentEncoded = triState(defaults.percentEncoded);
  const variables = h('textarea', { rows: 3, value: formatLines(domain.substitutionVariables, (v) => v.join(', ')), placeholder: 'section = news, blog' });
  const fallback = input({ type: 'url', value: domain.webFallbackUrl || '' });
  const carry = checkbox(domain.carryPathToFallback);
  const legacy = checkbox(domain.legacyPaths);
  const appChecks = (key) => h('div', { class: 'grid' }, apps.filter((a) => key !== 'appclips' || a.platform === 'ios').map((a) =>
    field(`${a.name} (${a.appId || a.packageName})`, checkbox((domain[key] || []).includes(a.id), { value: a.id, 'data-group': key }))));
  const webcredentials = appChecks('webcredentials');
  const appclips = appChecks('appclips');
  const hasClickBehavior = 'clickBehavior' in domain;
  const clickBehavior = select([['landing', 'Landing page'], ['redirect', 'Redirect (302)']], domain.clickBehavior || 'redirect');
  const checked = (box) => [...box.querySelectorAll('input:checked')].map((i) => i.value);

  const children = [
    h('fieldset', {}, h('legend', {}, 'AASA defaults'), h('div', { class: 'grid' },
      field('caseSensitive', caseSensitive, { pointer: '/defaults/caseSensitive' }), field('percentEncoded', percentEncoded, { pointer: '/defaults/percentEncoded' }))),
    field('Substitution variables', variables, { pointer: '/substitutionVariables', hint: 'One a line: name = value, value…; used as $(name) in patterns.' }),
    h('fieldset', {}, h('legend', {}, 'Web fallback'),
      field('Web fallback URL', fallback, { pointer: '/webFallbackUrl' }), field('Carry the path and query to the fallback', carry, { pointer: '/carryPathToFallback' })),
    field('Also write the legacy "paths" form (iOS 12 and older)', legacy, { pointer: '/legacyPaths' }),
    h('fieldset', { 'data-pointer': '/webcredentials' }, h('legend', {}, 'webcredentials (shared passwords)'), webcredentials),
    h('fieldset', { 'data-pointer': '/appclips' }, h('legend', {}, 'App Clips'), appclips),
    hasClickBehavior
      ? field('Click behaviour', clickBehavior, { pointer: '/clickBehavior', hint: 'What a browser click on a link gets.' })
      : h('p', { class: 'muted', id: 'click-behavior-unavailable' }, 'Click behaviour (landing page or redirect) is not available on this server: links redirect.'),
  ];
  if (!context.can('PATCH', '/v1/domains/{host}')) {
    view.append(h('h2', {}, 'Settings'), h('pre', {}, pretty(domain)));
  } else {
    const remove = h('button', { type: 'button', class: 'danger' }, 'Delete domain');
    // PATCH only what the person changed: the settings this form does not show (androidDynamicRules,
    // deferredTTL…) and values it shows lossily (a variable's values split on commas) stay as they are.
    const boxes = (group) => [...group.querySelectorAll('input')];
    const changes = tracked({
      defaults: [[caseSensitive, percentEncoded], () => ({ caseSensitive: readTri(caseSensitive), percentEncoded: readTri(percentEncoded) })],
      substitutionVariables: [[variables], () => parseLines(variables.value, (v) => v.split(',').map((s) => s.trim()).filter(Boolean))],
      webFallbackUrl: [[fallback], () => fallback.value.trim() || null],
      carryPathToFallback: [[carry], () => carry.checked],
      legacyPaths: [[legacy], () => legacy.checked],
      webcredentials: [boxes(webcredentials), () => checked(webcredentials)],
      appclips: [boxes(appclips), () => checked(appclips)],
      ...(hasClickBehavior ? { clickBehavior: [[clickBehavior], () => clickBehavior.value] } : {}),
    });
    const settings = form('Settings', children, 'Save settings', async (element) => {
      const body = changes.body();
      if (!Object.keys(body).length) { element.say('No changes to save.'); return; }
      ({ data: domain, etag } = await call('PATCH', `/v1/domains/${enc(host)}`, { body, ifMatch: etag }));
      changes.reset();
      element.say('Saved.');
    }, { extraActions: [remove] });
    remove.addEventListener('click', async () => {
      if (!confirm(`Delete ${host} and all its rules?`)) return;
      try { await call('DELETE', `/v1/domains/${enc(host)}`, { ifMatch: etag }); context.navigate('#/domains'); } catch (error) { settings.prepend(errorNotice(error)); }
    });
    view.append(settings);
  }
  const files = h('div', { class: 'split' });
  view.append(h('h2', {}, 'Served files'), files);
  for (const [title, path] of [['apple-app-site-association', 'aasa'], ['assetlinks.json', 'assetlinks']]) {
    try {
      const file = await call('GET', `/v1/domains/${enc(host)}/${path}`);
      files.append(h('div', {}, h('h3', {}, title), h('pre', { class: `served-${path}` }, pretty(file.data))));
    } catch (error) { files.append(errorNotice(error)); }
  }
}
