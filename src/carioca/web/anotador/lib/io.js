// Export and import of a game: JSON keeps everything (players, rules, every card tapped, the
// series the game belongs to); CSV is one line per round for a spreadsheet, and reads back the
// players and the scores (a game read from a CSV is a series of its own). A JSON written before
// series existed has no "match": the game is then a series of its own (see match.js).

import {
  FORMAT, NAME_MOST, contractOf, dealerOf, emptyRound, instantOut, missingHands, normalize,
  plannedRounds, repeatedName, roundScores, totals,
} from "./score.js";
import { BEST_OF } from "./match.js";
import { hasOwn } from "./i18n.js";

const CSV_HEAD = ["round", "contract", "dealer", "out", "de_una"];

export function toJson(game) {
  return JSON.stringify({ ...game, format: FORMAT }, null, 1) + "\n";
}

function csvCell(value) {
  const text = String(value ?? "");
  // ";" too: the reader splits on it, as the spreadsheets of Spanish locales write it.
  return /[",;\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line per round (the rounds still to play too, with no scores), then the totals, then
 * the game's rules as JSON in one cell (a spreadsheet shows it as text; the import reads it,
 * so that a game read back breaks a tie and scores the rounds left as the table did). */
export function toCsv(game) {
  const lines = [[...CSV_HEAD, ...game.players]];
  for (let i = 0; i < plannedRounds(game); i += 1) {
    const round = game.rounds[i];
    const head = [i + 1, contractOf(game, i), game.players[dealerOf(game, i)]];
    if (!round || !round.closed) {
      lines.push([...head, "", "", ...game.players.map(() => "")]);
      continue;
    }
    // A hand a correction left to enter is an empty cell, not the 0 it counts for meanwhile.
    const missing = missingHands(game, round);
    lines.push([
      ...head,
      round.out === null || round.out === undefined ? "" : game.players[round.out],
      instantOut(game, round) ? 1 : 0,
      ...roundScores(game, round).map((v, s) => (missing.includes(s) ? "" : v)),
    ]);
  }
  lines.push(["total", "", "", "", "", ...totals(game).totals]);
  lines.push(["rules", JSON.stringify(game.rules)]);
  return lines.map((cells) => cells.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

export function fileName(game, ext) {
  const day = String(game.created || new Date().toISOString()).slice(0, 10);
  return `carioca-${day}-${game.players.join("-").replace(/[^\p{L}\p{N}-]+/gu, "")
    .slice(0, 40)}.${ext}`;
}

function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i += 1; }
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === "," || c === ";") { row.push(cell); cell = ""; }
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i += 1;
      row.push(cell); rows.push(row); row = []; cell = "";
    } else cell += c;
  }
  if (cell !== "" || row.length) { row.push(cell); rows.push(row); }
  return rows.filter((r) => r.some((c) => c.trim() !== ""));
}

// The page's name of a file's field, so that a refusal names what the person set on the page
// beside what the file calls it: «Valor de las cartas» (values).
const FIELD_WORDS = {
  values: "values", scoring: "scoring", tie_break: "tie_break", out_score: "out_score",
  instant_out_score: "de_una_opt", steal_points: "steals_opt", steals: "steals",
};

/** Why a file could not be imported, in the page's language (``t``: its translator). */
export function importError(err, t) {
  if (!err || !err.key) return t("io_unreadable");
  const values = { ...err.values };
  if (values.field !== undefined) {
    const label = FIELD_WORDS[values.field];
    values.field = label ? t("io_field", { label: t(label), field: values.field })
      : t("io_field_plain", { field: values.field });
  }
  return t(err.key, values);
}

/** Refuse a file: the error carries a key of the i18n table (``io_...``) and its values, so
 * the page says why in the player's language; its message is the English, for tests. */
function fail(key, values = {}) {
  const err = new Error(`${key} ${JSON.stringify(values)}`);
  err.key = key;
  err.values = values;
  throw err;
}

// Bounds wide enough for anything the page itself writes (a typed total plus cards tapped
// after it, up to 99 steals), narrow enough to refuse nonsense (1e300, text, negative steals).
const BOUNDS = {
  values: [0, 1000], out_score: [-1000, 1000], instant_out_score: [-1000, 1000],
  steal_points: [0, 1000], typed: [-1000, 100000], steals: [0, 99], extra_rounds_cap: [0, 10],
};
const CHOICES = { scoring: ["points", "rounds"], tie_break: ["share", "most_outs", "extra_round"] };

/** A whole number within the bounds of ``field``, or a refusal that names the field. */
function whole(value, field) {
  const [lo, hi] = BOUNDS[field];
  if (!Number.isInteger(value) || value < lo || value > hi) {
    fail("io_bad_value", { field, value: JSON.stringify(value), lo, hi });
  }
  return value;
}

// A contract in the engine's notation ("1T+2E", "2E3", "ES", alternatives joined by "|"):
// an imported game is drawn with these codes, so nothing else may stand in for one.
const MELD = String.raw`\d{0,2}(?:T|E\d{0,2}|ES|ER|EC)`;
const CONTRACT = new RegExp(`^${MELD}(?:\\+${MELD})*$`, "i");
const MOST_ROUNDS = 100; // as the engine: a game has at most 100 rounds

function isContract(code) {
  // "?": a sheet line whose contract cell was left empty (as a CSV may have it)
  return typeof code === "string" && code.length <= 60 && (code === "?"
    || code.split("|").every((one) => CONTRACT.test(one.replace(/\s/g, ""))));
}

/** The rules of an imported game: the defaults, with every field the file gives checked. */
function checkRules(given, defaults) {
  const rules = { ...defaults, ...given, values: { ...defaults.values } };
  for (const [key, v] of Object.entries(given.values ?? {})) {
    if (hasOwn(defaults.values, key)) rules.values[key] = whole(v, "values");
  }
  for (const field of ["out_score", "instant_out_score", "steal_points"]) {
    if (field in given) whole(given[field], field);
  }
  if (given.extra_rounds_cap !== undefined && given.extra_rounds_cap !== null) {
    whole(given.extra_rounds_cap, "extra_rounds_cap");
  }
  for (const [field, allowed] of Object.entries(CHOICES)) {
    if (!allowed.includes(rules[field])) {
      fail("io_bad_choice", { field, value: JSON.stringify(rules[field]), allowed: allowed.join(", ") });
    }
  }
  if (!given.rounds.every((c) => typeof c === "string" && c.trim())) fail("io_rules_no_rounds");
  if (given.rounds.length > MOST_ROUNDS) fail("io_too_many_rounds", { n: given.rounds.length, most: MOST_ROUNDS });
  const odd = given.rounds.find((c) => !isContract(c));
  if (odd !== undefined) fail("io_bad_contract", { value: JSON.stringify(odd.slice(0, 40)) });
  rules.at_once = given.rounds.map((_, i) => Boolean((given.at_once || [])[i]));
  for (const flag of ["de_una", "steals", "wild_two"]) rules[flag] = Boolean(rules[flag]);
  return rules;
}

/** The series of an imported game ({id, bestOf}), checked; undefined when the file has none
 * (a file from before series). */
function checkMatch(given) {
  if (given === undefined || given === null) return undefined;
  if (typeof given !== "object" || typeof given.id !== "string" || !given.id.trim() || given.id.length > 100) {
    fail("io_bad_match", { value: JSON.stringify(given) });
  }
  const bestOf = given.bestOf ?? 1;
  if (!BEST_OF.includes(bestOf)) {
    fail("io_bad_choice", { field: "match.bestOf", value: JSON.stringify(bestOf), allowed: BEST_OF.join(", ") });
  }
  return { id: given.id, bestOf };
}

/** The players of an imported game, checked as the setup checks them: 2 to 8, each named
 * (at most NAME_MOST characters, as the setup and the sheet take), no name twice. */
function checkPlayers(players) {
  if (!Array.isArray(players) || players.length < 2 || players.length > 8) fail("io_players");
  const names = players.map((p) => (typeof p === "string" ? p.trim() : ""));
  const bad = names.find((name) => !name || [...name].length > NAME_MOST);
  if (bad !== undefined) fail("io_bad_name", { name: bad, most: NAME_MOST });
  const twice = repeatedName(names);
  if (twice !== undefined) fail("io_same_name", { name: twice });
  return names;
}

function checkGame(doc, defaults) {
  if (!doc || typeof doc !== "object") fail("io_not_a_game");
  if (doc.format !== FORMAT) fail("io_format", { format: FORMAT });
  const players = checkPlayers(doc.players);
  if (!doc.rules || !Array.isArray(doc.rules.rounds) || !doc.rules.rounds.length) {
    fail("io_rules_no_rounds");
  }
  const n = players.length;
  const rules = checkRules(doc.rules, defaults);
  const played = Array.isArray(doc.rounds) ? doc.rounds : [];
  // the rounds of the rules and tie-break rounds at most (their cap is at most 10)
  if (played.length > rules.rounds.length + 10) {
    fail("io_too_many_rounds", { n: played.length, most: rules.rounds.length + 10 });
  }
  const rounds = played.map((given) => {
    const r = given && typeof given === "object" ? given : {};
    const round = emptyRound(n);
    round.closed = Boolean(r.closed);
    round.out = Number.isInteger(r.out) && r.out >= 0 && r.out < n ? r.out : null;
    round.deUna = Boolean(r.deUna);
    round.nobody = Boolean(r.nobody) && round.out === null;
    if (r.outScore !== undefined) round.outScore = whole(r.outScore, "typed");
    for (let s = 0; s < n; s += 1) {
      const h = (r.hands || [])[s] || {};
      round.hands[s] = {
        cards: Array.isArray(h.cards)
          ? h.cards.filter((k) => typeof k === "string" && hasOwn(rules.values, k)) : [],
        typed: h.typed === null || h.typed === undefined ? null : whole(h.typed, "typed"),
      };
      const stolen = (r.steals || [])[s];
      round.steals[s] = stolen === undefined ? 0 : whole(stolen, "steals");
    }
    return round;
  });
  const match = checkMatch(doc.match);
  const game = {
    format: FORMAT,
    id: String(doc.id || ""),
    created: String(doc.created || new Date().toISOString()),
    updated: new Date().toISOString(),
    players,
    firstDealer: Number.isInteger(doc.firstDealer) ? ((doc.firstDealer % n) + n) % n : 0,
    rules,
    rounds,
  };
  if (match) game.match = match;
  // The id of the game this one is a copy of, so that a series counts it once (match.js).
  if (typeof doc.source === "string" && doc.source && doc.source.length <= 100) game.source = doc.source;
  return normalize(game);
}

function fromCsv(text, defaults) {
  const rows = parseCsv(text.replace(/^\uFEFF/, ""));
  const head = rows.findIndex((r) => r[0].trim().toLowerCase() === "round");
  if (head < 0) fail("io_no_header");
  // The out column names the player who went out, so two players may not share a name. Only
  // empty cells at the end are no players (a spreadsheet pads its lines): one between two
  // names is a player with no name, refused, or every score after it would shift.
  const names = rows[head].slice(CSV_HEAD.length).map((p) => p.trim());
  while (names.length && !names[names.length - 1]) names.pop();
  const players = checkPlayers(names);
  const n = players.length;
  const all = rows.slice(head + 1).filter((r) => /^\d+$/.test(r[0].trim()));
  if (!all.length) fail("io_no_rounds");
  // the rounds of the rules and tie-break rounds at most, as a JSON file
  if (all.length > MOST_ROUNDS + 10) fail("io_too_many_rounds", { n: all.length, most: MOST_ROUNDS + 10 });
  const cellsOf = (r) => r.slice(CSV_HEAD.length, CSV_HEAD.length + n);
  const played = (r) => cellsOf(r).some((c) => String(c).trim() !== "");
  // the rounds scored, then the rounds still to play (only their contract is read)
  const body = all.filter(played);
  if (all.slice(0, body.length).some((r) => !played(r))) fail("io_gap");
  // An empty cell in a scored line is a hand not entered (as the sheet writes one), not 0.
  const scores = body.map((r) => cellsOf(r).map((c) => {
    const text = String(c ?? "").trim();
    if (text === "") return null;
    const v = Number(text);
    if (!Number.isFinite(v)) fail("io_not_number", { value: c });
    return whole(v, "typed");
  }));
  const outSeats = body.map((r) => {
    const name = (r[3] || "").trim();
    const seat = players.indexOf(name);
    return name === "" ? null : seat >= 0 ? seat : fail("io_not_player", { name });
  });
  // By rounds won when every line is one mark for the player who went out and 0 for the rest.
  const byRounds = scores.length > 0 && scores.every((line, i) => line.every((v, s) => v === (s === outSeats[i] ? 1 : 0)));
  // a hand-made sheet's contract is shown as written, cut short
  const contracts = all.map((r) => (r[1] || "").trim().slice(0, 60) || "?");
  const dealer = players.indexOf((all[0][2] || "").trim());
  // The rules line of an exported CSV; a sheet made by hand has none, and is read by points
  // or by rounds won from its numbers, its tie shared.
  const given = rows.find((r) => r[0].trim().toLowerCase() === "rules" && r[1]?.trim());
  const rules = given ? csvRules(given[1], contracts, defaults) : {
    ...defaults,
    preset: "csv",
    rounds: contracts,
    at_once: contracts.map(() => false),
    scoring: byRounds ? "rounds" : "points",
    steals: false,
  };
  const rounds = body.map((r, i) => {
    const round = emptyRound(n);
    round.closed = true;
    round.out = outSeats[i];
    round.nobody = round.out === null;
    round.deUna = (r[4] || "").trim() === "1";
    scores[i].forEach((v, s) => {
      if (s === round.out) { if (v !== null) round.outScore = v; } else round.hands[s].typed = v;
    });
    return round;
  });
  return normalize({
    format: FORMAT,
    id: "",
    created: new Date().toISOString(),
    updated: new Date().toISOString(),
    players,
    firstDealer: dealer >= 0 ? dealer : 0,
    rules,
    rounds,
  });
}

/** The rules line of a CSV, checked as a JSON file's rules; its rounds are the CSV's lines
 * (a spreadsheet may have changed those, and they are what the sheet shows). */
function csvRules(text, contracts, defaults) {
  let doc;
  try { doc = JSON.parse(text); } catch (e) { fail("io_bad_rules"); }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) fail("io_bad_rules");
  // The lines past the planned rounds that repeat the last contract are extra rounds (a tie
  // played off): the rules' own list stands, with its rounds gone out in one turn.
  const planned = Array.isArray(doc.rounds) ? doc.rounds : [];
  const last = planned[planned.length - 1];
  const same = planned.length > 0 && planned.length <= contracts.length
    && planned.every((c, i) => c === contracts[i])
    && contracts.slice(planned.length).every((c) => c === last);
  return checkRules(same ? doc : { ...doc, rounds: contracts, at_once: [] }, defaults);
}

/** A game from the text of an exported file (JSON or CSV); throws Error with a reason. */
export function parseGame(text, defaults) {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    let doc;
    try { doc = JSON.parse(trimmed); } catch (e) { fail("io_bad_json"); }
    return checkGame(doc, defaults);
  }
  return fromCsv(text, defaults);
}

/** Offer a file to save (a download, which phones keep in their files). */
export function download(name, text, type) {
  const blob = new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
