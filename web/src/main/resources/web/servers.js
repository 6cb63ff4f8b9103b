// The proxies' own passive checks in the page (nginx's upstream block, HAProxy's backend, Caddy's
// reverse_proxy): the block's controls as GET /api/settings describes them, under each server's own names, a
// few traffic and fault controls shared by the three, a run on every change (POST /api/run, the same JSON as
// `outlier-lab run --format json`), and its result: requests, what clients saw, ejections and returns with
// each server's reason. The URL's hash carries {"profile": "nginx", ...the scenario}.

import { EXPORT_SCHEMA, download, postRun, slug } from './api.js';
import { markField } from './fields.js';
import { count, el, percent } from './render.js';

const TYPING_DEBOUNCE_MS = 150;
const NAMES = { nginx: 'nginx', haproxy: 'HAProxy', caddy: 'Caddy' };
const BLOCK_HOSTS = { nginx: 'servers', haproxy: 'servers', caddy: 'upstreams' };
/** The traffic and fault controls every server profile shares: scenario path, label, default, bounds. */
const SHARED = [
  { id: 'hosts', label: 'Servers', path: ['cluster', 'hosts'], value: 3, min: 1, max: 50 },
  { id: 'faulty', label: 'Faulty servers', path: ['faults', 0, 'hosts'], value: 1, min: 0, max: 50 },
  { id: 'error_rate', label: 'Error rate (%)', path: ['faults', 0, 'error_rate'], value: 100, min: 0, max: 100 },
  { id: 'status', label: 'Status answered', path: ['faults', 0, 'status'], value: 503, min: 100, max: 599 },
  { id: 'rps', label: 'Requests per second', path: ['traffic', 'rps'], value: 10, min: 1, max: 10000 },
  { id: 'duration', label: 'Duration (s)', path: ['duration'], value: 60, min: 1, max: 3600 },
];

const $ = id => document.getElementById(id);
const srv = { settings: null, profile: null, values: {}, inputs: new Map(), result: null, seq: 0, runs: 0,
  abort: null, timer: null, hooks: null };
window.outlierLabServers = srv;

/** Keeps the settings; {@code hooks.writeHash(hash)} updates the address. */
export function initServers(settings, hooks) {
  srv.settings = settings;
  srv.hooks = hooks;
  $('srv-controls').addEventListener('submit', ev => ev.preventDefault());
}

/** Whether {@code p} is one of the server profiles this view shows. */
export function isServerProfile(p) {
  return p in NAMES;
}

/** Shows profile {@code p}'s controls (the defaults, or a link's values over them) and runs it. */
export function activateServer(p, partial = null) {
  if (srv.profile !== p || partial) {
    srv.profile = p;
    srv.values = defaults(p);
    if (partial) Object.assign(srv.values, partial.values ?? {});
    buildControls();
  }
  return run();
}

export function resetServer() {
  return activateServer(srv.profile, { values: {} });
}

/** Downloads the scenario with its summary and events; {@code outlier-lab run FILE} reads its "inputs". */
export function exportServer(flash) {
  const r = srv.result;
  if (!r) return;
  const doc = { schema: EXPORT_SCHEMA, tool: 'outlier-lab', profile: srv.profile, link: location.href,
    inputs: scenarioOf(srv.profile, srv.values), summary: r.summary, servers: r.servers, events: r.events };
  const name = download(doc, `outlier-lab-${srv.profile}-${slug(r.scenario.name)}.json`);
  flash(`Exported ${count(r.events.length)} decisions as ${name}; outlier-lab run ${name} runs it again.`);
}

/** The link's hash for the values shown: only what differs from the defaults. */
function hash() {
  const d = defaults(srv.profile);
  const values = {};
  for (const [k, v] of Object.entries(srv.values)) if (JSON.stringify(v) !== JSON.stringify(d[k])) values[k] = v;
  return `#scenario=${encodeURIComponent(JSON.stringify({ profile: srv.profile, values }))}`;
}

function defaults(p) {
  const values = {};
  for (const s of SHARED) values[s.id] = s.value;
  for (const c of srv.settings[p].controls) values[c.key] = c.default;
  return values;
}

// ---- controls ---------------------------------------------------------------------------------------

function buildControls() {
  const p = srv.profile;
  srv.inputs.clear();
  const block = el('fieldset', { class: 'group' }, el('legend', { text: `${NAMES[p]}'s settings` }));
  for (const c of srv.settings[p].controls) block.append(control(c.key, c.key.slice(p.length + 1), c.kind, c.help));
  const traffic = el('fieldset', { class: 'group' }, el('legend', { text: 'Traffic and fault' }));
  for (const s of SHARED) traffic.append(control(s.id, s.label, 'integer', null, s));
  $('srv-controls').replaceChildren(block, traffic);
}

function control(key, label, kind, help, bounds = {}) {
  const id = `srv-${key.replace(/[^a-z0-9_]/gi, '-')}`;
  const v = srv.values[key];
  let input;
  if (kind === 'boolean') {
    input = el('input', { type: 'checkbox', id, name: key });
    input.checked = Boolean(v);
  } else if (kind === 'integer') {
    input = el('input', { type: 'number', id, name: key, step: '1', min: String(bounds.min ?? 0), max: bounds.max == null ? null : String(bounds.max) });
    input.value = String(v);
  } else {
    input = el('input', { type: 'text', id, name: key, spellcheck: 'false' });
    input.value = Array.isArray(v) ? v.join(' ') : String(v);
  }
  const hintId = `${id}-hint`;
  if (help) input.setAttribute('aria-describedby', hintId);
  input.addEventListener(kind === 'boolean' ? 'change' : 'input', () => onControl(key, kind, input, kind === 'boolean'));
  input.addEventListener('change', () => onControl(key, kind, input, true));
  srv.inputs.set(key, input);
  const box = el('div', { class: kind === 'boolean' ? 'field toggle' : 'field' });
  if (kind === 'boolean') box.append(input, el('label', { for: id, text: label }));
  else box.append(el('label', { for: id, text: label }), input);
  if (help) box.append(el('span', { class: 'hint', id: hintId, role: 'tooltip', text: help }));
  return box;
}

function onControl(key, kind, input, commit) {
  if (kind === 'boolean') srv.values[key] = input.checked;
  else if (kind === 'integer') {
    if (input.value === '' || !input.checkValidity()) {
      refuse(input, input.validationMessage || 'enter a whole number');
      return;
    }
    srv.values[key] = Number(input.value);
  } else if (kind === 'words' || kind === 'statuses') {
    srv.values[key] = input.value.split(/[\s,]+/).filter(Boolean);
  } else srv.values[key] = input.value.trim();
  markField(input, null);
  clearTimeout(srv.timer);
  if (commit) run();
  else srv.timer = setTimeout(run, TYPING_DEBOUNCE_MS);
}

function refuse(input, why) {
  clearTimeout(srv.timer);
  srv.abort?.abort();
  setBusy(false);
  markField(input, why.replace(/\.$/, ''));
  showError('The results below are for the last valid values, not the ones shown.');
}

// ---- running ----------------------------------------------------------------------------------------

/** The scenario file the values describe, as {@code outlier-lab run FILE} reads it. */
export function scenarioOf(p, values) {
  const v = values;
  const faulty = Math.min(v.faulty, v.hosts);
  const block = {};
  for (const c of srv.settings[p].controls) block[c.key.slice(p.length + 1)] = v[c.key];
  return {
    name: `${p}-lab`, duration: `${v.duration}s`, seed: 7, traffic: { rps: v.rps }, cluster: { hosts: v.hosts },
    faults: faulty > 0 ? [{ hosts: faulty, start: '0s', end: `${v.duration}s`, error_rate: v.error_rate, status: v.status }] : [],
    profile: p, [p]: block,
  };
}

async function run() {
  clearTimeout(srv.timer);
  const seq = ++srv.seq;
  srv.abort?.abort();
  const abort = new AbortController();
  srv.abort = abort;
  setBusy(true);
  let answer;
  try {
    answer = await postRun(scenarioOf(srv.profile, srv.values), abort.signal);
  } catch (e) {
    if (e.name === 'AbortError') return;
    if (seq === srv.seq) { setBusy(false); showError(`The lab server did not answer (${e.message}). Is outlier-lab serve still running?`); }
    return;
  }
  if (seq !== srv.seq) return;
  setBusy(false);
  if (!answer.ok) {
    showError(answer.error);
    markNamedField(answer.error);
  } else {
    showError(null);
    render(answer.body);
  }
  srv.runs++;
  document.body.dataset.srvRuns = String(srv.runs);
}

/** Puts the server's message next to the control it names ("nginx.max_fails: ..."), if it names one. */
function markNamedField(message) {
  const named = [...srv.inputs.entries()].find(([key]) => key.includes('.') && message.includes(`${key}:`));
  if (named) markField(named[1], message.replace(/^[^:]*:[0-9]+: /, ''));
}

function render(result) {
  srv.result = result;
  const s = result.summary;
  const returns = result.events.filter(e => e.action !== 'eject').length;
  const items = [
    ['requests', 'Requests', count(s.requests), null],
    ['client-errors', 'Client-visible 5xx', count(s.client_errors), `${percent(s.client_error_percent)} % of requests`],
    ['ejections', 'Ejections', count(s.ejections), null],
    ['returns', 'Returns', count(returns), null],
    ['none-left', 'No server left', count(s.none_left), 'requests answered 502 with every server out'],
  ];
  $('srv-metrics').replaceChildren(...items.map(([key, label, value, sub]) => el('div', { class: 'metric', 'data-metric': key },
    el('dt', { text: label }), el('dd', { text: value }), sub ? el('dd', { class: 'metric-sub', text: sub }) : null)));
  const shares = result.servers.map(x => `${x.host} ${count(x.attempts)} attempts, out ${count(x.ejections)} time${x.ejections === 1 ? '' : 's'}`);
  $('srv-story').replaceChildren(el('li', { text: s.ejections ? `${count(s.ejections)} ejection${s.ejections === 1 ? '' : 's'}; clients saw ${count(s.client_errors)} errors.`
    : `No server was taken out; clients saw ${count(s.client_errors)} errors.` }), el('li', { text: `By server: ${shares.join('; ')}.` }));
  const body = el('tbody');
  for (const e of result.events) {
    body.append(el('tr', { class: `ev ev-${e.action}` }, el('td', { class: 'num', text: e.time }), el('td', { text: e.host }),
      el('td', {}, el('span', { class: `badge badge-${e.action === 'eject' ? 'eject' : 'return'}`, text: e.action === 'eject' ? 'ejected' : 'returned' })),
      el('td', { text: e.reason })));
  }
  if (!result.events.length) body.append(el('tr', {}, el('td', { colspan: '4', class: 'empty', text: 'No ejections or returns.' })));
  const table = $('srv-events-table');
  table.tBodies[0]?.remove();
  table.append(body);
  $('srv-events-caption').textContent = `${count(result.events.length)} decision${result.events.length === 1 ? '' : 's'}, each with ${NAMES[srv.profile]}'s reason`;
  if (document.body.dataset.profile === srv.profile) srv.hooks.writeHash(hash());
}

function setBusy(busy) {
  $('srv-results').setAttribute('aria-busy', String(busy));
  document.body.classList.toggle('busy', busy);
}

function showServerError(message) {
  const box = $('srv-error');
  box.hidden = !message;
  box.textContent = message ?? '';
  document.body.classList.toggle('stale', Boolean(message));
}

function showError(message) {
  showServerError(message);
  if (!message) for (const input of srv.inputs.values()) markField(input, null);
}
