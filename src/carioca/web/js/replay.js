// The replay viewer: upload any record, step through it and see the table at each step.
import { ApiError, errorText, initPage, toast } from "./common.js";
import { contractWords, onLangChange, t } from "./i18n.js";
import { describeAction, logEl, meldsEl, pilesEl, seatsEl } from "./board.js";
import { cardName } from "./cards.js";
import "./sheet.js";

const $ = (id) => document.getElementById(id);
initPage();

const R = { text: null, doc: null, data: null, step: 0, views: new Map(), loading: 0 };

async function post(path, body) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(res.status, err.code || String(res.status), err.message || res.statusText);
  }
  return data;
}

async function load(text) {
  // A file that cannot be read replaces the game on screen: the page never shows one game
  // under another file's name.
  R.data = null;
  R.views = new Map(); // a view still on its way for the last file goes to the old map
  const ticket = ++R.loading;
  let doc;
  try { doc = JSON.parse(text); } catch (e) { refuse(t("not_a_record")); return; }
  R.text = text;
  R.doc = doc;
  let data;
  try {
    data = await post("/api/replay", text);
  } catch (e) {
    if (ticket === R.loading) refuse(errorText(e.code, e.message));
    return;
  }
  if (ticket !== R.loading) return; // another file was picked meanwhile
  R.data = data;
  const err = data.error;
  if (err) $("error").textContent = replayErrorText(err); // the words first: role=alert reads them as it shows
  $("error").hidden = !err;
  if (err && err.round == null) { nothingToStep(); return; }
  $("slider").max = String(data.steps.length);
  $("player").hidden = false;
  go(0);
}

function refuse(message) {
  // Said once, by the role=alert beside the file picker (a toast as well would say it twice).
  $("error").textContent = message;
  $("error").hidden = false;
  nothingToStep();
}

function nothingToStep() {
  R.data = null;
  $("player").hidden = true;
  $("sheet").data = null;
  $("log").innerHTML = "";
}

/** Where the record stops and why, in the player's words (see errorText). */
function replayErrorText(err) {
  const reason = errorText(err.code || "bad_record", err.message);
  if (err.round == null) return reason;
  return t("replay_error", { round: err.round, action: err.action ?? "–", message: reason });
}

async function viewAt(step) {
  const views = R.views;
  if (views.has(step)) return views.get(step);
  const s = R.data.steps[step - 1];
  let view;
  if (s && s.view) view = s.view; // the protocol's form: each step carries its view
  else if (step === 0 && R.data.steps[0] && R.data.steps[0].view_before) view = R.data.steps[0].view_before;
  else {
    const res = await post("/api/replay/view", JSON.stringify({ record: R.doc, step }));
    view = res.view;
  }
  views.set(step, view);
  return view;
}

async function go(step) {
  const n = R.data.steps.length;
  step = Math.max(0, Math.min(n, step));
  R.step = step;
  const ticket = ++R.loading;
  $("slider").value = String(step);
  $("where").textContent = t("step_of", { n: step, m: n });
  $("slider").setAttribute("aria-valuetext", $("where").textContent); // not a bare "3"
  const focused = document.activeElement;
  $("prev").disabled = step === 0;
  $("first").disabled = step === 0;
  $("next").disabled = step === n;
  $("last").disabled = step === n;
  if (focused && focused.disabled) $("slider").focus(); // the keyboard keeps a place to be
  let view;
  try {
    view = await viewAt(step);
  } catch (e) {
    toast(errorText(e.code, e.message));
    return;
  }
  if (ticket !== R.loading || !view) return;
  draw(view);
}

/** The step's move as the view's log has it, which names a card taken from the pozo or
 * bought ("Beto compra 7♥ del pozo"); the record's move does not. */
function withCard(move, view) {
  const log = view.log || [];
  const last = log[log.length - 1];
  const same = last && move && Object.keys(move).every((k) => JSON.stringify(last[k]) === JSON.stringify(move[k]));
  return same ? last : move;
}

function draw(view) {
  const s = R.data.steps[R.step - 1];
  const players = view.players;
  const move = withCard(s ? (s.move || s.action) : null, view);
  $("action").textContent = s ? `${t("round_n", { n: s.round })} · ${describeAction(move, players)}` : t("deal");
  $("contract").textContent = `${t("round_of", { n: view.round, m: view.rounds })} · ${t("contract")}: ${contractWords(view.contract)}`;
  const seats = $("seats");
  seats.innerHTML = "";
  seats.append(seatsEl(view, null, { me: null }));
  const board = $("board");
  board.innerHTML = "";
  board.append(pilesEl(view), meldsEl(view));
  $("log").innerHTML = "";
  $("log").append(logEl(view));
  $("sheet").data = { sheet: view.sheet, players }; // the sheet as it stood at this step
  board.dataset.step = String(R.step); // drawn: the step's view is on the screen
  // Cards by name ("5 de corazones"): a screen reader says "5♥" as "5 black heart suit".
  const said = s ? `${t("round_n", { n: s.round })} · ${describeAction(move, players, cardName)}` : t("deal");
  $("announce").textContent = `${$("where").textContent}. ${said}`;
}

$("file").addEventListener("change", async () => {
  const f = $("file").files[0];
  if (f) load(await f.text());
});
document.body.addEventListener("dragover", (ev) => ev.preventDefault());
document.body.addEventListener("drop", async (ev) => {
  ev.preventDefault();
  const f = ev.dataTransfer.files[0];
  if (f) load(await f.text());
});
$("prev").addEventListener("click", () => { if (R.data) go(R.step - 1); });
$("next").addEventListener("click", () => { if (R.data) go(R.step + 1); });
$("first").addEventListener("click", () => { if (R.data) go(0); });
$("last").addEventListener("click", () => { if (R.data) go(R.data.steps.length); });
$("slider").addEventListener("input", () => { if (R.data) go(parseInt($("slider").value, 10)); });
document.addEventListener("keydown", (ev) => {
  // The slider steps by its own arrow keys (a second step here would skip one); a select's
  // arrows choose in it.
  if (!R.data || ["INPUT", "SELECT"].includes(ev.target.tagName)) return;
  if (ev.key === "ArrowRight") go(R.step + 1);
  if (ev.key === "ArrowLeft") go(R.step - 1);
});
onLangChange(() => { if (R.data) go(R.step); });
