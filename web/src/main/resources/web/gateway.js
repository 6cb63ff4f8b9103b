// The gateway profile's view (the outlier stage of an LLM or API gateway): its controls (from GET
// /api/settings, like the Envoy ones), the statements of docs/gateway-comparisons.md as presets, a run on
// every change, and the result: headline figures, the decisions with their numbers, the "why not" notes, a timeline per endpoint and process, and per-second charts. The
// URL's hash carries {"profile": "gateway", ...what differs from the gateway defaults}; Export JSON gives a
// file that `outlier-lab run` reads (its "inputs" are the scenario).

import { EXPORT_SCHEMA, download, postRun, slug } from './api.js';
import { applyNumber, field, markField, markRefusedKey, shownValue } from './fields.js';
import { describeTimeline, drawGatewayCharts, resizeGatewayCharts } from './gateway-charts.js';
import { count, el, hostCount, percent, secs } from './render.js';
import { clone, diff, merge, normalize, setPath } from './scenario.js';

const TYPING_DEBOUNCE_MS = 150;
const TABLE_PAGE = 500;
const DECISIONS = { eject: 'ejected', would_eject: 'would eject', return: 'returned' };
const REASONS = { consecutive: 'consecutive failures', success_rate: 'success rate' };

const $ = id => document.getElementById(id);
const gw = { settings: null, defaults: null, draft: null, result: null, lastFault: null, seq: 0, edits: 0,
  runs: 0, abort: null, timer: null, hooks: null };
const controls = [];
window.outlierLabGateway = gw;

/** Builds the gateway's presets and controls; {@code hooks.writeHash(hash)} updates the address when shown. */
export function initGateway(settings, hooks) {
  gw.settings = settings.gateway;
  gw.hooks = hooks;
  gw.defaults = normalize(gw.settings.defaults);
  gw.lastFault = clone(gw.defaults.faults[0]);
  buildPresets();
  buildControls();
  new ResizeObserver(() => resizeGatewayCharts()).observe($('gw-charts'));
}

/** Shows a scenario: a partial one (a link's keys) merged over the gateway defaults, or a canonical one. */
export function showGatewayScenario(partial) {
  gw.edits++;
  gw.draft = merge(gw.defaults, partial);
  if (partial.faults) gw.draft.faults = clone(partial.faults);
  gw.draft.profile = 'gateway';
  showDraft();
  return run();
}

/** Shows the last result (or runs the defaults) when the page switches to this profile. */
export function activateGateway() {
  if (!gw.draft) return showGatewayScenario({});
  if (gw.result) {
    writeHash(gw.result.scenario);
    drawCharts(gw.result);
  }
  return Promise.resolve();
}

export function resetGateway() {
  return showGatewayScenario({});
}

export function gatewayHash(scenario) {
  const d = diff(normalize(scenario), gw.defaults);
  delete d.profile;
  return `#scenario=${encodeURIComponent(JSON.stringify({ profile: 'gateway', ...d }))}`;
}

export function exportGateway(flash) {
  const r = gw.result;
  if (!r) return;
  const doc = {
    schema: EXPORT_SCHEMA,
    tool: 'outlier-lab',
    profile: 'gateway',
    model: 'the outlier stage of an LLM or API gateway: a rolling window, 2 standard deviations, the hard trip',
    link: location.href,
    inputs: r.scenario,
    summary: r.summary,
    events: r.events,
    notes: r.notes,
    timeline: r.timeline,
  };
  const name = download(doc, `outlier-lab-gateway-${slug(r.scenario.name)}.json`);
  flash(`Exported ${count(r.events.length)} decisions as ${name}; outlier-lab run ${name} runs it again.`);
}

// ---- controls ---------------------------------------------------------------------------------------

function buildControls() {
  const form = $('gw-controls');
  const groups = new Map();
  for (const def of gw.settings.controls) {
    if (!groups.has(def.group)) {
      const fs = el('fieldset', { class: 'group' }, el('legend', { text: def.group }));
      groups.set(def.group, fs);
      form.append(fs);
    }
    groups.get(def.group).append(field(def, onControl, controls));
  }
  groups.get('Fault')?.append(el('p', { id: 'gw-fault-note', class: 'note', hidden: true }));
  form.addEventListener('submit', ev => ev.preventDefault());
}

function showDraft() {
  const s = gw.draft;
  const fault = s.faults[0];
  for (const { def, input } of controls) {
    if (document.activeElement === input && input.tagName === 'INPUT') continue;
    const text = shownValue(def, s, gw.lastFault);
    if (input.value !== text) input.value = text;
    if (def.path.startsWith('faults[0].')) input.disabled = !fault;
    if (def.kind === 'weights') input.disabled = s.routing.strategy !== 'weighted';
  }
  const notes = [];
  if (!fault) notes.push('No fault: raise "Faulty endpoints" to add one.');
  if (s.faults.length > 1) notes.push(`This scenario has ${s.faults.length} faults; these controls edit the first.`);
  if (fault && Array.isArray(fault.hosts)) notes.push(`The first fault names its endpoints: ${fault.hosts.join(', ')}.`);
  if (Array.isArray(s.cluster.hosts)) notes.push(`Endpoints: ${s.cluster.hosts.join(', ')}.`);
  const note = $('gw-fault-note');
  note.textContent = notes.join(' ');
  note.hidden = !notes.length;
}

function onControl(def, input, commit) {
  gw.edits++;
  const s = gw.draft;
  if (input.type === 'number' && (input.value === '' || !input.checkValidity())) {
    refuse(def, input, input.validationMessage || 'enter a number');
    return;
  }
  markField(input, null);
  if (def.kind === 'choice') {
    setPath(s, def.path, input.value);
    if (def.path === 'routing.strategy') {
      s.routing.weights = input.value === 'weighted' ? Array(hostCount(s)).fill(1) : [];
    }
  } else if (def.kind === 'weights') {
    const parts = input.value.split(/[\s,]+/).filter(Boolean);
    if (parts.some(p => !/^[0-9]+$/.test(p))) {
      refuse(def, input, 'whole numbers separated by commas, one per endpoint');
      return;
    }
    s.routing.weights = parts.map(Number);
  } else {
    const v = Number(input.value);
    if (!applyNumber(def, v, s, gw)) return;
    if (def.path === 'cluster.hosts' && s.routing.strategy === 'weighted') {
      s.routing.weights = Array.from({ length: v }, (_, i) => s.routing.weights[i] ?? 1);
    }
  }
  clearTimeout(gw.timer);
  if (commit) run();
  else gw.timer = setTimeout(run, TYPING_DEBOUNCE_MS);
}

/**
 * A value the control refuses: its message next to the control and above the results, which stay dimmed as
 * not current until a run of valid values replaces them.
 */
function refuse(def, input, why) {
  why = why.replace(/\.$/, '');
  clearTimeout(gw.timer);
  gw.abort?.abort();
  setBusy(false);
  markField(input, why);
  showError(`${def.label}: ${why}. The results below are for the last valid values, not the ones shown.`);
}

// ---- running ----------------------------------------------------------------------------------------

async function run() {
  clearTimeout(gw.timer);
  const seq = ++gw.seq;
  gw.abort?.abort();
  const abort = new AbortController();
  gw.abort = abort;
  const edits = gw.edits;
  setBusy(true);
  let answer;
  try {
    answer = await postRun(gw.draft, abort.signal);
  } catch (e) {
    if (e.name === 'AbortError') return;
    if (seq === gw.seq) { setBusy(false); showError(`The lab server did not answer (${e.message}). Is outlier-lab serve still running?`); }
    return;
  }
  if (seq !== gw.seq) return;
  setBusy(false);
  if (!answer.ok) {
    showError(answer.error);
    markRefusedKey(controls, answer.error);
    return;
  }
  showError(null);
  render(answer.body, edits, seq);
}

function render(result, edits, seq) {
  gw.result = result;
  if (edits === gw.edits) {
    gw.draft = normalize(result.scenario);
    if (gw.draft.faults.length) gw.lastFault = clone(gw.draft.faults[0]);
    showDraft();
  }
  const endpoints = hostCount(result.scenario);
  $('gw-endpoint-count').textContent = endpoints === 1 ? '1 endpoint' : `${count(endpoints)} endpoints`;
  renderMetrics(result);
  $('gw-story').replaceChildren(...story(result).map(line => el('li', { text: line })));
  $('gw-notes').replaceChildren(...(result.notes.length ? result.notes : ['Nothing to explain: no rule was kept from firing.'])
    .map(line => el('li', { text: line })));
  renderTable(result, TABLE_PAGE);
  markPresets();
  requestAnimationFrame(() => setTimeout(() => {
    if (seq !== gw.seq) return;
    writeHash(result.scenario);
    drawCharts(result);
    gw.runs++;
    document.body.dataset.gwRuns = String(gw.runs);
  }, 0));
}

function drawCharts(result) {
  if (document.body.dataset.profile !== 'gateway') return;
  drawGatewayCharts(result, { timeline: $('gw-chart-timeline'), attempts: $('gw-chart-attempts'), failed: $('gw-chart-failed') });
  $('gw-timeline-desc').textContent = describeTimeline(result);
}

function writeHash(scenario) {
  if (document.body.dataset.profile === 'gateway') gw.hooks.writeHash(gatewayHash(scenario));
}

function setBusy(busy) {
  $('gw-results').setAttribute('aria-busy', String(busy));
  document.body.classList.toggle('busy', busy);
}

export function showError(message) {
  const box = $('gw-error');
  box.hidden = !message;
  box.textContent = message ?? '';
  document.body.classList.toggle('stale', Boolean(message));
  if (!message) for (const m of $('gw-controls').querySelectorAll('.field-msg')) markField(m.closest('.field').querySelector('input, select'), null);
}

// ---- words and numbers ------------------------------------------------------------------------------

function renderMetrics(result) {
  const s = result.summary;
  const shadow = s.mode === 'shadow';
  const ejections = s.ejections.consecutive + s.ejections.success_rate;
  const items = [
    ['requests', 'Requests', count(s.requests), `${count(s.attempts)} attempts`, 'Requests sent; attempts include fallbacks.'],
    ['failed-requests', 'Failed requests', count(s.failed_requests), `${percent(s.requests ? s.failed_requests * 100 / s.requests : 0)} % of requests`,
      'Requests whose last attempt failed: what the caller saw.'],
    ['failed-during-the-fault', 'Failed during the fault', `${percent(s.failed_percent_during_fault)} %`,
      `${count(s.failed_requests_during_fault)} of ${count(s.requests_during_fault)}`, 'Share of requests sent while a fault was active that failed.'],
    ['failed-attempts', 'Failed attempts', count(s.failed_attempts), null, 'Attempts that failed, fallbacks included.'],
    ['ejections', shadow ? 'Would-ejections' : 'Ejections', count(ejections),
      `consecutive ${count(s.ejections.consecutive)}, success rate ${count(s.ejections.success_rate)}`,
      shadow ? 'Virtual ejections: what prod would have done; nothing was removed.' : 'Endpoints taken out of rotation, by rule.'],
    ['returns', 'Returns', count(s.returns), null, 'Endpoints back in rotation after ejection_time, with an empty window.'],
    ['stages', shadow ? 'would_eject stages' : 'eject stages', count(shadow ? s.would_eject_stages : s.eject_stages),
      `kept_all ${count(s.kept_all_stages)}`, shadow ? 'Requests whose list prod would have shortened.'
        : 'Requests whose candidate list lost an ejected endpoint; kept_all: the guard kept every endpoint.'],
  ];
  $('gw-metrics').replaceChildren(...items.map(([key, label, value, sub, hint]) => el('div', { class: 'metric', 'data-metric': key, title: hint },
    el('dt', { text: label }), el('dd', { text: value }), sub ? el('dd', { class: 'metric-sub', text: sub }) : null)));
}

function story(result) {
  const s = result.summary;
  const sc = result.scenario;
  const lines = [];
  const first = result.events.find(e => e.action !== 'return');
  const n = s.ejections.consecutive + s.ejections.success_rate;
  if (sc.gateway.mode === 'off') lines.push('Mode off: the stage does nothing and records nothing.');
  else if (!first) lines.push('No endpoint was ejected (see why not, below).');
  else if (sc.gateway.mode === 'shadow') {
    lines.push(`Shadow: nothing was removed; prod would have ejected ${count(n)} time${n === 1 ? '' : 's'}. The first: ${first.explanation}`);
  } else {
    lines.push(`${count(n)} ejection${n === 1 ? '' : 's'}. The first: ${first.explanation}`);
  }
  const names = Object.keys(s.endpoints);
  const shares = names.slice(0, 8).map(name => {
    const e = s.endpoints[name];
    const out = e.ejected_seconds_per_process.reduce((a, b) => a + b, 0);
    return `${name} ${percent(e.attempt_share_percent)} %${out > 0 ? `, out ${secs(out)}` : ''}`;
  });
  lines.push(`Attempts by endpoint: ${shares.join('; ')}${names.length > 8 ? `; and ${names.length - 8} more` : ''}.`);
  return lines;
}

function renderTable(result, limit) {
  const table = $('gw-events-table');
  const events = result.events;
  const body = el('tbody');
  const n = Math.min(events.length, limit);
  for (let i = 0; i < n; i++) {
    const e = events[i];
    body.append(el('tr', { class: `ev ev-${e.action}`, 'data-index': String(i), 'aria-label': e.explanation },
      el('td', { class: 'num', text: secs(e.time) }),
      el('td', { text: e.endpoint }),
      el('td', { class: 'num', text: String(e.process) }),
      el('td', {}, el('span', { class: `badge badge-${e.action}`, text: DECISIONS[e.action] ?? e.action })),
      el('td', { text: REASONS[e.reason] ?? '' }),
      el('td', { text: e.explanation })));
  }
  if (!events.length) {
    body.append(el('tr', {}, el('td', { colspan: '6', class: 'empty', text: 'No ejections or returns: see why not, above.' })));
  }
  table.tBodies[0]?.remove();
  table.append(body);
  const caption = $('gw-events-caption');
  caption.replaceChildren(`${count(events.length)} decision${events.length === 1 ? '' : 's'}`
    + (events.length > n ? `, showing the first ${count(n)}` : ''));
  if (events.length > n) {
    caption.append(' ', el('button', { type: 'button', class: 'link', text: `Show all ${count(events.length)}`,
      onclick: () => renderTable(result, Infinity) }));
  }
}

// ---- presets ----------------------------------------------------------------------------------------

function buildPresets() {
  const list = $('gw-preset-list');
  for (const p of gw.settings.presets) {
    const hintId = `gph-${p.id}`;
    list.append(el('li', {}, el('button', { type: 'button', class: 'preset', 'data-gw-preset': p.id, 'aria-pressed': 'false',
      'aria-describedby': hintId, onclick: () => applyPreset(p) }, p.label),
    el('span', { class: 'hint', id: hintId, role: 'tooltip', text: `${p.hint}${p.sets.length ? ` (--set ${p.sets.join(' ')})` : ''}` })));
  }
}

function applyPreset(p) {
  gw.edits++;
  gw.draft = normalize(p.scenario);
  showDraft();
  run();
}

function markPresets() {
  const now = JSON.stringify(diff(normalize(gw.result.scenario), gw.defaults));
  for (const p of gw.settings.presets) {
    const b = document.querySelector(`[data-gw-preset="${p.id}"]`);
    b.setAttribute('aria-pressed', String(JSON.stringify(diff(normalize(p.scenario), gw.defaults)) === now));
  }
}
