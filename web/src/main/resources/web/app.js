// The lab's page: builds the controls from GET /api/settings, keeps the scenario being edited, runs it with
// POST /api/run whenever a control changes (debounced while typing, at once on commit), and shows the
// result. The URL's hash carries the scenario (only what differs from the defaults), so a copied link
// reproduces the run. The profile switch shows the gRPC profile in the same view, with the grpc: block's
// controls instead of Envoy's (the hash then carries {"profile": "grpc", ...}), or the gateway profile's view
// (gateway.js, {"profile": "gateway", ...}). "Compare" runs the same traffic under each profile (compare.js).

import { EXPORT_SCHEMA, download, postHinges, postRun, serverTiming, slug } from './api.js';
import { compareProfiles } from './compare.js';
import { drawCharts, resizeCharts, setCursor } from './charts.js';
import { activateGateway, exportGateway, initGateway, resetGateway, showError as showGatewayError,
  showGatewayScenario } from './gateway.js';
import { activateServer, exportServer, initServers, isServerProfile, resetServer } from './servers.js';
import { applyNumber, field, markField, markRefusedKey, shownValue } from './fields.js';
import { initIstio } from './istio.js';
import { count, describeCharts, el, renderMetrics, renderTable, renderTrace, story } from './render.js';
import { PRESETS, clone, diff, getPath, merge, normalize, presetScenario, setPath } from './scenario.js';
import { renderRouting } from './zones.js';

const TYPING_DEBOUNCE_MS = 150;

const $ = id => document.getElementById(id);
const lab = {
  settings: null,
  defaults: null,
  draft: null,       // the scenario the controls show (may be invalid while the user edits)
  result: null,      // the last successful run
  lastFault: null,   // the fault to restore when "faulty hosts" goes from 0 back up
  visible: 0,        // trace steps shown
  tracing: false,
  seq: 0,
  edits: 0,          // changes to the draft; a result adopts its canonical scenario only if none came since
  runs: 0,
  abort: null,
  timer: null,
  changeAt: null,
  timings: [],
};
window.outlierLab = lab;

main().catch(e => showError(`The lab could not start: ${e.message}`));

async function main() {
  document.body.dataset.profile = 'envoy';
  const res = await fetch('/api/settings');
  lab.settings = await res.json();
  lab.defaults = normalize(lab.settings.defaults);
  lab.defaults.grpc = clone(lab.settings.grpc.defaults);
  lab.lastFault = clone(lab.defaults.faults[0]);
  buildPresets();
  buildExamples();
  buildControls();
  initGateway(lab.settings, { writeHash: replaceHash });
  initServers(lab.settings, { writeHash: replaceHash });
  initIstio({ apply: applyIstio, showError });
  wireActions();
  new ResizeObserver(() => resizeCharts()).observe($('charts'));
  window.addEventListener('hashchange', () => loadFromHash());
  await loadFromHash();
  document.body.dataset.ready = 'true';
}

// ---- controls ---------------------------------------------------------------------------------------

const controls = [];   // { def, input }

// Controls shown in both the Envoy and the gRPC view; every other Envoy control is Envoy's only.
const SHARED_GROUPS = new Set(['Cluster and traffic', 'Fault']);
const ENVOY_ONLY = new Set(['cluster.panic_threshold', 'traffic.clients']);

function buildControls() {
  const form = $('controls');
  const groups = new Map();
  const add = (def, profiles) => {
    if (!groups.has(def.group)) {
      const fs = el('fieldset', { class: 'group', 'data-profile': profiles }, el('legend', { text: def.group }));
      groups.set(def.group, fs);
      form.append(fs);
    }
    const f = field(def, onControl, controls);
    if (ENVOY_ONLY.has(def.path)) f.dataset.profile = 'envoy';
    groups.get(def.group).append(f);
  };
  for (const def of lab.settings.controls) add(def, SHARED_GROUPS.has(def.group) ? 'envoy grpc' : 'envoy');
  for (const def of lab.settings.grpc.controls) add(def, 'grpc');
  groups.get('Fault').append(el('p', { id: 'fault-note', class: 'note', hidden: true }));
  const shown = new Set(lab.settings.controls.map(c => c.path));
  const more = el('details', { class: 'group more', 'data-profile': 'envoy' }, el('summary', { text: 'More Envoy settings' }));
  more.append(field({ id: 'seed', label: 'Seed', unit: '', path: 'seed', kind: 'count', min: -9e15, max: 9e15, step: 1,
    description: 'Seeds every random draw (enforcing percentages below 100, ejection jitter); the same seed gives the same run.' },
  onControl, controls));
  for (const s of lab.settings.outlier_detection) {
    const path = `outlier_detection.${s.name}`;
    if (shown.has(path)) continue;
    const kind = { duration: 'seconds', boolean: 'toggle', percent: 'count', count: 'count' }[s.kind];
    more.append(field({ id: s.name, label: s.name, unit: { duration: 's', percent: '%' }[s.kind] ?? '', path, kind,
      min: 0, max: s.kind === 'percent' ? 100 : 4294967295, step: 1, on: true, off: false,
      description: `${s.description} Allowed: ${s.allowed}.` }, onControl, controls));
  }
  form.append(more);
  form.addEventListener('submit', ev => ev.preventDefault());
}

/** Shows the draft's values, leaving alone the control the user is typing in. */
function showDraft() {
  const s = lab.draft;
  const fault = s.faults[0];
  for (const { def, input } of controls) {
    if (document.activeElement === input && input.type === 'number') continue;
    if (def.kind === 'toggle') {
      const v = getPath(s, def.path);
      input.checked = def.off === null ? v != null : def.on === true ? v === true : v !== def.off;
      continue;
    }
    const text = shownValue(def, s, lab.lastFault);
    if (input.value !== text) input.value = text;
  }
  for (const { def, input } of controls) {
    if (def.path.startsWith('faults[0].')) input.disabled = !fault;
    if (def.path.startsWith('health_checks.')) input.disabled = !s.health_checks;
    const block = grpcBlock(def.path);
    if (block) input.disabled = getPath(s, block) == null;
  }
  const note = $('fault-note');
  const notes = [];
  if (!fault) notes.push('No fault: raise "Faulty hosts" to add one.');
  if (s.faults.length > 1) notes.push(`This scenario has ${s.faults.length} faults; these controls edit the first.`);
  if (fault && Array.isArray(fault.hosts)) notes.push(`The first fault names its hosts: ${fault.hosts.join(', ')}.`);
  if (fault && fault.result) notes.push(`Failures are local-origin results (${fault.result}), not HTTP ${fault.status}.`);
  note.textContent = notes.join(' ');
  note.hidden = !notes.length;
}

function onControl(def, input, commit) {
  lab.changeAt = performance.now();
  lab.edits++;
  if (input.type === 'number' && (input.value === '' || !input.checkValidity())) {
    refuse(def, input, input.validationMessage || 'enter a number');
    return;
  }
  markField(input, null);
  const s = lab.draft;
  if (def.kind === 'toggle') {
    setPath(s, def.path, input.checked ? clone(def.on) : def.off);
  } else {
    if (!applyNumber(def, def.kind === 'choice' ? input.value : Number(input.value), s, lab)) return;
  }
  schedule(commit);
}

/**
 * A value the control refuses: its message next to the control and above the results, which stay dimmed as
 * not current until a run of valid values replaces them.
 */
function refuse(def, input, why) {
  why = why.replace(/\.$/, '');
  clearTimeout(lab.timer);
  lab.abort?.abort();
  setBusy(false);
  markField(input, why);
  showError(`${def.label}: ${why}. The results below are for the last valid values, not the ones shown.`);
}

// ---- running ----------------------------------------------------------------------------------------

/** For a control inside one of gRPC's algorithm blocks, the block's path (the block may be absent: off). */
function grpcBlock(path) {
  const m = /^(grpc\.(?:success_rate|failure_percentage)_ejection)\./.exec(path);
  return m ? m[1] : null;
}

function profile() {
  return document.body.dataset.profile;
}

/**
 * The draft as the server takes it under {@code p}: an Envoy scenario without the grpc block, or a profile: grpc
 * one without Envoy's health checks (gRPC has none).
 */
function runnable(p = profile()) {
  const s = clone(lab.draft);
  if (p === 'grpc') {
    delete s.health_checks;
    s.profile = 'grpc';
  } else {
    delete s.grpc;
    delete s.profile;
  }
  return s;
}

function schedule(now) {
  clearTimeout(lab.timer);
  if (now) run();
  else lab.timer = setTimeout(run, TYPING_DEBOUNCE_MS);
}

async function run() {
  clearTimeout(lab.timer);
  const seq = ++lab.seq;
  lab.abort?.abort();
  lab.hingesAbort?.abort();
  const abort = new AbortController();
  lab.abort = abort;
  const changeAt = lab.changeAt ?? performance.now();
  const edits = lab.edits;
  lab.changeAt = null;
  setBusy(true);
  let answer;
  const sent = performance.now();
  try {
    answer = await postRun(runnable(), abort.signal);
  } catch (e) {
    if (e.name === 'AbortError') return;
    if (seq === lab.seq) { setBusy(false); showError(`The lab server did not answer (${e.message}). Is outlier-lab serve still running?`); }
    return;
  }
  if (seq !== lab.seq) return;
  const answered = performance.now();
  setBusy(false);
  if (!answer.ok) {
    showError(answer.error);
    markRefusedKey(controls, answer.error);
    return;
  }
  showError(null);
  render(answer.body, { changeAt, sent, answered, simulated: serverTiming(answer.res), edits }, seq);
}

/**
 * Shows a result in two frames: the words and the table first, painted at once; the charts in the next
 * task. {@code lab.timings} records, from the control's change event: the frame that paints the table, the
 * server's share, and the frame that paints the charts.
 */
function render(result, t, seq) {
  lab.result = result;
  if (t.edits === lab.edits) {
    // Nothing changed while this ran: show the scenario as the server read it (every default filled in), keeping
    // what the other profile's view edits.
    const kept = lab.draft;
    lab.draft = normalize(result.scenario);
    if (result.profile === 'grpc') {
      delete lab.draft.profile;
      lab.draft.health_checks = kept.health_checks ?? null;
    } else {
      lab.draft.grpc = kept.grpc;
    }
    if (lab.draft.faults.length) lab.lastFault = clone(lab.draft.faults[0]);
    showDraft();
  }
  const n = result.events.length;
  lab.visible = lab.tracing ? Math.min(Math.max(lab.visible, 1), n) : n;
  if (n === 0) lab.tracing = false;
  renderMetrics($('metrics'), result);
  renderRouting(result);
  showPattern(result);
  if ($('compare-on').checked) compareProfiles(runnable(), seq, () => lab.seq);
  $('story').replaceChildren(...story(result).map(line => el('li', { text: line })));
  showHinges(result.hinges ?? []);
  if ((result.hinges ?? []).some(h => h.label === 'pattern')) compareHinges(result.scenario, seq);
  renderTable($('events-table'), $('events-caption'), result, pickStep);
  showTrace(false);
  markPresets();
  const domAt = performance.now();
  requestAnimationFrame(() => {
    const tableAt = performance.now();
    setTimeout(() => {
      if (seq !== lab.seq) return;
      writeHash(result.scenario);
      const shown = oneCaller(result);
      drawCharts(shown, { timeline: $('chart-timeline'), failed: $('chart-failed'), successRate: $('chart-sr'),
        signals: $('chart-signals') });
      $('timeline-desc').textContent = describeCharts(shown);
      const callers = result.summary.clients ?? 1;
      $('callers-note').hidden = callers === 1;
      $('callers-note').textContent = callers === 1 ? '' : `${count(callers)} callers, each its own detector: the `
        + 'timeline, the success rates and the signals are caller 0\'s view; requests and failures are the '
        + 'cluster\'s totals, and the ejected-hosts line is the most any caller had ejected.';
      setCursor(lab.tracing ? result.events[lab.visible - 1]?.time ?? null : null);
      requestAnimationFrame(() => {
        const timing = { tableMs: tableAt - t.changeAt, serverMs: t.answered - t.sent, simulateMs: t.simulated,
          domMs: domAt - t.answered,
          chartsMs: performance.now() - t.changeAt, run: lab.runs + 1 };
        lab.timings.push(timing);
        lab.runs++;
        document.body.dataset.runs = String(lab.runs);
        document.body.dataset.timing = `table ${Math.round(timing.tableMs)} ms, charts ${Math.round(timing.chartsMs)} ms, `
          + `server ${Math.round(timing.serverMs)} ms`;
      });
    }, 0);
  });
}

/** The footer says how the scenario's failures are spread, as the run read it. */
function showPattern(result) {
  const f = result.scenario.faults?.[0];
  const how = { even: 'spread evenly', random: 'at random', bursts: 'in bursts' };
  $('foot-pattern').textContent = !f ? 'there is no fault'
    : `the fault's failures come ${how[f.pattern ?? 'even'] ?? f.pattern} (the Fault controls' pattern)`;
}

/**
 * The Istio mode's settings into the scenario: istiod's outlier_detection as it is (the fields it does not set
 * stay Envoy's defaults), the panic threshold from minHealthPercent and the pods, istiod's routing (lb_policy,
 * the routes' retries, locality failover with the pods' and callers' zones, as run --istio applies them), then a run.
 */
function applyIstio(outlierDetection, panicThreshold, hosts, routing) {
  if (profile() !== 'envoy') setProfile('envoy', false);
  lab.changeAt = performance.now();
  lab.edits++;
  lab.draft.outlier_detection = clone(outlierDetection);
  lab.draft.cluster.panic_threshold = panicThreshold;
  if (Number.isInteger(hosts) && hosts >= 1) lab.draft.cluster.hosts = hosts;
  if (routing) applyIstioRouting(routing);
  lab.tracing = false;
  showDraft();
  schedule(true);
}

/** istiod's routing into the draft; zones only where given, failover only with zones for pods and callers. */
function applyIstioRouting(routing) {
  const { cluster, traffic } = lab.draft;
  cluster.lb_policy = routing.lb_policy;
  traffic.retries = clone(routing.retries);
  for (const [block, key, list] of [[cluster, 'zones', routing.zones], [traffic, 'caller_zones', routing.caller_zones]]) {
    if (list.length) block[key] = list;
    else delete block[key];
  }
  if (routing.locality_failover && routing.zones.length && routing.caller_zones.length) cluster.locality_failover = true;
  else delete cluster.locality_failover;
}

function showHinges(lines) {
  $('hinges').replaceChildren(...lines.map(h => el('li', { 'data-hinge': h.label },
    el('strong', { text: `${h.label}: ` }), h.text)));
}

/** Asks for the hinges with the other fault pattern run, after the run is shown; a newer run wins. */
async function compareHinges(scenario, seq) {
  lab.hingesAbort?.abort();
  const abort = new AbortController();
  lab.hingesAbort = abort;
  try {
    const lines = await postHinges(scenario, abort.signal);
    if (lines && seq === lab.seq) showHinges(lines);
  } catch (e) {
    // the comparison is extra: the run's own lines stay
  }
}

/** The result as caller 0 sees it, for the charts: its own decisions only (the summary stays the totals). */
function oneCaller(result) {
  if ((result.summary.clients ?? 1) === 1) return result;
  return { ...result, events: result.events.filter(e => e.client === 0) };
}

function setBusy(busy) {
  $('results').setAttribute('aria-busy', String(busy));
  document.body.classList.toggle('busy', busy);
}

function showError(message) {
  const box = $('error');
  box.hidden = !message;
  box.textContent = message ?? '';
  document.body.classList.toggle('stale', Boolean(message));
  if (!message) for (const m of $('controls').querySelectorAll('.field-msg')) markField(m.closest('.field').querySelector('input, select'), null);
}

// ---- trace ------------------------------------------------------------------------------------------

function traceParts() {
  return { slider: $('trace-slider'), position: $('trace-position'), next: $('trace-next'), all: $('trace-all'),
    start: $('trace-start'), list: $('trace-list'), detail: $('trace-detail') };
}

/** Shows the trace's visible steps; {@code moveCursor} false when the charts are about to be redrawn anyway. */
function showTrace(moveCursor = true) {
  if (!lab.result) return;
  renderTrace(traceParts(), lab.result, lab.visible, lab.tracing);
  const e = lab.tracing && lab.visible > 0 ? lab.result.events[lab.visible - 1] : null;
  if (moveCursor) setCursor(e ? e.time : null);
  for (const row of $('events-table').querySelectorAll('tr.current')) row.classList.remove('current');
  if (e) $('events-table').querySelector(`tr[data-index="${lab.visible - 1}"]`)?.classList.add('current');
}

function pickStep(i) {
  lab.tracing = true;
  lab.visible = i + 1;
  showTrace();
  $('trace').scrollIntoView({ block: 'nearest' });
}

// ---- the URL ----------------------------------------------------------------------------------------

function writeHash(scenario) {
  if (profile() === 'gateway') return;
  const d = diff(normalize(scenario), lab.defaults);
  replaceHash(Object.keys(d).length ? `#scenario=${encodeURIComponent(JSON.stringify(d))}` : '');
}

function replaceHash(hash) {
  if (hash !== location.hash) history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
}

/** Shows one profile's view; {@code show} false when the caller shows a scenario itself. */
function setProfile(profile, show = true) {
  document.body.dataset.profile = profile;
  for (const e of document.querySelectorAll('[data-profile]')) {
    if (e !== document.body) e.hidden = !e.dataset.profile.split(' ').includes(profile);
  }
  $(`profile-${profile}`).checked = true;
  if (!show) return;
  if (profile === 'gateway') activateGateway();
  else if (isServerProfile(profile)) activateServer(profile);
  else if (!lab.result || (lab.result.profile ?? 'envoy') !== profile) {
    lab.tracing = false;
    showDraft();
    run();
  } else {
    writeHash(lab.result.scenario);
    resizeCharts();
  }
}

async function loadFromHash() {
  const m = /^#scenario=(.*)$/.exec(location.hash);
  let partial = {};
  if (m) {
    try {
      partial = JSON.parse(decodeURIComponent(m[1]));
    } catch (e) {
      showError(`The link's scenario is not valid JSON (${e.message}); showing the defaults.`);
    }
  }
  if (partial.profile === 'gateway') {
    setProfile('gateway', false);
    await showGatewayScenario(partial);
    return;
  }
  if (isServerProfile(partial.profile)) {
    setProfile(partial.profile, false);
    await activateServer(partial.profile, partial);
    return;
  }
  const { profile: named, ...rest } = partial;
  setProfile(named === 'grpc' ? 'grpc' : 'envoy', false);
  lab.edits++;
  lab.draft = merge(lab.defaults, rest);
  if (partial.faults) lab.draft.faults = clone(partial.faults);
  showDraft();
  await run();
}

// ---- presets, reset, export, load, copy -------------------------------------------------------------

function buildPresets() {
  const list = $('preset-list');
  for (const p of PRESETS) {
    const hintId = `ph-${p.id}`;
    list.append(el('li', {}, el('button', { type: 'button', class: 'preset', 'data-preset': p.id, 'aria-pressed': 'false',
      'aria-describedby': hintId, onclick: () => applyPreset(p) }, p.label),
    el('span', { class: 'hint', id: hintId, role: 'tooltip', text: p.hint })));
  }
}

function applyPreset(p) {
  lab.changeAt = performance.now();
  lab.edits++;
  lab.draft = presetScenario(p, lab.defaults);
  lab.tracing = false;
  showDraft();
  schedule(true);
}

function markPresets() {
  const now = JSON.stringify(diff(normalize(lab.result.scenario), lab.defaults));
  for (const p of PRESETS) {
    const b = document.querySelector(`[data-preset="${p.id}"]`);
    b.setAttribute('aria-pressed', String(JSON.stringify(diff(presetScenario(p, lab.defaults), lab.defaults)) === now));
  }
}

function wireActions() {
  for (const radio of document.querySelectorAll('input[name=profile]')) {
    radio.addEventListener('change', () => { if (radio.checked) setProfile(radio.value); });
  }
  $('reset').addEventListener('click', () => (gateway() ? resetGateway() : server() ? resetServer() : applyPreset(PRESETS[0])));
  $('export').addEventListener('click', () => (gateway() ? exportGateway(flash) : server() ? exportServer(flash) : exportJson()));
  $('load').addEventListener('click', () => $('file').click());
  $('file').addEventListener('change', loadFile);
  $('copy-link').addEventListener('click', copyLink);
  $('compare-on').addEventListener('change', () => {
    $('compare-wrap').hidden = !$('compare-on').checked;
    if ($('compare-on').checked && lab.result) compareProfiles(runnable(), lab.seq, () => lab.seq);
    else $('compare-status').textContent = '';
  });
  $('trace-start').addEventListener('click', () => { lab.tracing = true; lab.visible = Math.min(1, lab.result.events.length); showTrace(); });
  $('trace-next').addEventListener('click', () => { lab.tracing = true; lab.visible = Math.min(lab.visible + 1, lab.result.events.length); showTrace(); });
  $('trace-all').addEventListener('click', () => { lab.tracing = false; lab.visible = lab.result.events.length; showTrace(); });
  $('trace-slider').addEventListener('input', ev => { lab.tracing = true; lab.visible = Number(ev.target.value); showTrace(); });
}

function server() {
  return isServerProfile(document.body.dataset.profile);
}

function gateway() {
  return document.body.dataset.profile === 'gateway';
}

function exportJson() {
  const r = lab.result;
  if (!r) return;
  const grpc = r.profile === 'grpc';
  const doc = {
    schema: EXPORT_SCHEMA,
    tool: 'outlier-lab',
    profile: grpc ? 'grpc' : 'envoy',
    model: grpc ? `gRPC outlier detection (${r.grpc.implementation}; grpc-java 1.85.1 OutlierDetectionLoadBalancer)`
      : 'Envoy v1.40.2 passive outlier detection',
    link: location.href,
    inputs: r.scenario,
    summary: r.summary,
    stats: r.stats,
    events: r.events,
  };
  const name = download(doc, `outlier-lab-${slug(r.scenario.name)}.json`);
  flash(`Exported ${count(r.events.length)} trace steps as ${name}.`);
}

async function loadFile(ev) {
  const file = ev.target.files[0];
  ev.target.value = '';
  if (!file) return;
  if (file.size > lab.settings.limits.max_body_bytes) {
    (gateway() ? showGatewayError : showError)(`${file.name} is ${count(file.size)} bytes, over the lab's limit of ${count(lab.settings.limits.max_body_bytes)}.`);
    return;
  }
  const text = await file.text();
  const res = await fetch(`/api/scenario?name=${encodeURIComponent(file.name)}`, { method: 'POST', body: text,
    headers: { 'Content-Type': 'application/yaml; charset=utf-8' } });
  const body = await res.json();
  if (!res.ok) {
    (gateway() ? showGatewayError : showError)(body.error);
    return;
  }
  if (body.scenario.profile === 'gateway') {
    setProfile('gateway', false);
    flash(`Loaded ${file.name}.`);
    await showGatewayScenario(body.scenario);
    return;
  }
  const named = body.scenario.profile === 'grpc' ? 'grpc' : 'envoy';
  if (profile() !== named) setProfile(named, false);
  lab.changeAt = performance.now();
  lab.edits++;
  const kept = lab.draft;
  lab.draft = normalize(body.scenario);
  delete lab.draft.profile;
  if (!lab.draft.grpc) lab.draft.grpc = clone(kept.grpc);
  if (!('health_checks' in lab.draft)) lab.draft.health_checks = kept.health_checks ?? null;
  lab.tracing = false;
  showDraft();
  flash(`Loaded ${file.name}.`);
  schedule(true);
}

// One button per named example (GET /api/settings lists them with their scenarios): stories where ejection hurts.
function buildExamples() {
  const list = $('example-list');
  for (const ex of lab.settings.examples || []) {
    const hintId = `ex-${ex.name}`;
    list.append(el('li', {}, el('button', { type: 'button', class: 'preset', 'data-example': ex.name,
      'aria-describedby': hintId, onclick: () => applyExample(ex) }, ex.name),
    el('span', { class: 'hint', id: hintId, role: 'tooltip', text: ex.summary })));
  }
}

function applyExample(ex) {
  lab.changeAt = performance.now();
  lab.edits++;
  const grpc = lab.draft.grpc;
  lab.draft = normalize(ex.scenario);
  lab.draft.grpc = grpc;
  lab.tracing = false;
  showDraft();
  flash(`Example ${ex.name}: ${ex.summary}.`);
  schedule(true);
}

async function copyLink() {
  try {
    await navigator.clipboard.writeText(location.href);
    flash('Link copied: it reproduces this run.');
  } catch {
    window.prompt('Copy this link; it reproduces this run:', location.href);
  }
}

function flash(text) {
  const s = $(gateway() ? 'gw-status' : server() ? 'srv-status' : 'status');
  s.textContent = text;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => { s.textContent = ''; }, 4000);
}
