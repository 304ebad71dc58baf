// The running totals, always on screen: one chip per player with the total so far, the points
// of the round being entered, who deals, and who leads.

import { View, esc, icon, seatColor, signed } from "../lib/dom.js";
import { currentIndex, dealerOf, leaders, roundScores, totals } from "../lib/score.js";

class AnTotals extends View {
  onAction(action) {
    if (action === "to-sheet") this.ctx.store.setUi({ view: "sheet", editing: null });
  }

  render() {
    const { store, t } = this.ctx;
    const game = store.game;
    if (!game) { this.innerHTML = ""; return; }
    const { totals: sums, running } = totals(game);
    const i = currentIndex(game);
    const pending = i === null ? null : roundScores(game, game.rounds[i]);
    const dealer = i === null ? null : dealerOf(game, i);
    let lead = running.length ? leaders(game, sums) : [];
    if (lead.length === sums.length) lead = [];
    this.dataset.count = String(game.players.length);
    // No aria-label: it would hide the totals from a screen reader; they are the button's words,
    // after the name of where it goes.
    this.innerHTML = `<button class="totals" data-action="to-sheet"><span class="sr-only">${esc(t("sheet"))}:</span>
      ${game.players.map((name, s) => `
        <span class="tot${lead.includes(s) ? " lead" : ""}" style="--seat:${seatColor(s)}" data-seat="${s}">
          <span class="n">${s === dealer ? icon("card") : ""}${esc(name)}</span>
          <span class="vp"><b class="v" data-total="${s}">${signed(sums[s])}</b>
          ${pending && game.rules.scoring === "points" && pending[s] !== 0
            ? `<small class="p">${pending[s] > 0 ? "+" : ""}${signed(pending[s])}</small>` : ""}</span>
        </span>`).join("")}
    </button>`;
  }
}

customElements.define("an-totals", AnTotals);
