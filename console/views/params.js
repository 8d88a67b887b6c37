// A destination type's parameters: their bounds in words, and one typed control a parameter (the link form's, its
// targets' and variants').
import { field, input, select } from '../dom.js';

/** A parameter's bounds or values as text (`min 1, max 9`, `info | reviews`). */
export function describe(spec) {
  if (spec.type === 'int') return [spec.min !== undefined ? `min ${spec.min}` : '', spec.max !== undefined ? `max ${spec.max}` : ''].filter(Boolean).join(', ');
  if (spec.type === 'string') return [spec.minLength !== undefined ? `≥ ${spec.minLength} chars` : '', spec.maxLength !== undefined ? `≤ ${spec.maxLength} chars` : ''].filter(Boolean).join(', ');
  if (spec.type === 'enum') return (spec.values || []).join(' | ');
  return '';
}

/** One control for a parameter declared as `spec`, holding `value`: `read()` gives the typed value or undefined. */
export function paramControl(name, spec, value, at = '') {
  const shown = value === undefined ? '' : String(value);
  let control;
  if (spec.type === 'bool') control = select([['', '(absent)'], 'true', 'false'], shown);
  else if (spec.type === 'enum') control = select([['', '(absent)'], ...(spec.values || [])], shown);
  else control = input({ type: spec.type === 'int' ? 'number' : 'text', step: spec.type === 'int' ? 1 : undefined, value: shown, autocomplete: 'off' });
  control.classList.add('param-value');
  control.dataset.param = name;
  const read = () => {
    const text = control.value;
    if (text === '') return undefined;
    if (spec.type === 'int') return Number(text);
    if (spec.type === 'bool') return text === 'true';
    return text;
  };
  const hint = [spec.type, describe(spec), spec.optional ? 'optional' : 'required'].filter(Boolean).join(', ');
  return { control, read, element: field(name, control, { pointer: `${at}/destination/params/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, hint }) };
}
