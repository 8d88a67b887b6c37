// Apps: iOS and Android apps of the workspace, and the form that registers one.
import { h, field, form, input, select } from '../dom.js';
import { call, pagedTable, all } from '../api.js';

export async function render(view, context) {
  const table = pagedTable('/v1/apps?limit=50', [
    ['Name', (a) => h('a', { href: `#/apps/${a.id}` }, a.name)],
    ['Platform', (a) => (a.platform === 'ios' ? 'iOS' : 'Android')],
    ['Identifier', (a) => h('code', {}, a.appId || a.packageName)],
    ['Id', (a) => h('code', { class: 'muted' }, a.id)],
  ], { empty: 'No app yet.', label: 'Apps' });
  view.append(h('h1', {}, 'Apps'), h('p', { class: 'muted' }, 'Open an app to edit it and its destinations.'), table);
  if (context.can('POST', '/v1/apps')) view.append(await appForm(context));
  await table.ready;
}

/** The iOS / Android registration form (fields of the chosen platform only). */
export async function appForm(context) {
  const teams = await all('/v1/teams?limit=200');
  const platform = select([['ios', 'iOS'], ['android', 'Android']], 'ios', { name: 'platform' });
  const name = input({ name: 'name' });
  const teamId = select(teams.length ? teams.map((t) => [t.teamId, `${t.teamId} (${t.name})`]) : [['', 'Register a team first']], teams[0]?.teamId, { name: 'teamId' });
  const bundleId = input({ name: 'bundleId', placeholder: 'com.example.app', autocomplete: 'off' });
  const appStoreId = input({ name: 'appStoreId', inputmode: 'numeric', autocomplete: 'off' });
  const customScheme = input({ name: 'customScheme', autocomplete: 'off' });
  const iconUrl = input({ name: 'iconUrl', type: 'url', placeholder: 'https://…/icon.png' });
  const packageName = input({ name: 'packageName', placeholder: 'com.example.app', autocomplete: 'off' });
  const fingerprints = h('textarea', { name: 'fingerprints', rows: 3, placeholder: 'AB:CD:… Play App Signing' });
  const playStoreUrl = input({ name: 'playStoreUrl', type: 'url', placeholder: 'https://play.google.com/store/apps/details?id=…' });
  const ios = h('div', { class: 'grid' },
    field('Team', teamId, { pointer: '/teamId' }), field('Bundle ID', bundleId, { pointer: '/bundleId' }),
    field('App Store ID', appStoreId, { pointer: '/appStoreId', hint: 'Optional: the numeric id of the App Store page.' }));
  const android = h('div', { class: 'grid', hidden: true },
    field('Package name', packageName, { pointer: '/packageName' }),
    field('Signing-certificate fingerprints', fingerprints, { pointer: '/sha256CertFingerprints', hint: fingerprintHint }),
    field('Play Store URL', playStoreUrl, { pointer: '/playStoreUrl', hint: 'Optional.' }));
  platform.addEventListener('change', () => { ios.hidden = platform.value !== 'ios'; android.hidden = platform.value === 'ios'; });
  return form('Register an app', [
    h('div', { class: 'grid' }, field('Platform', platform, { pointer: '/platform' }), field('Name', name, { pointer: '/name' }),
      field('Custom URL scheme', customScheme, { pointer: '/customScheme', hint: 'Optional, without ":".' }),
      field('Icon URL', iconUrl, { pointer: '/iconUrl', hint: 'Optional: shown beside the name on the landing page.' })), ios, android,
  ], 'Register app', async () => {
    const body = platform.value === 'ios'
      ? { platform: 'ios', name: name.value, teamId: teamId.value, bundleId: bundleId.value.trim(),
          appStoreId: appStoreId.value.trim() || undefined }
      : { platform: 'android', name: name.value, packageName: packageName.value.trim(), playStoreUrl: playStoreUrl.value.trim() || undefined,
          sha256CertFingerprints: parseFingerprints(fingerprints.value) };
    body.customScheme = customScheme.value.trim() || undefined;
    body.iconUrl = iconUrl.value.trim() || undefined;
    const { data } = await call('POST', '/v1/apps', { body });
    context.navigate(`#/apps/${data.id}`);
  });
}

export const fingerprintHint = 'One SHA-256 fingerprint a line, then optionally its label: AB:CD:… Play App Signing.';

/** `sha256CertFingerprints` as the textarea shows them: one a line, the value then the label. */
export const formatFingerprints = (list) => (list || []).map((f) => (f.label ? `${f.value} ${f.label}` : f.value)).join('\n');

/** The textarea's lines → `[{value, label?}]`: the first word is the fingerprint (it has no spaces), the rest its label. */
export function parseFingerprints(text) {
  return text.split('\n').map((line) => line.trim()).filter(Boolean).map((line) => {
    const [, value, label] = /^(\S+)\s*(.*)$/.exec(line);
    return label ? { value, label } : { value };
  });
}
