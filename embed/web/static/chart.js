// SVG charts drawn from data: a line chart with bands and reference lines,
// and horizontal bars. Colours come from CSS classes (no inline styles).
import { el, locale } from './common.js';

const M = { top: 16, right: 16, bottom: 40, left: 56 };

/** Rounds a step up to 1, 2 or 5 times a power of ten. */
function niceStep(range, ticks) {
  const raw = range / ticks;
  const p = Math.pow(10, Math.floor(Math.log10(raw || 1)));
  for (const m of [1, 2, 5, 10]) if (raw <= m * p) return m * p;
  return 10 * p;
}

/** Drops the zeros after a decimal point: "1.50" -> "1.5", "2.00" -> "2", "10" stays. */
const trimZeros = (s) => (s.includes('.') ? s.replace(/\.?0+$/, '') : s);

/**
 * Short money for axis ticks: 1250000 -> "1.25M", 10000000 -> "10M". A
 * value that rounds up to the next unit is written in it (999999 -> "1M").
 */
export function short(v) {
  const a = Math.abs(v);
  if (a >= 999.5e6) return trimZeros((v / 1e9).toFixed(a >= 9.95e9 ? 0 : 1)) + 'B';
  if (a >= 999.5e3) return trimZeros((v / 1e6).toFixed(a >= 9.995e6 ? 0 : 2)) + 'M';
  if (a >= 999.5) return (v / 1e3).toFixed(0) + 'k';
  return String(Math.round(v));
}

/** short in English; in another locale its compact notation ("1,5 Mio." in de-DE). */
function shortIn(v, loc) {
  if (loc.startsWith('en')) return short(v);
  return new Intl.NumberFormat(loc, { notation: 'compact', maximumFractionDigits: 2 }).format(v);
}

/**
 * lineChart draws series (each {name, cls, xs, ys, dashed}), bands (each
 * {name, cls, xs, lo, hi}) and horizontal reference lines (each {name, cls,
 * y}) over a shared x axis. It returns a figure holding the SVG and an HTML
 * legend. Each drawn series carries data-series, data-count and data-last
 * (a band: its upper edge), so what is on screen can be checked against the
 * numbers it came from.
 */
export function lineChart({ title, desc, xLabel, series = [], bands = [], hlines = [], width = 720 }) {
  // Drawn at the width it is shown at, so that text keeps its size.
  const W = Math.max(300, Math.min(1000, Math.round(width))), H = Math.round(Math.min(360, Math.max(240, W * 0.55)));
  const xsAll = [...series.flatMap((s) => s.xs), ...bands.flatMap((b) => b.xs)];
  const ysAll = [...series.flatMap((s) => s.ys), ...bands.flatMap((b) => [...b.lo, ...b.hi]), ...hlines.map((h) => h.y)]
    .filter((v) => Number.isFinite(v));
  const x0 = Math.min(...xsAll), x1 = Math.max(...xsAll);
  const yMin = Math.min(0, ...ysAll);
  const step = niceStep(Math.max(...ysAll, 1) - yMin, 5);
  const y0 = Math.floor(yMin / step) * step;
  const y1 = Math.ceil(Math.max(...ysAll, 1) / step) * step;
  const sx = (x) => M.left + ((x - x0) / (x1 - x0 || 1)) * (W - M.left - M.right);
  const sy = (y) => H - M.bottom - ((y - y0) / (y1 - y0 || 1)) * (H - M.top - M.bottom);
  const id = 'c' + Math.random().toString(36).slice(2, 8);
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-labelledby': `${id}-t ${id}-d`, preserveAspectRatio: 'xMidYMid meet' },
    el('title', { id: `${id}-t` }, title), el('desc', { id: `${id}-d` }, desc || ''));

  const grid = el('g', { class: 'grid' });
  for (let y = y0; y <= y1 + step / 2; y += step) {
    grid.append(el('line', { x1: M.left, x2: W - M.right, y1: sy(y), y2: sy(y) }),
      el('text', { x: M.left - 8, y: sy(y) + 4, 'text-anchor': 'end', class: 'tick' }, shortIn(y, locale())));
  }
  const xStep = niceStep(x1 - x0 || 1, W < 500 ? 5 : 8);
  for (let x = Math.ceil(x0 / xStep) * xStep; x <= x1; x += xStep) {
    grid.append(el('line', { x1: sx(x), x2: sx(x), y1: H - M.bottom, y2: H - M.bottom + 5, class: 'axis' }),
      el('text', { x: sx(x), y: H - M.bottom + 18, 'text-anchor': 'middle', class: 'tick' }, String(x)));
  }
  grid.append(el('line', { x1: M.left, x2: W - M.right, y1: H - M.bottom, y2: H - M.bottom, class: 'axis' }),
    el('text', { x: (M.left + W - M.right) / 2, y: H - 4, 'text-anchor': 'middle', class: 'label' }, xLabel || ''));
  svg.append(grid);

  for (const b of bands) {
    const top = b.xs.map((x, i) => `${sx(x).toFixed(1)},${sy(b.hi[i]).toFixed(1)}`);
    const bottom = b.xs.map((x, i) => `${sx(x).toFixed(1)},${sy(b.lo[i]).toFixed(1)}`).reverse();
    svg.append(el('path', { d: 'M' + top.join('L') + 'L' + bottom.join('L') + 'Z', class: 'band ' + b.cls, 'data-series': b.name, 'data-count': b.xs.length, 'data-last': b.hi[b.hi.length - 1] }));
  }
  for (const h of hlines) {
    svg.append(el('line', { x1: M.left, x2: W - M.right, y1: sy(h.y), y2: sy(h.y), class: 'ref ' + h.cls, 'data-series': h.name, 'data-last': h.y }));
  }
  for (const s of series) {
    const pts = s.xs.map((x, i) => `${sx(x).toFixed(1)},${sy(s.ys[i]).toFixed(1)}`);
    svg.append(el('polyline', { points: pts.join(' '), class: 'line ' + s.cls + (s.dashed ? ' dashed' : ''), 'data-series': s.name, 'data-count': s.xs.length, 'data-last': s.ys[s.ys.length - 1] }));
  }
  const legend = el('ul', { class: 'legend' },
    [...series, ...bands, ...hlines].map((s) => el('li', {}, el('span', { class: 'key ' + s.cls + (s.dashed ? ' dashed' : '') + (s.lo ? ' area' : ''), 'aria-hidden': 'true' }), s.node || s.label || s.name)));
  return el('figure', { class: 'chart-box' }, svg, legend);
}

/**
 * barChart draws horizontal bars of shares (0..1): rows of {label, share,
 * value}. fmt formats a value for the end of its bar, pct a share.
 */
export function barChart({ title, rows, fmt, width = 560, pct = (v) => `${(v * 100).toFixed(1)}%` }) {
  const w = Math.max(280, Math.min(700, Math.round(width)));
  const rowH = 30, lw = Math.min(150, Math.round(w * 0.3));
  const h = rows.length * rowH + 8;
  const id = 'b' + Math.random().toString(36).slice(2, 8);
  const svg = el('svg', { viewBox: `0 0 ${w} ${h}`, class: 'chart bars', role: 'img', 'aria-labelledby': `${id}-t` }, el('title', { id: `${id}-t` }, title));
  rows.forEach((r, i) => {
    const y = 4 + i * rowH;
    const bw = Math.max(1, r.share * (w - lw - (fmt ? 130 : 60)));
    svg.append(
      el('text', { x: lw - 8, y: y + 19, 'text-anchor': 'end', class: 'tick' }, r.label),
      el('rect', { x: lw, y: y + 4, width: bw.toFixed(1), height: rowH - 10, rx: 3, class: 'bar c' + (i % 6), 'data-share': r.share }),
      el('text', { x: lw + bw + 6, y: y + 19, class: 'tick' }, `${pct(r.share)}${fmt ? ' · ' + fmt(r.value) : ''}`));
  });
  return el('figure', { class: 'chart-box' }, svg);
}
