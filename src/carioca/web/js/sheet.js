// <c-scoresheet>: the anotador of a game, with a chart of the running totals (inline SVG).
import { nameList, t } from "./i18n.js";

// Okabe-Ito colours (readable with colour blindness), and a marker shape for each seat too.
export const SEAT_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#7f7f7f"];
// The same hues, dark enough for text on white (contrast 4.5:1 or more), for the names.
const SEAT_TEXT_COLOURS = ["#0072B2", "#B34D00", "#007A59", "#A5487E", "#946400", "#2878A8", "#000000", "#6B6B6B"];
const SHAPES = ["circle", "square", "triangle", "diamond", "circle", "square", "triangle", "diamond"];
const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

function marker(shape, x, y, colour) {
  const r = 3.5;
  if (shape === "square") return svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: colour });
  if (shape === "triangle") return svg("polygon", { points: `${x},${y - r - 1} ${x - r - 1},${y + r} ${x + r + 1},${y + r}`, fill: colour });
  if (shape === "diamond") return svg("polygon", { points: `${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}`, fill: colour });
  return svg("circle", { cx: x, cy: y, r, fill: colour });
}

class ScoreSheet extends HTMLElement {
  set data(value) { this._data = value; this.render(); }
  get data() { return this._data; }

  render() {
    const d = this._data;
    this.innerHTML = "";
    if (!d || !d.sheet) return;
    const { sheet, players } = d;
    const n = players.length;
    const table = document.createElement("table");
    table.className = "sheet";
    table.setAttribute("aria-label", t("score_sheet"));
    const thead = table.createTHead().insertRow();
    const th0 = document.createElement("th");
    th0.textContent = "#";
    th0.setAttribute("aria-label", t("round")); // "Ronda", not "number sign"
    thead.append(th0);
    const winners = new Set(sheet.winners || []);
    players.forEach((p, i) => {
      const th = document.createElement("th");
      th.textContent = p;
      th.style.color = SEAT_TEXT_COLOURS[i % 8];
      if (winners.has(i)) th.classList.add("win");
      thead.append(th);
    });
    const body = table.createTBody();
    for (const r of sheet.rounds) {
      const row = body.insertRow();
      // The round heads its row: a screen reader says "Ronda 3, Ana, 25" in the table.
      const head = document.createElement("th");
      head.scope = "row";
      head.textContent = r.round;
      row.append(head);
      for (let i = 0; i < n; i++) {
        const cell = row.insertCell();
        if (r.scores) cell.textContent = r.scores[i];
        else cell.textContent = "·";
        if (r.went_out === i) { cell.classList.add("out"); cell.title = t("went_out", { name: players[i] }); cell.append(" ", wentOut(players[i])); }
      }
    }
    const foot = table.createTFoot().insertRow();
    foot.insertCell().textContent = t("total");
    sheet.totals.forEach((v, i) => {
      const c = foot.insertCell();
      c.textContent = v;
      if (winners.has(i)) c.classList.add("win");
    });
    this.append(table);
    if (sheet.finished && winners.size) {
      const p = document.createElement("p");
      p.className = "winner";
      const names = [...winners].map((i) => players[i]);
      p.textContent = t(names.length > 1 ? "winners" : "winner", { names: nameList(names) });
      p.style.fontWeight = "700";
      this.append(p);
    }
    this.append(this.chart(sheet, players));
  }

  chart(sheet, players) {
    const played = sheet.rounds.filter((r) => r.scores);
    const wrap = document.createElement("div");
    if (!played.length) return wrap;
    const n = players.length;
    const series = players.map(() => [0]);
    for (const r of played) for (let i = 0; i < n; i++) series[i].push(series[i][series[i].length - 1] + r.scores[i]);
    const all = series.flat();
    let lo = Math.min(0, ...all), hi = Math.max(1, ...all);
    const W = 320, H = 170, L = 34, R = 8, T = 8, B = 22;
    const xs = (k) => L + (W - L - R) * (k / Math.max(1, played.length));
    const ys = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo || 1));
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": t("score_sheet") });
    const step = niceStep(hi - lo);
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
      root.append(svg("line", { x1: L, x2: W - R, y1: ys(v), y2: ys(v), stroke: v === 0 ? "#888" : "#ddd", "stroke-width": 1 }));
      const label = svg("text", { x: L - 4, y: ys(v) + 4, "text-anchor": "end" });
      label.textContent = v;
      root.append(label);
    }
    for (let k = 1; k <= played.length; k++) {
      const label = svg("text", { x: xs(k), y: H - 6, "text-anchor": "middle" });
      label.textContent = played[k - 1].round;
      root.append(label);
    }
    series.forEach((vals, i) => {
      const colour = SEAT_COLOURS[i % 8];
      const pts = vals.map((v, k) => `${xs(k).toFixed(1)},${ys(v).toFixed(1)}`).join(" ");
      root.append(svg("polyline", { points: pts, fill: "none", stroke: colour, "stroke-width": 2.2, "stroke-dasharray": i >= 4 ? "5 3" : "none" }));
      vals.forEach((v, k) => { if (k) root.append(marker(SHAPES[i % 8], xs(k), ys(v), colour)); });
    });
    wrap.append(root);
    const legend = document.createElement("div");
    legend.className = "legend";
    players.forEach((p, i) => {
      const s = document.createElement("span");
      const icon = svg("svg", { width: 12, height: 12, viewBox: "0 0 12 12" });
      icon.append(marker(SHAPES[i % 8], 6, 6, SEAT_COLOURS[i % 8]));
      s.append(icon, document.createTextNode(`${p}: ${series[i][series[i].length - 1]}`));
      legend.append(s);
    });
    wrap.append(legend);
    return wrap;
  }
}

/** The ✓ of who went out, read as "Ana se fue" rather than "check mark". */
function wentOut(name) {
  const mark = document.createElement("span");
  mark.setAttribute("role", "img");
  mark.setAttribute("aria-label", t("went_out", { name }));
  mark.textContent = "✓";
  return mark;
}

function niceStep(span) {
  const raw = span / 4 || 1;
  const pow = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (raw <= m * pow) return m * pow;
  return 10 * pow;
}

customElements.define("c-scoresheet", ScoreSheet);
