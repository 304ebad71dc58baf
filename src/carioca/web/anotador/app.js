// The anotador: a score sheet for Carioca played with real cards. Plain ES modules and web
// components, no build step. The rules (presets.json) and the rules in words (rules.json, read
// only when the rules are opened) come from the Python engine.

import "./components/an-setup.js";
import "./components/an-round.js";
import "./components/an-sheet.js";
import "./components/an-chart.js";
import "./components/an-history.js";
import "./components/an-totals.js";
import "./components/an-rules.js";
import { rulesShown } from "./components/an-rules.js";
import { defaultSetup } from "./components/an-setup.js";
import { esc, focusSelector, icon, shown } from "./lib/dom.js";
import { LANGS, LANG_NAMES, initialLang, saveLang, translator } from "./lib/i18n.js";
import { download, fileName, importError, parseGame, toCsv, toJson } from "./lib/io.js";
import { matchOf, nextFirstDealer, nextMatch } from "./lib/match.js";
import { Store } from "./lib/store.js";
import { isFinished, rulesFromPreset } from "./lib/score.js";

const VIEWS = ["setup", "round", "sheet", "chart", "history", "rules"];
const TABS = [
  ["round", "tab_round"],
  ["sheet", "tab_sheet"],
  ["chart", "tab_chart"],
  ["history", "tab_games"],
];

async function loadPresets() {
  const response = await fetch("presets.json");
  if (!response.ok) throw new Error(`presets.json: ${response.status}`);
  return response.json();
}

class AnApp extends HTMLElement {
  async connectedCallback() {
    if (this.store) return;
    this.lang = initialLang();
    let t = translator(this.lang);
    this.innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
    try {
      this.data = await loadPresets();
    } catch (_) {
      this.innerHTML = `<p class="loading error">${esc(t("load_failed"))}</p>`;
      return;
    }
    this.store = new Store();
    t = translator(this.lang);
    this.innerHTML = `
      <header class="top">
        <h1><img src="icons/icon.svg" alt="" width="28" height="28"> <span class="title"></span></h1>
        <button class="rules-open" data-action="open-rules" hidden></button>
        <select class="lang" aria-label="Idioma / Language">
          ${LANGS.map((l) => `<option value="${l}">${l.toUpperCase()} · ${LANG_NAMES[l]}</option>`).join("")}
        </select>
      </header>
      <an-totals></an-totals>
      <main>${VIEWS.map((v) => `<an-${v} data-view="${v}" hidden></an-${v}>`).join("")}</main>
      <nav class="tabs"></nav>
      <div class="toast" role="status" aria-live="polite"></div>
      <p class="sr-only" data-announce="polite" aria-live="polite"></p>
      <p class="sr-only" data-announce="alert" role="alert"></p>`;
    this.querySelector("select.lang").addEventListener("change", (e) => {
      this.lang = e.target.value;
      saveLang(this.lang);
      this.render();
    });
    this.addEventListener("click", (e) => this.onClick(e));
    // Escape leaves the rules, as their back button does, wherever the focus is (a tap on
    // the text leaves it on the page's body, outside this element).
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && this.dataset.view === "rules") this.closeRules();
    });
    this.addEventListener("change", (e) => {
      if (e.target.matches("input[data-import]")) this.importFile(e.target);
    });
    this.store.addEventListener("change", () => this.render());
    this.render();
    registerServiceWorker(() => this.toast(translator(this.lang)("offline_ready")));
  }

  get t() {
    return translator(this.lang);
  }

  onClick(event) {
    const el = event.target.closest("[data-action]");
    if (!el || el.disabled) return;
    const { store } = this;
    const game = store.game;
    switch (el.dataset.action) {
      case "go":
        store.setUi({ view: el.dataset.view, editing: null });
        window.scrollTo({ top: 0 });
        break;
      case "same-again":
        // A game not over is kept in Partidas, but one tap should not leave it by mistake.
        // The same series, or a new one with the same setting once this one is decided; the
        // deal moves on one seat, as at the table.
        if (game && (isFinished(game) || window.confirm(this.t("leave_confirm")))) {
          store.start({ players: game.players, rules: game.rules, firstDealer: nextFirstDealer(game),
            match: nextMatch(store.games(), game) });
        }
        break;
      case "new-game": {
        // The same setting, and the deal moved on one seat as "Otra igual" moves it.
        const setup = game
          ? { players: game.players.slice(), preset: game.rules.preset,
            rules: JSON.parse(JSON.stringify(game.rules)), firstDealer: nextFirstDealer(game),
            bestOf: matchOf(game).bestOf }
          : defaultSetup(this.data);
        if (!this.data.presets.some((p) => p.name === setup.preset)) {
          setup.preset = this.data.default_preset;
        }
        store.leave(setup);
        break;
      }
      case "open-rules":
        this.openRules(el);
        break;
      case "close-rules":
        this.closeRules();
        break;
      case "export-json":
        if (game) download(fileName(game, "json"), toJson(game), "application/json");
        break;
      case "export-csv":
        if (game) download(fileName(game, "csv"), toCsv(game), "text/csv");
        break;
      default:
    }
  }

  async importFile(input) {
    const file = input.files && input.files[0];
    if (!file) return;
    const t = this.t;
    try {
      const preset = this.data.presets.find((p) => p.name === this.data.default_preset);
      const game = parseGame(await file.text(), rulesFromPreset(preset));
      this.store.importGame(game);
      this.toast(t("imported"));
    } catch (err) {
      this.toast(t("import_failed", { msg: importError(err, t) }), true);
    }
    input.value = "";
  }

  /** The rules in words, over the screen they were opened from (the setup's, or during a game
   * the header's button): the focus goes to their heading. */
  openRules(opener) {
    const { store } = this;
    const from = this.dataset.view === "rules" ? store.ui.rulesFrom : this.dataset.view;
    this.rulesOpener = focusSelector(opener);
    this.querySelector("an-rules").focusNext = "an-rules .view-title";
    store.setUi({ view: "rules", rulesFrom: from });
    window.scrollTo({ top: 0 });
  }

  /** Back to where the rules were opened, with the focus on the button that opened them. */
  closeRules() {
    const { store } = this;
    const back = VIEWS.includes(store.ui.rulesFrom) && store.ui.rulesFrom !== "rules"
      ? store.ui.rulesFrom : store.game ? "round" : "setup";
    const view = this.querySelector(`main > [data-view="${back}"]`);
    if (view && this.rulesOpener) view.focusNext = this.rulesOpener;
    store.setUi({ view: back });
    // Back where the player was: the button that opened the rules in sight (the setup's is
    // half way down the page), else the top.
    const opener = this.rulesOpener && [...this.querySelectorAll(this.rulesOpener)].find(shown);
    if (opener) opener.scrollIntoView({ block: "center" });
    else window.scrollTo({ top: 0 });
  }

  toast(text, bad = false) {
    const box = this.querySelector(".toast");
    if (!box) return;
    if (!bad && box.classList.contains("bad") && box.classList.contains("show")) {
      // News ("ready offline") waits for a mistake's message to be read, not over it.
      setTimeout(() => this.toast(text), 3600);
      return;
    }
    box.textContent = text;
    box.classList.toggle("bad", bad);
    box.classList.add("show");
    clearTimeout(this._toast);
    this._toast = setTimeout(() => box.classList.remove("show"), 3500);
  }

  /** Say something to a screen reader without showing it (the screen shows it its own way):
   * "alert" for a mistake to fix, "polite" for what a tap did. The regions stay in the page
   * (a region drawn anew with its words is not always read). */
  announce(text, kind = "alert") {
    const box = this.querySelector(`[data-announce="${kind}"]`);
    if (!box) return;
    // The same words twice are read twice only if the region changes in between.
    box.textContent = "";
    clearTimeout(box.timer);
    box.timer = setTimeout(() => { box.textContent = text; }, 60);
  }

  /** After a redraw, the focus goes back to the control that had it (or the one the view
   * asks for, ``focusNext``), else to the view itself: never lost to the top of the page. */
  restoreFocus(before, key, view) {
    const wanted = view.focusNext;
    view.focusNext = null;
    if (!wanted && (!before || shown(before))) return;
    const find = (sel) => sel && [...this.querySelectorAll(sel)].find(shown);
    const target = find(wanted) || find(key) || view;
    if (target === view) view.tabIndex = -1;
    target.focus({ preventScroll: true });
  }

  render() {
    const { store } = this;
    const t = this.t;
    // The control with the focus, if it is ours (it is gone from the page once redrawn).
    const before = this.contains(document.activeElement) ? document.activeElement : null;
    const key = focusSelector(before);
    const ctx = { store, data: this.data, t, app: this };
    let view = store.ui.view;
    if (!store.game && view !== "history" && view !== "rules") view = "setup";
    if (store.game && view === "setup") view = "round";
    if (!VIEWS.includes(view)) view = store.game ? "round" : "setup";
    document.documentElement.lang = this.lang;
    document.title = `${t("app")} · Carioca`;
    this.querySelector(".title").textContent = t("app");
    this.querySelector("select.lang").value = this.lang;
    this.dataset.view = view;
    let shownView = null;
    for (const el of this.querySelectorAll("main > [data-view]")) {
      const on = el.dataset.view === view;
      el.hidden = !on;
      if (on) { el.ctx = ctx; el.render(); shownView = el; }
    }
    const totalsBar = this.querySelector("an-totals");
    totalsBar.ctx = ctx;
    totalsBar.hidden = !store.game || view === "history" || view === "rules";
    totalsBar.render();
    // During a game the rules are a tap away on every screen; the setup has its own button.
    const rulesButton = this.querySelector("header .rules-open");
    rulesButton.hidden = !store.game || view === "rules";
    this.querySelector("header.top").classList.toggle("with-rules", !rulesButton.hidden);
    rulesButton.innerHTML = `${icon("rules")}<span class="label">${esc(t("rules"))}</span>`;
    const { preset } = rulesShown(store, this.data);
    rulesButton.setAttribute("aria-label", t("rules_of", { preset: preset.name }));
    const tabs = this.querySelector("nav.tabs");
    tabs.innerHTML = TABS.map(([v, key]) => {
      const target = v === "round" && !store.game ? "setup" : v;
      const off = !store.game && (v === "sheet" || v === "chart");
      const label = v === "round" && !store.game ? t("tab_new") : t(key);
      return `<button data-action="go" data-view="${target}" ${off ? "disabled" : ""}
        aria-current="${view === target ? "page" : "false"}">${icon(v === "history" ? "games" : store.game || v !== "round" ? v : "setup")}${esc(label)}</button>`;
    }).join("");
    if (store.saveFailed) this.toast(t("saved_fail"), true);
    this.restoreFocus(before, key, shownView);
  }
}

function registerServiceWorker(onFirstInstall) {
  if (!("serviceWorker" in navigator) || location.protocol === "file:") return;
  const first = !navigator.serviceWorker.controller;
  navigator.serviceWorker.register("sw.js").then((reg) => {
    if (!first) return;
    const worker = reg.installing || reg.waiting;
    if (worker) {
      worker.addEventListener("statechange", () => {
        if (worker.state === "activated") onFirstInstall();
      });
    }
  }).catch(() => { /* the sheet still works online */ });
}

customElements.define("an-app", AnApp);
