// The targeting tester on a link's page: "What would a visitor from [country], on [platform] [OS version], speaking
// [language] see?" asks `GET /v1/resolve` with that context (`log=false`: no hit is recorded) and shows the target
// and the variant chosen and what opens. Resolve takes no user agent: the platform and OS version are the ones it
// is told (a phone).
import { h, replace, field, input, select, errorNotice } from '../dom.js';
import { get, enc } from '../api.js';
import { countryName, opensWords } from './link-targets.js';

/** Every region code the browser names, by name. */
function countries() {
  const codes = [];
  for (let a = 65; a < 91; a++) for (let b = 65; b < 91; b++) {
    const code = String.fromCharCode(a, b);
    const name = countryName(code);
    if (name !== code) codes.push([code, name]);
  }
  return codes.sort((x, y) => x[1].localeCompare(y[1]));
}

export function tester(link, apps) {
  const used = new Set((link.targets || []).flatMap((t) => t.conditions?.countries || []));
  const all = countries();
  const country = select([['', 'their address\'s country'], ...all.filter(([c]) => used.has(c)), ...all.filter(([c]) => !used.has(c)), ['unknown', 'an unknown country']],
    [...used].find((c) => c !== 'unknown') || '', { id: 'tester-country', 'aria-label': 'Country' });
  const platform = select([['ios', 'an iPhone (iOS)'], ['android', 'an Android phone']], 'ios', { id: 'tester-platform', 'aria-label': 'Platform' });
  // The lowest version a target asks of the platform, as a start: the visitor a version range is about.
  const asked = (link.targets || []).flatMap((t) => t.conditions?.platforms || []).find((p) => p.minVersion || p.maxVersion);
  const osVersion = input({ id: 'tester-os-version', 'aria-label': 'OS version', autocomplete: 'off', inputmode: 'decimal', size: 10,
    placeholder: 'OS version', pattern: '[0-9]{1,6}(\\.[0-9]{1,6}){0,2}',
    value: asked ? String(asked.minVersion || asked.maxVersion).replace(/(\.0)+$/, '') : '' });
  const language = input({ id: 'tester-language', 'aria-label': 'Languages (Accept-Language)', autocomplete: 'off', placeholder: 'de-AT, en;q=0.5',
    value: (link.targets || []).flatMap((t) => t.conditions?.languages || [])[0] || '' });
  const visitor = input({ id: 'tester-visitor', autocomplete: 'off', value: `tester-${Math.random().toString(36).slice(2, 8)}` });
  const app = select([['', 'none said'], ...apps.map((a) => [a.id, `${a.name} (${a.platform})`])], '', { id: 'tester-app' });
  const answer = h('div', { id: 'tester-answer', 'aria-live': 'polite' });
  const ask = h('button', { type: 'button', id: 'tester-ask' }, 'See what they get');
  const other = h('button', { type: 'button', class: 'secondary', id: 'tester-other' }, 'Another visitor');
  ask.addEventListener('click', async () => {
    const query = new URLSearchParams({ url: link.shortLink, platform: platform.value, log: 'false' });
    if (country.value) query.set('country', country.value);
    if (language.value.trim()) query.set('language', language.value.trim());
    if (visitor.value.trim()) query.set('visitorId', visitor.value.trim());
    if (app.value) query.set('app', app.value);
    if (osVersion.value.trim()) query.set('osVersion', osVersion.value.trim());
    replace(answer, h('p', { class: 'muted' }, 'Asking…'));
    try {
      const r = await get(`/v1/resolve?${query}`);
      const target = r.target ? (link.targets || []).find((t) => t.name === r.target) : null;
      const chosen = (target || link).variants?.find((v) => v.name === r.variant);
      const destination = r.destination && !r.destination.error ? opensWords({ destination: r.destination }) : null;
      replace(answer, h('dl', { class: 'grid tester-facts' },
        h('div', {}, h('dt', { class: 'label' }, 'Target'), h('dd', { id: 'tester-target' }, r.target ?? (r.targeted ? 'none: the link\'s own destination' : 'none: the link is not targeted'))),
        h('div', {}, h('dt', { class: 'label' }, 'Variant'), h('dd', { id: 'tester-variant' }, r.variant ?? 'none')),
        h('div', {}, h('dt', { class: 'label' }, 'Opens'), h('dd', { id: 'tester-opens' },
          destination ? [h('code', {}, destination), r.app ? h('span', { class: 'muted' }, ` in ${r.app.appId || r.app.packageName || ''}`) : null]
            : r.link?.url || (chosen && opensWords(chosen)) || 'no app on this platform: the browser opens the link'),
          h('dd', { class: 'muted' }, `resolve: ${r.outcome}`))));
    } catch (error) { replace(answer, errorNotice(error)); }
  });
  other.addEventListener('click', () => { visitor.value = `tester-${Math.random().toString(36).slice(2, 8)}`; ask.click(); });
  return h('section', { id: 'link-tester', class: 'tester' }, h('h2', {}, 'Who sees what'),
    h('p', { class: 'tester-question' }, 'What would a visitor from ', country, ', on ', platform, ' ', osVersion, ', speaking ', language, ' see?'),
    h('div', { class: 'grid' }, field('Visitor id (keeps their variant)', visitor, { hint: 'The same id gets the same variant.' }),
      apps.length ? field('The app asking', app) : null),
    h('div', { class: 'actions' }, ask, other), answer,
    h('p', { class: 'hint' }, 'Asks resolve as a phone would, with this context; no hit is recorded. Without an OS version, a target asking for versions does not take this visitor; a click from a browser is decided with its own.'));
}
