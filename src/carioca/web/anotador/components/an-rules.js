// The rules of the game in words, for the arguments at a real table ("¿cómo era la ronda 6?",
// "¿se puede agregar en el mismo turno?"): the engine's own text (carioca.describe) of the
// game's preset, in the app's language. rules.json is fetched the first time the view opens
// (the service worker keeps it, so it opens offline too); its blocks become elements by
// textContent alone, so nothing in it can become markup. The text is not rewritten for rules
// changed at the table: a line above it says that the sheet follows the table's.

import { View, esc, icon } from "../lib/dom.js";
import { changedRules, rulesFromPreset } from "../lib/score.js";

let loading = null;

/** rules.json, fetched once; after a failure the next opening tries again. */
export function loadRules() {
  if (!loading) {
    loading = fetch("rules.json").then((response) => {
      if (!response.ok) throw new Error(`rules.json: ${response.status}`);
      return response.json();
    });
    loading.catch(() => { loading = null; });
  }
  return loading;
}

/** The rules the view is about: the game's, else those of the new game being set up, and
 * the preset they start from (a game read from a CSV names none: the default one). */
export function rulesShown(store, data) {
  const setup = store.ui.setup;
  const name = store.game ? store.game.rules.preset : setup?.preset;
  const preset = data.presets.find((p) => p.name === name)
    || data.presets.find((p) => p.name === data.default_preset) || data.presets[0];
  const rules = store.game ? store.game.rules : setup?.rules || rulesFromPreset(preset);
  return { preset, rules };
}

function element(tag, text) {
  const el = document.createElement(tag);
  el.textContent = text;
  return el;
}

function list(tag, items) {
  const el = document.createElement(tag);
  for (const item of items) el.append(element("li", item));
  return el;
}

/** A table in a box of its own that scrolls sideways (the page does not), named for a screen
 * reader by the heading above it, and reachable by the keyboard to scroll it. */
function table(block, name) {
  const box = document.createElement("div");
  box.className = "table-wrap rules-table";
  box.tabIndex = 0;
  box.setAttribute("role", "region");
  if (name) box.setAttribute("aria-label", name);
  const el = document.createElement("table");
  const head = el.createTHead().insertRow();
  for (const cell of block.head) {
    const th = element("th", cell);
    th.scope = "col";
    head.append(th);
  }
  const body = el.createTBody();
  for (const row of block.rows) {
    const tr = body.insertRow();
    for (const cell of row) tr.append(element("td", cell));
  }
  box.append(el);
  return box;
}

/** The elements of the blocks of rules.json. The text's own title (# Carioca: chile) is the
 * view's heading already; its sections go one level under it. */
export function rulesElements(blocks) {
  const out = [];
  let heading = "";
  for (const block of blocks) {
    switch (block.type) {
      case "h1":
        break;
      case "h2":
      case "h3":
        heading = block.text;
        out.push(element(block.type === "h2" ? "h3" : "h4", block.text));
        break;
      case "ul":
      case "ol":
        out.push(list(block.type, block.items));
        break;
      case "table":
        out.push(table(block, heading));
        break;
      default:
        out.push(element("p", block.text ?? ""));
    }
  }
  return out;
}

class AnRules extends View {
  render() {
    const { store, data, t } = this.ctx;
    const { preset, rules } = rulesShown(store, data);
    const changed = changedRules(rules, preset).length > 0;
    const back = `<button class="ghost back" data-action="close-rules">${icon("prev")} ${esc(t("back"))}</button>`;
    this.dataset.preset = preset.name;
    this.innerHTML = `
      ${back}
      <h2 class="view-title" tabindex="-1">${esc(t("rules_of", { preset: preset.name }))}</h2>
      ${changed ? `<p class="rules-changed">${esc(t("rules_changed"))}</p>` : ""}
      <article class="rules-text" aria-busy="true"><p class="hint">${esc(t("loading"))}</p></article>
      <div class="actions">${back}</div>`;
    const body = this.querySelector(".rules-text");
    // Filled when the file is there (at once once loaded); a later redraw has a body of its own.
    loadRules().then((all) => {
      const blocks = all.rules?.[preset.name]?.[t.lang] || all.rules?.[preset.name]?.en;
      if (!blocks) throw new Error(`rules.json: no ${preset.name}`);
      body.replaceChildren(...rulesElements(blocks));
    }).catch(() => {
      body.replaceChildren(element("p", t("rules_failed")));
      body.firstChild.className = "hint warn";
    }).finally(() => body.removeAttribute("aria-busy"));
  }
}

customElements.define("an-rules", AnRules);
