// The rules page: a preset's rules, or a table's (the host's preset and changes), in words,
// in the page's language. /rules?preset=chile&options={...}, or /rules?table=CODE.
import { api, errorText, initPage, rulesRefusal } from "./common.js";
import { getLang, onLangChange, t } from "./i18n.js";
import { renderMarkdown } from "./markdown.js";

const $ = (id) => document.getElementById(id);
initPage();

const query = new URLSearchParams(location.search);
const P = { preset: query.get("preset") || "chile", options: readOptions(), table: query.get("table"), ticket: 0 };

function readOptions() {
  try {
    const value = JSON.parse(query.get("options") || "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch (e) {
    return {};
  }
}

/** Fetch the rules in words and show them; a newer request wins over one still on its way. */
async function show() {
  const ticket = ++P.ticket;
  const params = new URLSearchParams({ preset: P.preset, lang: getLang() });
  if (Object.keys(P.options).length) params.set("options", JSON.stringify(P.options));
  let data;
  try {
    data = await api("/api/rules?" + params);
  } catch (e) {
    if (ticket === P.ticket) refuse(rulesRefusal(e));
    return;
  }
  if (ticket !== P.ticket) return;
  $("error").hidden = true;
  $("rules").replaceChildren(...renderMarkdown(data.text));
  nameTables($("rules"));
  document.title = "Carioca · " + t("rules_of", { name: P.table ? P.table : P.preset });
  const title = $("rules").querySelector("h1");
  $("said").textContent = title ? title.textContent : "";
}

/** Each table is named by the heading above it ("Rondas"): a screen reader that lists the
 * tables, or enters one, says which it is. */
function nameTables(root) {
  let heading = null;
  for (const el of root.children) {
    if (/^H[1-3]$/.test(el.tagName)) heading = el;
    const table = el.querySelector("table");
    if (!table || !heading) continue;
    heading.id ||= "rules-h-" + [...root.children].indexOf(heading);
    table.setAttribute("aria-labelledby", heading.id);
  }
}

function refuse(message) {
  $("error").textContent = message; // the words first: role=alert reads them as it shows
  $("error").hidden = false;
  $("rules").replaceChildren();
  $("said").textContent = "";
}

async function fromTable(code) {
  const info = await api("/api/tables/" + encodeURIComponent(code));
  P.preset = info.preset;
  P.options = info.options || {};
  $("which").textContent = t("table_rules", { code: info.code });
}

async function presetPicker() {
  const catalog = await api("/api/presets");
  const sel = $("preset");
  for (const p of catalog.presets) {
    const o = document.createElement("option");
    o.value = o.textContent = p.name;
    sel.append(o);
  }
  sel.value = P.preset;
  sel.addEventListener("change", () => { P.preset = sel.value; P.options = {}; show(); });
  $("picker").hidden = false;
}

async function start() {
  try {
    if (P.table) await fromTable(P.table);
    else await presetPicker();
  } catch (e) {
    refuse(errorText(e.code, e.message));
    return;
  }
  onLangChange(() => { if (P.table) $("which").textContent = t("table_rules", { code: P.table.toUpperCase() }); show(); });
  await show();
}

start();
