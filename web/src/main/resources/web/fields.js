// One control of either profile's form, built from its definition in GET /api/settings: a label with its
// unit, the input (a number, a checkbox, a choice, or a comma-separated list of whole numbers) and the
// one-line explanation shown on hover and keyboard focus. {@code onControl(def, input, commit)} hears every
// change: commit false while typing, true when the value is committed.

import { el } from './render.js';

export function field(def, onControl, controls) {
  const id = `c-${def.id}`;
  const hintId = `h-${def.id}`;
  const hint = el('span', { class: 'hint', id: hintId, role: 'tooltip', text: def.description });
  let input;
  if (def.kind === 'toggle') {
    input = el('input', { type: 'checkbox', id, 'aria-describedby': hintId });
    input.addEventListener('change', () => onControl(def, input, true));
    controls.push({ def, input });
    return el('div', { class: 'field toggle', 'data-control': def.id }, input, el('label', { for: id, text: def.label }), hint);
  }
  if (def.kind === 'choice') {
    input = el('select', { id, 'aria-describedby': hintId }, ...def.options.map(o => el('option', { value: o, text: o })));
    input.addEventListener('change', () => onControl(def, input, true));
  } else {
    input = def.kind === 'weights'
      ? el('input', { type: 'text', id, 'aria-describedby': hintId, inputmode: 'numeric', placeholder: 'e.g. 3, 1' })
      : el('input', { type: 'number', id, min: def.min, max: def.max, step: def.kind === 'count' || def.kind === 'fault_hosts' ? 1 : 'any',
        inputmode: 'decimal', 'aria-describedby': hintId, required: true });
    input.addEventListener('input', () => onControl(def, input, false));
    input.addEventListener('change', () => onControl(def, input, true));
  }
  controls.push({ def, input });
  return el('div', { class: 'field', 'data-control': def.id },
    el('label', { for: id }, def.label, def.unit ? el('span', { class: 'unit', text: ` (${def.unit})` }) : null),
    input, hint);
}
