// The gateway view's pictures, drawn with uPlot: each endpoint in each process over time (in rotation,
// ejected in prod, virtually ejected in shadow, with a marker at each ejection or would-eject), attempts per
// second by endpoint, and failures per second. Everything comes from the run's answer: the timeline's
// intervals and the per-second series the server built from the detector's own decisions.

import { seconds } from './charts.js';
import { ChartSet, LINE_COLORS, chartBase, timeScale, timeAxis, fillBands, fmt, rowLabelAxis, fillMarker } from './chart-kit.js';

const COLORS = {
  rotation: '#cfe9d8',
  ejected: '#c62828',
  virtual: '#6d28d9',
  fault: '#f29f05',
  faultBand: 'rgba(242, 159, 5, 0.10)',
  failed: '#c62828',
  attempts: '#1d4ed8',
};
const ENDPOINT_COLORS = LINE_COLORS;
/** Rows drawn at most in the timeline: endpoints x processes, those with decisions first. */
export const MAX_ROWS = 48;

const charts = new ChartSet();
const ref = { ctx: null };

export function drawGatewayCharts(result, els) {
  ref.ctx = context(result);
  charts.show('timeline', els.timeline, timeline(ref.ctx));
  charts.show('attempts', els.attempts, attemptsChart(ref.ctx));
  charts.show('failed', els.failed, failedChart(ref.ctx));
}

export function resizeGatewayCharts() {
  charts.resize();
}

/** The run's timeline in words: each row's intervals out of rotation. */
export function describeTimeline(result) {
  const ctx = context(result);
  const parts = [];
  for (const row of ctx.rows) {
    if (!row.intervals.length) continue;
    const spans = row.intervals.slice(0, 6).map(iv => `${t3(iv.start)}–${t3(iv.end)} s${iv.open ? ' (still out)' : ''}`);
    const more = row.intervals.length > 6 ? ` and ${row.intervals.length - 6} more` : '';
    parts.push(`${row.label} ${row.virtual ? 'virtually ejected' : 'ejected'} ${spans.join(', ')}${more}`);
  }
  const hidden = ctx.totalRows - ctx.rows.length;
  return (parts.length ? `${parts.join('; ')}.` : 'Every endpoint stayed in rotation in every process.')
    + (hidden > 0 ? ` Showing ${ctx.rows.length} of ${ctx.totalRows} rows (endpoint x process), those with decisions first.` : '');
}

function context(result) {
  const s = result.scenario;
  const names = Array.isArray(s.cluster.hosts) ? s.cluster.hosts
    : Array.from({ length: s.cluster.hosts }, (_, i) => `host-${i}`);
  const processes = s.gateway.processes;
  const duration = seconds(s.duration);
  const key = (e, p) => `${e}|${p}`;
  const byRow = new Map();
  for (const iv of result.timeline) {
    const k = key(iv.endpoint, iv.process);
    if (!byRow.has(k)) byRow.set(k, []);
    byRow.get(k).push(iv);
  }
  const all = [];
  for (let p = 0; p < processes; p++) {
    for (const n of names) {
      const intervals = byRow.get(key(n, p)) ?? [];
      all.push({ endpoint: n, process: p, label: processes > 1 ? `${n} · p${p}` : n, intervals,
        virtual: intervals.some(iv => iv.state === 'virtual') });
    }
  }
  let rows = all;
  if (all.length > MAX_ROWS) {
    const busy = all.filter(r => r.intervals.length);
    const quiet = all.filter(r => !r.intervals.length);
    const keep = new Set([...busy, ...quiet].slice(0, MAX_ROWS));
    rows = all.filter(r => keep.has(r));
  }
  const rowOf = new Map(rows.map((r, i) => [key(r.endpoint, r.process), i]));
  const markers = [];
  for (const e of result.events) {
    if (e.action === 'return') continue;
    const i = rowOf.get(key(e.endpoint, e.process));
    if (i != null) markers.push({ row: i, time: e.time, action: e.action });
  }
  const faulty = new Map();
  const faultWindows = [];
  for (const f of s.faults) {
    const hit = typeof f.hosts === 'number' ? names.slice(0, f.hosts) : f.hosts;
    const span = [seconds(f.start), Math.min(seconds(f.end), duration)];
    if (span[1] <= span[0] || f.error_rate === 0) continue;
    faultWindows.push(span);
    for (const n of hit) {
      if (!faulty.has(n)) faulty.set(n, []);
      faulty.get(n).push(span);
    }
  }
  return { result, names, rows, totalRows: all.length, markers, faulty, faultWindows, duration };
}

function timeline(ctx) {
  const n = ctx.rows.length;
  const height = Math.max(110, Math.min(460, 46 + n * (n > 20 ? 12 : 26)));
  const labels = ctx.rows.map(r => r.label);
  return {
    key: `${labels.join(',')}|${ctx.duration}`,
    data: [[0, ctx.duration], [null, null]],
    opts: () => base(height, {
      series: [{}, { label: 'endpoints', stroke: 'transparent', points: { show: false } }],
      scales: { x: xScale(), y: { range: () => [0, n] } },
      axes: [xAxis(), rowLabelAxis(labels, Math.min(140, 14 + 7 * Math.max(...labels.map(l => l.length))))],
      legend: { show: false },
      hooks: { draw: [u => drawTimeline(u, ref.ctx)] },
    }),
  };
}

function drawTimeline(u, ctx) {
  const c = u.ctx;
  const { left, top, width: w, height } = u.bbox;
  const n = ctx.rows.length;
  const rowH = height / n;
  const gap = rowH > 6 ? Math.max(1, rowH * 0.12) : 0;
  const x = t => u.valToPos(t, 'x', true);
  c.save();
  c.beginPath();
  c.rect(left, top, w, height);
  c.clip();
  ctx.rows.forEach((row, i) => {
    const y = top + i * rowH + gap;
    const h = rowH - 2 * gap;
    c.fillStyle = COLORS.rotation;
    c.fillRect(left, y, w, h);
    c.fillStyle = COLORS.fault;
    for (const [a, b] of ctx.faulty.get(row.endpoint) ?? []) c.fillRect(x(a), y + h * 0.72, x(b) - x(a), h * 0.28);
    for (const iv of row.intervals) {
      const x0 = x(iv.start);
      const wd = Math.max(1, x(iv.end) - x0);
      if (iv.state === 'virtual') {
        c.fillStyle = '#ffffff';
        c.fillRect(x0, y, wd, h * 0.72);
        c.strokeStyle = COLORS.virtual;
        c.lineWidth = 1 * devicePixelRatio;
        c.save();
        c.beginPath();
        c.rect(x0, y, wd, h * 0.72);
        c.clip();
        for (let sx = x0 - h; sx < x0 + wd; sx += 5 * devicePixelRatio) {
          c.moveTo(sx, y + h * 0.72);
          c.lineTo(sx + h * 0.72, y);
        }
        c.stroke();
        c.restore();
        c.strokeRect(x0 + 0.5, y + 0.5, wd - 1, h * 0.72 - 1);
      } else {
        c.fillStyle = COLORS.ejected;
        c.fillRect(x0, y, wd, h * 0.72);
      }
    }
  });
  for (const m of ctx.markers) {
    const y = top + m.row * rowH + gap;
    const h = rowH - 2 * gap;
    c.fillStyle = m.action === 'would_eject' ? COLORS.virtual : '#111827';
    const mx = x(m.time);
    fillMarker(c, mx, y, Math.max(4, Math.min(9, h * 0.35)) * devicePixelRatio);
  }
  c.restore();
}

function attemptsChart(ctx) {
  const sr = ctx.result.series;
  const step = sr.step || 1;
  const shown = ctx.names.slice(0, ENDPOINT_COLORS.length);
  const per = (u, v) => v == null ? '' : fmt(v);
  return {
    key: `attempts|${shown.join(',')}|${step}|${ctx.duration}`,
    data: [sr.time, ...shown.map(n => sr.attempts[n].map(v => v / step))],
    opts: () => base(220, {
      series: [
        { label: 'time', value: (u, v) => v == null ? '' : `${fmt(v)} s` },
        ...shown.map((n, i) => ({ label: n, stroke: ENDPOINT_COLORS[i], width: 1.5, points: { show: false }, value: per })),
      ],
      scales: { x: xScale(), y: { range: (u, min, max) => [0, Math.max(1, max * 1.1)] } },
      axes: [xAxis(), { size: 56, label: step === 1 ? 'attempts/s' : `attempts/s (${step} s avg)`, labelSize: 18 }],
      hooks: { drawClear: [u => shadeWindows(u, ref.ctx)] },
    }),
  };
}

function failedChart(ctx) {
  const sr = ctx.result.series;
  const step = sr.step || 1;
  const failedAttempts = sr.time.map((_, b) => ctx.names.reduce((sum, n) => sum + sr.failed_attempts[n][b], 0) / step);
  return {
    key: `failed|${step}|${ctx.duration}`,
    data: [sr.time, sr.failed_requests.map(v => v / step), failedAttempts],
    opts: () => base(200, {
      series: [
        { label: 'time', value: (u, v) => v == null ? '' : `${fmt(v)} s` },
        { label: 'failed requests/s', stroke: COLORS.failed, fill: 'rgba(198, 40, 40, 0.12)', width: 1.5,
          points: { show: false }, value: (u, v) => v == null ? '' : fmt(v) },
        { label: 'failed attempts/s', stroke: COLORS.attempts, width: 1, dash: [4, 3], points: { show: false },
          value: (u, v) => v == null ? '' : fmt(v) },
      ],
      scales: { x: xScale(), y: { range: (u, min, max) => [0, Math.max(1, max * 1.1)] } },
      axes: [xAxis(), { size: 56, label: 'per second', labelSize: 18 }],
      hooks: { drawClear: [u => shadeWindows(u, ref.ctx)] },
    }),
  };
}

function base(height, opts) {
  return chartBase(height, 'outlier-lab-gateway', opts);
}

function xScale() {
  return timeScale(ref);
}

const xAxis = timeAxis;

function shadeWindows(u, ctx) {
  fillBands(u, ctx.faultWindows, COLORS.faultBand);
}

function t3(s) {
  return String(Number(Number(s).toFixed(3)));
}
