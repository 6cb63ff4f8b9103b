// "Compare Envoy, gRPC, the gateway, nginx, HAProxy and Caddy": the scenario's traffic and faults under each profile, one table side by
// side (POST /api/compare, the columns of run --profile envoy,grpc,gateway). Asked for after each run while the
// box is checked; a newer run's comparison wins.

import { count, el, percent } from './render.js';

const $ = id => document.getElementById(id);
const TIMES_SHOWN = 6;
const SERVER_NAMES = { nginx: 'nginx', haproxy: 'HAProxy', caddy: 'Caddy' };
const ROWS = [
  ['Requests', c => count(c.requests)],
  ['Failed requests', c => count(c.failed)],
  ['Failed during the fault', c => `${percent(c.failed_percent_during_fault)} %`],
  ['Detections', c => count(c.detections)],
  ['Ejections', c => count(c.ejections)],
  ['Refused by the cap', c => count(c.refused)],
  ['Returns', c => count(c.returns)],
  ['Most out at once', c => String(c.most_out)],
  ['Ejected at', c => times(c.ejected_at)],
  ['Returned at', c => times(c.returned_at)],
];
let latest = null;

/**
 * Asks for the comparison of {@code scenario} and shows it, unless {@code currentSeq()} has moved past
 * {@code seq} by the time it answers.
 */
export async function compareProfiles(scenario, seq, currentSeq) {
  latest?.abort();
  const abort = new AbortController();
  latest = abort;
  $('compare-status').textContent = 'Running the same traffic under each profile…';
  let body;
  try {
    const res = await fetch('/api/compare', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(scenario), signal: abort.signal });
    body = await res.json();
  } catch (e) {
    if (e.name === 'AbortError') return;
    if (seq === currentSeq()) $('compare-status').textContent = `The comparison did not run: ${e.message}`;
    return;
  }
  if (seq !== currentSeq() || !$('compare-on').checked) return;
  if (body.error) {
    $('compare-status').textContent = `The comparison did not run: ${body.error}`;
    $('compare-wrap').hidden = true;
    return;
  }
  $('compare-status').textContent = '';
  render(body);
}

function render(body) {
  const table = $('compare-table');
  const cols = body.columns;
  table.tHead.replaceChildren(el('tr', {}, el('th', { scope: 'col', text: '' }),
    ...cols.map(c => el('th', { scope: 'col', 'data-profile-column': c.profile.split(' ')[0], text: c.profile }))));
  const tbody = el('tbody');
  for (const [label, cell] of ROWS) {
    tbody.append(el('tr', { 'data-row': label.toLowerCase().replace(/[^a-z]+/g, '-') }, el('th', { scope: 'row', text: label }),
      ...cols.map(c => el('td', { class: label.endsWith(' at') ? null : 'num', text: cell(c) }))));
  }
  table.tBodies[0]?.remove();
  table.append(tbody);
  const g = body.grpc;
  $('compare-caption').textContent = `The same ${count(cols[0].requests)} requests and faults under each profile. `
    + `gRPC: ${g.implementation}, from ${g.origin}${g.notes.length ? ` (${g.notes.join('; ')})` : ''}. `
    + `Gateway: ${body.gateway}.`
    + cols.map(c => c.profile.split(' ')[0])
      .filter(p => !['envoy', 'grpc', 'gateway'].includes(p) && typeof body[p] === 'string')
      .map(p => ` ${SERVER_NAMES[p] ?? p}: ${body[p]}.`).join('');
  $('compare-wrap').hidden = false;
}

function times(at) {
  if (!at.length) return '–';
  const shown = at.slice(0, TIMES_SHOWN).map(t => t.replace('@', ' @ '));
  return shown.join(', ') + (at.length > TIMES_SHOWN ? ` +${at.length - TIMES_SHOWN}` : '');
}
