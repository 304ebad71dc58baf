// The new-game screen: players (2-8, in seat order), the house rules (a preset of the engine,
// with any round list, card values, scoring, "de una", steals and tie-break changed; its rules
// in words a tap away), and whether the games played with "Otra igual" make a best of 3 or 5.
// The draft is saved with every change, like everything else.

import { View, esc, icon, seatColor, signed, wholeNumber } from "../lib/dom.js";
import { NAME_MOST, repeatedName, rulesFromPreset } from "../lib/score.js";
import { BEST_OF } from "../lib/match.js";
import { contractWords, capitalize, hasOwn, LANG_NAMES } from "../lib/i18n.js";

const MAX_PLAYERS = 8;

export function defaultSetup(data, players = ["", "", "", ""]) {
  const preset = data.presets.find((p) => p.name === data.default_preset) || data.presets[0];
  return { players: players.slice(), preset: preset.name, rules: rulesFromPreset(preset), firstDealer: 0, bestOf: 1 };
}

class AnSetup extends View {
  get draft() {
    const { store, data } = this.ctx;
    if (!store.ui.setup) store.ui.setup = defaultSetup(data);
    return store.ui.setup;
  }

  save(rerender = true) {
    const { store } = this.ctx;
    if (rerender) store.setUi({ setup: this.draft });
    else store.saveUi();
  }

  connectedCallback() {
    super.connectedCallback();
    if (this._inputs) return;
    this._inputs = true;
    // Typing a name or a number saves at once but does not redraw (the keyboard stays up).
    this.addEventListener("input", (event) => {
      const el = event.target;
      const d = this.draft;
      if (el.dataset.player !== undefined) {
        d.players[Number(el.dataset.player)] = el.value;
        this.updateDealerOptions();
      } else if (el.dataset.value) {
        const v = wholeNumber(el);
        if (v === null) return; // kept as it was; the box shows it is wrong (see "change")
        d.rules.values[el.dataset.value] = v;
        if (el.dataset.value === "2") d.rules.wild_two_value = v;
      } else if (el.dataset.field) {
        const v = wholeNumber(el);
        if (v === null) return;
        d.rules[el.dataset.field] = v;
      } else return;
      this.save(false);
    });
    this.addEventListener("change", (event) => {
      const el = event.target;
      const d = this.draft;
      if ((el.dataset.value || el.dataset.field) && el.type === "number" && wholeNumber(el) === null) {
        // A value out of range, or none: say so (the toast is read out, and names the limits),
        // and put back the one that counts.
        el.reportValidity();
        const field = (el.closest("label")?.textContent ?? "").replace(/\s+/g, " ").trim();
        this.ctx.app?.toast(this.ctx.t("bad_number", { field, min: el.min, max: el.max }), true);
        el.value = String(el.dataset.value ? d.rules.values[el.dataset.value] : d.rules[el.dataset.field]);
        return;
      }
      if (el.name === "preset") {
        const preset = this.ctx.data.presets.find((p) => p.name === el.value);
        if (preset) { d.preset = preset.name; d.rules = rulesFromPreset(preset); }
      } else if (el.name === "tie_break") d.rules.tie_break = el.value;
      else if (el.name === "first_dealer") d.firstDealer = Number(el.value);
      else if (el.name === "wild_two") {
        d.rules.wild_two = el.checked;
        d.rules.values["2"] = el.checked ? (d.rules.wild_two_value || 25) : 2;
      } else if (el.name === "de_una") d.rules.de_una = el.checked;
      else if (el.name === "steals") d.rules.steals = el.checked;
      else if (el.name === "add_contract") {
        // Only chosen here: the button adds it. A menu that added on change would add a round
        // at every arrow key, and could never reach a contract further down by keyboard.
        this.addChoice = el.value;
        return;
      } else return;
      this.save();
    });
  }

  updateDealerOptions() {
    const select = this.querySelector("select[name=first_dealer]");
    if (!select) return;
    const { t } = this.ctx;
    this.draft.players.forEach((name, i) => {
      if (select.options[i]) select.options[i].textContent = name.trim() || t("player_n", { n: i + 1 });
    });
  }

  onAction(action, el) {
    const d = this.draft;
    const i = Number(el.dataset.index);
    const swap = (list, a, b) => { [list[a], list[b]] = [list[b], list[a]]; };
    switch (action) {
      case "add-player":
        if (d.players.length < MAX_PLAYERS) d.players.push("");
        this.save();
        this.querySelector(`[data-player="${d.players.length - 1}"]`)?.focus();
        return;
      case "remove-player":
        if (d.players.length <= 2) break;
        d.players.splice(i, 1);
        // The chosen dealer keeps dealing; if they left, the next player in the ring deals.
        if (i < d.firstDealer) d.firstDealer -= 1;
        if (d.firstDealer >= d.players.length) d.firstDealer = 0;
        break;
      case "player-up":
        if (i > 0) {
          swap(d.players, i, i - 1);
          if (d.firstDealer === i) d.firstDealer = i - 1;
          else if (d.firstDealer === i - 1) d.firstDealer = i;
        }
        break;
      case "round-up":
        if (i > 0) { swap(d.rules.rounds, i, i - 1); swap(d.rules.at_once, i, i - 1); }
        break;
      case "round-remove":
        if (d.rules.rounds.length > 1) { d.rules.rounds.splice(i, 1); d.rules.at_once.splice(i, 1); }
        break;
      case "add-round": {
        const code = this.querySelector("select[name=add_contract]")?.value;
        // at most 100 rounds, as the engine (and an import) takes
        if (code && hasOwn(this.ctx.data.contracts, code) && d.rules.rounds.length < 100) {
          d.rules.rounds.push(code);
          d.rules.at_once.push(false);
        }
        break;
      }
      case "reset-rounds": {
        const preset = this.ctx.data.presets.find((p) => p.name === d.preset);
        d.rules.rounds = preset.rounds.map((r) => r.contract);
        d.rules.at_once = preset.rounds.map((r) => r.go_out_at_once);
        break;
      }
      case "scoring":
        d.rules.scoring = el.dataset.value;
        break;
      case "best-of":
        d.bestOf = Number(el.dataset.value);
        break;
      case "start":
        this.start();
        return;
      default:
        return;
    }
    this.save();
  }

  start() {
    const { t, store } = this.ctx;
    const d = this.draft;
    const players = d.players.map((p, i) => p.trim() || t("player_n", { n: i + 1 }));
    if (players.length < 2) return;
    const twice = repeatedName(players);
    if (twice !== undefined) {
      window.alert(t("same_name", { name: twice }));
      return;
    }
    store.start({ players, rules: d.rules, firstDealer: d.firstDealer || 0, match: { bestOf: d.bestOf } });
  }

  render() {
    const { t, data } = this.ctx;
    const d = this.draft;
    const lang = t.lang;
    const preset = data.presets.find((p) => p.name === d.preset) || data.presets[0];
    const r = d.rules;
    const note = preset.note[lang] || presetSummary(preset, t);
    const playerRows = d.players.map((name, i) => `
      <li class="player-row">
        <span class="seat-dot" style="background:${seatColor(i)}">${i + 1}</span>
        <input type="text" data-player="${i}" value="${esc(name)}" maxlength="${NAME_MOST}"
          autocomplete="off" placeholder="${esc(t("player_n", { n: i + 1 }))}"
          aria-label="${esc(t("player_n", { n: i + 1 }))}">
        <button class="icon" data-action="player-up" data-index="${i}" ${i === 0 ? "disabled" : ""}
          aria-label="${esc(t("move_up"))}">↑</button>
        <button class="icon" data-action="remove-player" data-index="${i}"
          ${d.players.length <= 2 ? "disabled" : ""}
          aria-label="${esc(t("remove_player", { name: name.trim() || t("player_n", { n: i + 1 }) }))}">✕</button>
      </li>`).join("");
    const rounds = r.rounds.map((code, i) => `
      <li class="round-row">
        <span class="round-no">${i + 1}</span>
        <span class="round-words">${esc(capitalize(contractWords(code, lang, data.contracts)))}
          <small>${esc(code)}</small></span>
        <button class="icon" data-action="round-up" data-index="${i}" ${i === 0 ? "disabled" : ""}
          aria-label="${esc(t("move_up"))}">↑</button>
        <button class="icon" data-action="round-remove" data-index="${i}"
          ${r.rounds.length <= 1 ? "disabled" : ""}
          aria-label="${esc(t("remove_round", { n: i + 1 }))}">✕</button>
      </li>`).join("");
    const chosen = hasOwn(data.contracts, this.addChoice) ? this.addChoice : Object.keys(data.contracts)[0];
    const contractOptions = Object.keys(data.contracts).map((code) =>
      `<option value="${esc(code)}" ${code === chosen ? "selected" : ""}>${esc(code)} · ${esc(contractWords(code, lang, data.contracts))}</option>`)
      .join("");
    const n = d.players.length;
    const limit = n < preset.min_players || n > preset.max_players
      ? `<p class="hint warn">${esc(t("players_limit", { min: preset.min_players, max: preset.max_players }))}</p>` : "";
    const points = r.scoring === "points";
    const bestOf = BEST_OF.includes(d.bestOf) ? d.bestOf : 1;
    // Number boxes open the phone's number keypad (inputmode="numeric"), except the two scores
    // that may be negative: that keypad has no minus sign on an iPhone, and a number box alone
    // brings up the digits with "-".
    this.innerHTML = `
      <h2 class="view-title">${esc(t("setup_title"))}</h2>
      <section class="card">
        <h3>${esc(t("players"))}</h3>
        <ol class="players">${playerRows}</ol>
        <button class="wide" data-action="add-player" ${n >= MAX_PLAYERS ? "disabled" : ""}>+ ${esc(t("add_player"))}</button>
        <label class="field">${esc(t("first_dealer"))}
          <select name="first_dealer">${d.players.map((p, i) => `<option value="${i}"
            ${i === d.firstDealer ? "selected" : ""}>${esc(p.trim() || t("player_n", { n: i + 1 }))}</option>`).join("")}</select>
        </label>
      </section>
      <section class="card">
        <h3>${esc(t("rules"))}</h3>
        <label class="field">${esc(t("preset"))}
          <select name="preset">${data.presets.map((p) => `<option value="${esc(p.name)}"
            ${p.name === d.preset ? "selected" : ""}>${esc(p.name)} · ${p.rounds.length} ${esc(lowerNoun(t("rounds"), t))}</option>`).join("")}</select>
        </label>
        <p class="hint">${esc(note)}</p>
        <button class="ghost rules-link" data-action="open-rules">${icon("rules")}
          ${esc(t("see_rules", { preset: preset.name }))}</button>
        ${limit}
        <h4>${esc(t("rounds"))} (${r.rounds.length})</h4>
        <ol class="rounds-list">${rounds}</ol>
        <div class="rounds-tools">
          <select name="add_contract" aria-label="${esc(t("new_round_contract"))}">${contractOptions}</select>
          <button data-action="add-round">+ ${esc(t("add_round"))}</button>
          <button class="reset" data-action="reset-rounds">${esc(t("reset_rounds"))}</button>
        </div>
        <h4>${esc(t("scoring"))}</h4>
        <div class="segmented" role="group" aria-label="${esc(t("scoring"))}">
          <button data-action="scoring" data-value="points" aria-pressed="${points}">${esc(t("scoring_points"))}</button>
          <button data-action="scoring" data-value="rounds" aria-pressed="${!points}">${esc(t("scoring_rounds"))}</button>
        </div>
        <div class="${points ? "" : "hidden"}">
          <h4>${esc(t("values"))}</h4>
          <div class="values">
            <label class="num">${esc(t("ace"))}<input type="number" inputmode="numeric" min="0" max="1000"
              data-value="A" value="${r.values.A}"></label>
            <label class="num">${esc(t("joker"))}<input type="number" inputmode="numeric" min="0" max="1000"
              data-value="JK" value="${r.values.JK}"></label>
            <label class="check"><input type="checkbox" name="wild_two" ${r.wild_two ? "checked" : ""}>
              ${esc(t("wild_two"))}</label>
            <label class="num ${r.wild_two ? "" : "hidden"}">${esc(t("two"))}<input type="number" inputmode="numeric"
              min="0" max="1000" data-value="2" value="${r.values["2"]}"></label>
          </div>
          <label class="num">${esc(t("out_score"))}
            <input type="number" min="-1000" max="1000" data-field="out_score"
              value="${r.out_score}"></label>
          <label class="check"><input type="checkbox" name="de_una" ${r.de_una ? "checked" : ""}>
            ${esc(t("de_una_opt"))}</label>
          <label class="num sub ${r.de_una ? "" : "hidden"}">${esc(t("de_una_hint", { v: "" }))}
            <input type="number" min="-1000" max="1000" data-field="instant_out_score"
              value="${r.instant_out_score}"></label>
          <label class="check"><input type="checkbox" name="steals" ${r.steals ? "checked" : ""}>
            ${esc(t("steals_opt"))} (+${r.steal_points})</label>
          <label class="num sub ${r.steals ? "" : "hidden"}">${esc(t("steals_hint", { v: "" }))}
            <input type="number" inputmode="numeric" min="0" max="1000" data-field="steal_points"
              value="${r.steal_points}"></label>
        </div>
        <label class="field">${esc(t("tie_break"))}
          <select name="tie_break">
            ${["share", "most_outs", "extra_round"].map((k) => `<option value="${k}"
              ${k === r.tie_break ? "selected" : ""}>${esc(t(`tie_${k}`, { n: r.extra_rounds_cap ?? 3 }))}</option>`).join("")}
          </select>
        </label>
      </section>
      <section class="card match">
        <h3>${esc(t("match"))}</h3>
        <div class="segmented three" role="group" aria-label="${esc(t("match"))}">
          ${BEST_OF.map((k) => `<button data-action="best-of" data-value="${k}" aria-pressed="${k === bestOf}"
            >${esc(k === 1 ? t("match_one") : t("match_best", { n: k }))}</button>`).join("")}
        </div>
        <p class="hint">${esc(bestOf === 1 ? t("match_one_hint") : t("match_best_hint", { k: Math.floor(bestOf / 2) + 1 }))}</p>
      </section>
      <div class="sticky-actions">
        <button class="primary big" data-action="start">${esc(t("start"))} ›</button>
      </div>`;
  }
}

/** One line about a preset in languages the engine does not write notes in. */
export function presetSummary(preset, t) {
  const v = preset.values;
  const parts = [`${preset.rounds.length} ${lowerNoun(t("rounds"), t)}`];
  if (preset.scoring === "rounds") parts.push(t("scoring_rounds"));
  else {
    parts.push(`${t("ace")} ${v.A}`, `${t("joker")} ${v.JK}`);
    if (preset.wild_two) parts.push(`${t("two")} ${v["2"]}`);
    if (preset.instant_out_score !== preset.out_score) parts.push(`de una ${signed(preset.instant_out_score)}`);
  }
  return parts.join(" · ");
}

export { LANG_NAMES };
customElements.define("an-setup", AnSetup);

/** A noun inside a sentence: lower case, but German writes nouns with a capital. */
function lowerNoun(word, t) {
  return t.lang === "de" ? word : word.toLowerCase();
}
