// The running totals as a line chart, drawn as inline SVG (no library): one line per player,
// from 0 before the first round to the total after the last round scored.

import { View, esc, seatColor, signed } from "../lib/dom.js";
import { totals, plannedRounds, result } from "../lib/score.js";

function niceStep(span) {
  const raw = span / 4;
  const mag = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

export function chartSvg(game, t) {
  const { running } = totals(game);
  const rounds = Math.max(plannedRounds(game), 1);
  const series = game.players.map((_, s) => [0, ...running.map((row) => row[s])]);
  const all = series.flat();
  const marks = game.rules.scoring === "rounds"; // rounds won: a few whole marks
  let lo = Math.min(0, ...all);
  let hi = Math.max(marks ? 2 : 10, ...all);
  // Scores are whole numbers: so are the lines of the grid (2.5 would be no score at all).
  const step = Math.max(1, Math.ceil(niceStep(hi - lo)));
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const W = 360;
  const H = 240;
  const L = 40;
  const R = 12;
  const T = 12;
  const B = 28;
  const x = (i) => L + (i / rounds) * (W - L - R);
  const y = (v) => T + (1 - (v - lo) / (hi - lo || 1)) * (H - T - B);
  const grid = [];
  for (let v = lo; v <= hi + 1e-9; v += step) {
    grid.push(`<line x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}" class="grid${v === 0 ? " zero" : ""}"/>
      <text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${signed(v)}</text>`);
  }
  for (let i = 1; i <= rounds; i += 1) {
    grid.push(`<text x="${x(i)}" y="${H - 8}" text-anchor="middle">${i}</text>`);
  }
  const lines = series.map((pts, s) => {
    const d = pts.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const last = pts.length - 1;
    return `<g style="--seat:${seatColor(s)}" data-series="${s}">
      <polyline points="${d}" fill="none" stroke="${seatColor(s)}" stroke-width="3"
        stroke-linejoin="round" stroke-linecap="round"/>
      <circle cx="${x(last)}" cy="${y(pts[last])}" r="5" fill="${seatColor(s)}"/></g>`;
  }).join("");
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img"
      aria-label="${esc(t("chart"))}">${grid.join("")}${lines}</svg>`;
}

class AnChart extends View {
  render() {
    const { store, t } = this.ctx;
    const game = store.game;
    const { totals: sums, running } = totals(game);
    // Best first; among equal totals, whoever the tie-break gave the game.
    const ahead = new Set(running.length ? result(game).seats : []);
    const order = game.players.map((_, s) => s).sort((a, b) => (
      (game.rules.scoring === "rounds" ? sums[b] - sums[a] : sums[a] - sums[b])
      || Number(ahead.has(b)) - Number(ahead.has(a))));
    this.innerHTML = `
      <h2 class="view-title">${esc(t("chart"))}</h2>
      ${running.length ? chartSvg(game, t) : `<p class="hint">${esc(t("no_rounds_yet"))}</p>`}
      <ol class="legend">${order.map((s) => `<li style="--seat:${seatColor(s)}">
        <span class="swatch"></span><span class="name">${esc(game.players[s])}</span>
        <b>${signed(sums[s])}</b></li>`).join("")}</ol>`;
  }
}

customElements.define("an-chart", AnChart);
