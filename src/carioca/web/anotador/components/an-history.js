// The games kept on this device, newest first: open one (to go on or correct it), export it,
// delete it; import a game from a JSON or CSV file; start a new game. A game of a series shows
// where the series stood after it.

import { View, esc, icon, signed } from "../lib/dom.js";
import { matchOf, showsSeries, standing } from "../lib/match.js";
import { closedRounds, isFinished, plannedRounds, result, totals } from "../lib/score.js";
import { seriesTag, seriesWinner, tallyHtml } from "./an-result.js";

class AnHistory extends View {
  onAction(action, el) {
    const { store, t } = this.ctx;
    const id = el.dataset.id;
    if (action === "open-game") store.open(id);
    else if (action === "delete-game") {
      if (window.confirm(t("delete_confirm"))) store.remove(id);
    }
  }

  render() {
    const { store, t } = this.ctx;
    const games = store.games();
    // The games of each series, gathered once (standing() looks only among them).
    const bySeries = new Map();
    for (const game of games) {
      const id = matchOf(game).id;
      if (!bySeries.has(id)) bySeries.set(id, []);
      bySeries.get(id).push(game);
    }
    const locale = { es: "es-CL", en: "en-GB", de: "de-DE", sv: "sv-SE" }[t.lang] || undefined;
    const items = games.map((game) => {
      const done = isFinished(game);
      const sums = totals(game).totals;
      const winners = done ? result(game).seats : [];
      const when = new Date(game.updated || game.created);
      const status = done
        ? `${icon("star")} ${esc(t.list(winners.map((s) => game.players[s])))}`
        : esc(t("round_short", { n: closedRounds(game).length + 1, total: plannedRounds(game) }));
      const current = store.game && store.game.id === game.id;
      const st = standing(bySeries.get(matchOf(game).id), game);
      const series = showsSeries(st) ? `<div class="game-series" data-series="${esc(st.id)}"
          data-wins="${st.wins.join(",")}" data-winners="${st.decided ? st.decided.seats.join(",") : ""}">
          <span class="tag">${esc(seriesTag(st, t))}</span>
          <span class="tally">${esc(t("series"))}: ${tallyHtml(game, st)}</span>
          ${st.decided ? `<span class="series-won">${esc(seriesWinner(game, st, t))}</span>` : ""}
        </div>` : "";
      return `<li class="game${current ? " is-current" : ""}" data-game="${esc(game.id)}">
        <div class="game-head">
          <b>${esc(when.toLocaleDateString(locale, { day: "numeric", month: "short", year: "numeric" }))}
            ${esc(when.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" }))}</b>
          <span class="tag">${esc(game.rules.preset)}</span>
          <span class="tag ${done ? "done" : "live"}">${esc(current && !done ? t("current") : done ? t("finished") : t("pending"))}</span>
        </div>
        <div class="game-players">${game.players.map((p, s) =>
          `<span>${esc(p)} <b>${signed(sums[s])}</b></span>`).join("")}</div>
        <div class="game-status">${status}</div>
        ${series}
        <div class="row">
          <button data-action="open-game" data-id="${esc(game.id)}">${esc(t("open"))}</button>
          <button class="ghost" data-action="delete-game" data-id="${esc(game.id)}">${esc(t("delete"))}</button>
        </div>
      </li>`;
    }).join("");
    this.innerHTML = `
      <div class="actions">
        <button class="primary big" data-action="new-game">${icon("setup")} ${esc(t("new_game"))}</button>
        <label class="button file">${icon("upload")} ${esc(t("import"))}
          <input type="file" accept=".json,.csv,application/json,text/csv,text/plain" data-import
            class="sr-only"></label>
      </div>
      <h2 class="view-title">${esc(t("games"))}</h2>
      ${games.length ? `<ol class="games">${items}</ol>` : `<p class="hint">${esc(t("no_games"))}</p>`}`;
  }
}

customElements.define("an-history", AnHistory);
