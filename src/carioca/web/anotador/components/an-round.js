// The round being played (or a past round being corrected): its contract and dealer, who went
// out (and "de una"), every other hand added card by card on a keypad (with undo) or typed as
// a total, the steals, and the button that scores the round. Every tap is saved at once.

import { View, esc, seatColor, cardLabel, signed, icon, wholeNumber } from "../lib/dom.js";
import { contractWords, capitalize } from "../lib/i18n.js";
import {
  atOnce, contractOf, currentIndex, dealerOf, handValue, incompleteIndex, instantOut, leaders,
  missingHands, plannedRounds, roundScores, totals,
} from "../lib/score.js";

/** Whether the round knows how it ended: someone went out, or nobody did. */
const decided = (round) => round.out !== null || Boolean(round.nobody);
import { resultHtml } from "./an-result.js";

// Where the keyboard goes once it is known who went out: the hand the keypad adds to (by
// points), else the button that scores the round (by rounds won).
const AFTER_OUT = '.hands button[aria-current="true"], [data-action="close"]';
/** The most a hand may add up to by its total: what the total box takes. */
const TOTAL_MOST = 5000;

// Where it goes once a round is scored: who went out in the next one, or who won.
const AFTER_CLOSE = ".out-grid button, .result .winner";

/** Where the bars that stay at the top of the screen (the title, the totals) end. */
function topBarsBottom() {
  let bottom = 0;
  for (const el of document.querySelectorAll("header.top, an-totals")) {
    if (getComputedStyle(el).position === "sticky") bottom = Math.max(bottom, el.getBoundingClientRect().bottom);
  }
  return bottom;
}

class AnRound extends View {
  connectedCallback() {
    super.connectedCallback();
    if (this._focusWatch) return;
    this._focusWatch = true;
    // The keypad and the score button stay at the bottom of the screen, the title and the
    // totals at the top: a control the keyboard reaches under either is scrolled into the
    // free part between them, or it could not be seen.
    this.addEventListener("focusin", (event) => {
      const bar = this.querySelector(".sticky-actions");
      const el = event.target;
      if (!bar || bar.contains(el) || el.closest("dialog")) return;
      const rect = el.getBoundingClientRect();
      const below = rect.bottom - bar.getBoundingClientRect().top;
      const above = topBarsBottom() - rect.top;
      if (below > 0) window.scrollBy({ top: below + 8 });
      else if (above > 0) window.scrollBy({ top: -(above + 8) });
    });
  }

  index() {
    const { store } = this.ctx;
    const game = store.game;
    const editing = store.ui.editing;
    if (Number.isInteger(editing) && game.rounds[editing]) return editing;
    // With every round played, a round a correction left incomplete comes back to be finished
    // before anyone is declared the winner.
    return currentIndex(game) ?? incompleteIndex(game);
  }

  /** The seat the keypad adds to: the one chosen, else the first who did not go out. */
  activeSeat(round) {
    const n = this.ctx.store.game.players.length;
    const chosen = this.ctx.store.ui.seat;
    if (Number.isInteger(chosen) && chosen < n && chosen !== round.out) return chosen;
    for (let s = 0; s < n; s += 1) if (s !== round.out) return s;
    return null;
  }

  onAction(action, el) {
    const { store } = this.ctx;
    const i = this.index();
    if (i === null) return;
    // A round brought back because it is incomplete stays on screen, as any correction does,
    // until it is saved: the tap that completes it must not jump to the winner.
    if (!Number.isInteger(store.ui.editing) && currentIndex(store.game) === null) {
      store.setUi({ editing: i });
    }
    const round = store.game.rounds[i];
    const seat = Number(el.dataset.seat);
    const active = this.activeSeat(round);
    switch (action) {
      case "out":
        if (!(round.out === seat && !round.closed)) this.focusNext = AFTER_OUT;
        store.mutate((g) => {
          const r = g.rounds[i];
          // "De una" was said of one player: another player out starts without it.
          if (r.out !== seat) r.deUna = false;
          if (r.out === seat && !r.closed) { r.out = null; r.deUna = false; } else r.out = seat;
          r.nobody = false;
          delete r.outScore;
        });
        store.setUi({ seat: null, pickOut: false });
        break;
      case "nobody":
        // The mazo ran out and could not be rebuilt: every hand counts (ruling 21).
        if (!(round.nobody && !round.closed)) this.focusNext = AFTER_OUT;
        store.mutate((g) => {
          const r = g.rounds[i];
          r.nobody = !(r.nobody && !r.closed);
          r.out = null;
          r.deUna = false;
          delete r.outScore;
        });
        store.setUi({ seat: null, pickOut: false });
        break;
      case "change-out":
        store.setUi({ pickOut: true });
        break;
      case "de-una":
        store.mutate((g) => { g.rounds[i].deUna = !g.rounds[i].deUna; });
        break;
      case "seat":
        store.setUi({ seat });
        break;
      case "card":
        if (active === null) return;
        {
          const hand = round.hands[active];
          const value = store.game.rules.values[el.dataset.card] ?? 0;
          if (hand.typed !== null && hand.typed + value > TOTAL_MOST) {
            // The total box itself takes no more: a card past it is refused, not kept.
            this.ctx.app?.toast(this.ctx.t("bad_total", {
              name: store.game.players[active], min: 0, max: TOTAL_MOST }), true);
            return;
          }
        }
        store.mutate((g) => {
          const hand = g.rounds[i].hands[active];
          // A card tapped after a typed total adds to that total (⌫ takes the total back).
          if (hand.typed !== null) hand.typed += g.rules.values[el.dataset.card] ?? 0;
          else hand.cards.push(el.dataset.card);
        });
        this.sayHand(i, active);
        break;
      case "undo":
        if (active === null) return;
        store.mutate((g) => {
          const hand = g.rounds[i].hands[active];
          if (hand.typed !== null) hand.typed = null;
          else hand.cards.pop();
        });
        this.sayHand(i, active);
        break;
      case "next":
      case "prev": {
        if (active === null) return;
        const n = store.game.players.length;
        const step = action === "next" ? 1 : n - 1;
        for (let k = 1; k <= n; k += 1) {
          const s = (active + k * step) % n;
          if (s !== round.out) { store.setUi({ seat: s }); break; }
        }
        break;
      }
      case "type":
        this.askTotal(i, active);
        break;
      case "steal-add":
      case "steal-remove":
        store.mutate((g) => {
          const st = g.rounds[i].steals;
          st[seat] = Math.min(99, Math.max(0, (st[seat] || 0) + (action === "steal-add" ? 1 : -1)));
        });
        break;
      case "close": {
        if (!decided(round)) {
          this.querySelector(".need-out")?.classList.add("shake");
          this.querySelector(".out-grid button")?.focus();
          this.ctx.app?.announce(this.ctx.t("pick_out_first"));
          return;
        }
        // Every hand of a points round is entered before it is scored: an empty one would
        // count 0, the best score there is, for a player who did not go out.
        const missing = missingHands(store.game, round);
        if (missing.length) {
          this.tried = i;
          // The keyboard goes to the first hand missing, where the keypad now adds.
          this.focusNext = AFTER_OUT;
          store.setUi({ seat: missing[0], pickOut: false });
          this.querySelector(".missing-hands")?.classList.add("shake");
          this.ctx.app?.announce(this.missingText(missing));
          return;
        }
        if (round.closed) {
          store.setUi({ editing: null, seat: null, pickOut: false, view: "sheet" });
        } else {
          this.focusNext = AFTER_CLOSE;
          store.mutate((g) => { g.rounds[i].closed = true; });
          store.setUi({ seat: null, editing: null, pickOut: false });
          window.scrollTo({ top: 0 });
          // Every round is played but one a correction left incomplete: it comes back, and
          // the page says why (no winner yet).
          const back = currentIndex(store.game) === null ? incompleteIndex(store.game) : null;
          if (back !== null) {
            this.focusNext = AFTER_OUT;
            const left = missingHands(store.game, store.game.rounds[back]);
            this.ctx.app?.announce(`${this.ctx.t("correcting", { n: back + 1 })}. ${this.missingText(left)}`);
          }
        }
        this.tried = null;
        break;
      }
      case "back":
        this.tried = null;
        store.setUi({ editing: null, seat: null, pickOut: false });
        break;
      default:
    }
  }

  /** Why an extra round is played, above it: who is tied, on what ("Empate a 120 entre Ana
   * y Beto: se juega una ronda más"). */
  tieNote(i) {
    const { t, store } = this.ctx;
    const game = store.game;
    if (i < game.rules.rounds.length || game.rounds[i].closed) return "";
    const { totals: sums } = totals(game);
    const tied = leaders(game, sums);
    if (tied.length < 2) return "";
    return `<p class="hint tie-now">${esc(t("tie_now", {
      total: signed(sums[tied[0]]), names: t.list(tied.map((s) => game.players[s])) }))}</p>`;
  }

  /** Whose hands are still to enter, in words ("Faltan las manos de Beto y Caro: ..."). */
  missingText(missing) {
    const { t, store } = this.ctx;
    const names = t.list(missing.map((s) => store.game.players[s]));
    return t(missing.length === 1 ? "hands_missing" : "hands_missing_many", { names });
  }

  /** Tell a screen reader what a key did: the hand's new total ("Ana: 25"). */
  sayHand(i, seat) {
    const game = this.ctx.store.game;
    const value = handValue(game.rules, game.rounds[i].hands[seat]);
    this.ctx.app?.announce(`${game.players[seat]}: ${signed(value)}`, "polite");
  }

  askTotal(i, seat) {
    if (seat === null) return;
    const { t, store } = this.ctx;
    const dialog = this.querySelector("dialog.total");
    const input = dialog.querySelector("input");
    const error = dialog.querySelector(".error");
    const name = store.game.players[seat];
    const hand = store.game.rounds[i].hands[seat];
    dialog.querySelector(".who").textContent = t("points_of", { name, n: i + 1 });
    input.value = String(handValue(store.game.rules, hand) || "");
    const fine = () => { error.textContent = ""; input.removeAttribute("aria-invalid"); };
    fine();
    input.oninput = fine;
    // The form checks the number itself (novalidate): the browser's own bubble is not read
    // out everywhere and does not say the limits; this says what to type, and is read out.
    dialog.querySelector("form").onsubmit = (event) => {
      if (event.submitter?.value !== "ok" || wholeNumber(input) !== null) return;
      event.preventDefault();
      input.setAttribute("aria-invalid", "true");
      error.textContent = "";
      // Set a moment later, so that the same mistake twice is read out twice.
      setTimeout(() => { error.textContent = t("bad_total", { name, min: input.min, max: input.max }); }, 60);
      input.focus();
      input.select();
    };
    dialog.returnValue = "";
    dialog.onclose = () => {
      if (dialog.returnValue === "ok") {
        // The form let "ok" through only with a whole number in range ("1e3" is 1000).
        const v = wholeNumber(input);
        // The total stands for the whole hand: the cards tapped before it go.
        if (v !== null) store.mutate((g) => { g.rounds[i].hands[seat] = { cards: [], typed: v }; });
      } else if (dialog.returnValue === "clear") {
        store.mutate((g) => { g.rounds[i].hands[seat] = { cards: [], typed: null }; });
      }
    };
    input.onkeydown = (event) => {
      // As the OK button: the form checks the number first.
      if (event.key === "Enter") { event.preventDefault(); dialog.querySelector('button[value="ok"]').click(); }
    };
    dialog.showModal();
    input.focus();
    input.select();
  }

  render() {
    const { store, t, data } = this.ctx;
    const game = store.game;
    const i = this.index();
    if (i === null) {
      this.innerHTML = resultHtml(this.ctx);
      return;
    }
    const round = game.rounds[i];
    const rules = game.rules;
    const lang = t.lang;
    const code = contractOf(game, i);
    const planned = rules.rounds.length;
    const title = i < planned
      ? t("round_of", { n: i + 1, total: plannedRounds(game) })
      : t("extra_round", { n: i - planned + 1 });
    const oneTurn = atOnce(game, i);
    const dealer = game.players[dealerOf(game, i)];
    const points = rules.scoring === "points";
    const scores = roundScores(game, round);
    const active = this.activeSeat(round);
    const current = currentIndex(game);
    const showGrid = !decided(round) || store.ui.pickOut;
    // A round being corrected is scored already: a hand missing there shows at once.
    const missing = this.tried === i || round.closed ? missingHands(game, round) : [];

    const banner = round.closed ? `
      <div class="correcting" role="status">
        <span>✎ ${esc(t("correcting", { n: i + 1 }))}</span>
        ${current !== null ? `<button data-action="back">${esc(t("back_to_round", { n: current + 1 }))}</button>` : ""}
      </div>` : "";

    let outHtml;
    if (showGrid) {
      outHtml = `<h3 class="need-out" id="who-out">${esc(t("who_out"))}</h3>
        <div class="out-grid" data-count="${game.players.length}" role="group" aria-labelledby="who-out">${game.players.map((name, s) => `
          <button class="out-btn" data-action="out" data-seat="${s}" aria-pressed="${round.out === s}"
            style="--seat:${seatColor(s)}">${round.out === s ? icon("star") : ""}${esc(name)}</button>`).join("")}
          <button class="out-btn nobody" data-action="nobody" aria-pressed="${Boolean(round.nobody)}"
            title="${esc(t("nobody_out_why"))}">${esc(t("nobody_out"))}</button>
        </div>`;
    } else if (round.nobody) {
      outHtml = `<div class="out-summary nobody">
          <span class="who"><b>${esc(t("nobody_out"))}</b> ${esc(t("nobody_out_why"))}</span>
          <button class="ghost change" data-action="change-out">${esc(t("change"))}</button>
        </div>`;
    } else {
      // In a round gone out in one turn every out is "de una": shown pressed, not a choice.
      const instant = instantOut(game, round);
      const deUna = points && rules.de_una ? `
        <button class="toggle de-una" data-action="de-una" aria-pressed="${instant}"
          ${oneTurn ? `disabled title="${esc(t("de_una_always"))}"` : ""}>
          ${instant ? "✓" : "○"} ${esc(t("de_una"))} ${signed(rules.instant_out_score)}</button>` : "";
      outHtml = `<div class="out-summary" style="--seat:${seatColor(round.out)}">
          <span class="who">${icon("star")}<b>${esc(game.players[round.out])}</b> ${esc(t("went_out"))}</span>
          ${deUna}
          <button class="ghost change" data-action="change-out">${esc(t("change"))}</button>
        </div>`;
    }

    let handsHtml = "";
    let keypad = "";
    if (points && decided(round)) {
      const rows = game.players.map((name, s) => {
        const steals = rules.steals ? `
          <span class="steals"><span>${esc(t("steals"))}</span>
            <button class="icon small" data-action="steal-remove" data-seat="${s}"
              aria-label="${esc(t("steal_remove", { name }))}" ${round.steals[s] ? "" : "disabled"}>−</button>
            <span class="steal-count" data-steals="${s}" title="${esc(t("steals"))}">${round.steals[s] || 0}</span>
            <button class="icon small" data-action="steal-add" data-seat="${s}"
              aria-label="${esc(t("steal_add", { name }))}">+</button>
          </span>` : "";
        if (s === round.out) {
          if (!rules.steals) return "";
          return `<li class="hand-row is-out" data-seat="${s}" style="--seat:${seatColor(s)}">
            <span class="name">${esc(name)}</span>
            <span class="cards"><em>${esc(t("went_out"))}</em></span>
            ${steals}<span class="sum" data-score="${s}" id="hand-sum-${s}">${signed(scores[s])}</span></li>`;
        }
        const hand = round.hands[s];
        const chips = hand.typed !== null
          ? `<span class="typed">✎ ${signed(hand.typed)}</span>`
          : hand.cards.map((k) => `<span class="chip">${esc(cardLabel(k))}</span>`).join("");
        // The name picks the hand the keypad adds to; a screen reader hears whose points of
        // which round it is, then the points so far (the sum, as its description).
        return `<li class="hand-row${missing.includes(s) ? " missing" : ""}${s === active ? " active" : ""}"
            data-seat="${s}" style="--seat:${seatColor(s)}">
            <button class="name" data-action="seat" data-seat="${s}" aria-current="${s === active}"
              aria-label="${esc(t("points_of", { name, n: i + 1 }))}" aria-describedby="hand-sum-${s}"
              >${esc(name)}</button>
            <span class="cards" data-action="seat" data-seat="${s}">${chips}</span>
            ${steals}<span class="sum" data-score="${s}" id="hand-sum-${s}">${signed(scores[s])}</span></li>`;
      }).join("");
      // Read out once, when the round is refused (an alert here would be read at every tap).
      const missingNote = missing.length ? `<p class="missing-hands">${esc(this.missingText(missing))}</p>` : "";
      handsHtml = `<h3>${esc(t("hands"))}</h3>${missingNote}<ol class="hands">${rows}</ol>`;
      const activeName = active === null ? "" : game.players[active];
      const keys = data.cards.map((k) => `
        <button class="key${k === "JK" ? " joker" : ""}" data-action="card" data-card="${k}"
          aria-label="${esc(k === "JK" ? t("joker") : k)} (${rules.values[k]})">
          <b>${esc(cardLabel(k))}</b><small>${signed(rules.values[k])}</small></button>`).join("");
      keypad = `
        <div class="keypad">
          <div class="keypad-for" style="--seat:${active === null ? "#666" : seatColor(active)}">
            <button class="icon" data-action="prev" aria-label="${esc(t("prev_player"))}">${icon("prev")}</button>
            <span class="for-name">${esc(activeName)}</span>
            <b class="for-sum" data-active-sum>${active === null ? "" : signed(handValue(rules, round.hands[active]))}</b>
            <button class="icon" data-action="next" aria-label="${esc(t("next_player"))}">${icon("next")}</button>
            <button class="type" data-action="type" aria-label="${esc(t("type_total"))}">✎ ${esc(t("type_short"))}</button>
          </div>
          <div class="keys">${keys}
            <button class="key undo" data-action="undo" aria-label="${esc(t("undo"))}"><b>⌫</b><small>${esc(t("undo"))}</small></button>
          </div>
        </div>`;
    }

    this.innerHTML = `
      ${banner}
      <header class="round-head">
        <div class="round-no"><span>${esc(title)}</span>
          <span class="dealer">${icon("card")}${esc(t("deals", { name: dealer }))}</span></div>
        <h2 class="contract">${esc(capitalize(contractWords(code, lang, data.contracts)))}
          <small>${esc(code)}</small></h2>
        ${oneTurn ? `<span class="badge">${esc(t("at_once"))}</span>` : ""}
      </header>
      ${this.tieNote(i)}
      ${outHtml}
      ${points ? "" : `<p class="hint">${esc(t("rounds_mode_hint"))}</p>`}
      ${handsHtml}
      <div class="sticky-actions">
        ${keypad}
        <button class="primary big" data-action="close" ${decided(round) ? "" : "aria-disabled=\"true\""}>
          ${esc(round.closed ? t("save_round") : t("close_round"))} ✓</button>
        ${decided(round) ? "" : `<p class="hint tiny">${esc(t("pick_out_first"))}</p>`}
      </div>
      <dialog class="total" aria-labelledby="total-who">
        <form method="dialog" novalidate>
          <label><span class="who" id="total-who"></span>
            <input type="number" inputmode="numeric" min="0" max="${TOTAL_MOST}" step="1" required
              name="total" aria-describedby="total-error"></label>
          <p class="error" id="total-error" role="alert"></p>
          <div class="row">
            <button value="clear" class="ghost" formnovalidate>${esc(t("clear"))}</button>
            <button value="cancel" class="ghost" formnovalidate>${esc(t("cancel"))}</button>
            <button value="ok" class="primary">${esc(t("ok"))}</button>
          </div>
        </form>
      </dialog>`;
  }
}

customElements.define("an-round", AnRound);
