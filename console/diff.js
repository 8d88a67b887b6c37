// A line diff (longest common subsequence) for the rules editor's "against the published file" view.

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
