// Domains: the link domains of the workspace and the form that registers one.
import { h, field, form, input, formatTime } from '../dom.js';
import { call, pagedTable, enc } from '../api.js';

export async function render(view, context) {
  const table = pagedTable('/v1/domains?limit=50', [
    ['Hostname', (d) => h('a', { href: `#/domains/${enc(d.hostname)}` }, d.hostname)],
    ['Web fallback', (d) => d.webFallbackUrl || h('span', { class: 'muted' }, 'none')],
    ['Rules', (d) => h('a', { href: `#/rules/${enc(d.hostname)}` }, 'Edit rules')],
    ['Updated', (d) => formatTime(d.updatedAt)],
  ], { empty: 'No domain yet.', label: 'Domains' });
  view.append(h('h1', {}, 'Domains'), table);
  if (context.can('POST', '/v1/domains')) {
    const hostname = input({ name: 'hostname', placeholder: 'links.example.com', autocomplete: 'off' });
    const fallback = input({ name: 'webFallbackUrl', type: 'url', placeholder: 'https://www.example.com' });
    view.append(form('Register a domain', [
      h('div', { class: 'grid' }, field('Hostname', hostname, { pointer: '/hostname', hint: '*.example.com covers its subdomains.' }),
        field('Web fallback URL', fallback, { pointer: '/webFallbackUrl', hint: 'Optional: where links no app opens go.' })),
    ], 'Register domain', async () => {
      const { data } = await call('POST', '/v1/domains', { body: { hostname: hostname.value.trim(), webFallbackUrl: fallback.value.trim() || undefined } });
      context.navigate(`#/domains/${enc(data.hostname)}`);
    }));
  }
  await table.ready;
}
