// The run's words and numbers: headline metrics, a few sentences saying what happened and why, the table
// of ejections, refusals and returns, and the decision trace. Everything here is plain DOM; numbers come
// from the server's run JSON unchanged, only formatted.

import { seconds } from './charts.js';

const ACTIONS = {
  eject: 'ejected',
  overflow: 'refused by the cap',
  unenforced: 'detected, not enforced',
  uneject: 'returned',
};
const TABLE_PAGE = 500;

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  e.append(...children.filter(c => c != null));
  return e;
}

export function count(n) {
  return Number(n).toLocaleString('en-US');
}

/** A percentage as short as useful: 33, 5.5, 0.79. */
export function percent(p) {
  if (!Number.isFinite(p)) return '–';
  const digits = Math.abs(p) >= 10 ? 1 : 2;
  return String(Number(p.toFixed(digits)));
}

export function secs(s) {
  return `${String(Number(Number(s).toFixed(3)))} s`;
}

export function typeName(type) {
  return type == null ? '' : type.toLowerCase().replace(/_/g, ' ').replace('5xx', '5xx');
}

/** The headline figures. */
export function renderMetrics(target, result) {
  const s = result.summary;
  const hosts = hostCount(result.scenario);
  const grpc = result.profile === 'grpc';
  const items = [
    ['Detections', count(s.ejections_detected), null, 'Every time a detector flagged a host, before the cap and enforcement.'],
    ['Ejections', count(s.ejections_enforced), null, 'Hosts taken out of rotation.'],
    ['Refused by the cap', count(s.ejections_overflow), null, grpc
      ? 'Outliers not ejected because ejected % had reached max_ejection_percent (gRPC tests it before each candidate).'
      : 'Detections that max_ejection_percent did not allow.'],
    ['Failed requests', count(s.failed), `${percent(s.failed_percent)} % of ${count(s.requests)}`, 'Requests that failed, of all sent.'],
    ['Failed during the fault', `${percent(s.failed_percent_during_fault)} %`,
      `${count(s.failed_during_fault)} of ${count(s.requests_during_fault)}`, 'Share of requests sent while a fault was active that failed.'],
    grpc ? null : ['Panic', `${percent(s.panic_seconds)} s`, null, 'Time the cluster spent in panic mode, sending requests to every host, ejected or not.'],
    ['Most hosts out at once', `${s.max_ejected_at_once} of ${hosts}`, null, s.clients > 1
      ? 'The most hosts one caller had ejected at the same time (the most of any caller).' : 'The most hosts ejected at the same time.'],
  ];
  if (s.clients > 1) {
    const rps = result.scenario.traffic.rps;
    items.push(['Callers', count(s.clients), `${percent(rps / s.clients)} rps each, ${percent(rps / s.clients / hosts)} per host`,
      'Callers sharing the traffic, each its own detector; the counts above are over all of them.']);
    items.push(['Caller-time with a host ejected', `${percent(s.ejected_caller_percent)} %`, null,
      'Share of callers x time in which a caller had at least one host out of its rotation.']);
  }
  target.replaceChildren(...items.filter(Boolean).map(([label, value, sub, hint]) => el('div', { class: 'metric', 'data-metric': key(label), title: hint },
    el('dt', { text: label }), el('dd', { text: value }), sub ? el('dd', { class: 'metric-sub', text: sub }) : null)));
  function key(label) { return label.toLowerCase().replace(/[^a-z]+/g, '-'); }
}

/** A few sentences that say what happened and why, from the numbers. */
export function story(result) {
  if (result.profile === 'grpc') return grpcStory(result);
  const s = result.summary;
  const sc = result.scenario;
  const od = sc.outlier_detection;
  const hosts = hostCount(sc);
  const events = result.events;
  const lines = [];
  const firstEject = events.find(e => e.action === 'eject');
  const firstOverflow = events.find(e => e.action === 'overflow');
  if (s.ejections_detected === 0) {
    lines.push(`Nothing was detected. ${whyNoSuccessRate(result)}`);
  } else if (s.ejections_enforced === 0 && firstOverflow && s.ejections_overflow === s.ejections_detected) {
    const c = firstOverflow.cap;
    lines.push(`The cap refused all ${count(s.ejections_overflow)} ${s.ejections_overflow === 1 ? "detection" : "detections"}: ejecting one of ${hosts} hosts would put `
      + `${percent(c.percent_if_ejected)} % of the cluster out, above max_ejection_percent ${c.max_ejection_percent} %.`);
  } else if (firstEject) {
    lines.push(`${count(s.ejections_enforced)} ejection${s.ejections_enforced === 1 ? '' : 's'}; the first: ${firstEject.explanation}.`);
    if (s.ejections_overflow > 0) lines.push(`The cap refused ${count(s.ejections_overflow)} more.`);
  }
  if (s.ejections_unenforced > 0) {
    lines.push(`${count(s.ejections_unenforced)} detection${s.ejections_unenforced === 1 ? ' was' : 's were'} not enforced: `
      + 'the enforcing_* percentage of the detector is below 100, so the detection is logged and the host stays in.');
  }
  if (s.panic_seconds > 0) {
    lines.push(`The cluster was in panic for ${secs(s.panic_seconds)}: fewer than ${sc.cluster.panic_threshold} % of hosts were `
      + 'healthy, so requests went to every host, ejected or not.');
  }
  if (sc.faults.length) {
    lines.push(`${count(s.failed)} requests failed; ${percent(s.failed_percent_during_fault)} % of those sent during the fault.`);
  } else {
    lines.push('No fault is configured, so every request succeeds.');
  }
  if (s.ejections_enforced === 0 && s.ejections_overflow > 0 && s.ejections_overflow < s.ejections_detected
      && od.max_ejection_percent < 100 / hosts && !od.always_eject_one_host) {
    lines.push(`With ${hosts} hosts, max_ejection_percent ${od.max_ejection_percent} % admits no ejection at all `
      + `(one host is ${percent(100 / hosts)} %).`);
  }
  return lines;
}

/** The gRPC profile's sentences: what ejected, what the cap stopped, and where the settings came from. */
function grpcStory(result) {
  const s = result.summary;
  const g = result.grpc;
  const lines = [];
  const first = result.events.find(e => e.action === 'eject');
  if (!g.success_rate_ejection && !g.failure_percentage_ejection) {
    lines.push('Neither success_rate_ejection nor failure_percentage_ejection is configured: gRPC counts no calls and ejects nobody.');
  } else if (s.ejections_detected === 0) {
    lines.push(`Nothing was detected. ${whyNoGrpcOutlier(result)}`);
  } else if (first) {
    lines.push(`${count(s.ejections_enforced)} ejection${s.ejections_enforced === 1 ? '' : 's'}; the first: ${first.explanation}.`);
  }
  if (s.ejections_overflow > 0) {
    lines.push(`The cap stopped ${count(s.ejections_overflow)} outlier${s.ejections_overflow === 1 ? '' : 's'}: gRPC stops `
      + `once ejected % >= max_ejection_percent ${g.max_ejection_percent} %, tested before each candidate.`);
  }
  if (s.ejections_unenforced > 0) {
    lines.push(`${count(s.ejections_unenforced)} outlier${s.ejections_unenforced === 1 ? ' was' : 's were'} not ejected: `
      + 'the enforcement_percentage draw was not below it.');
  }
  if (result.scenario.faults.length) {
    lines.push(`${count(s.failed)} calls failed; ${percent(s.failed_percent_during_fault)} % of those made during the fault.`);
  } else {
    lines.push('No fault is configured, so every call succeeds.');
  }
  lines.push(`gRPC settings (${g.implementation}) from ${g.origin}.`);
  for (const note of g.notes) lines.push(`Note: ${note}.`);
  return lines;
}

function whyNoGrpcOutlier(result) {
  const sr = result.grpc.success_rate_ejection;
  if (!sr) return 'Only failure percentage is configured, and no endpoint failed more than its threshold.';
  const ran = result.intervals.filter(iv => iv.success_rate_ran);
  if (!ran.length) {
    let most = 0;
    for (const iv of result.intervals) most = Math.max(most, iv.hosts.filter(h => h.requests >= sr.request_volume).length);
    return `Success rate never ran: it needs ${sr.minimum_hosts} endpoints with at least ${count(sr.request_volume)} calls `
      + `in an interval, and at most ${most} had them.`;
  }
  return `Success rate ran at ${ran.length} sweep${ran.length === 1 ? '' : 's'} and no endpoint fell below the required `
    + `rate (mean - ${sr.stdev_factor / 1000} x stdev).`;
}

/** The stdev factor behind the success-rate threshold, in standard deviations. */
function stdevFactor(result) {
  return result.profile === 'grpc' ? result.grpc.success_rate_ejection.stdev_factor / 1000
    : result.scenario.outlier_detection.success_rate_stdev_factor / 1000;
}

function whyNoSuccessRate(result) {
  const od = result.scenario.outlier_detection;
  const ext = result.intervals.filter(iv => iv.origin === 'external');
  const ran = ext.filter(iv => iv.success_rate_ran);
  if (!ran.length) {
    let most = 0;
    for (const iv of ext) most = Math.max(most, iv.hosts.filter(h => h.requests >= od.success_rate_request_volume).length);
    return `Success rate never ran: it needs ${od.success_rate_minimum_hosts} hosts with at least `
      + `${count(od.success_rate_request_volume)} requests in an interval, and at most ${most} had them.`;
  }
  let closest = null;
  for (const iv of ran) {
    for (const h of iv.hosts) {
      if (h.requests < od.success_rate_request_volume) continue;
      const margin = h.success_rate - iv.threshold;
      if (!closest || margin < closest.margin) closest = { margin, host: h.host, rate: h.success_rate, threshold: iv.threshold, time: iv.time };
    }
  }
  const near = closest ? ` The closest: ${closest.host} at ${closest.rate.toFixed(1)} % against a threshold of `
    + `${closest.threshold.toFixed(1)} % at ${secs(closest.time)}.` : '';
  return `Success rate ran at ${ran.length} interval${ran.length === 1 ? '' : 's'} and no host fell below the threshold `
    + `(mean - ${od.success_rate_stdev_factor / 1000} x stdev): when every host fails alike, or several do, nobody is an outlier.${near}`;
}

/** The table of ejections, refusals and returns. {@code onPick(i)} selects event i in the trace. */
export function renderTable(table, caption, result, onPick, limit = TABLE_PAGE) {
  const events = result.events;
  const body = el('tbody');
  const n = Math.min(events.length, limit);
  for (let i = 0; i < n; i++) {
    const e = events[i];
    body.append(el('tr', { class: `ev ev-${e.action}`, tabindex: '0', 'data-index': String(i),
      'aria-label': e.explanation, onclick: () => onPick(i),
      onkeydown: ev => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); onPick(i); } } },
    el('td', { class: 'num', text: secs(e.time) }),
    el('td', { text: e.client == null ? e.host : `${e.host} (caller ${e.client})` }),
    el('td', {}, el('span', { class: `badge badge-${e.action}`, text: ACTIONS[e.action] ?? e.action })),
    el('td', { text: typeName(e.type) }),
    el('td', { text: saw(e) }),
    el('td', { text: e.cap ? capText(e.cap, result.profile) : '' }),
    el('td', { class: 'num', text: e.action === 'eject' ? `${secs(e.ejection_time)} (x${e.multiplier})`
      : e.action === 'uneject' ? `out ${secs(e.out_for)}` : '' })));
  }
  if (!events.length) {
    body.append(el('tr', {}, el('td', { colspan: '7', class: 'empty', text: 'No ejections, refusals or returns.' })));
  }
  table.tBodies[0]?.remove();
  table.append(body);
  const more = events.length > n;
  caption.replaceChildren(`${count(events.length)} decision${events.length === 1 ? '' : 's'}`
    + (more ? `, showing the first ${count(n)}` : ''));
  if (more) {
    caption.append(' ', el('button', { type: 'button', class: 'link', text: `Show all ${count(events.length)}`,
      onclick: () => renderTable(table, caption, result, onPick, Infinity) }));
  }
}

function saw(e) {
  if (e.action === 'uneject') return e.reason === 'active_health_check' ? 'passed an active health check' : 'ejection time elapsed';
  if (e.host_success_rate != null) {
    return `${e.host_success_rate.toFixed(1)} % < ${e.cluster_success_rate_ejection_threshold.toFixed(1)} % `
      + `(mean ${e.cluster_average_success_rate.toFixed(1)}, stdev ${e.cluster_success_rate_stdev.toFixed(1)})`;
  }
  if (e.host_failure_percentage != null) return `${e.host_failure_percentage.toFixed(1)} % failed >= ${e.failure_percentage_threshold} %`;
  if (e.consecutive_errors != null) return `${e.consecutive_errors} in a row`;
  return '';
}

function capText(c, profile) {
  if (profile === 'grpc') {
    // gRPC tests the share already ejected before each candidate: ejected % >= max stops
    const below = c.percent_if_ejected < c.max_ejection_percent;
    return `${c.ejected_before}/${c.hosts} = ${percent(c.percent_if_ejected)} % ${below ? '<' : '>='} ${c.max_ejection_percent} %`
      + (c.allowed && !below ? ' (C-core: the first always goes)' : '');
  }
  const ok = c.percent_if_ejected <= Math.min(c.max_ejection_percent, 100);
  return `(${c.ejected_before}+1)/${c.hosts} = ${percent(c.percent_if_ejected)} % ${ok ? '<=' : '>'} ${c.max_ejection_percent} %`
    + (c.allowed && !ok ? ' (always eject one)' : '');
}

/**
 * The decision trace: the first {@code visible} steps, the last of them current, with what the detector
 * saw at that tick drawn as bars against the threshold.
 */
export function renderTrace(parts, result, visible, tracing) {
  const events = result.events;
  const n = events.length;
  parts.slider.max = String(n);
  parts.slider.value = String(visible);
  parts.slider.disabled = n === 0;
  parts.position.textContent = n === 0 ? 'No decisions to trace.' : `Step ${visible} of ${n}`;
  parts.next.disabled = visible >= n;
  parts.all.disabled = n === 0;
  parts.start.disabled = n === 0;
  const shown = Math.min(visible, 1000);
  const from = visible - shown;
  const items = [];
  for (let i = from; i < visible; i++) {
    const e = events[i];
    items.push(el('li', { class: tracing && i === visible - 1 ? 'current' : null, 'data-index': String(i), value: String(i + 1) },
      el('span', { class: `badge badge-${e.action}`, text: ACTIONS[e.action] ?? e.action }), ' ', e.explanation));
  }
  parts.list.replaceChildren(...items);
  const current = parts.list.lastElementChild;
  if (tracing && current) {
    requestAnimationFrame(() => {
      parts.list.scrollTop = current.offsetTop - parts.list.clientHeight + current.offsetHeight + 8;
    });
  }
  renderStepDetail(parts.detail, result, tracing && visible > 0 && visible <= n ? events[visible - 1] : null);
  if (!tracing && n > 0) {
    parts.detail.append(el('p', { class: 'trace-hint', text: 'Start trace, Next step or the slider walk through the '
      + 'decisions one at a time, with what the detector saw at each; the charts mark the step\'s time.' }));
  }
}

function renderStepDetail(target, result, e) {
  target.replaceChildren();
  if (!e) return;
  target.append(el('p', { class: 'step-sentence', text: e.explanation }));
  if (e.host_success_rate == null) return;
  const iv = result.intervals.find(x => x.origin === 'external' && x.time === e.time && x.success_rate_ran);
  if (!iv) return;
  const lo = Math.max(0, Math.floor(Math.min(iv.threshold, ...iv.hosts.map(h => h.success_rate)) / 10) * 10 - 10);
  const pos = v => `${((v - lo) / (100 - lo)) * 100}%`;
  const bars = el('div', { class: 'bars', role: 'img',
    'aria-label': `Success rates at ${secs(iv.time)}: ` + iv.hosts.map(h => `${h.host} ${h.success_rate.toFixed(1)} %`).join(', ')
      + `; threshold ${iv.threshold.toFixed(1)} %` });
  for (const h of iv.hosts) {
    const below = h.success_rate < iv.threshold;
    bars.append(el('div', { class: `bar-row${h.host === e.host ? ' is-host' : ''}` },
      el('span', { class: 'bar-label', text: h.host }),
      el('span', { class: 'bar-track' },
        el('span', { class: `bar${below ? ' below' : ''}`, style: `width:${pos(h.success_rate)}` }),
        el('span', { class: 'bar-threshold', style: `left:${pos(iv.threshold)}` })),
      el('span', { class: 'bar-value', text: `${h.success_rate.toFixed(1)} %` })));
  }
  target.append(el('p', { class: 'bars-caption', text: `At ${secs(iv.time)}: each host's success rate over the last interval; `
    + `the line is the threshold ${iv.threshold.toFixed(1)} % = mean ${iv.mean.toFixed(1)} - `
    + `${stdevFactor(result)} x stdev ${iv.stdev.toFixed(1)}.` }), bars);
}

export function hostCount(scenario) {
  return Array.isArray(scenario.cluster.hosts) ? scenario.cluster.hosts.length : scenario.cluster.hosts;
}

/** Text equivalents of the timeline, for screen readers and for anyone who prefers words. */
export function describeCharts(result) {
  const spans = new Map();
  const open = new Map();
  const add = (h, text) => {
    if (!spans.has(h)) spans.set(h, []);
    spans.get(h).push(text);
  };
  for (const e of result.events) {
    if (e.action === 'eject') open.set(e.host, e.time);
    if (e.action === 'uneject') {
      add(e.host, `${t3(open.get(e.host))}–${t3(e.time)} s`);
      open.delete(e.host);
    }
  }
  const dur = seconds(result.scenario.duration);
  for (const [h, t] of open) add(h, `${t3(t)}–${t3(dur)} s (still out)`);
  const parts = [...spans].map(([h, list]) => `${h} ejected ${list.join(', ')}`);
  const panic = result.panic_windows.map(w => `${t3(w.start)}–${t3(w.end)} s`);
  return (parts.length ? `${parts.join('; ')}.` : 'Every host stayed in rotation.')
    + (panic.length ? ` Panic: ${panic.join(', ')}.` : '');
}

function t3(s) {
  return String(Number(Number(s).toFixed(3)));
}
