// The lobby: a name, a table with the host's rules, the share link; or join by code.
import { api, errorText, getToken, initPage, rulesRefusal, saveName, savedName, saveToken, toast } from "./common.js";
import { contractWords, has, localized, onLangChange, t } from "./i18n.js";

const GROUPS = ["rounds", "jokers", "red_aces", "joker_limit", "joker_replacement", "stealing",
  "turn", "undo", "open_hands", "scoring", "values", "other"];
const VALUE_KEYS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"];
const $ = (id) => document.getElementById(id);

let catalog = null; // the /api/presets answer
let current = {}; // option values being edited
let table = { turn_timer: 0, steal_timer: 10, hints: true, match: 1 };
const MATCHES = [1, 3, 5]; // one game, or the best of 3 or of 5

initPage();
$("name").value = savedName();
$("name").addEventListener("input", () => { saveName($("name").value.trim()); clearError("name"); });
$("join-code").addEventListener("input", () => clearError("join-code"));

function preset() {
  return catalog.presets.find((p) => p.name === $("preset").value) || catalog.presets[0];
}

function same(a, b) {
  const norm = (v) => (Array.isArray(v) && v.every((x) => typeof x === "string") ? [...v].sort() : v);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

function changedOptions() {
  const base = preset().options || {};
  const out = {};
  for (const [k, v] of Object.entries(current)) if (!same(v, base[k])) out[k] = v;
  return out;
}

function label(name) {
  return has("o_" + name) ? t("o_" + name) : name.replace(/_/g, " ");
}

function choiceLabel(name, value) {
  const key = `c_${name}.${value}`;
  return has(key) ? t(key) : String(value).replace(/_/g, " ");
}

// ------------------------------------------------------------------ presets and seats

function fillPresets() {
  const sel = $("preset");
  const keep = sel.value;
  sel.innerHTML = "";
  for (const p of catalog.presets) {
    const o = document.createElement("option");
    o.value = p.name;
    o.textContent = p.name;
    sel.append(o);
  }
  sel.value = keep || "chile";
  if (!sel.value) sel.value = catalog.presets[0].name;
}

function choosePreset() {
  const p = preset();
  current = structuredClone(p.options || {});
  $("preset-notes").textContent = localized(p.notes) + " · " + t("players_range", { min: p.min_players, max: p.max_players });
  const seats = $("seats");
  const keep = parseInt(seats.value, 10) || 4;
  seats.innerHTML = "";
  for (let n = p.min_players; n <= p.max_players; n++) {
    const o = document.createElement("option");
    o.value = n;
    o.textContent = n;
    seats.append(o);
  }
  seats.value = String(Math.min(Math.max(keep, p.min_players), p.max_players));
  renderBots();
  renderOptions();
  renderMatch();
}

/** The length of the table's match, beside the seats: one game, or the best of 3 or 5. */
function renderMatch() {
  const old = $("match-row");
  const row = selectRow("match", t("match"), MATCHES.map((n) => [n, t("match_" + n)]), table.match, (v) => { table.match = parseInt(v, 10); });
  row.id = "match-row";
  row.querySelector("select").id = "match";
  if (old) old.replaceWith(row);
  else $("seats").closest(".row").append(row);
}

function renderRounds() {
  const p = preset();
  const box = $("preset-rounds");
  box.innerHTML = "";
  const chosen = current.rounds || p.rounds.map((r) => r.number);
  const ol = document.createElement("ol");
  for (const n of chosen) {
    const r = p.rounds.find((x) => x.number === n);
    if (!r) continue;
    const li = document.createElement("li");
    li.textContent = `${contractWords(r.contract)} · ${t("cards_n", { n: r.hand_size })}` + (r.go_out_at_once ? ` · ${t("at_once")}` : "");
    ol.append(li);
  }
  box.append(ol);
}

function renderBots() {
  const n = parseInt($("seats").value, 10);
  const box = $("bot-seats");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  box.innerHTML = "";
  for (let seat = 1; seat < n; seat++) {
    const row = document.createElement("label");
    row.className = "field inline";
    const span = document.createElement("span");
    span.textContent = t("seat_n", { n: seat + 1 });
    const sel = document.createElement("select");
    sel.name = "bot-" + seat;
    sel.dataset.seat = seat;
    const human = document.createElement("option");
    human.value = "";
    human.textContent = t("human");
    sel.append(human);
    for (const b of catalog.bots || []) {
      const o = document.createElement("option");
      o.value = b.name;
      o.textContent = `${t("bot")}: ${localized(b.titles) || b.title || b.name}` + (b.level !== undefined ? ` · ${t("level_n", { n: b.level })}` : "");
      o.title = localized(b.description);
      sel.append(o);
    }
    sel.value = before[seat - 1] || "";
    row.append(span, sel);
    box.append(row);
  }
}

// ------------------------------------------------------------------ every option, by group

function renderOptions() {
  const box = $("options");
  const openGroups = new Set([...box.querySelectorAll("details[open]")].map((d) => d.dataset.group));
  box.innerHTML = "";
  const sections = {};
  const section = (group) => {
    if (sections[group]) return sections[group];
    const d = document.createElement("details");
    d.className = "group";
    d.dataset.group = group;
    if (openGroups.has(group)) d.open = true;
    const s = document.createElement("summary");
    s.textContent = has("g_" + group) ? t("g_" + group) : group;
    const body = document.createElement("div");
    body.className = "group-body";
    d.append(s, body);
    box.append(d);
    sections[group] = body;
    return body;
  };
  for (const g of GROUPS) section(g);
  for (const opt of catalog.options) {
    if (opt.name === "wilds") {
      renderWilds(opt, section(opt.group || "jokers"), section("red_aces"));
      continue;
    }
    const group = opt.type === "values" ? "values" : (opt.group || "other");
    section(group).append(control(opt));
  }
  // The table's own settings, in the groups of the English source.
  section("stealing").append(selectRow("steal_timer", t("steal_timer"), [5, 10, 15].map((n) => [n, t("seconds", { n })]), table.steal_timer, (v) => { table.steal_timer = parseInt(v, 10); }));
  section("turn").prepend(selectRow("turn_timer", t("turn_timer"), [0, 30, 60, 90].map((n) => [n, n ? t("seconds", { n }) : t("unlimited")]), table.turn_timer, (v) => { table.turn_timer = parseInt(v, 10); }));
  section("open_hands").append(checkRow("hints", t("hints"), table.hints, (v) => { table.hints = v; }));
  for (const [g, body] of Object.entries(sections)) if (!body.children.length) body.parentElement.remove();
  renderRounds();
  updateChanged();
}

function selectRow(name, text, pairs, value, onChange) {
  const row = document.createElement("label");
  row.className = "field";
  const span = document.createElement("span");
  span.textContent = text;
  const sel = document.createElement("select");
  sel.name = name;
  for (const [v, words] of pairs) {
    const o = document.createElement("option");
    o.value = String(v);
    o.textContent = words;
    sel.append(o);
  }
  sel.value = String(value);
  sel.addEventListener("change", () => { onChange(sel.value); updateChanged(); });
  row.append(span, sel);
  return row;
}

function checkRow(name, text, value, onChange) {
  const row = document.createElement("label");
  row.className = "check";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.name = name;
  box.checked = !!value;
  box.addEventListener("change", () => { onChange(box.checked); updateChanged(); });
  const span = document.createElement("span");
  span.textContent = text;
  row.append(box, span);
  return row;
}

function numberRow(name, text, value, min, max, onChange) {
  const row = document.createElement("label");
  row.className = "field";
  const span = document.createElement("span");
  span.textContent = text;
  const input = document.createElement("input");
  input.type = "number";
  input.name = name;
  if (min !== undefined) input.min = min;
  if (max !== undefined) input.max = max;
  input.value = value ?? "";
  input.addEventListener("change", () => { onChange(input.value === "" ? null : parseInt(input.value, 10)); updateChanged(); });
  row.append(span, input);
  return row;
}

/** A card value's name for a screen reader: "K" is read "K (rey)" and "★" "comodín". */
function rankWords(k) {
  const span = document.createElement("span");
  span.className = "sr-only";
  if (k === "JK") span.textContent = t("joker_card");
  else if (has("rank." + k)) span.textContent = `(${t("rank." + k)})`;
  return span;
}

// What null means for an option that may be null (the check box beside its number).
const NULL_WORDS = { decks: "auto", instant_out_score: "as_any_out" };

function control(opt) {
  const name = opt.name;
  const value = current[name];
  switch (opt.type) {
    case "bool":
      return checkRow(name, label(name), value, (v) => { current[name] = v; });
    case "choice":
      return selectRow(name, label(name), (opt.choices || []).map((c) => [c, choiceLabel(name, c)]), value, (v) => { current[name] = v; });
    case "int":
      return numberRow(name, label(name), value, opt.min, opt.max, (v) => { current[name] = v ?? 0; });
    case "int_or_null": {
      const row = document.createElement("div");
      row.className = "field int-null";
      // The check box says only "automático" or "sin límite": the group says of what.
      row.setAttribute("role", "group");
      row.setAttribute("aria-label", label(name));
      const num = numberRow(name, label(name), value ?? "", opt.min ?? 0, opt.max, (v) => { current[name] = v; sync(); });
      const none = checkRow(name + "-null", NULL_WORDS[name] ? t(NULL_WORDS[name]) : t("no_limit"), value === null || value === undefined, (v) => {
        const typed = parseInt(num.querySelector("input").value, 10);
        current[name] = v ? null : (Number.isNaN(typed) ? (name === "instant_out_score" ? -10 : 1) : typed);
        sync();
      });
      const sync = () => {
        const isNull = current[name] === null || current[name] === undefined;
        num.querySelector("input").disabled = isNull;
        none.querySelector("input").checked = isNull;
        if (!isNull) num.querySelector("input").value = current[name];
      };
      row.append(num, none);
      sync();
      return row;
    }
    case "values": {
      const row = document.createElement("div");
      row.className = "values-grid";
      const head = document.createElement("p");
      head.className = "small";
      head.textContent = label(name);
      row.append(head);
      const grid = document.createElement("div");
      grid.className = "grid";
      grid.setAttribute("role", "group"); // "Puntos de cada carta…": the group's name, read once
      head.id = "values-head";
      grid.setAttribute("aria-labelledby", head.id);
      const vals = { ...(value || {}) };
      for (const k of VALUE_KEYS) {
        const cell = document.createElement("label");
        const span = document.createElement("span");
        span.textContent = k === "JK" ? "★" : k;
        if (k === "JK") span.setAttribute("aria-hidden", "true"); // not "black star"
        const input = document.createElement("input");
        input.type = "number";
        input.min = 0;
        input.max = 1000;
        input.name = "value-" + k;
        input.value = vals[k] ?? "";
        input.addEventListener("change", () => {
          vals[k] = parseInt(input.value, 10) || 0;
          current[name] = { ...vals };
          updateChanged();
        });
        cell.append(span, rankWords(k), input);
        grid.append(cell);
      }
      row.append(grid);
      return row;
    }
    case "rounds":
      if (name === "rounds") return roundsControl(opt);
      return jsonControl(opt);
    default:
      return jsonControl(opt);
  }
}

function roundsControl(opt) {
  const p = preset();
  const row = document.createElement("div");
  row.className = "rounds-pick";
  const head = document.createElement("p");
  head.className = "small";
  head.textContent = label(opt.name);
  head.id = "rounds-head";
  row.setAttribute("role", "group");
  row.setAttribute("aria-labelledby", head.id);
  row.append(head);
  const chosen = new Set(current.rounds || p.rounds.map((r) => r.number));
  for (const r of p.rounds) {
    const words = `${t("round_n", { n: r.number })}: ${contractWords(r.contract)} (${t("cards_n", { n: r.hand_size })})`;
    row.append(checkRow("round-" + r.number, words, chosen.has(r.number), (v) => {
      if (v) chosen.add(r.number); else chosen.delete(r.number);
      current.rounds = p.rounds.map((x) => x.number).filter((n) => chosen.has(n));
      renderRounds();
    }));
  }
  return row;
}

function jsonControl(opt) {
  // Options without a form of their own (contracts, hand_size): their JSON value.
  const row = document.createElement("label");
  row.className = "field";
  const span = document.createElement("span");
  span.textContent = label(opt.name);
  const input = document.createElement("input");
  input.name = opt.name;
  input.value = current[opt.name] === undefined ? "" : JSON.stringify(current[opt.name]);
  input.addEventListener("change", () => {
    try {
      current[opt.name] = input.value.trim() === "" ? preset().options[opt.name] : JSON.parse(input.value);
      input.setCustomValidity("");
    } catch (e) {
      current[opt.name] = input.value;
    }
    updateChanged();
  });
  row.append(span, input);
  return row;
}

function renderWilds(opt, main, redAces) {
  const kinds = opt.choices || ["jokers", "twos", "red_aces"];
  const chosen = new Set(current.wilds || []);
  const head = document.createElement("p");
  head.className = "small";
  head.textContent = label("wilds");
  head.id = "wilds-head";
  const group = document.createElement("div");
  group.setAttribute("role", "group");
  group.setAttribute("aria-labelledby", head.id);
  main.append(head, group);
  for (const k of kinds) {
    const row = checkRow("wild-" + k, choiceLabel("wilds", k), chosen.has(k), (v) => {
      if (v) chosen.add(k); else chosen.delete(k);
      current.wilds = kinds.filter((x) => chosen.has(x));
    });
    (k === "red_aces" ? redAces : group).append(row);
  }
}

function updateChanged() {
  const n = Object.keys(changedOptions()).length;
  $("changed").textContent = n ? t(n === 1 ? "rules_changed_1" : "rules_changed", { n }) : "";
  $("reset").hidden = !n;
  rulesLink();
}

/** The rules page for the preset and the changes chosen so far (in a new tab: the form stays). */
function rulesLink() {
  const params = new URLSearchParams({ preset: preset().name });
  const changes = changedOptions();
  if (Object.keys(changes).length) params.set("options", JSON.stringify(changes));
  $("rules-link").href = "/rules?" + params;
}

// ------------------------------------------------------------------ create and join

/** What is wrong, under the field to fix, which takes the focus; role=alert reads it out. */
function fieldError(id, message) {
  const box = $(id + "-error");
  box.textContent = message;
  box.hidden = false;
  $(id).setAttribute("aria-invalid", "true");
  $(id).focus();
}

function clearError(id) {
  const box = $(id + "-error");
  box.hidden = true;
  box.textContent = ""; // aria-describedby reads a hidden box too: nothing left to read
  $(id).removeAttribute("aria-invalid");
}

function needName() {
  const name = $("name").value.trim();
  if (!name) {
    fieldError("name", t("name_needed"));
    return null;
  }
  saveName(name);
  return name;
}

$("create-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = needName();
  if (!name) return;
  const bots = {};
  for (const sel of document.querySelectorAll("#bot-seats select")) if (sel.value) bots[sel.dataset.seat] = sel.value;
  const body = {
    name, preset: preset().name, options: changedOptions(), seats: parseInt($("seats").value, 10),
    bots, turn_timer: table.turn_timer, steal_timer: table.steal_timer, hints: table.hints,
    match: table.match,
  };
  try {
    const res = await api("/api/tables", { method: "POST", body });
    saveToken(res.code, res.token);
    showCreated(res.code);
  } catch (e) {
    const text = rulesRefusal(e);
    toast(text, "error", Math.min(20000, Math.max(5000, text.length * 70))); // time to read a reason
  }
});

/** The share panel in the form's place. The focus was on the form's button, now hidden: it
 * goes to the panel's heading, and the code is said letter by letter ("Q 7 X K 2 M"). */
function showCreated(code) {
  $("share-link").value = `${location.origin}/t/${code}`;
  $("share-code").textContent = code;
  $("go-table").href = `/t/${code}`;
  $("create-form").hidden = true;
  $("created").hidden = false;
  $("created").scrollIntoView({ block: "nearest" });
  $("created-title").focus();
  $("said").textContent = t("table_made", { code: [...code].join(" ") });
}

$("copy-link").addEventListener("click", async () => {
  const input = $("share-link");
  try { await navigator.clipboard.writeText(input.value); } catch (e) { input.select(); document.execCommand("copy"); }
  toast(t("copied"), "info", 1500);
});

function codeValue() {
  return $("join-code").value.trim().toUpperCase().replace(/[^A-Z0-9]/g, "");
}

function needCode() {
  const code = codeValue();
  if (!code) fieldError("join-code", t("code_needed"));
  return code;
}

$("join-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const code = needCode();
  if (!code) return;
  const name = needName();
  if (!name) return;
  // Sat at this table already: back to that seat (the table page forgets a pass the table
  // no longer knows), not a second seat that would sit empty and hold the game up.
  if (getToken(code)) { location.href = `/t/${code}`; return; }
  try {
    const res = await api(`/api/tables/${code}/join`, { method: "POST", body: { name } });
    saveToken(code, res.token);
    location.href = `/t/${code}`;
  } catch (e) {
    if (e.status === 404) fieldError("join-code", t("table_not_found", { code }));
    else if (e.status === 409) { toast(t("seat_taken"), "info"); setTimeout(() => { location.href = `/t/${code}`; }, 1200); }
    else toast(errorText(e.code, e.message));
  }
});

$("watch").addEventListener("click", () => {
  const code = needCode();
  if (code) location.href = `/t/${code}`;
});

$("preset").addEventListener("change", choosePreset);
$("seats").addEventListener("change", renderBots);
$("reset").addEventListener("click", () => {
  current = structuredClone(preset().options || {});
  renderOptions();
  $("preset").focus(); // the button hides with no change left: the focus goes to the preset
});

onLangChange(() => {
  clearError("name"); // an error in the old language would stay under the field
  clearError("join-code");
  if (!catalog) return;
  const p = preset();
  $("preset-notes").textContent = localized(p.notes) + " · " + t("players_range", { min: p.min_players, max: p.max_players });
  renderBots();
  renderOptions();
  renderMatch();
});

async function load() {
  try {
    catalog = await api("/api/presets");
  } catch (e) {
    toast(errorText(e.code, e.message));
    return;
  }
  fillPresets();
  choosePreset();
  const params = new URLSearchParams(location.search);
  if (params.get("code")) $("join-code").value = params.get("code");
}

load();
