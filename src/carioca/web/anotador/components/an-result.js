// The end of the game: who won and by which rule (the tie-break of the chosen rules), and what
// to do next (the same game again in one tap, export, a new game).

import { esc, icon, seatColor, signed } from "../lib/dom.js";
import { isFinished, result, outs } from "../lib/score.js";

/** The winner and why, as one sentence (with the reason for a tie). */
export function verdict(game, t) {
  const r = result(game);
  const names = (seats) => t.list(seats.map((s) => game.players[s]));
  const total = signed(r.total);
  const head = r.seats.length === 1
    ? t("winner_one", { name: game.players[r.seats[0]] })
    : t("winner_many", { names: names(r.seats) });
  let why;
  const rounds = game.rules.scoring === "rounds";
  switch (r.reason) {
    case "single":
      why = t(rounds ? "why_single_rounds" : "why_single_points", { total });
      break;
    case "most_outs":
      why = t("why_most_outs", { total, names: names(r.tied), outs: r.outs });
      break;
    case "last_win":
      why = t("why_last_win", { total, names: names(r.tied), round: r.round });
      break;
    case "still_tied":
      why = t("why_still_tied", { total, names: names(r.tied) });
      break;
    case "extra_cap":
      why = t("why_extra_cap", { n: game.rules.extra_rounds_cap ?? 3 });
      break;
    default:
      why = t("why_share", { total });
  }
  return { head, why, seats: r.seats, reason: r.reason };
}

/** The export buttons: the game as JSON (everything) or CSV (for a spreadsheet). */
export function exportRow(t) {
  return `<div class="row export">
    <span class="label">${icon("download")} ${esc(t("export"))}</span>
    <button data-action="export-json" aria-label="${esc(t("export_json"))}">JSON</button>
    <button data-action="export-csv" aria-label="${esc(t("export_csv"))}">CSV</button>
  </div>`;
}

export function resultHtml(ctx) {
  const { store, t } = ctx;
  const game = store.game;
  if (!game || !isFinished(game)) return "";
  const v = verdict(game, t);
  const counts = outs(game);
  return `
    <section class="result" data-reason="${v.reason}" role="status">
      <div class="trophy">${icon("star")}</div>
      <h2 class="winner" data-winners="${v.seats.join(",")}">${esc(v.head)}</h2>
      <p class="why">${esc(v.why)}</p>
      <p class="outs"><span class="label">${esc(t("outs_label"))}:</span>
        ${game.players.map((p, s) => `<span class="o" style="--seat:${seatColor(s)}">${esc(p)} <b>${counts[s]}</b></span>`).join("")}</p>
    </section>
    <div class="actions">
      <button class="primary big" data-action="same-again">${icon("again")} ${esc(t("same_again"))}</button>
      ${exportRow(t)}
      <button data-action="new-game">${icon("setup")} ${esc(t("new_game"))}</button>
    </div>`;
}
