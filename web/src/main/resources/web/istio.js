// The lab's Istio mode: paste or load a DestinationRule, choose its cluster (the rule's, a subset's, a port's),
// see istiod's translation field by field, edit the rule's own outlierDetection fields, run the lab with what
// istiod sends (POST /api/istio, then the page's usual run), and export the changed rule: the same file with only
// that block replaced. Istio's defaults are the lab's in this mode: only the fields istiod sets are sent, so an
// unset maxEjectionTime follows Envoy's max(300 s, baseEjectionTime), success rate is off, and the panic
// threshold is minHealthPercent.

import { el } from './render.js';

const $ = id => document.getElementById(id);
const FIELDS = ['consecutive5xxErrors', 'consecutiveGatewayErrors', 'interval', 'baseEjectionTime',
  'maxEjectionPercent', 'minHealthPercent', 'splitExternalLocalOriginErrors', 'consecutiveLocalOriginFailures'];

const mode = { rule: null, cluster: null, fields: null, answer: null, apply: null, showError: null };

/**
 * @param apply     (outlierDetection, panicThreshold, hosts) => puts istiod's settings into the page's scenario and runs it
 * @param showError (message or null) => shows a problem above the results
 */
export function initIstio({ apply, showError }) {
  mode.apply = apply;
  mode.showError = showError;
  $('istio-use').addEventListener('click', () => load($('istio-rule').value, null, null));
  $('istio-load').addEventListener('click', () => $('istio-file').click());
  $('istio-file').addEventListener('change', async ev => {
    const file = ev.target.files[0];
    ev.target.value = '';
    if (!file) return;
    $('istio-rule').value = await file.text();
    await load($('istio-rule').value, null, null);
  });
  $('istio-cluster').addEventListener('change', () => load(mode.rule, $('istio-cluster').value, null));
  $('istio-hosts').addEventListener('change', () => { if (mode.answer) send(); });
  for (const id of ['istio-zones', 'istio-caller-zones']) {
    $(id).addEventListener('change', () => { if (mode.answer) send(); });
  }
  $('istio-export').addEventListener('click', exportRule);
}

/** Whether a rule is loaded: the page then runs istiod's settings. */
export function istioActive() {
  return mode.answer != null;
}

async function load(rule, cluster, fields) {
  const body = { rule };
  if (cluster) body.cluster = cluster;
  if (fields) body.fields = fields;
  const res = await fetch('/api/istio', { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body) });
  const answer = await res.json().catch(() => ({ error: `The server answered ${res.status}.` }));
  if (!res.ok || answer.error) {
    mode.showError(`DestinationRule: ${answer.error}`);
    $('istio-status').textContent = answer.error;
    return false;
  }
  mode.showError(null);
  mode.rule = rule;
  mode.cluster = answer.cluster;
  mode.fields = answer.fields;
  mode.answer = answer;
  if (answer.rule) mode.changed = answer.rule;
  else mode.changed = null;
  showRule(answer);
  send();
  return true;
}

function send() {
  const a = mode.answer;
  const routing = a.routing && { ...a.routing, zones: zoneList('istio-zones'), caller_zones: zoneList('istio-caller-zones') };
  mode.apply(a.outlier_detection, a.panic_threshold, Number($('istio-hosts').value), routing);
}

/** A comma- or space-separated list of zones from an input; empty when blank. */
function zoneList(id) {
  return $(id).value.split(/[\s,]+/).filter(z => z !== '');
}

function showRule(a) {
  const select = $('istio-cluster');
  select.replaceChildren(...a.clusters.map(c => el('option', { value: c, text: c })));
  select.value = a.cluster;
  const r = a.routing;
  $('istio-status').textContent = `${a.cluster} (${a.host}): ${a.scope}. Only what istiod sets is sent to the lab; `
    + 'every other field keeps Envoy\'s default, as in the mesh.'
    + (r ? ` istiod's routing: ${r.lb_policy.replace('_', ' ')}; retries ${r.retries_text}; locality failover `
      + `${r.locality_failover ? 'on (the rule has outlierDetection): give the pods\' and callers\' zones to see it' : 'off'}.`
      + r.not_modelled.map(n => ` Not modelled: ${n}.`).join('') : '');
  const form = $('istio-fields');
  form.replaceChildren();
  for (const name of FIELDS) {
    const id = `istio-f-${name}`;
    const value = a.fields[name];
    const input = el('input', { id, type: 'text', 'data-istio-field': name, value: value == null ? '' : String(value),
      placeholder: 'unset' });
    input.addEventListener('change', edited);
    form.append(el('div', { class: 'field' }, el('label', { for: id, text: name }), input));
  }
  const rows = a.translation.map(t => el('tr', {}, el('td', { text: t.envoy }), el('td', { text: t.value }),
    el('td', { text: t.from })));
  $('istio-translation').querySelector('tbody').replaceChildren(...rows);
  $('istio-panel').hidden = false;
}

/** A field edited: the rule's block with the inputs' values, read again by istiod's rules. */
async function edited() {
  const fields = {};
  for (const name of FIELDS) {
    const text = $(`istio-f-${name}`).value.trim();
    if (text === '') continue;
    fields[name] = /^-?\d+$/.test(text) ? Number(text) : text === 'true' ? true : text === 'false' ? false : text;
  }
  for (const [k, v] of Object.entries(mode.fields)) if (!FIELDS.includes(k)) fields[k] = v;
  await load(mode.rule, mode.cluster, fields);
}

function exportRule() {
  const text = mode.changed ?? mode.rule;
  if (!text) return;
  $('istio-exported').value = text;
  $('istio-exported').hidden = false;
  const blob = new Blob([text], { type: 'application/yaml' });
  const a = el('a', { href: URL.createObjectURL(blob), download: 'destination-rule.yaml' });
  document.body.append(a);
  a.click();
  a.remove();
}
