// The table: seats, the game as this seat sees it, and every move of a turn.
// The server is authoritative: this page sends actions and draws what comes back.
import { cardEl, cardName, pretty, byRank, bySuit, parseCard } from "./cards.js";
import { api, errorText, forgetToken, getToken, initPage, saveName, savedName, saveToken, serverSaid, toast } from "./common.js";
import { contractWords, getLang, localized, nameList, onLangChange, t } from "./i18n.js";
import { describeAction, h, logEl, meldsEl, pilesEl, seatsEl } from "./board.js";
import "./sheet.js";

const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "").toUpperCase();
$("rules-link").href = "/rules?table=" + encodeURIComponent(code);
const SORT_KEY = "carioca.sort";

initPage();
document.title = `Carioca · ${code}`;

// ------------------------------------------------------------------ the seat's token

{
  const params = new URLSearchParams(location.search);
  const tok = params.get("token");
  if (tok) {
    saveToken(code, tok);
    history.replaceState(null, "", location.pathname);
  }
}

const S = {
  ws: null,
  attempts: 0,
  noTable: false, // the server said no table has this code: the page stops asking
  waitUntil: 0, // this address tried too many codes: no reconnecting before then (ms)
  token: getToken(code),
  seat: null,
  table: null,
  msg: null, // the last state message
  version: null,
  // the hand as the player arranges it: [{id, card}]
  hand: [],
  nextId: 1,
  selected: new Set(),
  groups: [], // staged melds for bajar: [[id, ...], ...]
  sort: localStorage.getItem(SORT_KEY) === "suit" ? "suit" : "rank",
  drag: null,
  pendingRender: false,
  passed: null, // the buy window (round:turn) this seat passed on
  claimed: null, // the buy window (round:turn) this seat claimed
  claim: null, // that claim: its card, and the log's length then (to say how it ended)
  buySaid: null, // what the buy banner says (buyOffer, as JSON): it is rebuilt when that changes
  pending: null, // the last action sent, to send again once if the table moved under it
  revealShown: new Set(JSON.parse(localStorage.getItem("carioca.seen." + code) || "[]")),
  hint: null,
  bots: null,
  errors: [], // the server's refusals, newest last
  trace: [], // what the player did lately (for bug reports and tests)
};

function trace(...what) {
  S.trace.push(what);
  if (S.trace.length > 60) S.trace.shift();
}

// ------------------------------------------------------------------ the connection

function wsUrl() {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${encodeURIComponent(code)}`;
}

function connect() {
  const ws = new WebSocket(wsUrl());
  S.ws = ws;
  ws.addEventListener("open", () => {
    // The coach speaks the page's language (es, en, de or sv); the page words the rest.
    ws.send(JSON.stringify({ type: "hello", token: S.token || null, lang: getLang() }));
  });
  ws.addEventListener("message", (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    onMessage(msg);
  });
  ws.addEventListener("close", () => {
    if (S.ws !== ws) return;
    S.ws = null;
    if (S.noTable) return; // no table has this code: asking again changes nothing
    $("conn").hidden = false;
    if (S.attempts >= 2 && S.peers && S.peers.length) tryPeers();
    const backoff = Math.min(10000, 500 * 2 ** S.attempts) + Math.random() * 300;
    const delay = Math.max(backoff, (S.waitUntil || 0) - Date.now());
    S.attempts++;
    setTimeout(connect, delay);
  });
  ws.addEventListener("error", () => { try { ws.close(); } catch (e) { /* closing */ } });
}

/** Open this table's page at another server (``url``, one of ours), with this seat's pass;
 * false if that is where the page is already, or not a web address. */
function goTo(url) {
  let there;
  try { there = new URL(url, location.href); } catch (e) { return false; }
  if (!["http:", "https:"].includes(there.protocol) || there.origin === location.origin) return false;
  const pass = S.token ? `?token=${encodeURIComponent(S.token)}` : "";
  location.href = `${there.origin}/t/${encodeURIComponent(code)}${pass}`;
  return true;
}

/** This server stopped answering: ask the others which one serves the table now, and go
 * there. While the table is still this server's (its lease has not run out yet), none
 * does: the page keeps trying, here and there, at each failed reconnection. */
async function tryPeers() {
  if (S.tryingPeers) return;
  S.tryingPeers = true;
  try {
    for (const url of S.peers) {
      let res;
      try {
        res = await fetch(`${url}/api/tables/${encodeURIComponent(code)}`,
          { cache: "no-store", signal: AbortSignal.timeout(3000) });
      } catch (e) {
        continue; // that one is away too (or too slow to wait for)
      }
      if (res.ok && goTo(url)) return; // it serves the table (it took it over)
      if (res.status === 421) {
        // Another server serves it: unless that is this page's own, silent one (whose lease
        // has not run out yet), this peer's page sends the page there, with its seat.
        const where = ((await res.json().catch(() => null)) || {}).error || {};
        if (where.url && where.url !== location.origin && goTo(url)) return;
      }
    }
  } finally {
    S.tryingPeers = false;
  }
}

function reconnectNow() {
  const old = S.ws;
  S.ws = null;
  if (old) try { old.close(); } catch (e) { /* closing */ }
  S.attempts = 0;
  connect();
}

setInterval(() => { if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify({ type: "ping" })); }, 25000);

function send(msg) {
  if (!S.ws || S.ws.readyState !== 1) {
    toast(t("err.network"));
    return false;
  }
  S.ws.send(JSON.stringify(msg));
  return true;
}

function act(action) {
  const v = view();
  S.pending = { action, round: v ? v.round : null, phase: v ? v.phase : null, turn: v ? v.turn : null, retried: false, version: S.version };
  return send({ type: "action", version: S.version, action: { p: S.seat, ...action } });
}

/** Once the window this seat claimed in is decided, say how: bought, bought by someone
 * nearer in turn, or taken from the pozo by the player to draw (who has first claim). */
function settleClaim(v) {
  const c = S.claim;
  if (!c || (v.round === c.round && v.buy_window && windowKeyOf(v) === c.key)) return;
  S.claim = null;
  if (v.round !== c.round) return;
  const fresh = (v.log || []).slice(Math.max(0, c.logLen - (v.log_start || 0)));
  const bought = fresh.find((e) => e.buy);
  const took = fresh.find((e) => e.draw === "pozo");
  const card = pretty(c.card);
  const names = players();
  if (bought && bought.p === S.seat) toast(t("buy_won", { card }), "info", 6000);
  else if (bought) toast(t("buy_lost", { card, name: names[bought.p] }), "info", 6000);
  else if (took) toast(t("buy_taken", { card, name: names[took.p] }), "info", 6000);
}

/** A page opened again after this seat answered the open buy window learns the answer from
 * the server: a claim goes on waiting for the draw, a pass keeps the offer away. */
function restoreClaim(msg) {
  const v = msg.view;
  if (msg.claim === null || msg.claim === undefined || !v.buy_window) return;
  const key = windowKeyOf(v);
  if (!msg.claim) {
    S.passed = key;
  } else if (S.claimed !== key) {
    S.claimed = key;
    S.claim = { key, round: v.round, card: v.pozo[v.pozo.length - 1], logLen: (v.log_start || 0) + (v.log || []).length };
  }
}

/** What this seat may act on in the state ``msg``: the game, the round, the turn and its
 * phase, the moves so far, the hand, and the moves offered (a buy window open to it). */
function momentOf(msg) {
  const v = msg && msg.view;
  if (!v) return null;
  const game = (msg.table || S.table || {}).game;
  return [game, v.round, v.turn, v.phase, (v.log_start || 0) + (v.log || []).length,
    (v.hand || []).length, (msg.legal || []).length].join(":");
}

/** The buy window of view ``v``: its game, round and turn (a rematch's window at the same
 * round and turn is another one). */
function windowKeyOf(v) {
  return `${(S.table || {}).game}:${v.round}:${v.turn}`;
}

function windowKey() {
  const v = view();
  return v ? windowKeyOf(v) : null;
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      S.attempts = 0;
      $("conn").hidden = true;
      S.seat = msg.seat ?? null;
      S.afterWelcome = true; // the next state is taken whatever its version (a restarted server counts anew)
      if (msg.table) S.table = msg.table;
      S.peers = msg.peers || []; // the other servers, should this one stop answering
      render();
      break;
    case "state":
      trace("state", msg.version);
      // The same version again changes nothing.
      if (!S.afterWelcome && S.msg && S.msg.version === msg.version
          && S.msg.presence === msg.presence) break;
      S.afterWelcome = false;
      S.msg = msg;
      S.version = msg.version;
      if (msg.table) S.table = msg.table;
      if (msg.view) {
        syncHand(msg.view.hand, `${(msg.table || S.table || {}).game}:${msg.view.round}`,
          !!(msg.view.down && S.seat !== null && msg.view.down[S.seat]));
      }
      serverSaid(msg.now);
      // The coach's advice stands until something this seat could act on changes (not a
      // claim of another's, a connection or the steal timer's end).
      if (S.hint && S.hint.moment !== momentOf(msg)) S.hint = null;
      if (msg.played_for === S.seat && S.seat !== null) toast(t("timer_played"), "info", 8000);
      if (msg.view) restoreClaim(msg);
      if (msg.view) settleClaim(msg.view);
      if (S.drag) S.pendingRender = true; else render();
      announce();
      settleAsk();
      maybeReveal();
      retryStale();
      break;
    case "table":
      if (msg.table) S.table = msg.table;
      render();
      break;
    case "ack":
      S.version = Math.max(S.version ?? 0, msg.version);
      // The move went through: a later refusal is another message's, never this move's.
      S.pending = null;
      break;
    case "error":
      if (msg.about === "hint") { toast(hintRefusal(msg)); break; }
      if (msg.code === "stale_version" && S.pending && !S.pending.retried) {
        // The table moved (someone connected, or answered a buy): the state on its way
        // shows it; the move is sent again once if it is still this seat's turn and phase.
        S.pending.retried = true;
        S.pending.stale = true;
        // The newer state crossed the move on the way and came before this refusal: no
        // state is coming to send it again on, so it goes again now.
        if (S.version !== S.pending.version) retryStale();
        break;
      }
      if (msg.code === "elsewhere" && msg.url && goTo(msg.url)) return;
      if (msg.code === "moved") {
        // The table went to another server: the server closes this socket, and the page
        // connects again (with its back-off, should "moved" come again), to be sent there.
        // Should the socket stay open, the page leaves it.
        toast(errorText(msg.code, msg.message));
        const ws = S.ws;
        setTimeout(() => { if (S.ws === ws && ws) reconnectNow(); }, 1500);
        return;
      }
      if (msg.code === "no_table") S.noTable = true; // said once, not on every reconnection
      if (msg.code === "too_many_tries") S.waitUntil = Date.now() + 61000; // the server's minute
      if (msg.code === "unknown_token") {
        forgetToken(code); // a pass this table does not know: the join form comes back
        S.token = null;
        render();
      }
      S.errors.push(msg);
      if (S.pending && S.pending.action.buy && ["too_late", "no_window", "cannot_buy"].includes(msg.code)) {
        S.claimed = null; // the claim was refused: there is none to wait for
        S.claim = null;
      }
      S.pending = null; // refused: never sent again on a later "stale_version"
      // The server says which card and why in Spanish (msg.detail); else the page's words.
      toast(msg.detail && getLang() === "es" ? msg.detail.charAt(0).toUpperCase() + msg.detail.slice(1) : errorText(msg.code, msg.message));
      break;
    case "pong":
      if (msg.peers) S.peers = msg.peers;
      break;
    case "hint":
      S.hint = { ...msg, moment: momentOf(S.msg) };
      renderHint();
      break;
    default:
      break;
  }
}

/** Why the coach gave no hint, in the page's language: the table moved while it thought,
 * it failed or took too long (the server's own reason says which in English), or the
 * refusals any message may get (hints off, not this seat's turn). */
function hintRefusal(msg) {
  if (msg.code === "stale_version") return t("hint.stale_version");
  if (msg.code === "no_coach" && !/not installed/.test(msg.message || "")) return t("hint.no_coach");
  return errorText(msg.code, msg.message);
}

function retryStale() {
  const p = S.pending;
  if (!p || !p.stale) return;
  p.stale = false;
  const v = view();
  // Only in the same round and turn: a buy that ended the round takes the move with it.
  if (v && myTurn() && v.round === p.round && v.phase === p.phase && v.turn === p.turn) {
    send({ type: "action", version: S.version, action: { p: S.seat, ...p.action } });
  } else if (p.action.buy && canBuy()) {
    send({ type: "action", version: S.version, action: { p: S.seat, ...p.action } });
  } else {
    toast(errorText("stale_version", ""));
  }
}

// ------------------------------------------------------------------ the hand in the player's order

function syncHand(cards, deal, down = false) {
  S.drawn = null;
  if (!cards) { S.hand = []; S.selected.clear(); S.groups = []; return; }
  if (deal !== S.deal) { S.deal = deal; S.hand = []; } // a new deal: a new hand
  // Two decks hold two of each card: when one copy leaves the hand, the one the player had
  // selected or grouped (the one just played) is the one that goes.
  const count = (list) => list.reduce((m, c) => m.set(c, (m.get(c) || 0) + 1), new Map());
  const need = count(cards);
  const extra = count(S.hand.map((x) => x.card));
  for (const [c, n] of extra) extra.set(c, Math.max(0, n - (need.get(c) || 0)));
  const dropped = new Set();
  const played = new Set([...S.selected, ...S.groups.flat()]);
  for (const chosen of [true, false]) {
    for (const item of [...S.hand].reverse()) {
      if (played.has(item.id) !== chosen || !extra.get(item.card)) continue;
      dropped.add(item.id);
      extra.set(item.card, extra.get(item.card) - 1);
    }
  }
  const kept = S.hand.filter((x) => !dropped.has(x.id)).map((x) => ({ ...x, fresh: false }));
  const left = [...cards];
  for (const item of kept) left.splice(left.indexOf(item.card), 1);
  const added = left.map((card) => ({ id: S.nextId++, card, fresh: true }));
  const brandNew = kept.length === 0;
  if (!brandNew && added.length === 1) S.drawn = added[0].card; // to say which card came
  S.hand = kept.concat(added);
  if (brandNew && !restoreOrder()) sortHand(chosenSort(), false);
  else if (S.sort !== "manual" && added.length) sortHand(S.sort, false);
  const ids = new Set(S.hand.map((x) => x.id));
  for (const id of [...S.selected]) if (!ids.has(id)) S.selected.delete(id);
  S.groups = S.groups.map((g) => g.filter((id) => ids.has(id))).filter((g) => g.length);
  // A fresh hand (a new deal, or the page just loaded): the groups staged before a reload.
  if (brandNew) { S.selected.clear(); S.groups = restoreGroups(); }
  if (down) S.groups = []; // laid down: nothing is left to stage
  saveGroups();
}

// A hand ordered by dragging is kept for this tab (sessionStorage), so a reload keeps it.
const ORDER_KEY = "carioca.order." + code;

function saveOrder() {
  sessionStorage.setItem(ORDER_KEY, JSON.stringify({ deal: S.deal, cards: S.hand.map((x) => x.card) }));
}

/** Put a fresh hand in the order dragged before a reload (true), if it is the same deal. */
function restoreOrder() {
  let saved = null;
  try { saved = JSON.parse(sessionStorage.getItem(ORDER_KEY) || "null"); } catch (e) { saved = null; }
  if (!saved || saved.deal !== S.deal || !Array.isArray(saved.cards)) return false;
  const left = [...S.hand];
  const ordered = [];
  for (const card of saved.cards) {
    const i = left.findIndex((x) => x.card === card);
    if (i >= 0) ordered.push(...left.splice(i, 1));
  }
  S.hand = ordered.concat(left); // cards drawn since come last
  S.sort = "manual";
  return true;
}

// The groups staged for bajar are kept for this tab too, so that a reload keeps them: for
// this seat and this deal (game and round) only, and only those whose cards are all still in
// the hand. Card ids are the page's own (they change at a reload): a card is kept as its code
// and which copy of that code it is in the hand's order (two decks hold two of each card).
const GROUPS_KEY = "carioca.groups." + code;

function saveGroups() {
  if (S.seat === null || S.deal === undefined) return; // no hand of this seat's yet
  if (!S.groups.length) { sessionStorage.removeItem(GROUPS_KEY); return; }
  const copyOf = (id) => {
    const card = cardOf(id);
    return [card, S.hand.filter((x) => x.card === card).findIndex((x) => x.id === id)];
  };
  const groups = S.groups.map((g) => g.map(copyOf));
  sessionStorage.setItem(GROUPS_KEY, JSON.stringify({ seat: S.seat, deal: S.deal, groups }));
}

/** The groups staged before a reload, on this hand's cards (each card used once); none if
 * they were another seat's or another deal's. */
function restoreGroups() {
  let saved = null;
  try { saved = JSON.parse(sessionStorage.getItem(GROUPS_KEY) || "null"); } catch (e) { saved = null; }
  if (!saved || saved.seat !== S.seat || saved.deal !== S.deal || !Array.isArray(saved.groups)) return [];
  const groups = saved.groups.filter(Array.isArray)
    .map((g) => g.map((entry) => (Array.isArray(entry) ? entry : [entry, 0])));
  const ids = groups.map((g) => g.map(() => null));
  const used = new Set();
  // The same copy first (the hand comes back in the same order); then any copy left.
  for (const exact of [true, false]) {
    groups.forEach((g, i) => g.forEach(([card, n], j) => {
      if (ids[i][j] !== null) return;
      const copies = S.hand.filter((x) => x.card === card);
      const item = exact ? copies[n] : copies.find((x) => !used.has(x.id));
      if (item && !used.has(item.id)) { used.add(item.id); ids[i][j] = item.id; }
    }));
  }
  // A group with a card no longer in the hand is dropped whole.
  return ids.filter((g) => g.length && g.every((id) => id !== null));
}

/** The order the player last chose with the buttons (a drag orders one hand only). */
function chosenSort() {
  const mode = localStorage.getItem(SORT_KEY);
  return mode === "suit" ? "suit" : "rank";
}

function sortHand(mode, remember = true) {
  if (remember) sessionStorage.removeItem(ORDER_KEY);
  const cmp = mode === "suit" ? bySuit : byRank;
  S.hand.sort((a, b) => cmp(a.card, b.card));
  S.sort = mode;
  if (remember) localStorage.setItem(SORT_KEY, mode);
}

const cardOf = (id) => (S.hand.find((x) => x.id === id) || {}).card;
const grouped = () => new Set(S.groups.flat());

// ------------------------------------------------------------------ names as this page says them

/** A seat's name as this page shows it: a generic bot's title in the page's language
 * ("Random 2" is "Al azar 2" in Spanish). People and personalities keep their names, and the
 * server, the log and the record keep the name as it is. */
function shownName(name, seat) {
  const spec = seat && seat.bot && (S.bots || []).find((b) => b.name === seat.bot);
  if (!spec || !spec.titles || !name) return name;
  const [, title, number] = name.match(/^(.*?)( \d+)?$/);
  return title === spec.title ? localized(spec.titles) + (number || "") : name;
}

/** The players' names of the view, as this page shows them. */
function players() {
  const v = view();
  const seats = (S.table && S.table.seats) || [];
  return v ? v.players.map((name, i) => shownName(name, seats[i])) : [];
}

/** The view with the names as this page shows them, for drawing (never for deciding). */
function shownView() {
  const v = view();
  return v && { ...v, players: players() };
}

/** The table with the seats' names as this page shows them. */
function shownTable() {
  const tbl = S.table;
  return tbl && { ...tbl, seats: tbl.seats.map((seat) => ({ ...seat, name: shownName(seat.name, seat) })) };
}

// ------------------------------------------------------------------ what the seat may do

function legal() { return (S.msg && S.msg.legal) || []; }
function view() { return S.msg && S.msg.view; }
function myTurn() { const v = view(); return v && S.seat !== null && v.to_act === S.seat; }
function phase() { const v = view(); return v ? v.phase : null; }
function canDraw(src) { return legal().some((a) => a.draw === src); }
function canBuy() { return legal().some((a) => a.buy); }

// ------------------------------------------------------------------ moves

function draw(src) {
  if (!myTurn() || phase() !== "draw") return;
  if (act({ draw: src }) && src === "pozo") S.drewAt = Date.now();
}

/** A second tap on the pozo soon after drawing from it is the same tap repeated, not a discard. */
const DOUBLE_TAP_MS = 900;

function discard(card) {
  if (!card) { toast(t("select_one"), "info"); return; }
  act({ discard: card });
}

function selectedCards() {
  return S.hand.filter((x) => S.selected.has(x.id)).map((x) => x.id);
}

function bajarse() {
  trace("bajarse", S.groups.map((g) => g.map(cardOf)), selectedCards().map(cardOf));
  const groups = S.groups.map((g) => g.slice());
  const sel = selectedCards().filter((id) => !grouped().has(id));
  if (sel.length) groups.push(sel);
  if (!groups.length) { toast(t("groups_hint"), "info"); return; }
  act({ bajar: groups.map((g) => g.map(cardOf)) });
  S.selected.clear();
}

function newMeld() {
  trace("new-meld", selectedCards().map(cardOf));
  const sel = selectedCards().filter((id) => !grouped().has(id));
  if (!sel.length) { toast(t("groups_hint"), "info"); return; }
  S.groups.push(sel); // in the order the player arranged the hand
  S.selected.clear();
  saveGroups();
  render();
}

/** The legal ways to put ``card`` on meld ``index``: agregar (one for each end it fits) and
 * swap. The server's list decides; the page offers nothing else. */
function placings(card, index) {
  const L = legal();
  return {
    adds: L.filter((a) => a.agregar && a.agregar.card === card && a.agregar.meld === index),
    swaps: L.filter((a) => a.swap && a.swap.card === card && a.swap.meld === index),
  };
}

/** Put a card on meld ``index``: agregar, or a swap when it replaces a wild there. A tap on
 * the wild itself swaps and a tap on an escala's end lays off there; a tap elsewhere on a
 * meld that the card may go into both ways asks which (the wild is a small target on a phone,
 * and a lay-off the player did not mean cannot be swapped back). */
function place(card, index, { end = null, onWild = false, onEnd = false } = {}) {
  const { adds, swaps } = placings(card, index);
  if (onWild && swaps.length) return chooseEnd(swaps, "swap", end);
  const there = onEnd && adds.find((a) => (a.agregar.end || null) === end);
  if (there) return act({ agregar: there.agregar });
  if (adds.length && swaps.length) return chooseHow(card, adds, swaps);
  if (adds.length) return chooseEnd(adds, "agregar", end);
  if (swaps.length) return chooseEnd(swaps, "swap", end);
  // Nothing legal found: ask the server anyway, so the player hears the rule's reason.
  const meld = view().melds[index];
  const body = { card, meld: index };
  if (meld && meld.kind === "escala" && end) body.end = end;
  act(onWild ? { swap: body } : { agregar: body });
}

function chooseEnd(list, kind, endHint) {
  const exact = list.find((a) => (a[kind].end || null) === endHint);
  if (exact || list.length === 1) return act({ [kind]: (exact || list[0])[kind] });
  // Two ends are possible: ask which.
  ask(t("which_end"), list.map((a) => ({
    text: a[kind].end === "low" ? "◀ " + t("low_end") : t("high_end") + " ▶", kind, body: a[kind],
  })));
}

/** The card may be laid off on the meld or swapped for its wild: ask which, laying off first
 * (the common move), each end of an escala its own button. */
function chooseHow(card, adds, swaps) {
  const addText = (a) => (adds.length > 1 ? t("agregar_at", { end: t(a.agregar.end + "_end") }) : t("do_agregar"));
  ask(t("agregar_or_swap", { card: cardName(card) }), [
    ...adds.map((a) => ({ text: addText(a), kind: "agregar", body: a.agregar, id: "how-agregar" })),
    ...swaps.map((a) => ({ text: swaps.length > 1 ? `${t("do_swap")} (${t(a.swap.end + "_end")})` : t("do_swap"),
      kind: "swap", body: a.swap, id: "how-swap" })),
  ]);
}

/** A dialog of big buttons, one for each move in ``choices`` ({text, kind, body, id}), and ✕;
 * Escape closes it too. The first button takes the focus. */
function ask(title, choices) {
  const dlg = $("reveal");
  dlg.innerHTML = "";
  dlg.append(dialogTitle(title));
  const row = h("div", "row choices");
  for (const c of choices) {
    const b = h("button", "primary big", c.text);
    if (c.id && choices.filter((x) => x.id === c.id).length === 1) b.id = c.id;
    b.addEventListener("click", () => { dlg.close(); actIfLegal(c.kind, c.body); });
    row.append(b);
  }
  const cancel = h("button", "big", "✕");
  cancel.id = "ask-close";
  cancel.setAttribute("aria-label", t("close"));
  cancel.addEventListener("click", () => dlg.close());
  row.append(cancel);
  dlg.append(row);
  dlg.dataset.kind = "ask";
  dlg.choices = choices;
  if (!dlg.open) dlg.showModal();
  row.firstChild.focus(); // also when the dialog was open already (its old buttons are gone)
}

/** Whether ``body`` is still one of the legal moves of its ``kind``. */
function stillLegal(kind, body) {
  const said = JSON.stringify(body);
  return legal().some((a) => a[kind] && JSON.stringify(a[kind]) === said);
}

/** A question asked of the player goes once the table has moved past it (the timer played
 * for them, an undo, the round ended): it must not cover the board with moves gone. */
function settleAsk() {
  const dlg = $("reveal");
  if (!dlg.open || dlg.dataset.kind !== "ask") return;
  const playing = myTurn() && view() && view().phase === "play";
  if (!playing || !(dlg.choices || []).some((c) => stillLegal(c.kind, c.body))) dlg.close();
}

/** Send a move chosen in a dialog if the state now on the page still allows it: the dialog
 * may have stayed open while the table moved on. */
function actIfLegal(kind, body) {
  if (stillLegal(kind, body)) return act({ [kind]: body });
  toast(errorText("stale_version", ""));
  return false;
}

/** Whether the natural ``card`` is what a wild standing for ``standsFor`` replaces: the card
 * itself ("6C"), any card of a rank ("7", a trío's wild), or of a rank and colour ("7R"). */
function replaces(card, standsFor) {
  if (!standsFor) return false;
  const s = String(standsFor);
  const rank = card.slice(0, -1), suit = card.slice(-1);
  const last = s.slice(-1);
  if ("SHDC".includes(last)) return s === card;
  if (last === "R" || last === "B") return s.slice(0, -1) === rank && ("HD".includes(suit) ? "R" : "B") === last;
  return s === rank;
}

function onlySelected() {
  const sel = selectedCards();
  return sel.length === 1 ? cardOf(sel[0]) : null;
}

// ------------------------------------------------------------------ drawing the page

function render() {
  const focus = focusKey(document.activeElement);
  redraw();
  if (focus && (document.activeElement === document.body || !document.activeElement)) {
    const again = document.querySelector(focus);
    if (again && !again.disabled) again.focus({ preventScroll: true });
    // gone, off, or unable to take it (inside a dialog just closed)
    if (!again || document.activeElement !== again) focusStatus();
  }
}

/** The control that had the focus is gone or off (the discard made, the turn passed): the
 * focus goes to the status line, which says whose turn it is, not to the page's top. */
function focusStatus() {
  const status = $("status");
  if (status.hidden) return;
  status.tabIndex = -1;
  status.focus({ preventScroll: true });
}

/** A selector that finds the same control after a redraw (the page is drawn anew on every
 * state): its id, the hand card, the pile, the meld or the end of a meld. */
function focusKey(el) {
  if (!el || el === document.body) return null;
  if (el.id) return "#" + CSS.escape(el.id);
  if (el.dataset.id) return `#hand [data-id="${CSS.escape(el.dataset.id)}"]`;
  if (el.dataset.pile) return `.pile[data-pile="${CSS.escape(el.dataset.pile)}"]`;
  const meld = el.closest(".meld");
  if (!meld) return null;
  const at = `.meld[data-meld="${meld.dataset.meld}"]`;
  if (el.dataset.end) return `${at} .end.${el.dataset.end}`;
  if (el.dataset.index) return `${at} .card[data-index="${el.dataset.index}"]`;
  return el.classList.contains("label") ? `${at} .label` : at;
}

function redraw() {
  S.pendingRender = false;
  const v = view();
  const tbl = S.table;
  renderInfo();
  renderStatus();
  const seats = $("seats");
  seats.innerHTML = "";
  seats.append(seatsEl(v && tbl && tbl.status !== "lobby" ? shownView() : null, shownTable(), { me: S.seat, extra: seatExtras }));
  renderLobby();
  renderBoard();
  renderBuy();
  renderTimer();
  renderMe();
  renderHint();
  renderSide();
  $("spectator").hidden = !(tbl && S.seat === null);
}

function renderInfo() {
  const tbl = S.table;
  const v = view();
  const parts = [code];
  // The game of a match before the preset: a phone's header shows two lines of it.
  const match = tbl && tbl.match;
  if (match && match.games > 1) parts.push(t("match_game_of", { n: match.current, m: match.games }));
  if (tbl && tbl.preset) parts.push(tbl.preset);
  if (v && tbl && tbl.status !== "lobby") parts.push(t("round_of", { n: v.round, m: v.rounds }));
  if (!(match && match.games > 1) && tbl && tbl.game >= 1) parts.push(t("game_n", { n: tbl.game + 1 })); // a rematch
  $("info").textContent = parts.join(" · ");
}

function renderStatus() {
  const el = $("status");
  el.innerHTML = "";
  el.classList.remove("my-turn");
  el.hidden = false;
  const tbl = S.table;
  const v = view();
  if (!tbl) return;
  if (tbl.status === "broken") {
    // Its stored moves no longer replay (docs/protocol.md): the seats stay, a new game starts.
    el.append(h("span", "", t("game_broken")));
    if (mayHost()) {
      const start = h("button", "primary", t("start"));
      start.id = "start-again";
      start.addEventListener("click", () => hostCall("start"));
      el.append(start);
    }
    return;
  }
  if (tbl.status === "lobby" || !v) {
    // Whoever may start is not told to wait for someone to start.
    el.append(h("span", "", t(tbl.status === "lobby" && mayHost() ? "lobby_you_start" : "lobby_wait")));
    return;
  }
  if (v.phase === "over") {
    el.hidden = true; // the game's end box says it, with the scores
    return;
  } else if (myTurn()) {
    el.classList.add("my-turn");
    el.append(h("span", "", v.phase === "draw" ? t("your_turn_draw") : t("your_turn_play")));
  } else if (v.to_act !== null && v.to_act !== undefined) {
    el.append(h("span", "", t("waiting_for", { name: players()[v.to_act] })));
  }
  const c = h("span", "contract", `${t("contract")}: ${contractWords(v.contract)}` + (v.go_out_at_once ? ` · ${t("at_once")}` : ""));
  el.append(c);
}

/** Tell a screen reader what was just played and whose turn it is, in the polite live
 * region #announce: once for each state that changes it. (The status line is drawn anew at
 * every state and at every tap on a card: were it the live region, it would repeat itself.) */
function announce() {
  const v = view();
  const el = $("announce");
  if (!v || !S.table || S.table.status === "lobby") return;
  const names = players();
  const key = `${S.table.game}:${v.round}`;
  const start = v.log_start || 0;
  const log = v.log || [];
  const end = start + log.length;
  // A page just opened, or a new round (whose end the round's dialog told): the turn only.
  const from = S.said && S.said.key === key ? S.said.end : end;
  S.said = { key, end };
  const moves = log.slice(Math.max(0, from - start)).slice(-4).map((a) => (
    a.p === S.seat && a.draw === "mazo" && S.drawn ? t("you_drew", { card: cardName(S.drawn) })
      : describeAction(a, names, cardName)));
  const text = [...moves, turnWords(v)].filter(Boolean).join(". ");
  if (text && text !== el.textContent) el.textContent = text;
}

/** Whose turn it is and what they do now, or who won once the game is over. */
function turnWords(v) {
  if (v.phase === "over") return gameWinnerWords();
  if (myTurn()) return t(v.phase === "draw" ? "your_turn_draw" : "your_turn_play");
  if (v.to_act !== null && v.to_act !== undefined) return t("waiting_for", { name: players()[v.to_act] });
  return "";
}

/** The host, or any player while the host is away (the server allows the same). */
function mayHost() {
  const tbl = S.table;
  if (!tbl || S.seat === null) return false;
  const host = (tbl.seats || [])[tbl.host] || {};
  return tbl.host === S.seat || !host.connected;
}

function seatExtras(el, i, info) {
  const tbl = S.table;
  if (!tbl) return;
  const free = info.taken === undefined ? !info.name && !info.bot : !info.taken;
  const amHost = mayHost();
  const row = h("div", "seat-actions");
  if (tbl.status === "lobby" && free && S.seat === null) {
    const b = h("button", "primary", t("sit_here"));
    b.addEventListener("click", () => join(i));
    row.append(b);
  }
  const away = info.taken && !info.bot && !info.connected; // joined, then left
  if (tbl.status === "lobby" && amHost && i !== S.seat && i !== tbl.host
      && (free || info.bot || away)) {
    const sel = h("select");
    sel.setAttribute("aria-label", t("bot"));
    sel.append(new Option(t("human"), ""));
    for (const b of S.bots || []) sel.append(new Option(`${t("bot")}: ${localized(b.titles) || b.title || b.name}`, b.name));
    sel.value = info.bot || "";
    sel.addEventListener("change", () => setBot(i, sel.value || null));
    row.append(sel);
  }
  // A player who has left would stop the table: anyone seated may let a bot play for them
  // until they come back (coming back takes the seat back).
  if (tbl.status === "playing" && info.stand_in) {
    row.append(h("span", "tag", t("stand_in_tag")));
  } else if (tbl.status === "playing" && S.seat !== null && i !== S.seat && info.taken
             && !info.bot && !info.connected) {
    const b = h("button", "", t("stand_in"));
    b.dataset.standIn = i;
    b.addEventListener("click", () => standIn(i));
    row.append(b);
  }
  if (row.children.length) el.append(row);
}

function renderLobby() {
  const box = $("lobby");
  const tbl = S.table;
  box.innerHTML = "";
  box.hidden = !(tbl && tbl.status === "lobby");
  if (box.hidden) return;
  const inner = h("div", "lobby-box");
  const link = `${location.origin}/t/${code}`;
  const share = h("div", "row");
  const input = h("input");
  input.value = link;
  input.readOnly = true;
  input.setAttribute("aria-label", t("share_link"));
  const copy = h("button", "", t("copy"));
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(link); } catch (e) { input.select(); document.execCommand("copy"); }
    toast(t("copied"), "info", 1500);
  });
  share.append(input, copy);
  inner.append(h("p", "small", `${t("share_link")} · ${t("or_code")} `), share);
  inner.querySelector("p").append(h("strong", "code", code));
  if (S.seat === null) {
    const row = h("div", "row");
    const name = h("input");
    name.id = "join-name";
    name.placeholder = t("your_name");
    name.value = savedName();
    name.maxLength = 24;
    name.addEventListener("input", () => saveName(name.value.trim()));
    const b = h("button", "primary", t("sit_here"));
    b.id = "join";
    b.addEventListener("click", () => join(null));
    row.append(name, b);
    inner.append(row);
  }
  if (mayHost()) {
    const start = h("button", "primary big", t("start"));
    start.id = "start";
    start.addEventListener("click", () => hostCall("start"));
    inner.append(start);
  } else {
    inner.append(h("p", "", t("lobby_wait")));
  }
  box.append(inner);
}

function renderBoard() {
  const box = $("board");
  box.innerHTML = "";
  const v = view();
  if (!v || !S.table || S.table.status === "lobby") return;
  const piles = pilesEl(v);
  const drawing = myTurn() && v.phase === "draw";
  for (const p of piles.querySelectorAll(".pile")) {
    const src = p.dataset.pile;
    if (drawing && canDraw(src)) p.classList.add("clickable");
    p.addEventListener("click", () => {
      if (drawing) return draw(src);
      if (src === "pozo" && myTurn() && v.phase === "play") {
        if (Date.now() - (S.drewAt || 0) < DOUBLE_TAP_MS) return;
        const card = onlySelected();
        if (card) discard(card);
      }
    });
  }
  box.append(piles);
  const melds = meldsEl(shownView());
  const playing = myTurn() && v.phase === "play";
  if (playing && S.selected.size === 1) {
    const card = onlySelected();
    for (const m of melds.querySelectorAll(".meld")) {
      const idx = parseInt(m.dataset.meld, 10);
      const ok = legal().some((a) => (a.agregar && a.agregar.card === card && a.agregar.meld === idx) || (a.swap && a.swap.card === card && a.swap.meld === idx));
      if (ok || view().down[S.seat]) m.classList.add("target");
      const standsFor = shownView().melds[idx].stands_for;
      for (const w of m.querySelectorAll(".card.wild")) {
        if (!legal().some((a) => a.swap && a.swap.card === card && a.swap.meld === idx)) continue;
        if (!replaces(card, standsFor[parseInt(w.dataset.index, 10)])) continue;
        w.classList.add("swap-target");
        w.tabIndex = 0; // Enter swaps, as a click does
        w.setAttribute("role", "button");
        w.setAttribute("aria-label", t("swap_here", { card: w.getAttribute("aria-label") }));
      }
    }
  }
  if (playing) {
    for (const m of melds.querySelectorAll(".meld")) {
      // The meld stays a group: its label is the button that lays the selected card off
      // here (a tap anywhere on the meld does the same), beside the ends and the wild to
      // swap, which are buttons of their own and so must not sit inside another.
      const label = m.querySelector(".label");
      label.tabIndex = 0;
      label.setAttribute("role", "button");
      // The button's name says the cards, so they are not read out again one by one.
      const cards = [...m.querySelectorAll(".cards .card")];
      label.setAttribute("aria-label", `${label.textContent}: ${cards.map((c) => c.getAttribute("aria-label")).join(", ")}`);
      for (const c of cards) if (!c.classList.contains("swap-target")) c.setAttribute("aria-hidden", "true");
    }
  }
  melds.addEventListener("keydown", (ev) => {
    if ((ev.key !== "Enter" && ev.key !== " ") || ev.target.closest("button")) return;
    if (!ev.target.matches(".meld .label, .card.wild")) return;
    ev.preventDefault();
    ev.target.click();
  });
  melds.addEventListener("click", (ev) => {
    const m = ev.target.closest(".meld");
    if (!m || !(myTurn() && view().phase === "play")) return;
    const card = onlySelected();
    if (!card) { toast(t("select_one"), "info"); return; }
    const end = ev.target.closest(".end");
    const onWild = !!ev.target.closest(".card.wild.swap-target");
    place(card, parseInt(m.dataset.meld, 10), { end: end ? end.dataset.end : null, onWild, onEnd: !!end });
  });
  box.append(melds);
}

/** What the buy banner says, or null while it is hidden: the window, its card, whether this
 * seat may still buy or has claimed (and who draws first then), the price, the language. */
function buyOffer() {
  const v = view();
  const key = windowKey();
  // A claim waits for the player to draw (who has first claim), after the steal timer too.
  const claimed = !!(v && v.buy_window && S.claimed === key);
  const offer = !!(v && canBuy() && S.passed !== key && S.claimed !== key);
  if (!claimed && !offer) return null;
  const options = (S.table && S.table.options) || {};
  return {
    key, claimed, top: v.pozo[v.pozo.length - 1],
    first: claimed && v.to_act != null ? players()[v.to_act] : "",
    buying: options.buying ?? null, points: options.steal_points ?? 2, lang: getLang(),
  };
}

/** The buy banner is an assertive live region: it is built anew only when what it says
 * changes, or a screen reader would say the offer again at every state of the window (and
 * at every tap on a card). Its countdown ticks by itself in between. */
function renderBuy() {
  const box = $("buy");
  const offer = buyOffer();
  const said = offer && JSON.stringify(offer);
  box.hidden = !offer;
  if (said !== S.buySaid) {
    S.buySaid = said;
    box.innerHTML = "";
    if (offer) fillBuy(box, offer);
    // The last round's scores, read at leisure, must not hide an offer the steal timer
    // counts down: they stay in the score sheet.
    const dlg = $("reveal");
    if (offer && !offer.claimed && dlg.open && dlg.dataset.kind === "round") dlg.close();
  }
  buyCountdown(box);
}

function fillBuy(box, offer) {
  const { key, top } = offer;
  if (offer.claimed) {
    box.append(h("span", "", t("buy_claimed", { card: pretty(top), name: offer.first })));
    return;
  }
  box.append(cardEl(top, { small: true }));
  box.append(h("span", "", t("buy_offer", { card: pretty(top) })));
  if (offer.buying === "penalty_card") box.append(h("span", "small", t("buy_card_price")));
  if (offer.buying === "penalty_points") {
    const n = offer.points;
    box.append(h("span", "small", t(n === 1 ? "buy_points_price_1" : "buy_points_price", { n })));
  }
  const buy = h("button", "primary", t("buy"));
  buy.id = "buy-btn";
  buy.addEventListener("click", () => {
    const v = view();
    if (!act({ buy: true })) return;
    S.claimed = key;
    S.claim = { key, round: v.round, card: top, logLen: (v.log_start || 0) + (v.log || []).length };
    renderBuy();
  });
  const pass = h("button", "", t("pass"));
  pass.id = "pass-btn";
  pass.addEventListener("click", () => {
    S.pending = null; // a refused pass must not send the last move again
    if (send({ type: "pass", version: S.version })) { S.passed = key; renderBuy(); }
  });
  box.append(buy, pass);
}

/** The window's countdown, last in the banner: the same element from state to state (nothing
 * in the live region is replaced), its deadline the latest state's. */
function buyCountdown(box) {
  const m = S.msg;
  const deadline = !box.hidden && m && m.deadlines && m.deadlines.buy;
  let cd = box.querySelector("c-countdown");
  if (!deadline) { if (cd) cd.remove(); return; }
  if (!cd) {
    cd = document.createElement("c-countdown");
    box.append(cd);
  }
  if (cd.getAttribute("deadline") !== String(deadline)) cd.setAttribute("deadline", deadline);
  const total = S.table && S.table.steal_timer;
  if (total) cd.setAttribute("total", total); else cd.removeAttribute("total");
}

function renderTimer() {
  const box = $("timer");
  box.innerHTML = "";
  const m = S.msg;
  const deadline = m && m.deadlines && m.deadlines.turn;
  box.hidden = !deadline || !view() || view().phase === "over";
  if (box.hidden) return;
  const cd = document.createElement("c-countdown");
  cd.setAttribute("deadline", deadline);
  box.append(cd);
  if (myTurn()) box.append(h("span", "", t("timer_line"))); // what happens is about them only
}

function renderHint() {
  const box = $("hintbox");
  box.innerHTML = "";
  box.hidden = !S.hint;
  for (const el of document.querySelectorAll(".card.hinted")) el.classList.remove("hinted");
  if (!S.hint) return;
  const v = view();
  box.append(h("strong", "", t("hint_says") + ":"));
  if (S.hint.action && v) box.append(h("span", "", describeAction(S.hint.action, players())));
  // The coach names cards as the record does (9H); the page shows them as cards (9♥).
  if (S.hint.reason) box.append(h("span", "", "— " + S.hint.reason.replace(/\b(10|[2-9AJQK])([SHDC])\b/g, (c) => pretty(c))));
  const a = S.hint.action || {};
  const cards = a.discard ? [a.discard] : a.agregar ? [a.agregar.card] : a.swap ? [a.swap.card] : a.bajar ? a.bajar.flat() : [];
  const left = [...cards];
  for (const el of document.querySelectorAll("#hand .card")) {
    const i = left.indexOf(el.dataset.card);
    if (i >= 0) { el.classList.add("hinted"); left.splice(i, 1); }
  }
  if (a.draw) document.querySelector(`.pile.${a.draw}`)?.classList.add("hinted");
}

function renderMe() {
  const box = $("me");
  box.innerHTML = "";
  const v = view();
  box.hidden = !(v && v.hand && S.seat !== null && S.table && S.table.status !== "lobby" && v.phase !== "over");
  if (box.hidden) return;
  const playing = myTurn() && v.phase === "play";

  // The contract: what it asks, what is still owed, and ready-made ways to lay it.
  const cbox = h("div", "contract-box");
  if (v.down[S.seat]) {
    cbox.append(h("span", "", `✓ ${t("contract_done")}`));
  } else {
    const owed = (v.owed && v.owed[S.seat]) || [];
    const lack = owed.filter((x) => x).map(contractWords);
    const guess = lackingAfterGroups(owed.filter((x) => x));
    const text = `${t("still_lacks")}: ${(guess ?? lack).join(" " + t("or") + " ") || contractWords(v.contract)}`;
    cbox.append(h("span", "lacks", text));
    const options = legal().filter((a) => a.bajar);
    if (playing && options.length) {
      const sug = h("div", "suggest");
      sug.append(h("span", "small", t("suggestions") + ":"));
      for (const a of options.slice(0, 4)) {
        const b = h("button", "");
        b.dataset.bajar = JSON.stringify(a.bajar);
        b.innerHTML = "";
        a.bajar.forEach((meld, k) => {
          if (k) b.append(" / ");
          for (const c of meld) {
            const p = parseCard(c);
            b.append(h("span", p.joker ? "" : "s-" + p.suit, pretty(c)));
          }
        });
        b.title = t("use");
        b.setAttribute("aria-label", `${t("use")}: ` + a.bajar.map((m) => m.map(cardName).join(", ")).join("; "));
        b.addEventListener("click", () => useSuggestion(a.bajar));
        sug.append(b);
      }
      cbox.append(sug);
    }
  }
  box.append(cbox);

  // Staged groups for bajar.
  if (S.groups.length) {
    const gbox = h("div", "groups");
    S.groups.forEach((g) => {
      const el = h("div", "group");
      for (const id of g) el.append(cardEl(cardOf(id), { small: true }));
      el.append(h("span", "kind", guessKind(g.map(cardOf))));
      gbox.append(el);
    });
    const clear = h("button", "link", t("clear_groups"));
    clear.addEventListener("click", () => { S.groups = []; saveGroups(); render(); });
    gbox.append(clear);
    box.append(gbox);
  }

  // The hand.
  const hand = h("div", "hand");
  hand.id = "hand";
  hand.setAttribute("role", "group");
  hand.setAttribute("aria-label", t("your_hand"));
  hand.setAttribute("aria-describedby", "hand-keys");
  const inGroups = grouped();
  for (const item of S.hand) {
    const el = cardEl(item.card);
    el.dataset.id = item.id;
    el.tabIndex = 0;
    el.setAttribute("role", "button");
    el.setAttribute("aria-pressed", String(S.selected.has(item.id)));
    if (S.selected.has(item.id)) el.classList.add("selected");
    if (inGroups.has(item.id)) el.classList.add("grouped");
    if (item.fresh) el.classList.add("new");
    item.fresh = false; // the new card pops once
    el.addEventListener("pointerdown", onPointerDown);
    el.setAttribute("aria-keyshortcuts", "Alt+ArrowLeft Alt+ArrowRight");
    el.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); toggle(item.id); }
      // What a drag does: the player's own order (an escala laid as it stands in the hand).
      if (ev.altKey && (ev.key === "ArrowLeft" || ev.key === "ArrowRight")) {
        ev.preventDefault();
        moveCard(item.id, ev.key === "ArrowLeft" ? -1 : 1);
      }
    });
    hand.append(el);
  }
  const keys = h("p", "sr-only", t("hand_keys")); // what a screen reader is told of the hand
  keys.id = "hand-keys";
  box.append(hand, keys);

  // The buttons.
  const bar = h("div", "toolbar");
  const btn = (id, text, fn, enabled = true, cls = "") => {
    const b = h("button", cls, text);
    b.id = id;
    b.disabled = !enabled;
    b.addEventListener("click", fn);
    bar.append(b);
    return b;
  };
  const byRankBtn = btn("sort-rank", "A‑K ⇅", () => { sortHand("rank"); render(); });
  const bySuitBtn = btn("sort-suit", "♠♥♦♣ ⇅", () => { sortHand("suit"); render(); });
  for (const [b, key] of [[byRankBtn, "sort_rank"], [bySuitBtn, "sort_suit"]]) {
    b.title = t(key);
    b.setAttribute("aria-label", t(key));
  }
  const notDown = !v.down[S.seat];
  if (notDown) {
    btn("new-meld", t("new_meld"), newMeld, S.selected.size > 0);
    btn("bajarse", t("bajarse"), bajarse, playing && (S.groups.length > 0 || S.selected.size > 0), "primary");
  }
  btn("discard", t("discard"), () => discard(onlySelected()), playing && S.selected.size === 1);
  if (S.msg.can_undo) btn("undo", t("undo"), () => { S.pending = null; send({ type: "undo", version: S.version }); });
  // The coach also advises on a buy: buy the card, or let it pass and why.
  const buying = !!buyOffer() && !buyOffer().claimed;
  if (S.table && S.table.hints) btn("hint", t("hint"), () => send({ type: "hint" }), myTurn() || buying);
  box.append(bar);
  if (playing && notDown && !S.groups.length) box.append(h("p", "small", t("groups_hint")));
}

function useSuggestion(melds) {
  S.groups = [];
  S.selected.clear();
  const used = new Set();
  for (const meld of melds) {
    const g = [];
    for (const c of meld) {
      const item = S.hand.find((x) => x.card === c && !used.has(x.id));
      if (item) { used.add(item.id); g.push(item.id); }
    }
    S.groups.push(g);
  }
  saveGroups();
  render();
}

/** A guess at what a staged group is, to say what the contract still lacks (the server decides). */
function guessKind(cards) {
  const naturals = cards.map(parseCard).filter((c) => !c.joker);
  if (naturals.length && naturals.every((c) => c.rank === naturals[0].rank) && cards.length >= 3) return t("trio");
  return t("escala");
}

function lackingAfterGroups(owedList) {
  if (!S.groups.length || !owedList.length) return null;
  const kinds = S.groups.map((g) => (guessKind(g.map(cardOf)) === t("trio") ? "T" : "E"));
  return owedList.map((notation) => {
    const specs = [];
    for (const raw of notation.toUpperCase().split("+")) {
      const m = raw.match(/^(\d*)(T|ES|ER|EC|E)(\d*)$/);
      if (!m) continue;
      for (let i = 0; i < (m[1] ? parseInt(m[1], 10) : 1); i++) specs.push({ k: m[2], len: m[3] });
    }
    for (const k of kinds) {
      const i = specs.findIndex((s) => (k === "T" ? s.k === "T" : s.k !== "T"));
      if (i >= 0) specs.splice(i, 1);
    }
    if (!specs.length) return "✓";
    const counts = {};
    for (const s of specs) { const key = s.k + s.len; counts[key] = (counts[key] || 0) + 1; }
    const text = Object.entries(counts).map(([key, n]) => {
      const m = key.match(/^(T|ES|ER|EC|E)(\d*)$/);
      return `${n}${m[1]}${m[2]}`;
    }).join("+");
    return contractWords(text);
  });
}

function renderSide() {
  const v = view();
  const sheet = $("sheet");
  sheet.data = v ? { sheet: v.sheet, players: players() } : null;
  $("sheet-box").hidden = !v;
  $("log-box").hidden = !v;
  const log = $("log");
  log.innerHTML = "";
  if (v) log.append(logEl(shownView()));
  const fair = $("fair");
  fair.innerHTML = "";
  const f = S.msg && S.msg.fair;
  fair.hidden = !f;
  if (f) {
    fair.append(h("strong", "", t("fair_deck")));
    if (f.seed_hash) fair.append(h("div", "", `${t("seed_hash")} (${t("round_n", { n: f.round })}): ${f.seed_hash}`));
    if (f.revealed && f.revealed.length) fair.append(h("div", "", `${t("seeds_revealed")}: ` + f.revealed.map((r) => `${r.round}: ${r.seed}` + (r.salt ? ` (${t("salt")} ${r.salt})` : "")).join(", ")));
  }
  const over = $("over-box");
  over.innerHTML = "";
  const done = (S.table && S.table.status === "over") || (v && v.phase === "over");
  over.hidden = !done;
  if (done) {
    over.append(h("h3", "", t("game_over")));
    const won = gameWinnerWords();
    if (won) {
      const p = h("p", "over-line game-won", won);
      p.id = "game-winner";
      over.append(p);
    }
    const match = S.table && S.table.match;
    if (match) renderMatchEnd(over, match);
    const a = h("a", "button primary", t("download_record"));
    a.id = "download";
    a.href = `/api/tables/${code}/record`;
    a.download = `carioca-${code}.json`;
    over.append(a);
    if (mayHost()) {
      // While a match goes on the next game continues it; once decided, a new match.
      const goesOn = match && match.games > 1 && !match.winners;
      const r = h("button", "", t(goesOn ? "next_game" : "rematch"));
      r.id = "rematch";
      r.addEventListener("click", () => hostCall("rematch"));
      over.append(" ", r);
    }
  }
}

/** Who won the game that just ended, as the score sheet has it (the rules' tie_break:
 * several names on a shared win); "" before the end. */
function gameWinnerWords() {
  const v = view();
  const sheet = v && v.sheet;
  if (!sheet || !sheet.finished || !(sheet.winners || []).length) return "";
  const names = players();
  const words = nameList(sheet.winners.map((i) => names[i]));
  return t(sheet.winners.length > 1 ? "game_shared" : "game_winner", { names: words });
}

/** The games each seat has won at this table ("Ana 2 · Beto 1") and, once the match is
 *  decided, who won it. */
function renderMatchEnd(box, match) {
  const names = S.table.seats.map((s, i) => shownName(s.name, s) || `#${i + 1}`);
  const line = (id, text, cls = "match-line") => {
    const p = h("p", cls, text);
    p.id = id;
    box.append(p);
  };
  line("match-tally", t("match_tally", { tally: match.wins.map((w, i) => `${names[i]} ${w}`).join(" · ") }));
  if (match.winners && match.winners.length) {
    line("match-winner", t("match_winner", { names: match.winners.map((i) => names[i]).join(", ") }),
      "match-line match-won");
  }
}

// ------------------------------------------------------------------ the end of a round

/** The heading a screen reader names the dialog by. */
function dialogTitle(text) {
  const title = h("h2", "", text);
  title.id = "reveal-title";
  $("reveal").setAttribute("aria-labelledby", title.id);
  return title;
}

function maybeReveal() {
  const m = S.msg;
  if (!m || !m.round_end) return;
  // A card to buy has a steal timer; the scores wait until it is answered or gone.
  const offer = buyOffer();
  if (offer && !offer.claimed) return;
  const re = m.round_end;
  const key = `${S.table ? S.table.game : 0}:${re.round}`;
  if (S.revealShown.has(key)) return;
  S.revealShown.add(key);
  localStorage.setItem("carioca.seen." + code, JSON.stringify([...S.revealShown].slice(-40)));
  const players = m.view ? shownView().players : (S.table ? shownTable().seats.map((s) => s.name) : []);
  const dlg = $("reveal");
  dlg.innerHTML = "";
  dlg.dataset.kind = "round";
  dlg.append(dialogTitle(t("round_over", { n: re.round })));
  dlg.append(h("p", "", re.went_out === null || re.went_out === undefined ? t("nobody_out") : t("went_out", { name: players[re.went_out] })));
  (re.hands || []).forEach((hand, i) => {
    const row = h("div", "reveal-row" + (re.went_out === i ? " out" : ""));
    row.append(h("span", "name", players[i] || `#${i + 1}`));
    const cards = h("div", "cards");
    for (const c of hand) cards.append(cardEl(c, { small: true }));
    row.append(cards, h("span", "score", re.scores ? String(re.scores[i]) : ""));
    dlg.append(row);
  });
  const sheet = document.createElement("c-scoresheet");
  if (m.view) sheet.data = { sheet: m.view.sheet, players };
  dlg.append(sheet);
  const ok = h("button", "primary big", t("continue"));
  ok.id = "reveal-ok";
  ok.addEventListener("click", () => dlg.close());
  dlg.append(ok);
  if (!dlg.open) dlg.showModal();
  // showModal focuses the button at the bottom; on a phone the dialog opens at its top, so
  // that who went out is read first.
  ok.focus({ preventScroll: true });
  dlg.scrollTop = 0;
}

// ------------------------------------------------------------------ selecting and dragging cards

function toggle(id) {
  trace("toggle", cardOf(id), id);
  if (S.selected.has(id)) S.selected.delete(id); else S.selected.add(id);
  render();
}

function onPointerDown(ev) {
  if (ev.button !== undefined && ev.button !== 0) return;
  const el = ev.currentTarget;
  const id = parseInt(el.dataset.id, 10);
  S.drag = { id, el, x: ev.clientX, y: ev.clientY, started: false, ghost: null, target: null };
  el.setPointerCapture?.(ev.pointerId);
  el.addEventListener("pointermove", onPointerMove);
  el.addEventListener("pointerup", onPointerUp);
  el.addEventListener("pointercancel", onPointerCancel);
}

function onPointerMove(ev) {
  const d = S.drag;
  if (!d) return;
  if (!d.started) {
    if (Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < 8) return;
    d.started = true;
    d.ghost = d.el.cloneNode(true);
    d.ghost.classList.remove("selected");
    d.ghost.classList.add("ghost");
    document.body.append(d.ghost);
    d.el.classList.add("drag-source");
  }
  const r = d.el.getBoundingClientRect();
  d.ghost.style.left = ev.clientX - r.width / 2 + "px";
  d.ghost.style.top = ev.clientY - r.height / 2 + "px";
  for (const x of document.querySelectorAll(".drop-ok, .drop-before")) x.classList.remove("drop-ok", "drop-before");
  d.target = dropTarget(ev.clientX, ev.clientY);
  if (d.target) d.target.el.classList.add(d.target.kind === "hand" ? "drop-before" : "drop-ok");
}

function dropTarget(x, y) {
  const el = document.elementFromPoint(x, y);
  if (!el) return null;
  const handCard = el.closest("#hand .card");
  if (handCard) {
    const r = handCard.getBoundingClientRect();
    const after = x > r.left + r.width / 2;
    return { kind: "hand", el: handCard, id: parseInt(handCard.dataset.id, 10), after };
  }
  if (el.closest("#hand")) return { kind: "hand-end", el: el.closest("#hand") };
  const end = el.closest(".meld .end");
  const meld = el.closest(".meld");
  if (meld) {
    let endName = end ? end.dataset.end : null;
    if (!endName && meld.dataset.kind === "escala") {
      const r = meld.getBoundingClientRect();
      endName = x < r.left + r.width / 2 ? "low" : "high";
    }
    const wild = el.closest(".card.wild");
    return { kind: "meld", el: end || meld, index: parseInt(meld.dataset.meld, 10), end: endName, wild: !!wild, onEnd: !!end };
  }
  const pozo = el.closest(".pile.pozo");
  if (pozo) return { kind: "pozo", el: pozo };
  return null;
}

function endDrag() {
  const d = S.drag;
  if (d) {
    d.el.removeEventListener("pointermove", onPointerMove);
    d.el.removeEventListener("pointerup", onPointerUp);
    d.el.removeEventListener("pointercancel", onPointerCancel);
    if (d.ghost) d.ghost.remove();
    d.el.classList.remove("drag-source");
  }
  for (const x of document.querySelectorAll(".drop-ok, .drop-before")) x.classList.remove("drop-ok", "drop-before");
  S.drag = null;
}

function onPointerCancel() {
  endDrag();
  if (S.pendingRender) render();
}

function onPointerUp(ev) {
  const d = S.drag;
  if (!d) return;
  const target = d.started ? dropTarget(ev.clientX, ev.clientY) : null;
  const started = d.started;
  endDrag();
  if (!started) { toggle(d.id); return; }
  const card = cardOf(d.id);
  const v = view();
  const playing = myTurn() && v && v.phase === "play";
  if (target && (target.kind === "hand" || target.kind === "hand-end")) {
    const from = S.hand.findIndex((x) => x.id === d.id);
    const [item] = S.hand.splice(from, 1);
    if (target.kind === "hand" && target.id !== d.id) {
      let to = S.hand.findIndex((x) => x.id === target.id);
      if (target.after) to += 1;
      S.hand.splice(to, 0, item);
    } else if (target.kind === "hand" ) {
      S.hand.splice(from, 0, item);
    } else {
      S.hand.push(item);
    }
    reordered();
    return;
  }
  if (target && target.kind === "meld" && playing) {
    place(card, target.index, { end: target.end, onWild: target.wild, onEnd: target.onEnd });
    render();
    return;
  }
  if (target && target.kind === "pozo" && playing) { discard(card); render(); return; }
  render();
}

/** The player put the hand in an order of their own (a drag, or Alt+arrow). */
function reordered() {
  S.sort = "manual"; // for this hand only: the next deal is sorted as the player last chose
  saveOrder();
  // Groups follow the order of the hand.
  S.groups = S.groups.map((g) => S.hand.map((x) => x.id).filter((id) => g.includes(id)));
  saveGroups(); // which copy of a twin card is grouped may have changed places
  render();
}

/** Move card ``id`` one place left (-1) or right (+1) in the hand: the keyboard's drag. */
function moveCard(id, step) {
  const from = S.hand.findIndex((x) => x.id === id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= S.hand.length) return;
  trace("move", cardOf(id), step);
  const [item] = S.hand.splice(from, 1);
  S.hand.splice(to, 0, item);
  reordered();
}

// ------------------------------------------------------------------ seats, bots, start

async function join(seat) {
  const input = $("join-name");
  const name = (input && input.value.trim()) || savedName();
  if (!name) { toast(t("name_needed")); if (input) input.focus(); return; }
  saveName(name);
  const body = { name };
  if (seat !== null && seat !== undefined) body.seat = seat;
  try {
    const res = await api(`/api/tables/${code}/join`, { method: "POST", body });
    saveToken(code, res.token);
    S.token = res.token;
    reconnectNow();
  } catch (e) {
    // A seat someone just took is that seat only: the others may be free still.
    // (in the page's words: the server's English counts the seats from 0)
    if (e.code === "seat_taken") toast(t("err.seat_taken"));
    else toast(e.status === 409 ? t("seat_taken") : errorText(e.code, e.message));
  }
}

async function standIn(seat) {
  try {
    S.table = await api(`/api/tables/${code}/stand-in`, { method: "POST", body: { seat, bot: "chela" }, token: S.token });
    render();
  } catch (e) {
    toast(errorText(e.code, e.message));
  }
}

async function setBot(seat, bot) {
  try {
    S.table = await api(`/api/tables/${code}/bots`, { method: "POST", body: { seat, bot }, token: S.token });
    render();
  } catch (e) {
    toast(errorText(e.code, e.message));
  }
}

async function hostCall(what) {
  try {
    S.table = await api(`/api/tables/${code}/${what}`, { method: "POST", body: {}, token: S.token });
    if (what === "rematch") S.hand = [];
    render();
  } catch (e) {
    toast(errorText(e.code, e.message));
  }
}

// ------------------------------------------------------------------ start

onLangChange(() => {
  render();
  // The coach speaks the language of the hello: say hello again.
  if (S.ws) reconnectNow();
});

async function start() {
  // The bots' titles in this page's language come with the presets: asked at once, beside
  // the table, so that a bot's English title shows for as short a time as can be.
  const presets = api("/api/presets").catch(() => ({}));
  try {
    S.table = await api(`/api/tables/${code}`);
  } catch (e) {
    if (e.status === 404) { $("status").textContent = t("table_not_found", { code }); return; }
  }
  render();
  connect();
  S.bots = (await presets).bots || [];
  render();
}

start();

// For the browser tests and for people poking at the console.
window.carioca = { state: S, act, send, render, receive: onMessage };
