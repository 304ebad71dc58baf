// The score sheet as on paper: one line per round, one column per player, the totals at the
// bottom. Tapping a round opens it for correction; tapping a name renames the player (a typo
// at the start of the evening should not need a new game).

import { View, esc, icon, seatColor, signed } from "../lib/dom.js";
import {
  NAME_MOST, contractOf, dealerOf, currentIndex, isFinished, missingHands, plannedRounds,
  roundScores, totals, result,
} from "../lib/score.js";
import { exportRow, resultHtml } from "./an-result.js";

class AnSheet extends View {
  onAction(action, el) {
    if (action === "edit-round") {
      const i = Number(el.dataset.round);
      this.ctx.store.setUi({ view: "round", editing: i, seat: null, pickOut: false });
      window.scrollTo({ top: 0 });
    } else if (action === "rename") {
      const { store, t } = this.ctx;
      const seat = Number(el.dataset.seat);
      const now = store.game.players[seat];
      const typed = window.prompt(t("rename_prompt", { name: now }), now);
      const name = (typed ?? "").trim().slice(0, NAME_MOST);
      if (!name || name === now) return;
      // Two players of one name could not be told apart (nor read back from a CSV).
      if (store.game.players.includes(name)) window.alert(t("same_name", { name }));
      else store.mutate((g) => { g.players[seat] = name; });
    }
  }

  render() {
    const { store, t } = this.ctx;
    const game = store.game;
    const n = game.players.length;
    const { totals: sums } = totals(game);
    const finished = isFinished(game);
    const winners = finished ? result(game).seats : [];
    const current = currentIndex(game);
    const planned = plannedRounds(game);
    const rows = [];
    for (let i = 0; i < planned; i += 1) {
      const round = game.rounds[i];
      const code = contractOf(game, i);
      const dealer = dealerOf(game, i);
      let cells;
      if (round && round.closed) {
        const scores = roundScores(game, round);
        const missing = missingHands(game, round);  // after a correction left a hand empty
        cells = scores.map((v, s) => `<td class="${s === round.out ? "out" : ""}${missing.includes(s) ? " missing" : ""}"
          data-cell="${i}-${s}">${s === round.out ? "★" : ""}${missing.includes(s) ? "?" : signed(v)}</td>`).join("");
      } else if (i === current) {
        cells = `<td colspan="${n}" class="pending">${esc(t("pending"))} ›</td>`;
      } else {
        cells = Array(n).fill("<td class=\"empty\">·</td>").join("");
      }
      const head = `<span class="rno">${i + 1}</span><small class="c">${esc(code)}</small>
          <small class="d" style="color:${seatColor(dealer)}">${icon("card")}${esc(game.players[dealer].slice(0, 3))}</small>`;
      // A round played opens for correction: a tap anywhere on its row, or its button (the
      // row's header), which the keyboard reaches and a screen reader names as a button. Its
      // name is short, as a row header is read again at each score; what it does is its
      // description (the hint under the sheet).
      const fix = t("fix_round", { n: i + 1, contract: code, name: game.players[dealer] });
      rows.push(round
        ? `<tr data-action="edit-round" data-round="${i}" class="${i === current ? "current" : ""}">
          <th scope="row"><button class="fix" data-action="edit-round" data-round="${i}"
            aria-label="${esc(fix)}" aria-describedby="sheet-hint">${head}</button></th>${cells}</tr>`
        : `<tr class="${i === current ? "current" : ""}"><th scope="row"><span class="sr-only">${esc(fix)}</span>
            <span aria-hidden="true">${head}</span></th>${cells}</tr>`);
    }
    this.innerHTML = `
      ${resultHtml(this.ctx)}
      <h2 class="view-title">${esc(t("sheet"))}</h2>
      <div class="table-wrap">
        <table class="sheet">
          <thead><tr><th scope="col">#</th>${game.players.map((p, s) =>
            `<th scope="col" style="--seat:${seatColor(s)}"><button class="rename" data-action="rename"
              data-seat="${s}" title="${esc(t("rename", { name: p }))}">${esc(p)}</button></th>`).join("")}</tr></thead>
          <tbody>${rows.join("")}</tbody>
          <tfoot><tr><th scope="row">${esc(t("total"))}</th>${sums.map((v, s) =>
            `<td data-total="${s}" class="${winners.includes(s) ? "win" : ""}">${signed(v)}</td>`).join("")}</tr></tfoot>
        </table>
      </div>
      <p class="hint" id="sheet-hint">${esc(t("tap_to_fix"))}</p>
      <div class="actions">
        ${exportRow(t)}
        ${finished ? "" : `<button data-action="same-again">${icon("again")} ${esc(t("same_again"))}</button>`}
      </div>`;
  }
}

customElements.define("an-sheet", AnSheet);
