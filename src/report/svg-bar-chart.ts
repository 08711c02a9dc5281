/**
 * A bar chart as an inline SVG string (no script, no external resource), for the HTML report's
 * histograms. Every text is escaped.
 */
import { escapeHtml } from './html-escape.js';

export interface ChartBar {
  readonly label: string;
  readonly value: number;
  /** Hover text of the bar. @default `${label}: ${value}` */
  readonly tooltip?: string;
}

export interface BarChartOptions {
  /** id of the `<svg>` element. */
  readonly id: string;
  /** Accessible name of the chart (its `<title>`). */
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly bars: readonly ChartBar[];
  /** Shown in the plot area when there are no bars or all are 0. */
  readonly emptyText: string;
  /** A dashed line after the bar at this index, with a label (e.g. the threshold k). */
  readonly marker?: { readonly afterIndex: number; readonly label: string };
  /** @default 560 */
  readonly width?: number;
  /** @default 280 */
  readonly height?: number;
}

/** A step of 1, 2 or 5 × 10^n giving about `ticks` steps up to `max`. */
function niceStep(max: number, ticks: number): number {
  const raw = max / ticks;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * magnitude >= raw) return Math.max(1, m * magnitude);
  return Math.max(1, 10 * magnitude);
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

export function svgBarChart(options: BarChartOptions): string {
  const width = options.width ?? 560;
  const height = options.height ?? 280;
  const left = 56;
  const right = 16;
  const top = 16;
  const bottom = 56;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const bars = options.bars;
  const max = bars.reduce((m, b) => Math.max(m, b.value), 0);
  const step = niceStep(Math.max(max, 1), 4);
  const yMax = Math.max(step, Math.ceil(max / step) * step);
  const y = (v: number) => top + plotH - (v / yMax) * plotH;
  const titleId = `${options.id}-title`;
  const out: string[] = [
    `<svg id="${escapeHtml(options.id)}" class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}"`
      + ` width="${width}" height="${height}" role="img" aria-labelledby="${escapeHtml(titleId)}">`,
    `<title id="${escapeHtml(titleId)}">${escapeHtml(options.title)}</title>`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`,
  ];
  // Grid and y axis.
  for (let v = 0; v <= yMax + 1e-9; v += step) {
    const yy = y(v).toFixed(1);
    out.push(`<line x1="${left}" x2="${width - right}" y1="${yy}" y2="${yy}" stroke="#e3e6ea" stroke-width="1"/>`);
    out.push(`<text x="${left - 6}" y="${yy}" text-anchor="end" dominant-baseline="middle" font-size="11" fill="#555">${fmt(v)}</text>`);
  }
  out.push(`<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotH}" stroke="#888"/>`);
  out.push(`<line x1="${left}" x2="${width - right}" y1="${top + plotH}" y2="${top + plotH}" stroke="#888"/>`);

  if (bars.length === 0 || max === 0) {
    out.push(`<text x="${left + plotW / 2}" y="${top + plotH / 2}" text-anchor="middle" font-size="13" fill="#777">${escapeHtml(options.emptyText)}</text>`);
  }
  if (bars.length > 0) {
    const band = plotW / bars.length;
    const barW = Math.max(1, band * 0.78);
    const labelEvery = Math.max(1, Math.ceil(bars.length / 16));
    bars.forEach((bar, i) => {
      const x = left + i * band + (band - barW) / 2;
      const yy = y(bar.value);
      const h = top + plotH - yy;
      const tip = escapeHtml(bar.tooltip ?? `${bar.label}: ${bar.value}`);
      if (bar.value > 0) {
        out.push(`<rect class="bar" x="${x.toFixed(1)}" y="${yy.toFixed(1)}" width="${barW.toFixed(1)}" height="${Math.max(h, 1).toFixed(1)}" fill="#3b6fb6"><title>${tip}</title></rect>`);
        if (bars.length <= 24) {
          out.push(`<text x="${(x + barW / 2).toFixed(1)}" y="${(yy - 4).toFixed(1)}" text-anchor="middle" font-size="10" fill="#333">${bar.value}</text>`);
        }
      }
      if (i % labelEvery === 0) {
        out.push(`<text x="${(left + i * band + band / 2).toFixed(1)}" y="${top + plotH + 16}" text-anchor="middle" font-size="11" fill="#333">${escapeHtml(bar.label)}</text>`);
      }
    });
    if (options.marker !== undefined && options.marker.afterIndex >= 0 && options.marker.afterIndex < bars.length - 1) {
      const mx = (left + (options.marker.afterIndex + 1) * band).toFixed(1);
      out.push(`<line x1="${mx}" x2="${mx}" y1="${top}" y2="${top + plotH}" stroke="#c0392b" stroke-dasharray="4 3"/>`);
      out.push(`<text x="${mx}" y="${top + 10}" dx="4" font-size="11" fill="#c0392b">${escapeHtml(options.marker.label)}</text>`);
    }
  }
  out.push(`<text x="${left + plotW / 2}" y="${height - 12}" text-anchor="middle" font-size="12" fill="#333">${escapeHtml(options.xLabel)}</text>`);
  out.push(`<text transform="translate(14 ${top + plotH / 2}) rotate(-90)" text-anchor="middle" font-size="12" fill="#333">${escapeHtml(options.yLabel)}</text>`);
  out.push('</svg>');
  return out.join('');
}
