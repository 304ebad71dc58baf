// Small helpers for the components: escaping text into markup, the players' colours, and a
// base class for the views (light DOM, so one style sheet styles them all).

export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => (
    { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

/** Colours that stay apart from each other and readable on white, one per seat. */
export const SEAT_COLORS = [
  "#c1121f", "#1d4ed8", "#047857", "#b45309", "#7c3aed", "#0e7490", "#be185d", "#374151",
];

export function seatColor(seat) {
  return SEAT_COLORS[seat % SEAT_COLORS.length];
}

/** The label of a card button or chip: its rank, "JK" for the joker. */
export function cardLabel(key) {
  return key;
}

/** A signed score for display: "−10" with a real minus sign. */
export function signed(n) {
  return n < 0 ? `−${Math.abs(n)}` : String(n);
}

/** Base of every view: the app sets `ctx` ({store, data, t}) and calls render(). */
export class View extends HTMLElement {
  connectedCallback() {
    if (!this._wired) {
      this._wired = true;
      this.addEventListener("click", (event) => {
        const target = event.target.closest("[data-action]");
        if (target && this.contains(target) && !target.disabled) {
          this.onAction(target.dataset.action, target, event);
        }
      });
      // A row or cell that acts (a round of the sheet) answers Enter and Space as a button does.
      this.addEventListener("keydown", (event) => {
        const target = event.target;
        if ((event.key !== "Enter" && event.key !== " ") || !target.dataset || !target.dataset.action) return;
        if (target.matches("button, a, input, select, textarea")) return; // they click by themselves
        event.preventDefault();
        this.onAction(target.dataset.action, target, event);
      });
    }
  }

  onAction() {}

  render() {}
}

const ICONS = {
  round: '<path d="M4 20h4L19 9l-4-4L4 16z"/><path d="M14 6l4 4"/>',
  sheet: '<rect x="3" y="4" width="18" height="16" rx="2"/><path d="M3 10h18M3 15h18M9 4v16"/>',
  chart: '<path d="M4 4v16h16"/><path d="M7 15l4-5 3 3 5-6"/>',
  games: '<path d="M9 6h11M9 12h11M9 18h11"/><path d="M4 6h.01M4 12h.01M4 18h.01" stroke-width="3.2"/>',
  setup: '<path d="M12 5v14M5 12h14"/>',
  card: '<rect x="6" y="3" width="12" height="18" rx="2"/><path d="M12 8.5l2.6 3.5-2.6 3.5-2.6-3.5z" fill="currentColor" stroke="none"/>',
  star: '<path d="M12 2.8l2.8 5.8 6.3.9-4.6 4.4 1.1 6.3L12 17.2l-5.6 3 1.1-6.3L2.9 9.5l6.3-.9z" fill="currentColor" stroke="none"/>',
  download: '<path d="M12 4v11M7 10l5 5 5-5M5 20h14"/>',
  upload: '<path d="M12 16V5M7 10l5-5 5 5M5 20h14"/>',
  again: '<path d="M19.5 12a7.5 7.5 0 1 1-2.2-5.3"/><path d="M20 4v5h-5"/>',
  next: '<path d="M9 5l7 7-7 7"/>',
  prev: '<path d="M15 5l-7 7 7 7"/>',
  rules: '<path d="M12 6.5C10 5 7 4.5 3.5 5v13.5C7 18 10 18.5 12 20c2-1.5 5-2 8.5-1.5V5C17 4.5 14 5 12 6.5z"/><path d="M12 6.5V20"/>',
};

/** An inline SVG icon (drawn here, so no icon font or emoji is needed). */
export function icon(name) {
  return `<svg class="i" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor"
    stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round">${ICONS[name] || ""}</svg>`;
}

/** The whole number a number box holds within its own limits (min, max, step), or null: the
 * box is empty, out of range or not a whole number. ("1e3" is 1000.) */
export function wholeNumber(input) {
  const text = input.value.trim();
  if (text === "" || !input.checkValidity()) return null;
  const v = Number(text);
  return Number.isInteger(v) ? v : null;
}

// Every tap redraws the screen, so the button that had the focus is replaced by a new one.
// These find "the same" control again (by its action and the data that goes with it), so that
// a keyboard or screen reader user stays where they were instead of starting again from the top.
const FOCUS_DATA = ["action", "seat", "card", "value", "index", "view", "round", "id", "player", "field"];

/** A selector for the control ``el`` that still matches it after a redraw (null: none). */
export function focusSelector(el) {
  if (!el || !el.dataset || el === document.body) return null;
  const parts = FOCUS_DATA.filter((k) => el.dataset[k] !== undefined)
    .map((k) => `[data-${k}="${CSS.escape(el.dataset[k])}"]`);
  if (el.name) parts.push(`[name="${CSS.escape(el.name)}"]`);
  return parts.length ? el.localName + parts.join("") : null;
}

/** Whether an element is on screen (not in a hidden view, not display: none). */
export function shown(el) {
  return Boolean(el && el.isConnected && el.getClientRects().length);
}
