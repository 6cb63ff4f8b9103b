// The scenario as the page edits it: nine controlled comparisons as changes from the defaults, and the
// small path and diff helpers the controls, presets and the URL use.

// Nine controlled comparisons, each a change from the defaults.
export const PRESETS = [
  { id: 'defaults', label: 'Defaults', hint: 'Six hosts, one failing 33 % of requests from 30 s to 240 s, Envoy\'s defaults: the 10 % cap refuses every ejection.', patch: {} },
  { id: 'cap-34', label: 'Cap 34 %', hint: 'max_ejection_percent 34: one host of six (16.7 %) now fits under the cap.', patch: { outlier_detection: { max_ejection_percent: 34 } } },
  { id: 'always-one', label: 'Always eject one host', hint: 'always_eject_one_host: the first ejection is allowed whatever the cap says.', patch: { outlier_detection: { always_eject_one_host: true } } },
  { id: 'cap-34-sr-off', label: 'Cap 34 %, success rate off', hint: 'A host failing one request in three never reaches five consecutive errors.', patch: { outlier_detection: { max_ejection_percent: 34, enforcing_success_rate: 0 } } },
  { id: 'error-100', label: 'Error rate 100 %', hint: 'Cap 34 %, success rate off, every request of the faulty host fails: consecutive 5xx ejects it at 30 s.', patch: { outlier_detection: { max_ejection_percent: 34, enforcing_success_rate: 0 }, fault: { error_rate: 100 } } },
  { id: 'ten-hosts', label: '10 hosts at 1,000 rps', hint: 'Back to the defaults with 10 hosts: one host is exactly 10 %, so the default cap allows one ejection.', patch: { cluster: { hosts: 10 }, traffic: { rps: 1000 } } },
  { id: 'two-faulty', label: 'Two faulty hosts', hint: 'Cap 34 % and two faulty hosts: the mean and spread move with them, so neither is an outlier.', patch: { outlier_detection: { max_ejection_percent: 34 }, fault: { hosts: 2 } } },
  { id: 'all-faulty', label: 'Every host faulty', hint: 'Cap 34 % and the fault on all six hosts: nobody is an outlier and a third of requests fail.', patch: { outlier_detection: { max_ejection_percent: 34 }, fault: { hosts: 6 } } },
  { id: 'four-dead', label: 'Four dead hosts', hint: 'Four hosts at 100 %, success rate off, cap 100 %: fewer than half remain, so panic mode sends traffic to every host.', patch: { outlier_detection: { max_ejection_percent: 100, enforcing_success_rate: 0 }, fault: { hosts: 4, error_rate: 100 } } },
];

export function clone(v) { return v == null ? v : JSON.parse(JSON.stringify(v)); }

/** A copy with each fault's host list written as a count when it names the first N hosts, as the controls do. */
export function normalize(scenario) {
  const s = clone(scenario);
  const names = Array.isArray(s.cluster.hosts) ? s.cluster.hosts : null;
  for (const f of s.faults) {
    if (Array.isArray(f.hosts) && f.hosts.every((h, i) => h === (names ? names[i] : `host-${i}`))) f.hosts = f.hosts.length;
  }
  return s;
}

export function getPath(obj, path) {
  let cur = obj;
  for (const part of path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
    if (cur == null) return undefined;
    cur = cur[part];
  }
  return cur;
}

export function setPath(obj, path, value) {
  const parts = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  let cur = obj;
  for (const p of parts.slice(0, -1)) {
    if (cur[p] == null || typeof cur[p] !== 'object') cur[p] = {};
    cur = cur[p];
  }
  cur[parts[parts.length - 1]] = value;
}

/** What differs from the defaults: nested maps key by key, the faults list whole. */
export function diff(s, d) {
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    const dv = d[k];
    if (k !== 'faults' && v && typeof v === 'object' && !Array.isArray(v) && dv && typeof dv === 'object') {
      const sub = diff(v, dv);
      if (Object.keys(sub).length) out[k] = sub;
    } else if (JSON.stringify(v) !== JSON.stringify(dv)) {
      out[k] = v;
    }
  }
  return out;
}

export function merge(base, patch) {
  const out = clone(base);
  for (const [k, v] of Object.entries(patch)) {
    if (v && typeof v === 'object' && !Array.isArray(v) && out[k] && typeof out[k] === 'object' && !Array.isArray(out[k])) {
      out[k] = merge(out[k], v);
    } else {
      out[k] = clone(v);
    }
  }
  return out;
}

export function presetScenario(p, defaults) {
  const { fault, ...rest } = p.patch;
  const s = merge(defaults, rest);
  if (fault) s.faults = [Object.assign(clone(defaults.faults[0]), fault)];
  return s;
}
