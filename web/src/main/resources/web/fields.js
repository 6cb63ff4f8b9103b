// One control of either profile's form, built from its definition in GET /api/settings: a label with its
// unit, the input (a number, a checkbox, a choice, or a comma-separated list of whole numbers) and the
// one-line explanation shown on hover and keyboard focus. {@code onControl(def, input, commit)} hears every
// change: commit false while typing, true when the value is committed.

import { seconds } from './charts.js';
import { el } from './render.js';
import { clone, getPath, setPath } from './scenario.js';

const FAULT = 'faults[0].';

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

/** The text a number, choice or list control shows for scenario {@code s} ({@code lastFault} when it has none). */
export function shownValue(def, s, lastFault) {
  const fault = s.faults[0];
  let v;
  if (def.kind === 'fault_hosts') v = fault ? (Array.isArray(fault.hosts) ? fault.hosts.length : fault.hosts) : 0;
  else if (def.path.startsWith(FAULT)) v = getPath(fault ?? lastFault, def.path.slice(FAULT.length));
  else if (def.path === 'cluster.hosts') v = Array.isArray(s.cluster.hosts) ? s.cluster.hosts.length : s.cluster.hosts;
  else v = getPath(s, def.path);
  // the scenario as run leaves traffic.clients out when there is one caller
  if (v == null && def.path === 'traffic.clients') v = 1;
  if (def.kind === 'seconds') v = seconds(v);
  if (def.kind === 'weights') v = (v ?? []).join(', ');
  return v == null ? '' : String(v);
}

/**
 * Writes a number control's value into scenario {@code s}: durations as seconds, the first fault's keys, and
 * "faulty hosts" 0 removing the fault ({@code state.lastFault} keeps it to restore). False when the control
 * edits a fault and there is none.
 */
export function applyNumber(def, value, s, state) {
  if (def.kind === 'fault_hosts') {
    if (value === 0) {
      if (s.faults.length) state.lastFault = clone(s.faults[0]);
      s.faults = [];
    } else {
      if (!s.faults.length) s.faults = [clone(state.lastFault)];
      s.faults[0].hosts = value;
    }
    return true;
  }
  const v = def.kind === 'seconds' ? `${value}s` : value;
  if (def.path.startsWith(FAULT)) {
    if (!s.faults.length) return false;
    setPath(s.faults[0], def.path.slice(FAULT.length), v);
    // burst_length belongs to the bursts pattern only
    if (def.path === `${FAULT}pattern` && v !== 'bursts') delete s.faults[0].burst_length;
  } else if (def.path.startsWith('health_checks.')) {
    if (!s.health_checks) return false;
    setPath(s, def.path, v);
  } else if (/^grpc\.(success_rate|failure_percentage)_ejection\./.test(def.path)) {
    // a field of one of gRPC's algorithm blocks: the block is absent while that algorithm is off
    if (getPath(s, def.path.split('.').slice(0, 2).join('.')) == null) return false;
    setPath(s, def.path, v);
  } else {
    setPath(s, def.path, v);
  }
  return true;
}

/**
 * Shows {@code message} under a control (null clears it), linked to the input for screen readers: where a
 * refused value is explained, beside the control the user is editing.
 */
export function markField(input, message) {
  const box = input.closest('.field');
  let msg = box.querySelector('.field-msg');
  if (!message) {
    msg?.remove();
    input.removeAttribute('aria-invalid');
    return;
  }
  if (!msg) {
    msg = el('p', { class: 'field-msg', id: `m-${input.id}` });
    box.append(msg);
    input.setAttribute('aria-errormessage', msg.id);
  }
  msg.textContent = message;
  input.setAttribute('aria-invalid', 'true');
}

/** Shows a server's refusal under the control whose scenario key it names first, if one does. */
export function markRefusedKey(controls, message) {
  const named = controls.filter(({ def }) => message.includes(`${def.path}:`) || message.includes(`${def.path} `))
    .sort((a, b) => message.indexOf(a.def.path) - message.indexOf(b.def.path) || b.def.path.length - a.def.path.length)[0];
  if (named) markField(named.input, message);
}
