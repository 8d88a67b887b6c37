// Webhooks: the subscriptions (create and rotate show the secret once; edit, pause, resume, delete, a test event)
// and each one's delivery log with retry (docs/WEBHOOKS.md). Admin keys only, as keys.
import { h, replace, field, form, input, checkbox, select, tracked, formatTime, copyButton, notice, errorNotice, fact } from '../dom.js';
import { get, call, pagedTable, enc } from '../api.js';

const tone = { active: 'ok', delivered: 'ok', paused: 'warn', pending: 'warn', disabled: 'error', retrying: 'error' };
const badge = (state) => h('span', { class: `badge ${tone[state]}` }, state);

export async function render(view, context) {
  const id = context.params[0];
  view.append(h('h1', {}, id ? 'Webhook' : 'Webhooks'));
  if (!context.can('GET', '/v1/webhooks')) return view.append(notice('warn', context.needs('Webhooks', 'GET', '/v1/webhooks')));
  const types = (await get('/v1/webhooks/events')).items;
  await (id ? one(view, context, types, `/v1/webhooks/${enc(id)}`) : list(view, types));
}

/** A new signing secret, shown this once with a copy button. */
const secretNotice = (secret) => notice('warn', h('p', {}, h('b', {}, 'Copy the signing secret now: '),
  'it is shown this once, linkd cannot show it again. Receivers verify deliveries with it.'),
h('p', { class: 'secret', id: 'new-secret' }, secret), h('div', { class: 'actions' }, copyButton(() => secret, 'Copy secret')));

/** What a bulk request or import tells a subscription (`bulkEvents`, docs/WEBHOOKS.md). */
const bulkModes = [['summary', 'one links.bulk_created event a request'], ['each', 'one link.created event a link']];

/** The URL, event type, bulk and description fields over `hook`, and the members they edit (for `tracked`). */
function fields(types, hook = { url: '', events: [], bulkEvents: 'summary', description: '' }) {
  const url = input({ type: 'url', value: hook.url, placeholder: 'https://example.com/hooks/linkd' });
  const boxes = types.map((t) => checkbox(hook.events.includes(t.type), { value: t.type }));
  const bulk = select(bulkModes, hook.bulkEvents);
  const description = input({ value: hook.description });
  const members = {
    url: [[url], () => url.value.trim()],
    events: [boxes, () => boxes.filter((b) => b.checked).map((b) => b.value)],
    bulkEvents: [[bulk], () => bulk.value],
    description: [[description], () => description.value],
  };
  return {
    members,
    read: () => Object.fromEntries(Object.entries(members).map(([name, [, read]]) => [name, read()])),
    controls: [field('URL', url, { pointer: '/url' }),
      h('fieldset', { id: 'events', 'data-pointer': '/events', tabindex: '-1' }, h('legend', {}, 'Events'),
        types.map((t, i) => field([h('code', {}, t.type), ' ', h('span', { class: 'muted' }, t.description.replace(/`/g, ''))], boxes[i])),
        h('p', { class: 'field-error', id: 'events-error' })),
      field('Bulk writes', bulk, { pointer: '/bulkEvents' }),
      field('Description', description, { pointer: '/description' })],
  };
}

async function list(view, types) {
  const table = () => pagedTable('/v1/webhooks?limit=50', [
    ['URL', (w) => h('a', { href: `#/webhooks/${enc(w.id)}`, class: 'link-url' }, w.url)],
    ['Events', (w) => w.events.map((e) => [h('code', {}, e), ' '])],
    ['Description', (w) => w.description],
    ['State', (w) => badge(w.state)],
    ['Failure run', (w) => w.failureRun, 'num'],
  ], { label: 'Webhooks', empty: 'No subscription yet.', row: (w) => ({ 'data-id': w.id }) });
  let shown = table();
  const created = h('div', { 'aria-live': 'polite' });
  const f = fields(types);
  view.append(shown, created, form('Subscribe a URL', f.controls, 'Create webhook', async (element) => {
    const { data } = await call('POST', '/v1/webhooks', { body: f.read() });
    element.reset();
    replace(created, secretNotice(data.secret), h('p', {}, h('a', { href: `#/webhooks/${enc(data.id)}` }, 'Open the subscription')));
    created.scrollIntoView({ block: 'nearest' });
    const next = table();
    shown.replaceWith(next);
    shown = next;
  }));
  await shown.ready;
}

async function one(view, context, types, path) {
  let { data: hook, etag } = await call('GET', path);
  const facts = h('dl', { class: 'grid link-facts', id: 'webhook-facts' });
  const out = h('div', { 'aria-live': 'polite', id: 'webhook-out' });
  /** A button running `run`, its error shown in `out`. */
  const act = (label, run, cls = 'secondary') => h('button', { type: 'button', class: cls, onclick: async ({ currentTarget: button }) => {
    button.disabled = true;
    out.replaceChildren();
    try { await run(); } catch (error) { replace(out, errorNotice(error)); } finally { button.disabled = false; }
  } }, label);
  const draw = ({ data, etag: tag }) => {
    hook = data;
    etag = tag;
    pause.hidden = hook.state !== 'active';
    resume.hidden = hook.state === 'active';
    replace(facts, fact('URL', h('code', {}, hook.url)), fact('State', badge(hook.state),
      hook.disabledAt ? ` since ${formatTime(hook.disabledAt)}` : null), fact('Failure run', String(hook.failureRun)),
    fact('Events', hook.events.join(', ')), fact('Bulk writes', hook.bulkEvents), fact('Description', hook.description || h('span', { class: 'muted' }, 'none')),
    fact('Created', formatTime(hook.createdAt)), fact('Updated', formatTime(hook.updatedAt)));
  };
  const post = async (what) => draw(await call('POST', `${path}/${what}`, { ifMatch: etag }));
  const pause = act('Pause', () => post('pause'));
  const resume = act('Resume', () => post('resume'));
  draw({ data: hook, etag });

  const status = select([['', 'any'], 'pending', 'retrying', 'delivered'], '', { onchange: () => refresh() });
  // Busy while a refresh is loading or due, so the rows are not replaced under a pointer unannounced; a new
  // table takes the old one's place only once loaded, and only the latest asked for.
  const log = h('div', { id: 'deliveries' });
  let asked = 0;
  let due = null;
  const refresh = async () => {
    const mine = ++asked;
    log.setAttribute('aria-busy', 'true');
    const table = pagedTable(`${path}/deliveries?limit=20${status.value && `&status=${status.value}`}`, [
      ['Status', (d) => badge(d.status)],
      ['Event', (d) => [h('code', {}, d.eventType), h('br'), h('code', { class: 'muted' }, d.eventId)]],
      ['Attempts', (d) => d.attempts, 'num'],
      ['Response', (d) => d.responseStatus ?? '', 'num'],
      ['Error', (d) => d.error || ''],
      ['Queued', (d) => formatTime(d.createdAt)],
      ['Delivered or next attempt', (d) => (d.deliveredAt ? formatTime(d.deliveredAt) : d.nextAttemptAt ? `next ${formatTime(d.nextAttemptAt)}` : '')],
      ['', (d) => act('Retry', async () => { await call('POST', `${path}/deliveries/${enc(d.id)}/retry`); soon(); })],
    ], { label: 'Deliveries', stack: true, empty: 'No delivery yet.', row: (d) => ({ 'data-id': d.id, 'data-status': d.status }) });
    await table.ready;
    if (mine !== asked) return;
    replace(log, table);
    if (!due) log.removeAttribute('aria-busy');
  };
  /** Now and once more when the workers have had a moment to send. */
  const soon = () => {
    clearTimeout(due);
    due = setTimeout(() => { due = null; refresh(); }, 1500);
    refresh();
  };

  const f = fields(types, hook);
  const changes = tracked(f.members);
  view.append(h('p', {}, h('a', { href: '#/webhooks' }, '← Webhooks')), facts,
    h('div', { class: 'actions' },
      act('Send test event', async () => {
        const { data } = await call('POST', `${path}/test`);
        replace(out, notice('ok', 'Test event ', h('code', {}, data.eventId), ' queued.'));
        soon();
      }, ''),
      pause, resume,
      act('Rotate secret', async () => {
        if (!confirm('Replace the signing secret? Every delivery is signed with the new one from now on.')) return;
        const answer = await call('POST', `${path}/rotate-secret`, { ifMatch: etag });
        draw(answer);
        replace(out, secretNotice(answer.data.secret));
      }),
      act('Delete', async () => {
        if (!confirm(`Delete the subscription to ${hook.url} and its delivery log?`)) return;
        await call('DELETE', path, { ifMatch: etag });
        context.navigate('#/webhooks');
      }, 'danger')),
    out,
    h('section', {}, h('h2', {}, 'Deliveries'),
      h('div', { class: 'actions end' }, field('Status', status), act('Refresh', refresh)), log),
    form('Edit webhook', f.controls, 'Save', async (element) => {
      const body = changes.body();
      if (!Object.keys(body).length) return element.say('No changes to save.');
      draw(await call('PATCH', path, { body, ifMatch: etag }));
      changes.reset();
      element.say('Saved.');
    }));
  await refresh();
}
