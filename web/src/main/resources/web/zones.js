// The run's routing, when it has any (a balancer policy other than round robin, priorities, zones with
// istiod's locality failover, retries): each caller zone's priority levels and the shares Envoy's priority
// arithmetic gives its hosts with the first faulty host ejected (healthy share x overprovisioning factor, the
// rest spilling to the next priority), the attempts per zone in the run, and the upstream attempts beside the
// requests that failed for their callers. Every number is the run JSON's (routing, summary), only formatted, so
// the view says what `outlier-lab run --format json` says for the same scenario.

import { count, el } from './render.js';

const $ = id => document.getElementById(id);

/** Shows {@code result}'s routing in the #routing section, or hides it for a run without routing. */
export function renderRouting(result) {
  const section = $('routing');
  const r = result.routing;
  section.hidden = !r;
  if (!r) return;
  const s = result.summary;
  const failedShare = s.requests ? (100 * s.failed) / s.requests : 0;
  $('routing-upstream').replaceChildren(
    el('strong', { text: 'Upstream: ' }),
    `${count(s.upstream_attempts)} attempts to hosts, ${count(s.upstream_failed)} failed (what the detectors see); `
      + `${count(s.retries)} retries. `,
    el('strong', { text: 'Callers: ' }),
    `${count(s.failed)} of ${count(s.requests)} requests failed (${failedShare.toFixed(2)} %).`);
  $('routing-upstream').dataset.upstreamAttempts = String(s.upstream_attempts);
  $('routing-upstream').dataset.upstreamFailed = String(s.upstream_failed);
  $('routing-upstream').dataset.callerFailed = String(s.failed);
  $('routing-policy').textContent = `${r.lb_policy.toLowerCase().replace('_', ' ')}, overprovisioning factor `
    + `${r.overprovisioning_factor} %${r.locality_failover ? ', istiod\'s locality failover by each caller\'s zone' : ''}`
    + `${r.fail_traffic_on_panic ? ', fail_traffic_on_panic' : ''}; retries: ${r.retries ?? 'none'}.`;
  showShares(result, r);
  showZoneAttempts(r);
  const notes = r.not_modelled ?? [];
  $('routing-not-modelled').replaceChildren(...notes.map(n => el('li', { text: `not modelled: ${n}` })));
}

/** One row per caller zone and host: the host's zone, its priority for that caller, its share after the ejection. */
function showShares(result, r) {
  const zones = result.scenario.cluster.zones ?? {};
  const hostZone = h => (Array.isArray(zones) ? zones[Number(h.replace(/^\D+/, ''))] : zones[h]) ?? '';
  const rows = [];
  const lines = [];
  for (const view of r.callers ?? []) {
    if (view.text) lines.push(el('li', { 'data-caller-zone': view.zone, text: `callers in ${view.zone}: ${view.text}` }));
    for (const [host, priority] of Object.entries(view.priorities)) {
      const share = view.shares ? view.shares[host] : null;
      const load = view.healthy_loads ? view.healthy_loads[priority] : null;
      rows.push(el('tr', { 'data-caller-zone': view.zone, 'data-host': host },
        el('td', { text: view.zone }), el('td', { text: host }), el('td', { text: hostZone(host) }),
        el('td', { text: `P${priority}` }),
        el('td', { class: 'num', text: load == null ? '–' : `${load} %${view.panic[priority] ? ' (panic)' : ''}` }),
        el('td', { class: 'num', text: share == null ? '–' : host === view.ejected ? 'ejected' : `${share.toFixed(1)} %` })));
    }
  }
  const ejected = (r.callers ?? []).find(v => v.ejected)?.ejected;
  $('routing-shares-caption').textContent = ejected
    ? `Each caller zone's shares with ${ejected} ejected (the first faulty host), by Envoy's priority arithmetic`
    : 'Each caller zone\'s priorities (no faulty host to eject)';
  $('routing-shares').querySelector('tbody').replaceChildren(...rows);
  $('routing-lines').replaceChildren(...lines);
}

/** The run's attempts by the hosts' zone, as counted (every attempt, retries included). */
function showZoneAttempts(r) {
  const entries = Object.entries(r.zone_attempts ?? {});
  const total = entries.reduce((a, [, n]) => a + n, 0);
  $('routing-zones').hidden = entries.length === 0;
  $('routing-zones').querySelector('tbody').replaceChildren(...entries.map(([zone, n]) => el('tr', { 'data-zone': zone },
    el('td', { text: zone }), el('td', { class: 'num', text: count(n) }),
    el('td', { class: 'num', text: `${(total ? (100 * n) / total : 0).toFixed(1)} %` }))));
}
