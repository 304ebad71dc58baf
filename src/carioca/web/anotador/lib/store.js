// Everything is kept on the device, in localStorage, and written at once on every tap: a
// reload, a closed browser or a dead battery lose nothing. One key per game (so a tap writes
// only the game in play), an index of the games, the id of the game in play, and the screen.
// Each tab also keeps the id of its own game (sessionStorage), so two tabs can keep two games,
// and a tab that sees another change its game reads it again before the next tap.

import { normalize, newGame, FORMAT } from "./score.js";

const PREFIX = "anotador.v1.";
const INDEX = PREFIX + "games";
const CURRENT = PREFIX + "current";
const UI = PREFIX + "ui";
const gameKey = (id) => PREFIX + "game." + id;

export class Store extends EventTarget {
  constructor(storage = globalThis.localStorage, session = globalThis.sessionStorage) {
    super();
    this.storage = storage;
    this.session = session;
    this.saveFailed = false;
    this.ui = { view: "round", seat: null, editing: null, setup: null, ...this._read(UI, {}) };
    this.game = null;
    const id = this._tabGame() ?? this._read(CURRENT, null);
    // A saved game this page cannot read (changed by hand, or by an old broken import) is
    // not opened, so that the page still starts; it stays saved.
    if (id) this.game = this._readable(this._read(gameKey(id), null));
    globalThis.addEventListener?.("storage", (event) => this._elsewhere(event));
  }

  /** The game this tab had open before a reload (null in a new tab). */
  _tabGame() {
    try { return this.session?.getItem(CURRENT) ?? null; } catch (_) { return null; }
  }

  /** The game in play, for this tab and for the next tab opened (null: none). */
  _setCurrent(id) {
    if (id === null) {
      try { this.storage.removeItem(CURRENT); } catch (_) { /* nothing to forget */ }
    } else this._write(CURRENT, id);
    try {
      if (id === null) this.session?.removeItem(CURRENT);
      else this.session?.setItem(CURRENT, id);
    } catch (_) { /* a tab without sessionStorage follows the shared key */ }
  }

  /** Another tab saved the game shown here: take its version, so that no round is lost. */
  _elsewhere(event) {
    if (!this.game || event.key !== gameKey(this.game.id)) return;
    if (event.newValue === null) {
      // Deleted in the other tab: this one lets it go too, rather than save it back.
      this.game = null;
      this._setCurrent(null);
      this._changed();
      return;
    }
    try {
      this.game = normalize(JSON.parse(event.newValue));
    } catch (_) {
      return;
    }
    this._changed();
  }

  _read(key, fallback) {
    try {
      const text = this.storage.getItem(key);
      return text === null ? fallback : JSON.parse(text);
    } catch (_) {
      return fallback;
    }
  }

  _write(key, value) {
    try {
      this.storage.setItem(key, JSON.stringify(value));
      this.saveFailed = false;
    } catch (_) {
      this.saveFailed = true;
    }
  }

  _changed() {
    this.dispatchEvent(new Event("change"));
  }

  ids() {
    const ids = this._read(INDEX, []);
    return Array.isArray(ids) ? ids : [];
  }

  /** Every game on the device, newest first. */
  games() {
    return this.ids()
      .map((id) => this._readable(this._read(gameKey(id), null)))
      .filter(Boolean)
      .sort((a, b) => String(b.updated).localeCompare(String(a.updated)));
  }

  /** A saved game as the page reads it, or null for one it cannot read (left saved, not
   * listed: one unreadable game must not take the whole list down with it). */
  _readable(game) {
    if (!game || typeof game !== "object") return null;
    try {
      return normalize(game);
    } catch (_) {
      return null;
    }
  }

  _saveGame(game) {
    game.updated = new Date().toISOString();
    this._write(gameKey(game.id), game);
    const ids = this.ids();
    if (!ids.includes(game.id)) {
      ids.push(game.id);
      this._write(INDEX, ids);
    }
  }

  /** Change the game in play; it is saved before anything is drawn. */
  mutate(fn) {
    if (!this.game) return;
    fn(this.game);
    normalize(this.game);
    this._saveGame(this.game);
    this._changed();
  }

  /** Change what is on screen (also kept, so a reload comes back to the same place). */
  setUi(patch) {
    Object.assign(this.ui, patch);
    this._write(UI, this.ui);
    this._changed();
  }

  /** Keep the screen state without redrawing (typing in a field). */
  saveUi() {
    this._write(UI, this.ui);
  }

  /** Start a game and make it the one in play. */
  start(setup) {
    const game = newGame(setup);
    this.adopt(game);
    return game;
  }

  adopt(game, view = "round") {
    normalize(game);
    this.game = game;
    this._saveGame(game);
    this._setCurrent(game.id);
    this.ui = { ...this.ui, view, seat: null, editing: null };
    this._write(UI, this.ui);
    this._changed();
  }

  open(id) {
    const game = this._readable(this._read(gameKey(id), null));
    if (game) this.adopt(game);
  }

  remove(id) {
    try { this.storage.removeItem(gameKey(id)); } catch (_) { /* nothing */ }
    this._write(INDEX, this.ids().filter((x) => x !== id));
    if (this.game && this.game.id === id) {
      this.game = null;
      this._setCurrent(null);
    }
    this._changed();
  }

  /** Leave the game in play (it stays in the history) and go to the setup. */
  leave(setup = null) {
    this.game = null;
    this._setCurrent(null);
    this.ui = { ...this.ui, view: "setup", seat: null, editing: null, setup };
    this._write(UI, this.ui);
    this._changed();
  }

  /** A copy of an imported game, under a new id. It keeps its series ("match"), and the id of
   * the game it copies ("source"), so that a game imported back onto the phone it came from
   * (or twice) counts once in its series. */
  importGame(game) {
    const copy = JSON.parse(JSON.stringify(game));
    copy.format = FORMAT;
    if (!copy.source && copy.id) copy.source = copy.id;
    copy.id = `g-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
    this.adopt(copy, "sheet");
    return copy;
  }
}
