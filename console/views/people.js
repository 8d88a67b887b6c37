// What the people views share: a list the API answers as an array or as pages, and a table of its rows.
import { h, head } from '../dom.js';
import { get, all } from '../api.js';

/** Every item of `path`: an array, or a page whose `next` is followed. */
export async function items(path) {
  const data = await get(path);
  if (Array.isArray(data)) return data;
  return data.next ? all(path) : data.items || [];
}

/** A table (`label`, stacked on a phone) of `rows`: `columns` are `[title, row => cell]`; `key(row)` is its `data-id`. */
export function table(label, rows, columns, key, empty) {
  if (!rows.length) return h('p', { class: 'muted' }, empty);
  return h('div', { class: 'table-wrap' }, h('table', { 'aria-label': label, class: 'stack' }, head(...columns.map(([title]) => title)),
    h('tbody', {}, rows.map((row) => h('tr', { 'data-id': key(row) }, columns.map(([, cell]) => h('td', {}, cell(row))))))));
}

/** A button that asks `question` first, then runs `action` (an error is said in an alert). */
export function confirmed(label, question, action, props = {}) {
  const button = h('button', { type: 'button', class: 'danger', ...props }, label);
  button.addEventListener('click', async () => {
    if (!confirm(question)) return;
    button.disabled = true;
    try { await action(); } catch (error) { alert(error.message); } finally { button.disabled = false; }
  });
  return button;
}
