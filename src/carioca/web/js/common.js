// What every page shares: preferences, the HTTP helpers, tokens, the toast and the header.
import { LANGS, applyI18n, getLang, onLangChange, setLang, t, has } from "./i18n.js";

const FOUR = "carioca.fourColour";
const NAME = "carioca.name";

export function fourColour() { return localStorage.getItem(FOUR) === "1"; }
export function setFourColour(on) {
  localStorage.setItem(FOUR, on ? "1" : "0");
  document.body.classList.toggle("four-colour", on);
}

export function savedName() { return localStorage.getItem(NAME) || ""; }
export function saveName(name) { localStorage.setItem(NAME, name); }

// ------------------------------------------------------------------ seat tokens

export function tokenKey(code) { return "carioca.token." + code.toUpperCase(); }
export function getToken(code) { return localStorage.getItem(tokenKey(code)); }
export function saveToken(code, token) {
  const c = code.toUpperCase();
  localStorage.setItem(tokenKey(c), token);
  document.cookie = `carioca_${c}=${encodeURIComponent(token)}; path=/; max-age=${60 * 60 * 24 * 60}; SameSite=Lax`;
}
export function forgetToken(code) {
  const c = code.toUpperCase();
  localStorage.removeItem(tokenKey(c));
  document.cookie = `carioca_${c}=; path=/; max-age=0`;
}

// ------------------------------------------------------------------ HTTP

export class ApiError extends Error {
  constructor(status, code, message, detail = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail; // the reason in other languages, when the server has it ({es: …})
  }
}

export async function api(path, { method = "GET", body = undefined, token = null } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Carioca-Token"] = token;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, "network", t("err.network"));
  }
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const err = (data && (data.error || (data.detail && data.detail.error))) || {};
    let message = err.message || (data && typeof data.detail === "string" ? data.detail : "") || res.statusText;
    throw new ApiError(res.status, err.code || String(res.status), message, err.detail || null);
  }
  return data;
}

/** A server error in the player's words. The server gives the engine's reason in English:
 * in English that exact reason is shown; in the other languages our sentence for its code,
 * so that a message never mixes two languages (the reason only when we have no sentence). */
export function errorText(code, message) {
  const key = "err." + code;
  const ours = has(key) ? t(key) : "";
  if (!message) return ours || t("err.generic");
  if (getLang() === "en" || !ours) return message.charAt(0).toUpperCase() + message.slice(1);
  return ours;
}

/** Why rules were refused: our sentence, then the reason. In Spanish the server's Spanish
 * words (the error's `detail`); in German and Swedish, which have none, the engine's English
 * in parentheses (the host has to know which option to change). */
export function rulesRefusal(e) {
  const text = errorText(e.code, e.message);
  if (e.code !== "bad_rules" || !e.message) return text;
  if (getLang() === "en") return optionLabels(text);
  if (getLang() === "es") return e.detail && e.detail.es ? `${text}: ${optionLabels(e.detail.es)}` : text;
  return `${text} (${optionLabels(e.message)})`;
}

const QUOTES = { es: ["«", "»"], en: ["“", "”"], de: ["„", "“"], sv: ["”", "”"] };

/** The engine names an option by its code ('decks'); the host chose it by the lobby's label,
 * so the reason says «Naipes» (or the label in the page's language) instead. Only a code in
 * an option's place is replaced (after "option", "opción", "did you mean", "quisiste decir",
 * or opening the reason), never a quoted value or contract that happens to spell one. */
export function optionLabels(reason) {
  const [open, close] = QUOTES[getLang()] || QUOTES.en;
  return reason.replace(/(^|option |opción |mean |decir )'([a-z_]+)'/gi, (whole, before, name) => (
    has(`o_${name}`) ? `${before}${open}${t(`o_${name}`)}${close}` : whole));
}

// ------------------------------------------------------------------ web components

/** <c-toast>: short messages at the bottom of the screen. */
class Toast extends HTMLElement {
  connectedCallback() { this.setAttribute("role", "status"); this.setAttribute("aria-live", "polite"); }
  show(text, kind = "error", ms = 5000) {
    const item = document.createElement("div");
    item.className = "toast " + kind;
    item.textContent = text;
    item.addEventListener("click", () => item.remove());
    this.append(item);
    while (this.children.length > 3) this.firstElementChild.remove();
    setTimeout(() => item.remove(), ms);
  }
}
customElements.define("c-toast", Toast);

export function toast(text, kind = "error", ms) {
  let el = document.querySelector("c-toast");
  if (!el) { el = document.createElement("c-toast"); document.body.append(el); }
  el.show(text, kind, ms);
}

/** <c-settings>: the language picker and the four-colour switch. */
class Settings extends HTMLElement {
  connectedCallback() {
    this.innerHTML = "";
    const sel = document.createElement("select");
    sel.className = "lang";
    sel.setAttribute("aria-label", t("language"));
    for (const [code, name] of Object.entries(LANGS)) {
      const o = document.createElement("option");
      o.value = code;
      o.textContent = name;
      sel.append(o);
    }
    sel.value = getLang();
    sel.addEventListener("change", () => setLang(sel.value));
    const label = document.createElement("label");
    label.className = "four";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = fourColour();
    box.setAttribute("aria-label", t("four_colour")); // not the suit glyphs read one by one
    box.addEventListener("change", () => setFourColour(box.checked));
    const span = document.createElement("span");
    span.innerHTML = '<span class="s-S">♠</span><span class="s-H">♥</span><span class="s-D">♦</span><span class="s-C">♣</span>';
    span.title = t("four_colour");
    span.setAttribute("aria-hidden", "true");
    label.append(box, span);
    label.title = t("four_colour");
    this.append(sel, label);
    onLangChange(() => {
      sel.value = getLang();
      label.title = span.title = t("four_colour");
      box.setAttribute("aria-label", t("four_colour"));
      sel.setAttribute("aria-label", t("language"));
    });
  }
}
customElements.define("c-settings", Settings);

let clockOffset = 0; // the server's clock less this device's, in seconds
let offsets = []; // [when seen (this device's ms), offset], the last minute's

/** The server's time (epoch seconds) as a message brought it: countdowns count by the
 * server's clock, which decides, not by this device's, which may be off by minutes. A
 * message that waited on its way brings an older time: of the last minute's, the one that
 * waited least (the largest offset) is taken. */
export function serverSaid(now) {
  if (!Number.isFinite(now)) return;
  const here = Date.now();
  offsets = offsets.filter(([when]) => here - when < 60000);
  offsets.push([here, now - here / 1000]);
  clockOffset = Math.max(...offsets.map(([, offset]) => offset));
}

function serverNow() { return Date.now() / 1000 + clockOffset; }

/** <c-countdown deadline="epoch seconds">: seconds left, updated every quarter second. */
class Countdown extends HTMLElement {
  static get observedAttributes() { return ["deadline"]; }
  connectedCallback() {
    // A timer is not read out at each second, even inside a live region (the buy banner).
    this.setAttribute("role", "timer");
    this.setAttribute("aria-live", "off");
    this.tick();
    this.timer = setInterval(() => this.tick(), 250);
  }
  disconnectedCallback() { clearInterval(this.timer); }
  attributeChangedCallback() { this.tick(); }
  tick() {
    const d = parseFloat(this.getAttribute("deadline"));
    if (!d) { this.textContent = ""; return; }
    const now = serverNow();
    const left = Math.max(0, Math.ceil(d - now));
    this.textContent = left + " s";
    this.classList.toggle("urgent", left <= 5);
    const total = parseFloat(this.getAttribute("total")) || 0;
    if (total) this.style.setProperty("--frac", String(Math.min(1, Math.max(0, (d - now) / total))));
  }
}
customElements.define("c-countdown", Countdown);

export function initPage() {
  document.body.classList.toggle("four-colour", fourColour());
  applyI18n(document);
}

export { t };
