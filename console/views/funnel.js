// A funnel (`GET /v1/analytics/funnel`, docs/EVENTS.md, "Funnels"): clicks, installs, opens and the named events, each
// step's rate from the one before and from the clicks, with a bar, and the revenue per currency. Shown by a link's
// page, its analytics tab and the analytics of one campaign.
import { h, errorNotice } from '../dom.js';

const stepNames = { clicks: 'Clicks (taps)', install: 'Installs', open: 'Opens (app opened by the link)' };
const percent = (share) => `${Math.round(share * 1000) / 10} %`;

/** 12.99 EUR for 1299 minor units (the currency's own digits, as Intl knows them). */
export function money(value, currency) {
  try {
    const format = new Intl.NumberFormat(navigator.language || 'en', { style: 'currency', currency });
    const digits = format.resolvedOptions().maximumFractionDigits;
    return format.format(value / 10 ** digits);
  } catch { return `${value} ${currency} (minor units)`; }
}

/** The funnel answer's whole (`answer.total`) as a section: a table of steps and the revenue. */
export function funnelSection(answer, { title = 'Conversions', id = 'funnel' } = {}) {
  const figures = answer.total;
  const clicks = figures.steps[0] ? figures.steps[0].count : 0;
  const bar = (share) => {
    const fill = h('span');
    fill.style.width = `${Math.min(100, Math.round(share * 1000) / 10)}%`; // the CSP forbids style attributes
    return h('span', { class: 'bar', 'aria-hidden': 'true' }, fill);
  };
  const rows = figures.steps.map((step, i) => h('tr', { 'data-step': step.step },
    h('th', { scope: 'row' }, stepNames[step.step] || step.step),
    h('td', { class: 'num' }, step.count.toLocaleString()),
    h('td', { class: 'num' }, i === 0 || step.rate === null ? '–' : percent(Number(step.rate))),
    h('td', {}, h('span', { class: 'share' }, bar(clicks ? step.count / clicks : i === 0 ? 1 : 0),
      i === 0 ? '' : clicks ? percent(step.count / clicks) : '–')),
    h('td', {}, (step.revenue || []).map((r) => money(r.value, r.currency)).join(' · '))));
  const revenue = figures.revenue.length
    ? h('p', { id: `${id}-revenue` }, h('b', {}, 'Revenue: '), figures.revenue.map((r) => `${money(r.value, r.currency)} (${r.events.toLocaleString()} ${r.events === 1 ? 'event' : 'events'})`).join(' · '))
    : h('p', { class: 'muted', id: `${id}-revenue` }, 'No revenue reported.');
  return h('section', { id }, h('h2', {}, title),
    h('div', { class: 'table-wrap' }, h('table', { id: `${id}-steps`, 'aria-label': title },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Step'), h('th', { scope: 'col', class: 'num' }, 'Count'),
        h('th', { scope: 'col', class: 'num' }, 'From the step before'), h('th', { scope: 'col' }, 'From the clicks'),
        h('th', { scope: 'col' }, 'Revenue'))),
      h('tbody', {}, rows))),
    revenue,
    h('p', { class: 'muted note' }, 'Events attributed to the link or campaign (last click), over whole UTC days',
      figures.reopens ? `; ${figures.reopens.toLocaleString()} ${figures.reopens === 1 ? 'reopen' : 'reopens'} besides the steps.` : '.'));
}

/** The section of `path`'s funnel, or a note saying why there is none. */
export async function funnelOf(get, path, options) {
  try {
    return funnelSection(await get(path), options);
  } catch (error) {
    const title = h('h2', {}, (options && options.title) || 'Conversions');
    const id = (options && options.id) || 'funnel';
    return h('section', { id }, title, error.status === 400 ? h('p', { class: 'muted' }, 'Not counted with these filters.') : errorNotice(error));
  }
}
