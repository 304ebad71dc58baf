// Cards: the record notation ("10H", "QS", "JK") drawn with suit symbols.
import { t } from "./i18n.js";
export const SUITS = "SHDC";
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function parseCard(text) {
  const t = String(text).toUpperCase();
  if (t === "JK") return { rank: 0, suit: "", text: "JK", joker: true };
  const suit = t.slice(-1);
  const rank = RANKS.indexOf(t.slice(0, -1)) + 1;
  return { rank, suit, text: t, joker: false };
}

/** A card for people: "10♥"; the joker is "★". */
export function pretty(text) {
  const c = parseCard(text);
  if (c.joker) return "★";
  return RANKS[c.rank - 1] + SUIT_SYMBOLS[c.suit];
}

/** What a wild card stands for in a meld: "6H", "6" (any suit), "6R"/"6B" (a colour). */
export function prettyStandsFor(text) {
  const t = String(text);
  const last = t.slice(-1);
  if (SUIT_SYMBOLS[last]) return t.slice(0, -1) + SUIT_SYMBOLS[last];
  if (last === "R") return t.slice(0, -1) + "♥♦";
  if (last === "B") return t.slice(0, -1) + "♠♣";
  return t;
}

/** A card in words, in the page's language, for a screen reader: "7 de corazones", "as de
 * picas", "comodín" (the symbols of pretty() are read out as "black heart suit"). */
export function cardName(text) {
  const c = parseCard(text);
  if (c.joker) return t("joker_card");
  return t("card_name", { rank: rankName(RANKS[c.rank - 1]), suit: t("suit." + c.suit) });
}

function rankName(rank) {
  return /\d/.test(rank) ? rank : t("rank." + rank);
}

/** What a wild stands for, in words: a card, a rank of any suit, or a rank of a colour. */
function standsForName(text) {
  const s = String(text);
  const last = s.slice(-1);
  if (SUIT_SYMBOLS[last]) return cardName(s);
  if (last === "R" || last === "B") return rankName(s.slice(0, -1)) + " " + t("colour." + last);
  return rankName(s);
}

const rankKey = (c) => (c.joker ? [99, 0] : [c.rank, SUITS.indexOf(c.suit)]);
const suitKey = (c) => (c.joker ? [99, 0] : [SUITS.indexOf(c.suit), c.rank]);

function cmp(key) {
  return (a, b) => {
    const ka = key(parseCard(a)), kb = key(parseCard(b));
    return ka[0] - kb[0] || ka[1] - kb[1];
  };
}

export const byRank = cmp(rankKey);
export const bySuit = cmp(suitKey);

/** A card element: <div class="card s-H" data-card="10H">. */
export function cardEl(text, { standsFor = null, small = false, back = false } = {}) {
  const el = document.createElement("div");
  if (back) {
    el.className = "card back" + (small ? " mini" : "");
    return el;
  }
  const c = parseCard(text);
  el.className = "card " + (c.joker ? "joker" : "s-" + c.suit) + (small ? " mini" : "");
  el.dataset.card = c.text;
  el.setAttribute("role", "img");
  let label = cardName(c.text);
  if (standsFor) label += ", " + t("stands_for", { card: standsForName(standsFor) });
  el.setAttribute("aria-label", label);
  const r = document.createElement("span");
  r.className = "r";
  r.textContent = c.joker ? "JK" : RANKS[c.rank - 1];
  const s = document.createElement("span");
  s.className = "s";
  s.textContent = c.joker ? "★" : SUIT_SYMBOLS[c.suit];
  el.append(r, s);
  if (standsFor) {
    const f = document.createElement("span");
    f.className = "for";
    f.textContent = "=" + prettyStandsFor(standsFor);
    el.append(f);
    el.classList.add("wild");
  }
  return el;
}
