// A link's experiments on its page (docs/HITS.md, "Experiments"): `GET /v1/links/{id}/experiment` per split (the
// link's own, then each target's), each variant a card with its weight and share, visitors, clicks, clicks per
// visitor and its difference from the control with the 95 % interval, as the answer states them, then its
// conversions (each step's count and rate per click, with its interval, and the revenue: docs/EVENTS.md,
// "Funnels"). Members the view does not know are shown after these, named and written as the answer gives them.
import { h, replace, errorNotice, notice } from '../dom.js';
import { get, enc } from '../api.js';
import { money } from './funnel.js';

const known = new Set(['name', 'label', 'control', 'configured', 'stopped', 'weight', 'visitors', 'clicks', 'clicksPerVisitor',
  'difference', 'differenceUnavailable', 'conversions']);

const stepNames = { install: 'Installs', open: 'Opens' };
const percent = (share) => `${Math.round(share * 1000) / 10} %`;

/** A conversion step as "3 (12.5 % of clicks, 95 % interval 4.3 % to 31 %)". */
function conversion(step) {
  const rate = step.rate == null ? '' : ` (${percent(step.rate)} of clicks${step.interval ? `, 95 % interval ${percent(step.interval.low)} to ${percent(step.interval.high)}` : ''})`;
  return `${number(step.count)}${rate}`;
}

/** Whether the link splits visitors anywhere (its own variants or a target's). */
export function hasExperiment(link) {
  return Boolean(link.variants?.length || (link.targets || []).some((t) => t.variants?.length));
}

/** `clicksPerVisitor` → "Clicks per visitor". */
function words(key) {
  const text = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function number(value, signed = false) {
  const text = Number.isInteger(value) ? value.toLocaleString('en') : value.toLocaleString('en', { maximumFractionDigits: 3 });
  return signed && value > 0 ? `+${text}` : text.replace('-', '−');
}

/** Any JSON value in words: numbers formatted, objects as "name: value" pairs, arrays joined. */
function written(value) {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return number(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.map(written).join(', ');
  if (typeof value === 'object') {
    const d = difference(value);
    if (d) return d;
    return Object.entries(value).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => `${words(k).toLowerCase()}: ${written(v)}`).join(', ');
  }
  return String(value);
}

/** `{estimate, low, high}` as "+0.12 (95 % interval −0.05 to +0.29)"; null for another shape. */
function difference(value) {
  if (!value || typeof value.estimate !== 'number' || typeof value.low !== 'number' || typeof value.high !== 'number') return null;
  return `${number(value.estimate, true)} (95 % interval ${number(value.low, true)} to ${number(value.high, true)})`;
}

function card(variant, running) {
  const flags = [variant.control ? 'control' : null, variant.stopped ? 'stopped' : null, variant.configured === false ? 'no longer configured' : null]
    .filter(Boolean);
  const share = variant.weight != null && !variant.stopped && running > 0 ? ` (${Math.round((variant.weight / running) * 100)}% of visitors)` : '';
  const fact = (label, value, key) => h('div', { 'data-key': key }, h('dt', { class: 'label' }, label), h('dd', {}, value));
  const facts = [
    fact('Weight', variant.weight == null ? '—' : `${number(variant.weight)}${share}`, 'weight'),
    fact('Visitors', written(variant.visitors), 'visitors'),
    fact('Clicks', written(variant.clicks), 'clicks'),
    fact('Clicks per visitor', written(variant.clicksPerVisitor), 'clicksPerVisitor'),
    fact(variant.control ? 'Difference' : 'Difference from the control',
      variant.control ? 'the control: the others are compared with it' : difference(variant.difference) || variant.differenceUnavailable || '—', 'difference'),
  ];
  for (const step of variant.conversions?.steps || []) {
    facts.push(fact(stepNames[step.step] || step.step, conversion(step), `conversion-${step.step}`));
  }
  if (variant.conversions?.revenue?.length) {
    facts.push(fact('Revenue', variant.conversions.revenue.map((r) => money(r.value, r.currency)).join(' · '), 'revenue'));
  }
  for (const [key, value] of Object.entries(variant)) {
    if (!known.has(key) && value !== null && value !== undefined) facts.push(fact(words(key), written(value), key));
  }
  return h('li', { class: 'variant-card', 'data-variant': variant.name },
    h('h4', {}, variant.name, flags.length ? h('span', { class: 'muted' }, ` · ${flags.join(' · ')}`) : null),
    h('dl', {}, facts));
}

function group(experiment) {
  const running = (experiment.variants || []).filter((v) => !v.stopped && v.configured !== false).reduce((sum, v) => sum + (v.weight || 0), 0);
  return h('section', { class: 'experiment-group', 'data-target': experiment.target ?? '' },
    h('h3', {}, experiment.target == null ? 'The link\'s own split' : `Target ${experiment.target}`,
      experiment.label ? h('span', { class: 'muted' }, ` · ${experiment.label}`) : null),
    h('ul', { class: 'variant-cards' }, (experiment.variants || []).map((v) => card(v, running))));
}

/** The experiment section of `link`'s page, filled when the endpoint answers. */
export function experimentView(link) {
  const section = h('section', { id: 'link-experiment' }, h('h2', {}, 'Experiment'), h('p', { class: 'muted' }, 'Loading…'));
  get(`/v1/links/${enc(link.id)}/experiment`).then((answer) => {
    const experiments = answer.experiments || [];
    const method = answer.method || {};
    replace(section, h('h2', {}, 'Experiment'),
      experiments.length ? experiments.map(group) : notice('info', 'No split has been clicked yet.'),
      h('p', { class: 'hint', id: 'experiment-method' },
        `Counted: ${answer.source || 'click'}s by people, per ${answer.unit || 'visitor'}. `,
        method.confidence ? `Each difference from the control comes with its ${Math.round(method.confidence * 100)} % confidence interval` : 'Each difference comes with its interval',
        method.minimumVisitors ? `, given at least ${method.minimumVisitors} visitors in each. ` : '. ',
        method.interval || ''));
  }, (error) => replace(section, h('h2', {}, 'Experiment'), errorNotice(error)));
  return section;
}
