// A match (serie): the games started one after another with "Otra igual" (same players, same
// rules) are counted together. Each game keeps ``match: {id, bestOf}``: the games of one id
// are one series, in the order they were created. bestOf 1 is an open series (the games won
// are counted, nobody wins the series); best of 3 or 5 is won by the first player with more
// than half of the games, or, once all of them are played without that, by the most games won
// (shared if tied). A shared game counts for each of its winners.
//
// Players are matched across the games of a series by seat, as the store keeps them: a game
// is a list of names in seat order, "Otra igual" copies it, and renaming a player changes the
// name at that seat only, so a player renamed mid-series stays the same player. A game saved
// before series existed has no ``match``: it is the first game of a series of its own (its id
// is the game's id, or for an imported copy the id of the game it copies), so "Otra igual"
// from it joins it.
//
// The deal goes on round the table from one game to the next: the first round of the game
// "Otra igual" starts is dealt by the player after the one who dealt the first round of the
// game before. Each game keeps its own first dealer (``firstDealer``), so a game saved or
// exported before this rule still shows the dealers it was played with.

import { isFinished, result } from "./score.js";

export const BEST_OF = [1, 3, 5];

/** The series of a game: {id, bestOf} (a game from before series is a series of its own). */
export function matchOf(game) {
  const m = game && typeof game.match === "object" && game.match !== null ? game.match : {};
  return {
    id: typeof m.id === "string" && m.id ? m.id : String(game.source || game.id),
    bestOf: BEST_OF.includes(m.bestOf) ? m.bestOf : 1,
  };
}

/** A new series id. */
export function newMatchId(now = new Date()) {
  return `m-${now.getTime().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}

/** The same game kept twice (imported back onto the phone it came from, or twice) is one: an
 * imported copy keeps the id of the game it copies ("source") and when it was created. */
function gameKey(game) {
  return `${game.source || game.id}|${game.created}`;
}

/** The games of the series of ``game``, in the order they were played: the same series id and
 * the same number of players; a game kept twice counts once (the copy last changed). */
export function seriesGames(games, game) {
  const { id } = matchOf(game);
  const n = game.players.length;
  const byKey = new Map();
  for (const g of [...games, game]) {
    if (!g || matchOf(g).id !== id || !Array.isArray(g.players) || g.players.length !== n) continue;
    const key = gameKey(g);
    const kept = byKey.get(key);
    // The game shown wins over its stored copy (it is the same, or newer).
    if (g === game || !kept || (kept !== game && String(g.updated) > String(kept.updated))) byKey.set(key, g);
  }
  return [...byKey.values()].sort((a, b) => String(a.created).localeCompare(String(b.created))
    || String(a.id).localeCompare(String(b.id)));
}

/**
 * Where a series stands: after ``game`` (the tally the game's own screen shows), or after all
 * its games (``whole``: what "Otra igual" needs to know).
 * {id, bestOf, size (games in the series), number (the game's place, from 1), played (games
 * finished so far), wins (per seat), decided: null | {seats, number}}; ``number`` of decided
 * is the place of the game that decided it.
 */
export function standing(games, game, { whole = false } = {}) {
  const { id, bestOf } = matchOf(game);
  const list = seriesGames(games, game);
  const key = gameKey(game);
  const at = list.findIndex((g) => gameKey(g) === key);
  // The game's place among the games played: one left unfinished takes none.
  const number = list.slice(0, at).filter(isFinished).length + 1;
  const upto = whole ? list.length : at + 1;
  const wins = game.players.map(() => 0);
  let played = 0;
  let decided = null;
  for (let i = 0; i < upto; i += 1) {
    const g = list[i];
    if (!isFinished(g)) continue;
    // A decided series is over: a game played in it afterwards (started from an older game
    // of the series) counts for nothing.
    if (decided !== null) break;
    played += 1;
    for (const s of result(g).seats) wins[s] += 1;
    if (bestOf > 1 && decided === null) {
      const most = Math.max(...wins);
      if (most > bestOf / 2 || played >= bestOf) {
        decided = { seats: wins.map((w, s) => (w === most ? s : -1)).filter((s) => s >= 0), number: played };
      }
    }
  }
  return { id, bestOf, size: list.length, number, played, wins, decided };
}

/** Whether a game's screens show its series: a best of 3 or 5, or an open series of more than
 * one game (a game on its own shows nothing new). */
export function showsSeries(st) {
  return st.bestOf > 1 || st.size > 1;
}

/** Who deals the first round of the game "Otra igual" starts after ``game``: the next seat
 * after the one that dealt its first round (a game from before ``firstDealer`` dealt from 0). */
export function nextFirstDealer(game) {
  const first = Number.isInteger(game.firstDealer) ? game.firstDealer : 0;
  return (first + 1) % game.players.length;
}

/** The series of the game "Otra igual" starts from ``game``: the same one, or a new one with
 * the same setting once this one is decided. */
export function nextMatch(games, game) {
  const st = standing(games, game, { whole: true });
  return st.decided ? { id: newMatchId(), bestOf: st.bestOf } : { id: st.id, bestOf: st.bestOf };
}
