// What the Envoy view's charts (charts.js) and the gateway view's (gateway-charts.js) share: a set of uPlot
// charts kept by name (reused with new data when their shape is unchanged), the time axis [0, duration],
// the base options, bands shaded behind the series, line colours and number formatting.

// Distinct, colour-blind-friendly line colours for hosts and endpoints (Okabe-Ito, then Tableau).
export const LINE_COLORS = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#000000',
  '#8c564b', '#7f7f7f', '#bcbd22'];

/** The uPlot charts of one view, by name: { u, el, key }. */
export class ChartSet {
  constructor() {
    this.charts = new Map();
  }

  /** Shows a chart spec ({ key, opts(), data, note } or { empty: text }) in its element. */
  show(name, el, spec) {
    const old = this.charts.get(name);
    if (old && !spec.empty && old.key === spec.key) {
      old.u.setData(spec.data);
    } else {
      old?.u.destroy();
      this.charts.delete(name);
      el.replaceChildren();
      if (spec.empty) {
        el.textContent = spec.empty;
        return;
      }
      const opts = Object.assign(spec.opts(), { width: chartWidth(el) });
      this.charts.set(name, { u: new window.uPlot(opts, spec.data, el), el, key: spec.key });
    }
    el.querySelector('.chart-note')?.remove();
    if (spec.note) el.append(Object.assign(document.createElement('p'), { className: 'chart-note', textContent: spec.note }));
  }

  /** Fits every chart to its container's width. */
  resize() {
    for (const c of this.charts.values()) {
      const w = chartWidth(c.el);
      if (w !== c.u.width) c.u.setSize({ width: w, height: c.u.height });
    }
  }

  /** Redraws every chart without rebuilding its paths (for an overlay such as a cursor). */
  redraw() {
    for (const c of this.charts.values()) c.u.redraw(false, false);
  }
}

/** uPlot options with a cursor synced across the charts of {@code syncKey}, no drag-zoom. */
export function chartBase(height, syncKey, opts) {
  return Object.assign({
    height,
    cursor: { sync: { key: syncKey }, drag: { x: false, y: false } },
    padding: [8, 8, 0, 0],
  }, opts);
}

/** The x scale [0, duration] of the run that {@code ref.ctx} holds when the chart draws. */
export function timeScale(ref) {
  return { time: false, range: () => [0, ref.ctx.duration] };
}

export function timeAxis() {
  return { values: (u, splits) => splits.map(v => `${fmt(v)} s`), size: 36 };
}

/** Fills each [from, to] of {@code bands} (seconds) over the plot's height, at least {@code minWidth} px wide. */
export function fillBands(u, bands, color, minWidth = 0) {
  const c = u.ctx;
  const { top, height } = u.bbox;
  const x = t => u.valToPos(t, 'x', true);
  c.save();
  c.fillStyle = color;
  for (const [a, b] of bands) c.fillRect(x(a), top, Math.max(minWidth, x(b) - x(a)), height);
  c.restore();
}

export function chartWidth(el) {
  return Math.max(260, Math.floor(el.getBoundingClientRect().width || el.parentElement.clientWidth || 600));
}

export function fmt(v) {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000);
}

/** The y axis of a timeline: a label on every {@code every}-th row, the first row at the top, no grid or ticks. */
export function rowLabelAxis(labels, size, every = 1) {
  const n = labels.length;
  const rows = [];
  for (let i = 0; i < n; i += every) rows.push(i);
  return {
    size,
    splits: () => rows.map(i => n - i - 0.5),
    values: (u, splits) => splits.map(v => labels[Math.round(n - v - 0.5)] ?? ''),
    grid: { show: false },
    ticks: { show: false },
  };
}

/** A marker on a timeline row: a downward triangle of side {@code s} px with its top edge at {@code y}. */
export function fillMarker(c, mx, y, s) {
  c.beginPath();
  c.moveTo(mx - s / 2, y);
  c.lineTo(mx + s / 2, y);
  c.lineTo(mx, y + s);
  c.closePath();
  c.fill();
}
