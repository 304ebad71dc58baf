// Drawing a view (View.to_json of the engine): seats, melds, the mazo and the pozo, the log.
// Used by the table and by the replay viewer; it draws, it never decides what is legal.
import { cardEl, cardName, pretty } from "./cards.js";
import { t } from "./i18n.js";

export function h(tag, cls = "", text = "") {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text) el.textContent = text;
  return el;
}

/** ``shown`` for the eyes (a glyph: "🂠 12", "Σ 84") and ``said`` for a screen reader
 * instead (which would read the glyph out as "playing card back"). */
function glyphEl(shown, said) {
  const el = h("span");
  const eye = h("span", "", shown);
  eye.setAttribute("aria-hidden", "true");
  el.append(eye, h("span", "sr-only", said));
  return el;
}

/** The seats: name, connection, cards in hand, down, buys; every hand when they are open. */
export function seatsEl(view, table, { me = null, extra = null } = {}) {
  const box = h("div", "seats");
  const names = view ? view.players : (table ? table.seats.map((s) => s.name || "") : []);
  const count = view ? view.players.length : (table ? table.seats.length : 0);
  for (let i = 0; i < count; i++) {
    const info = table && table.seats ? table.seats[i] || {} : {};
    const el = h("div", "seat");
    el.dataset.seat = i;
    if (view && view.to_act === i) el.classList.add("to-act");
    if (me === i) el.classList.add("me");
    const name = h("div", "name");
    const dot = h("span", "dot");
    const online = info.bot || info.connected;
    if (online) dot.classList.add("on");
    dot.title = info.bot ? t("bot") : (info.connected ? t("connected") : t("disconnected"));
    dot.setAttribute("role", "img");
    dot.setAttribute("aria-label", dot.title);
    const label = names[i] || info.name || t("empty_seat");
    name.append(dot, document.createTextNode(label + (me === i ? ` (${t("you")})` : "")));
    el.append(name);
    const meta = h("div", "meta");
    if (info.bot) meta.append(h("span", "tag", t("bot")));  // its name is the bot's title
    if (table && table.host === i) meta.append(h("span", "tag", t("host")));
    if (view) {
      const n = view.hand_counts[i];
      const count = t(n === 1 ? "cards_in_hand_1" : "cards_in_hand", { n });
      meta.append(glyphEl("🂠 " + n, count));
      meta.lastChild.title = count;
      if (view.down[i]) meta.append(h("span", "tag down", t("down")));
      if (view.buys && view.buys[i]) meta.append(h("span", "tag", view.buys[i] === 1 ? t("buys_1") : t("buys_n", { n: view.buys[i] })));
      if (view.dealer === i) meta.append(h("span", "tag", t("dealer")));
      if (view.sheet) meta.append(glyphEl("Σ " + view.sheet.totals[i], `${t("total")} ${view.sheet.totals[i]}`));
    }
    el.append(meta);
    if (view && view.open_hands && view.open_hands[i] && i !== me) {
      const hand = h("div", "open-hand");
      for (const c of view.open_hands[i]) hand.append(cardEl(c, { small: true }));
      el.append(hand);
    }
    if (extra) extra(el, i, info);
    box.append(el);
  }
  return box;
}

/** The melds on the table, numbered as the record numbers them. */
export function meldsEl(view) {
  const box = h("div", "melds");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", t("melds_on_table"));
  if (!view.melds.length) {
    box.append(h("p", "none", t("no_melds")));
    return box;
  }
  view.melds.forEach((m, index) => {
    const el = h("div", "meld " + m.kind);
    el.dataset.meld = index;
    el.dataset.kind = m.kind;
    const owner = m.owner >= 0 ? view.players[m.owner] : "";
    const kindWord = t(m.kind);  // trio, escala, sucia, real, colores
    el.append(h("span", "label", `${index} · ${kindWord} · ${owner}`));
    el.setAttribute("role", "group");
    el.setAttribute("aria-label", `${index} · ${kindWord} · ${owner}`);
    const cards = h("div", "cards");
    m.cards.forEach((c, i) => {
      const wild = m.stands_for[i] && isWildShown(c, m.stands_for[i]);
      const ce = cardEl(c, { small: true, standsFor: wild ? m.stands_for[i] : null });
      ce.dataset.index = i;
      cards.append(ce);
    });
    const line = h("div", "line");
    if (m.kind === "escala") {
      // The ends of an escala, to choose where a card goes (shown while a card is selected).
      const lo = h("button", "end low", "◀");
      lo.type = "button";
      lo.dataset.end = "low";
      lo.title = t("low_end");
      lo.setAttribute("aria-label", t("low_end"));
      const hi = h("button", "end high", "▶");
      hi.type = "button";
      hi.dataset.end = "high";
      hi.title = t("high_end");
      hi.setAttribute("aria-label", t("high_end"));
      line.append(lo, cards, hi);
    } else {
      line.append(cards);
    }
    el.append(line);
    box.append(el);
  });
  return box;
}

function isWildShown(card, standsFor) {
  // A card that stands for another: a joker, or a wild two/ace away from its own place.
  if (card === "JK") return true;
  const own = card.slice(0, -1);
  const rank = standsFor.replace(/[SHDCRB]$/, "");
  if (rank !== own) return true;
  const suit = standsFor.slice(-1);
  return "SHDC".includes(suit) && suit !== card.slice(-1);
}

/** The mazo (its back and count) and the pozo (its top card and count). */
export function pilesEl(view) {
  const box = h("div", "piles");
  const mazo = h("button", "pile mazo");
  mazo.type = "button";
  mazo.dataset.pile = "mazo";
  // An empty mazo is rebuilt from the pozo (but its top) when a card must come from it: say so,
  // or an empty pile that can still be drawn from looks like a dead end.
  const rebuilds = view.reshuffles_left == null || view.reshuffles_left > 0;
  const rebuilt = !view.mazo_count && rebuilds && ["draw", "play"].includes(view.phase) ? ` · ${t("mazo_from_pozo")}` : "";
  mazo.append(view.mazo_count ? cardEl("", { back: true }) : h("div", "empty-pile"), h("span", "", `${t("mazo")} · ${view.mazo_count}${rebuilt}`));
  mazo.setAttribute("aria-label", `${t("mazo")}: ${cardsWords(view.mazo_count)}${rebuilt}`);
  const pozo = h("button", "pile pozo");
  pozo.type = "button";
  pozo.dataset.pile = "pozo";
  const top = view.pozo.length ? view.pozo[view.pozo.length - 1] : null;
  pozo.append(top ? cardEl(top) : h("div", "empty-pile"), h("span", "", `${t("pozo")} · ${view.pozo.length}`));
  pozo.setAttribute("aria-label", `${t("pozo")}: ${cardsWords(view.pozo.length)}`
    + (top ? `, ${t("pozo_top", { card: cardName(top) })}` : ""));
  box.append(mazo, pozo);
  return box;
}

/** "1 carta", "12 cartas". */
function cardsWords(n) {
  return n === 1 ? t("card_1") : t("cards_n", { n });
}

export function meldText(cards) {
  return cards.map(pretty).join(" ");
}

/** One record action in words; ``card`` words a card (as the log shows it: "7♥"; a screen
 * reader is told cardName's "7 de corazones"). */
export function describeAction(a, players, card = pretty) {
  if (!a || typeof a !== "object") return "";
  const name = players[a.p] ?? `#${a.p}`;
  // A draw from the pozo and a buy name the card taken (it was face up); a record's own
  // actions do not carry it, so the words close up without it.
  const taken = () => (a.card ? card(a.card) : "");
  if (a.draw) return a.draw === "pozo" ? t("log.draw.pozo", { name, card: taken() }).replace("  ", " ") : t("log.draw.mazo", { name });
  if (a.bajar) {
    // The melds as the log shows them ("7♥ 7♠ 7♦ / …"), or said card after card.
    const said = card !== pretty;
    const melds = a.bajar.map((m) => (said ? m.map(card).join(", ") : meldText(m))).join(said ? "; " : " / ");
    return t("log.bajar", { name, melds });
  }
  if (a.agregar) return t("log.agregar", { name, card: card(a.agregar.card), meld: a.agregar.meld }) + (a.agregar.end ? ` (${t(a.agregar.end + "_end")})` : "");
  if (a.swap) return t("log.swap", { name, card: card(a.swap.card), meld: a.swap.meld });
  if (a.discard) return t("log.discard", { name, card: card(a.discard) });
  if (a.buy) return t("log.buy", { name, card: taken() }).replace("  ", " ");
  return JSON.stringify(a);
}

/** The round's public log, newest last. */
export function logEl(view) {
  const ol = h("ol", "log");
  ol.start = (view.log_start || 0) + 1; // a state may carry only the recent end of the log
  for (const a of view.log || []) ol.append(h("li", "", describeAction(a, view.players)));
  queueMicrotask(() => { ol.scrollTop = ol.scrollHeight; });
  return ol;
}
