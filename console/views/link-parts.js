// What a link's page shares with the list of links, apart from the list itself (so the page does not load it).
import { h } from '../dom.js';
import { enc } from '../api.js';

/** The last `days` (7 or 30) whole days in the browser's zone, today included: what Analytics calls "Last 7 days". */
export const lastDays = (days) => `period=${days}d&tz=${enc(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC')}`;

/** `expired` past its expiry, `spent` once the taps counted reach its limit, else until when and how many taps are left. */
export function state(link) {
  const expired = link.expiresAt && new Date(link.expiresAt).getTime() <= Date.now();
  const spent = link.maxClicks && (link.clicks || 0) >= link.maxClicks;
  return [
    expired ? h('span', { class: 'badge error' }, 'expired') : link.expiresAt ? h('span', { class: 'badge', title: link.expiresAt }, `until ${link.expiresAt.slice(0, 10)}`) : null,
    spent ? h('span', { class: 'badge error' }, 'spent') : null,
    link.maxClicks ? h('span', { class: 'badge', title: 'Taps counted against the click limit' }, `${link.clicks || 0} / ${link.maxClicks} taps`) : null,
    !expired && !link.expiresAt && !link.maxClicks ? h('span', { class: 'badge ok' }, 'active') : null,
  ];
}

export const target = (link) => (link.destination ? h('code', {}, link.destination.type) : link.url ? h('span', { class: 'link-url' }, link.url) : '');
