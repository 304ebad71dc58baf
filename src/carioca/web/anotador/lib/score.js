// The arithmetic of the sheet: round scores, running totals, who deals, when the game is over
// and who won. It follows the engine (carioca/engine.py, rulings 22-24 of docs/rulings.md):
// the player who went out scores out_score (instant_out_score when "de una" counts: chosen, or
// in a round gone out in one turn), everyone
// else the value of every card left in hand, steal points on top; by rounds, a mark for going
// out. The lowest total wins (the most marks by rounds); a tie is shared, broken by most
// times out and then by the latest round won, or settled by extra rounds with the last contract.

export const FORMAT = "carioca-anotador/1";

/** An empty round for n players. */
export function emptyRound(n) {
  return {
    out: null,
    deUna: false,
    hands: Array.from({ length: n }, () => ({ cards: [], typed: null })),
    steals: Array(n).fill(0),
    closed: false,
  };
}

/** Points of the cards tapped for one hand (or the total typed instead). */
export function handValue(rules, hand) {
  if (!hand) return 0;
  if (hand.typed !== null && hand.typed !== undefined) return hand.typed;
  let sum = 0;
  for (const key of hand.cards) sum += rules.values[key] ?? 0;
  return sum;
}

/** The longest name a player may have, in characters: what the setup and the sheet take. */
export const NAME_MOST = 16;

/** A name given to two players (undefined if none): the sheet, the totals and a CSV name the
 * players, so two of one name could not be told apart. */
export function repeatedName(names) {
  return names.find((name, i) => names.indexOf(name) !== i);
}

/** Whether a hand still has to be entered: nothing tapped and no total typed. */
export function handMissing(hand) {
  return !hand || ((hand.typed === null || hand.typed === undefined) && hand.cards.length === 0);
}

/** The seats whose hands a points round still needs before it can be scored: everyone but
 * the player who went out (a player who did not go out holds at least one card). */
export function missingHands(game, round) {
  if (game.rules.scoring !== "points") return [];
  return game.players.map((_, s) => s)
    .filter((s) => s !== round.out && handMissing(round.hands[s]));
}

/** Whether round index i is one that must be gone out in one turn (extra rounds repeat the
 * last contract). */
export function atOnce(game, i) {
  const list = game.rules.at_once || [];
  return Boolean(list[Math.min(i, game.rules.rounds.length - 1)]);
}

/** Whether the out of this round scores as "de una": chosen at the table, or any out of a
 * round gone out in one turn, which is always laid down and gone out in one play (ruling 15). */
export function instantOut(game, round) {
  if (!game.rules.de_una || round.out === null || round.out === undefined) return false;
  if (round.deUna) return true;
  const i = game.rounds.indexOf(round);
  return i >= 0 && atOnce(game, i);
}

/** Every seat's score for one round (complete or not). A round where nobody went out
 * (``nobody``: the cards ran out) scores every hand. */
export function roundScores(game, round) {
  const rules = game.rules;
  return game.players.map((_, seat) => {
    if (rules.scoring === "rounds") return round.out === seat ? 1 : 0;
    let score;
    if (round.out === seat) {
      if (typeof round.outScore === "number") score = round.outScore;
      else score = instantOut(game, round) ? rules.instant_out_score : rules.out_score;
    } else {
      score = handValue(rules, round.hands[seat]);
    }
    if (rules.steals) score += rules.steal_points * (round.steals[seat] || 0);
    return score;
  });
}

/** The rounds scored so far (closed), in order. */
export function closedRounds(game) {
  return game.rounds.filter((r) => r.closed);
}

/** Totals after every closed round: {totals, running: [[after round 1], ...]}. */
export function totals(game) {
  const sums = game.players.map(() => 0);
  const running = [];
  for (const round of closedRounds(game)) {
    roundScores(game, round).forEach((s, i) => { sums[i] += s; });
    running.push(sums.slice());
  }
  return { totals: sums, running };
}

/** Seats with the best total: the lowest by points, the most marks by rounds. */
export function leaders(game, sums) {
  const best = game.rules.scoring === "rounds" ? Math.max(...sums) : Math.min(...sums);
  return sums.map((t, i) => (t === best ? i : -1)).filter((i) => i >= 0);
}

/** How many times each seat went out, over the closed rounds. */
export function outs(game) {
  const counts = game.players.map(() => 0);
  for (const r of closedRounds(game)) if (r.out !== null && r.out !== undefined) counts[r.out] += 1;
  return counts;
}

/** The contract of round index i (0-based); extra rounds repeat the last one. */
export function contractOf(game, i) {
  const list = game.rules.rounds;
  return i < list.length ? list[i] : list[list.length - 1];
}

/** Who deals round index i: the first dealer, then the next seat every round. */
export function dealerOf(game, i) {
  return ((game.firstDealer || 0) + i) % game.players.length;
}

/** Whether the tie after all the planned rounds calls for another round. */
export function needsExtraRound(game) {
  // A hand left to enter counts 0 meanwhile: a tie it makes is no tie yet.
  if (incompleteIndex(game) !== null) return false;
  const rules = game.rules;
  const played = closedRounds(game).length;
  if (played < rules.rounds.length) return false;
  if (rules.tie_break !== "extra_round") return false;
  if (played - rules.rounds.length >= (rules.extra_rounds_cap ?? 3)) return false;
  return leaders(game, totals(game).totals).length > 1;
}

/** Rounds the game has now: the planned ones plus extra rounds played or called for. */
export function plannedRounds(game) {
  const played = closedRounds(game).length;
  return Math.max(game.rules.rounds.length, played + (needsExtraRound(game) ? 1 : 0));
}

/** Whether a round says all it must: how it ended (someone went out, or nobody did) and, by
 * points, every hand. A correction can take that away from a scored round (a new player
 * out leaves the old one's hand to enter). */
export function roundComplete(game, round) {
  const decided = (round.out !== null && round.out !== undefined) || Boolean(round.nobody);
  return decided && missingHands(game, round).length === 0;
}

/** The first scored round a correction left incomplete (null if none): the game cannot end
 * while one is, since its empty hand would count 0, the best score there is. */
export function incompleteIndex(game) {
  const i = game.rounds.findIndex((r) => r.closed && !roundComplete(game, r));
  return i < 0 ? null : i;
}

export function isFinished(game) {
  const played = closedRounds(game).length;
  return played >= game.rules.rounds.length && !needsExtraRound(game)
    && game.rounds.every((r) => r.closed) && incompleteIndex(game) === null;
}

/** Keep exactly one open round at the end while the game goes on, none once it is over. */
export function normalize(game) {
  const n = game.players.length;
  // closed rounds first, in order, then at most one open round
  const open = game.rounds.filter((r) => !r.closed);
  const closed = game.rounds.filter((r) => r.closed);
  game.rounds = closed;
  const more = closed.length < game.rules.rounds.length || needsExtraRound(game);
  // While a correction leaves a hand to enter, an extra round under way is kept as it is.
  const kept = open[0] && incompleteIndex(game) !== null;
  if (more || kept) game.rounds.push(open[0] || emptyRound(n));
  return game;
}

/** Index of the round being entered (null once the game is over). */
export function currentIndex(game) {
  const i = game.rounds.findIndex((r) => !r.closed);
  return i < 0 ? null : i;
}

/**
 * The winners and why: {seats, tied, reason, total, outs, round}.
 * reason: "single" | "share" | "most_outs" | "last_win" | "still_tied" | "extra_cap".
 */
export function result(game) {
  const { totals: sums } = totals(game);
  const tied = leaders(game, sums);
  const total = sums[tied[0]];
  const out = { seats: tied, tied, reason: "single", total, outs: null, round: null };
  if (tied.length === 1) return out;
  const rules = game.rules;
  if (rules.tie_break === "most_outs") {
    const counts = outs(game);
    const most = Math.max(...tied.map((s) => counts[s]));
    let seats = tied.filter((s) => counts[s] === most);
    out.outs = most;
    if (seats.length === 1) return { ...out, seats, reason: "most_outs" };
    const rounds = closedRounds(game);
    for (let i = rounds.length - 1; i >= 0; i -= 1) {
      if (seats.includes(rounds[i].out)) {
        return { ...out, seats: [rounds[i].out], reason: "last_win", round: i + 1 };
      }
    }
    return { ...out, seats, reason: "still_tied" };
  }
  if (rules.tie_break === "extra_round") return { ...out, reason: "extra_cap" };
  return { ...out, reason: "share" };
}

/** A new game from the setup: players, rules, first dealer, and its series ({id, bestOf}: see
 * match.js; a game with no series id given starts a series of its own). */
export function newGame({ players, rules, firstDealer = 0, match = {}, now = new Date() }) {
  const stamp = () => `${now.getTime().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
  const game = {
    format: FORMAT,
    id: `g-${stamp()}`,
    created: now.toISOString(),
    updated: now.toISOString(),
    players: players.slice(),
    firstDealer,
    rules: JSON.parse(JSON.stringify(rules)),
    match: { id: match.id || `m-${stamp()}`, bestOf: [3, 5].includes(match.bestOf) ? match.bestOf : 1 },
    rounds: [],
  };
  return normalize(game);
}

/** Rules of the anotador from a preset of presets.json. */
export function rulesFromPreset(preset) {
  return {
    preset: preset.name,
    rounds: preset.rounds.map((r) => r.contract),
    at_once: preset.rounds.map((r) => r.go_out_at_once),
    values: { ...preset.values },
    wild_two: preset.wild_two,
    scoring: preset.scoring,
    tie_break: preset.tie_break,
    extra_rounds_cap: preset.extra_rounds_cap,
    out_score: preset.out_score,
    de_una: preset.instant_out_score !== preset.out_score,
    instant_out_score: preset.instant_out_score !== preset.out_score ? preset.instant_out_score : -10,
    steals: preset.steals,
    steal_points: preset.steal_points,
  };
}

/** Whether two settings are the same (objects and lists by their contents, in any order). */
function sameSetting(a, b) {
  if (a && b && typeof a === "object" && typeof b === "object") {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameSetting(a[k], b[k]));
  }
  return a === b;
}

/** The settings in which a game's rules differ from the preset's own (none: the table plays
 * the preset as it is), so that its rules in words can say that the sheet follows the table.
 * A number that counts for nothing (the de una score without de una, the points of a steal
 * without steals) is no change; rules of another preset (a game read from a CSV) are. */
export function changedRules(rules, preset) {
  const base = rulesFromPreset(preset);
  const idle = { instant_out_score: !rules.de_una, steal_points: !rules.steals };
  const changed = Object.keys(base)
    .filter((k) => k !== "preset" && !idle[k] && !sameSetting(rules[k], base[k]));
  return rules.preset === preset.name ? changed : ["preset", ...changed];
}
