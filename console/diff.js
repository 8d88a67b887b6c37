// A line diff (longest common subsequence) of two JSON documents: the rules editor's "against the published file"
// and the changes between two versions of a domain's files.
import { h, pretty } from './dom.js';

/** `[{kind: 'same'|'add'|'del', text}]` turning `before` into `after`. */
export function lineDiff(before, after) {
  const n = before.length;
  const m = after.length;
  if (n * m > 4_000_000) return [...before.map((text) => ({ kind: 'del', text })), ...after.map((text) => ({ kind: 'add', text }))];
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i][j] = before[i] === after[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const out = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (before[i] === after[j]) { out.push({ kind: 'same', text: before[i] }); i++; j++; }
    else if (table[i + 1][j] >= table[i][j + 1]) out.push({ kind: 'del', text: before[i++] });
    else out.push({ kind: 'add', text: after[j++] });
  }
  while (i < n) out.push({ kind: 'del', text: before[i++] });
  while (j < m) out.push({ kind: 'add', text: after[j++] });
  return out;
}

/**
 * The diff of `before` and `after` (pretty JSON) as a `pre` (`id`), or "No change" when equal; with `context`, runs
 * of unchanged lines longer than twice that are cut to `context` lines around the changes.
 */
export function diffView(before, after, id, { context, same = 'No change: this is the file being served.' } = {}) {
  const lines = lineDiff(pretty(before).split('\n'), pretty(after).split('\n'));
  if (lines.every((l) => l.kind === 'same')) return h('p', { class: 'muted', id }, same);
  const shown = [];
  for (let i = 0; i < lines.length;) {
    let j = i;
    while (j < lines.length && lines[j].kind === 'same') j++;
    const head = i ? context : 0;
    const tail = j < lines.length ? context : 0;
    if (context !== undefined && j - i > head + tail + 1) {
      shown.push(...lines.slice(i, i + head), { kind: 'cut', text: `… ${j - i - head - tail} unchanged lines` }, ...lines.slice(j - tail, j));
    } else shown.push(...lines.slice(i, j));
    if (j < lines.length) shown.push(lines[j]);
    i = j + 1;
  }
  return h('pre', { class: 'diff', id, 'aria-label': 'Lines starting with + are added, - removed' },
    shown.map((l) => h('span', { class: l.kind }, `${l.kind === 'add' ? '+ ' : l.kind === 'del' ? '- ' : '  '}${l.text}`)));
}
