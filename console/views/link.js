// One link (`#/links/{id}`) or a new one (`#/links/new`): its taps over 7 and 30 days and by campaign, its funnel, its QR code,
// and the form (a read key sees the link as JSON instead); its analytics tab (`?tab=analytics`). The form and the
// analytics are loaded by the tab that shows them only.
import { h, replace, pretty, copyButton, errorNotice, notice, fact, appName, input, field } from '../dom.js';
import { call, get, all, enc } from '../api.js';
import { lastDays, state, target } from './link-parts.js';

export async function render(view, context) {
  const id = context.params[0];
  const [apps, domains] = await Promise.all([all('/v1/apps?limit=200'), all('/v1/domains?limit=200')]);
  const back = h('p', {}, h('a', { href: '#/links' }, '← All links'));
  if (id === 'new') {
    if (!context.can('POST', '/v1/links')) { view.append(h('h1', {}, 'New link'), back, notice('warn', context.needs('Creating links', 'POST', '/v1/links'))); return; }
    if (!domains.length) { view.append(h('h1', {}, 'New link'), back, notice('warn', 'Register a link domain first.')); return; }
    const { linkForm } = await import('./link-form.js');
    view.append(h('h1', {}, 'New link'), back,
      await linkForm(null, null, { apps, domains, saved: (link) => context.navigate(`#/links/${enc(link.id)}`) }));
    return;
  }
  let { data: link, etag } = await call('GET', `/v1/links/${enc(id)}`);
  const body = h('div');
  const analytics = context.query.get('tab') === 'analytics';
  const tab = (text, hash, current) => h('a', { href: hash, 'aria-current': current ? 'page' : null }, text);
  view.append(h('h1', {}, link.name || link.slug), back, h('nav', { class: 'tabs', 'aria-label': 'Link pages' },
    tab('Link', `#/links/${enc(id)}`, !analytics), tab('Analytics', `#/links/${enc(id)}?tab=analytics`, analytics)), body);
  if (analytics) {
    const { panel } = await import('./analytics.js');
    body.append(h('p', { class: 'muted' }, 'The hits of ', h('code', {}, link.shortLink), ' alone.'));
    await panel(body, { query: context.query, base: `#/links/${enc(id)}?tab=analytics&`, link: link.id });
    return;
  }
  async function show() {
    const c = link.campaign || {};
    replace(body,
      h('div', { class: 'link-head' },
        h('dl', { class: 'grid link-facts' },
          fact('Link', h('code', { id: 'short-link' }, link.shortLink), ' ', copyButton(() => link.shortLink)),
          fact('Opens', target(link), link.app ? h('span', { class: 'muted' }, ` in ${apps.some((a) => a.id === link.app) ? appName(apps.find((a) => a.id === link.app), apps) : link.app}`) : null),
          fact('Campaign', [c.source, c.medium, c.campaign, c.term, c.content].filter(Boolean).join(' · ') || h('span', { class: 'muted' }, 'none')),
          fact('State', state(link)),
          fact('Tags', (link.tags || []).join(', ') || h('span', { class: 'muted' }, 'none'))),
        context.can('GET', '/v1/qr') ? qr(link) : null),
      h('section', { id: 'link-taps' }, h('h2', {}, 'Taps'), h('p', { class: 'muted' }, 'Loading…')));
    const more = h('p', {}, h('a', { href: `#/links/${enc(link.id)}?tab=analytics` }, 'Its countries, devices and campaigns over any period: the Analytics tab'));
    taps(link).then((nodes) => replace(body.querySelector('#link-taps'), h('h2', {}, 'Taps'), nodes, more),
      (error) => body.querySelector('#link-taps').append(errorNotice(error)));
    if (context.can('GET', '/v1/links/{id}/experiment')) {
      const { hasExperiment, experimentView } = await import('./link-experiment.js');
      if (hasExperiment(link)) body.append(experimentView(link));
    }
    if (context.can('GET', '/v1/resolve')) body.append((await import('./link-tester.js')).tester(link, apps));
    if (!context.can('PATCH', '/v1/links/{id}')) { body.append(h('h2', {}, 'The link'), h('pre', { id: 'link-json' }, pretty(link))); return; }
    const { linkForm } = await import('./link-form.js');
    const edit = await linkForm(link, etag, { apps, domains, saved: (next, tag) => { link = next; etag = tag; show().then(() => body.querySelector('form').say('Saved.')); } });
    edit.deleteButton.addEventListener('click', async () => {
      if (!confirm(`Delete ${link.shortLink}? Taps on it will find nothing.`)) return;
      try { await call('DELETE', `/v1/links/${enc(link.id)}`, { ifMatch: etag }); context.navigate('#/links'); } catch (error) { edit.prepend(errorNotice(error)); }
    });
    body.append(edit);
  }
  await show();
}


/** Taps over the last 7 and 30 days (bots excluded), the last 30 days' by campaign, and the 30 days' funnel. */
async function taps(link) {
  const range = (days) => `link=${enc(link.id)}&${lastDays(days)}`; // the days Analytics' periods count
  const { funnelOf } = await import('./funnel.js');
  const [week, month, campaigns, funnel] = await Promise.all([get(`/v1/analytics/summary?${range(7)}`), get(`/v1/analytics/summary?${range(30)}`),
    get(`/v1/analytics/top?dimension=utm_campaign&limit=20&${range(30)}`),
    funnelOf(get, `/v1/analytics/funnel?${range(30)}`, { title: 'Conversions (30 days)', id: 'link-funnel' })]);
  return [
    h('div', { class: 'stats' }, h('div', { class: 'stat' }, h('span', { class: 'muted' }, 'Last 7 days'), h('b', { id: 'link-taps-7' }, week.hits)),
      h('div', { class: 'stat' }, h('span', { class: 'muted' }, 'Last 30 days'), h('b', { id: 'link-taps-30' }, month.hits))),
    campaigns.items.length ? h('table', { id: 'link-campaigns', 'aria-label': 'Taps by campaign' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Campaign (30 days)'), h('th', { scope: 'col', class: 'num' }, 'Taps'))),
      h('tbody', {}, campaigns.items.map((item) => h('tr', {}, h('td', {}, item.utm_campaign), h('td', { class: 'num' }, item.hits))))) : null,
    funnel,
  ];
}

/**
 * The link's QR code: the PNG of `GET /v1/qr`, fetched with the key and drawn on a canvas (the console's CSP,
 * default-src 'self', admits no blob: or data: image), and PNG and SVG downloads through blob URLs. The code may
 * carry its own `utm_*` (the API sets them in the URL it encodes), so a poster's taps are told from the rest.
 */
function qr(link) {
  const canvas = h('canvas', { id: 'qr-code', width: 192, height: 192, role: 'img', 'aria-label': `QR code of ${link.shortLink}` });
  const box = h('figure', { class: 'qr' }, canvas);
  const fields = [['source', 'qr'], ['medium', 'print'], ['campaign', link.campaign?.campaign || '']]
    .map(([key, placeholder]) => [key, input({ placeholder: placeholder && `e.g. ${placeholder}`, autocomplete: 'off', 'data-utm': key })]);
  const items = () => {
    const query = new URLSearchParams();
    for (const [key, control] of fields) if (control.value.trim()) query.set(`utm_${key}`, control.value.trim());
    return query;
  };
  const encoded = h('code', { id: 'qr-url' });
  const path = (format, size) => `/v1/qr?url=${enc(link.shortLink)}&format=${format}&size=${size}${items().size ? `&${items()}` : ''}`;
  const draw = () => {
    const query = items();
    encoded.textContent = link.shortLink + (query.size ? `${link.shortLink.includes('?') ? '&' : '?'}${query}` : '');
    canvas.dataset.drawn = 'false';
    call('GET', path('png', 192), { accept: 'image/png', blob: true })
      .then(({ data }) => createImageBitmap(data))
      .then((bitmap) => {
        const context = canvas.getContext('2d');
        context.clearRect(0, 0, canvas.width, canvas.height);
        context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
        canvas.dataset.drawn = 'true';
      }, (error) => box.append(errorNotice(error)));
  };
  const download = (format, label) => {
    const button = h('button', { type: 'button', class: 'secondary', 'data-qr': format }, label);
    button.addEventListener('click', async () => {
      try {
        const { data } = await call('GET', path(format, 1024), { accept: format === 'png' ? 'image/png' : 'image/svg+xml', blob: true });
        const url = URL.createObjectURL(data);
        const anchor = h('a', { href: url, download: `${link.slug.replace(/\//g, '-')}-qr.${format}`, hidden: true });
        document.body.append(anchor);
        anchor.click();
        anchor.remove();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
      } catch (error) { box.append(errorNotice(error)); }
    });
    return button;
  };
  // A group, not a form: a read key may draw codes too, and its console has no forms.
  const apply = h('button', { type: 'button', class: 'secondary', id: 'qr-apply' }, 'Use in the code');
  const campaign = h('div', { class: 'qr-campaign', role: 'group', 'aria-label': 'Campaign of the QR code' },
    h('p', { class: 'hint' }, 'The code\'s own campaign: its taps count under these utm_ fields.'),
    fields.map(([key, control]) => field(`utm_${key}`, control)), apply);
  apply.addEventListener('click', draw);
  draw();
  box.append(h('figcaption', {}, h('p', { class: 'muted' }, 'Encodes ', encoded), h('div', { class: 'actions' }, download('png', 'PNG'), download('svg', 'SVG'))),
    h('details', { class: 'qr-utm' }, h('summary', {}, 'Campaign of the code'), campaign));
  return box;
}
