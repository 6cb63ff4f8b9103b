// The three pictures of a run, drawn with uPlot (served from its WebJar): which host was in rotation or
// ejected over time with panic shaded, failed requests per second, and each interval's success rates
// against the ejection threshold. All three share the time axis [0, duration] and a synced cursor, and
// draw the decision trace's current step as a vertical line.

import { ChartSet, LINE_COLORS, chartBase, timeScale, timeAxis, fillBands, fmt, rowLabelAxis, fillMarker } from './chart-kit.js';

const COLORS = {
  rotation: '#cfe9d8',
  ejected: '#c62828',
  fault: '#f29f05',
  panic: 'rgba(71, 85, 105, 0.28)',
  faultBand: 'rgba(242, 159, 5, 0.10)',
  refused: '#8a4b00',
  unenforced: '#6d28d9',
  cursor: '#111827',
  failed: '#c62828',
  ejectedLine: '#1d4ed8',
  threshold: '#c62828',
  mean: '#4b5563',
};
const HOST_COLORS = LINE_COLORS;
const MAX_SR_HOSTS = HOST_COLORS.length;

const charts = new ChartSet();
const ref = { ctx: null };  // the run being shown; hooks and scales read it, so a chart can be reused
let cursorTime = null;

/**
 * Draws every chart for a run's result. A chart whose shape (hosts, duration, series) is unchanged keeps
 * its uPlot instance and only gets new data, which is several times faster than building it again.
 */
export function drawCharts(result, els) {
  ref.ctx = context(result);
  charts.show('timeline', els.timeline, timeline(ref.ctx));
  charts.show('failed', els.failed, failedChart(ref.ctx));
  charts.show('sr', els.successRate, successRateChart(ref.ctx));
  if (els.signals) charts.show('signals', els.signals, signalsChart(ref.ctx));
}

/** Moves the trace cursor (seconds, or null to hide it) on every chart. */
export function setCursor(seconds) {
  cursorTime = seconds;
  charts.redraw();
}

/** Fits every chart to its container's width. */
export function resizeCharts() {
  charts.resize();
}

/** The run's facts the charts share: hosts, ejection spans, fault spans, panic windows, markers. */
function context(result) {
  const s = result.scenario;
  const hosts = Array.isArray(s.cluster.hosts) ? s.cluster.hosts
    : Array.from({ length: s.cluster.hosts }, (_, i) => `host-${i}`);
  const index = new Map(hosts.map((h, i) => [h, i]));
  const duration = seconds(s.duration);
  const ejected = hosts.map(() => []);
  const open = new Map();
  const markers = [];
  for (const e of result.events) {
    const i = index.get(e.host);
    if (e.action === 'eject') open.set(i, e.time);
    else if (e.action === 'uneject') {
      ejected[i].push([open.get(i) ?? 0, e.time]);
      open.delete(i);
    } else markers.push({ host: i, time: e.time, action: e.action });
  }
  for (const [i, start] of open) ejected[i].push([start, duration]);
  const faulty = hosts.map(() => []);
  const faultWindows = [];
  for (const f of s.faults) {
    const names = typeof f.hosts === 'number' ? hosts.slice(0, f.hosts) : f.hosts;
    const span = [seconds(f.start), Math.min(seconds(f.end), duration)];
    if (span[1] <= span[0] || f.error_rate === 0) continue;
    faultWindows.push(span);
    for (const n of names) if (index.has(n)) faulty[index.get(n)].push(span);
  }
  return { result, hosts, duration, ejected, faulty, faultWindows, markers, panic: result.panic_windows.map(w => [w.start, w.end]) };
}

function timeline(ctx) {
  const n = ctx.hosts.length;
  const height = Math.max(130, Math.min(420, 46 + n * (n > 20 ? 10 : 26)));
  const every = Math.max(1, Math.ceil(n / 16));
  const hosts = ctx.hosts;
  return {
    key: `${hosts.join(',')}|${ctx.duration}`,
    data: [[0, ctx.duration], [null, null]],
    opts: () => base(height, {
      series: [{}, { label: 'hosts', stroke: 'transparent', points: { show: false } }],
      scales: { x: xScale(), y: { range: () => [0, n] } },
      axes: [xAxis(), rowLabelAxis(hosts, 62, every)],
      legend: { show: false },
      hooks: { draw: [u => drawTimeline(u, ref.ctx)] },
    }),
  };
}

function drawTimeline(u, ctx) {
  const c = u.ctx;
  const { left, top, width, height } = u.bbox;
  const n = ctx.hosts.length;
  const rowH = height / n;
  const gap = rowH > 6 ? Math.max(1, rowH * 0.12) : 0;
  const x = t => u.valToPos(t, 'x', true);
  c.save();
  c.beginPath();
  c.rect(left, top, width, height);
  c.clip();
  for (let i = 0; i < n; i++) {
    const y = top + i * rowH + gap;
    const h = rowH - 2 * gap;
    c.fillStyle = COLORS.rotation;
    c.fillRect(left, y, width, h);
    c.fillStyle = COLORS.fault;
    for (const [a, b] of ctx.faulty[i]) c.fillRect(x(a), y + h * 0.72, x(b) - x(a), h * 0.28);
    c.fillStyle = COLORS.ejected;
    for (const [a, b] of ctx.ejected[i]) c.fillRect(x(a), y, Math.max(1, x(b) - x(a)), h * 0.72);
  }
  for (const m of ctx.markers) {
    const y = top + m.host * rowH + gap;
    const h = rowH - 2 * gap;
    c.fillStyle = m.action === 'overflow' ? COLORS.refused : COLORS.unenforced;
    const mx = x(m.time);
    fillMarker(c, mx, y, Math.max(3, Math.min(7, h * 0.3)) * devicePixelRatio);
  }
  c.fillStyle = COLORS.panic;
  for (const [a, b] of ctx.panic) c.fillRect(x(a), top, Math.max(1, x(b) - x(a)), height);
  c.restore();
  drawCursor(u);
}

function failedChart(ctx) {
  const series = ctx.result.series;
  const step = series.step || 1;
  const n = ctx.hosts.length;
  return {
    key: `${step}|${n}|${ctx.duration}`,
    data: [series.time, series.failed.map(v => v / step), series.max_ejected],
    opts: () => base(200, {
      series: [
        { label: 'time', value: (u, v) => v == null ? '' : `${fmt(v)} s` },
        { label: step === 1 ? 'failed requests/s' : `failed requests/s (${step} s average)`, stroke: COLORS.failed,
          fill: 'rgba(198, 40, 40, 0.12)', width: 1.5, points: { show: false },
          value: (u, v) => v == null ? '' : fmt(v) },
        { label: 'hosts ejected', scale: 'hosts', stroke: COLORS.ejectedLine, width: 1.5, points: { show: false },
          paths: window.uPlot.paths.stepped({ align: 1 }), value: (u, v) => v == null ? '' : String(v) },
      ],
      scales: { x: xScale(), y: { range: (u, min, max) => [0, Math.max(1, max * 1.1)] },
        hosts: { range: () => [0, Math.max(1, n)] } },
      axes: [xAxis(), { size: 56, label: 'failed/s', labelSize: 18 },
        { scale: 'hosts', side: 1, size: 40, grid: { show: false }, label: 'ejected', labelSize: 18,
          values: (u, splits) => splits.map(v => Number.isInteger(v) ? String(v) : '') }],
      hooks: { drawClear: [u => shadeWindows(u, ref.ctx)], draw: [drawCursor] },
    }),
  };
}

// Seed 003's dashboard: membership_healthy against ejections_active, sampled at the end of each second.
// Flapping shows as ejections_active rising and falling while the health checks' own count stays flat.
function signalsChart(ctx) {
  const sig = ctx.result.signals;
  if (!sig) return { empty: 'No signals in this result.' };
  const n = sig.membership_total;
  const stepped = () => window.uPlot.paths.stepped({ align: 1 });
  const int = (u, v) => v == null ? '' : String(v);
  return {
    key: `signals|${sig.step}|${n}|${ctx.duration}`,
    data: [sig.time, sig.membership_healthy, sig.ejections_active, sig.health_check_healthy],
    opts: () => base(200, {
      series: [
        { label: 'time', value: (u, v) => v == null ? '' : `${fmt(v)} s` },
        { label: 'membership_healthy', stroke: '#009e73', width: 2, points: { show: false }, paths: stepped(), value: int },
        { label: 'ejections_active', stroke: COLORS.ejected, width: 2, points: { show: false }, paths: stepped(), value: int },
        { label: 'passing health checks', stroke: COLORS.mean, width: 1, dash: [4, 4], points: { show: false },
          paths: stepped(), value: int },
      ],
      scales: { x: xScale(), y: { range: () => [0, Math.max(1, n) + 0.5] } },
      axes: [xAxis(), { size: 56, label: 'hosts', labelSize: 18,
        values: (u, splits) => splits.map(v => Number.isInteger(v) ? String(v) : '') }],
      hooks: { drawClear: [u => shadeWindows(u, ref.ctx)], draw: [drawCursor] },
    }),
  };
}

function successRateChart(ctx) {
  const intervals = ctx.result.intervals.filter(iv => iv.origin === 'external' && (iv.hosts.length || iv.success_rate_ran));
  if (!intervals.length) {
    return { empty: 'No host had requests in any interval, so there is nothing to judge.' };
  }
  const detected = new Set(ctx.result.events.filter(e => e.action !== 'uneject').map(e => e.host));
  const faulty = new Set(ctx.hosts.filter((h, i) => ctx.faulty[i].length));
  const order = new Map(ctx.hosts.map((h, i) => [h, i]));
  const rank = h => (detected.has(h) ? 0 : 2) + (faulty.has(h) ? 0 : 1) + order.get(h) / 1e7;
  const shown = [...ctx.hosts].sort((a, b) => rank(a) - rank(b)).slice(0, MAX_SR_HOSTS)
    .sort((a, b) => order.get(a) - order.get(b));
  const data = [intervals.map(iv => iv.time),
    intervals.map(iv => iv.success_rate_ran ? iv.threshold : null),
    intervals.map(iv => iv.success_rate_ran ? iv.mean : null)];
  for (const h of shown) {
    data.push(intervals.map(iv => {
      const s = iv.hosts.find(x => x.host === h);
      return s ? s.success_rate : null;
    }));
  }
  const pct = (u, v) => v == null ? '' : `${v.toFixed(1)} %`;
  return {
    key: `${shown.join(',')}|${ctx.duration}`,
    data,
    note: ctx.hosts.length > shown.length
      ? `Showing ${shown.length} of ${ctx.hosts.length} hosts: those detected or faulty first.` : null,
    opts: () => base(240, {
      series: [
        { label: 'tick', value: (u, v) => v == null ? '' : `${fmt(v)} s` },
        { label: 'ejection threshold', stroke: COLORS.threshold, width: 2, dash: [6, 4], value: pct, points: { show: false } },
        { label: 'mean', stroke: COLORS.mean, width: 1, dash: [2, 3], value: pct, points: { show: false } },
        ...shown.map((h, i) => ({ label: h, stroke: HOST_COLORS[i], width: 1.5, value: pct,
          points: { show: true, size: 6, fill: HOST_COLORS[i] } })),
      ],
      scales: { x: xScale(), y: { range: (u, min) => [Math.max(0, Math.floor((Math.min(min ?? 100, 100) - 5) / 5) * 5), 100.5] } },
      axes: [xAxis(), { size: 56, label: 'success rate %', labelSize: 18 }],
      hooks: { drawClear: [u => shadeWindows(u, ref.ctx)], draw: [drawCursor] },
    }),
  };
}

function base(height, opts) {
  return chartBase(height, 'outlier-lab', opts);
}

function xScale() {
  return timeScale(ref);
}

const xAxis = timeAxis;

function shadeWindows(u, ctx) {
  fillBands(u, ctx.faultWindows, COLORS.faultBand);
  fillBands(u, ctx.panic, COLORS.panic, 1);
}

function drawCursor(u) {
  if (cursorTime == null) return;
  const c = u.ctx;
  const { top, height } = u.bbox;
  const x = Math.round(u.valToPos(cursorTime, 'x', true));
  c.save();
  c.strokeStyle = COLORS.cursor;
  c.lineWidth = 2 * devicePixelRatio;
  c.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio]);
  c.beginPath();
  c.moveTo(x, top);
  c.lineTo(x, top + height);
  c.stroke();
  c.restore();
}

/** Seconds from a duration in the scenario's form ("30s", "0.250s", "250ms", "5m"). */
export function seconds(d) {
  if (typeof d === 'number') return d;
  const m = /^([0-9.]+)\s*(ms|s|m|h)?$/.exec(String(d).trim());
  if (!m) return NaN;
  const v = parseFloat(m[1]);
  return { ms: v / 1000, s: v, m: v * 60, h: v * 3600 }[m[2] || 's'];
}

export { COLORS };
