// The end of the game: who won and by which rule (the tie-break of the chosen rules), where
// the series stands (games won by each player, who won it), and what to do next (the same game
// again in one tap, export, a new game).

import { esc, icon, seatColor, signed } from "../lib/dom.js";
import { capitalize } from "../lib/i18n.js";
import { showsSeries, standing } from "../lib/match.js";
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
      why = t(rounds ? (r.total === 1 ? "why_single_rounds_1" : "why_single_rounds")
        : Math.abs(r.total) === 1 ? "why_single_points_1" : "why_single_points", { total });
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
      const cap = game.rules.extra_rounds_cap ?? 3;
      why = t(cap === 1 ? "why_extra_cap_1" : "why_extra_cap", { n: cap });
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

/** The games won by each player in the series: "Ana 2 · Beto 1" (the names of this game). */
export function tallyHtml(game, st) {
  return game.players.map((p, s) => `<span class="w" data-seat="${s}">${esc(p)} <b>${st.wins[s]}</b></span>`)
    .join(" · ");
}

/** Who won the series, as one sentence ("Ana gana la serie al mejor de 3"). */
export function seriesWinner(game, st, t) {
  const seats = st.decided.seats;
  return seats.length === 1
    ? t("series_won", { name: game.players[seats[0]], n: st.bestOf })
    : t("series_shared", { names: t.list(seats.map((s) => game.players[s])), n: st.bestOf });
}

/** Which game of which series: "al mejor de 3 · partida 2", "serie · partida 4". */
export function seriesTag(st, t) {
  return st.bestOf > 1
    ? t("series_tag_best", { i: st.number, n: st.bestOf })
    : t("series_tag_open", { i: st.number });
}

/** The series on the result screen: the tally after this game, which game of the series it
 * is, and who won the series once it is decided. */
function seriesHtml(game, st, t) {
  if (!showsSeries(st)) return "";
  const which = capitalize(seriesTag(st, t));
  const won = st.decided ? seriesWinner(game, st, t) : "";
  return `<div class="series" data-series="${esc(st.id)}" data-best-of="${st.bestOf}"
      data-number="${st.number}" data-wins="${st.wins.join(",")}"
      data-winners="${st.decided ? st.decided.seats.join(",") : ""}">
      <p class="tally"><span class="label">${esc(t("series"))}:</span> ${tallyHtml(game, st)}</p>
      <p class="which">${esc(which)}</p>
      ${won ? `<p class="series-won">${icon("star")}${esc(won)}</p>` : ""}
    </div>`;
}

export function resultHtml(ctx) {
  const { store, t } = ctx;
  const game = store.game;
  if (!game || !isFinished(game)) return "";
  const v = verdict(game, t);
  const counts = outs(game);
  const games = store.games();
  const st = standing(games, game);
  // "Otra igual" after a decided series starts a new one (of the same setting).
  const next = standing(games, game, { whole: true });
  return `
    <section class="result" data-reason="${v.reason}" role="status">
      <div class="trophy">${icon("star")}</div>
      <h2 class="winner" data-winners="${v.seats.join(",")}" tabindex="-1">${esc(v.head)}</h2>
      <p class="why">${esc(v.why)}</p>
      <p class="outs"><span class="label">${esc(t("outs_label"))}:</span>
        ${game.players.map((p, s) => `<span class="o" style="--seat:${seatColor(s)}">${esc(p)} <b>${counts[s]}</b></span>`).join("")}</p>
      ${seriesHtml(game, st, t)}
    </section>
    <div class="actions">
      <button class="primary big" data-action="same-again">${icon("again")} ${esc(t("same_again"))}</button>
      ${next.decided ? `<p class="hint tiny new-series">${esc(t("series_new"))}</p>` : ""}
      ${exportRow(t)}
      <button data-action="new-game">${icon("setup")} ${esc(t("new_game"))}</button>
    </div>`;
}
