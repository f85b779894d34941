// The play table in the browser: draws whatever view the server sends, for any game, and sends
// back only which option was taken. Everything shown comes from the view JSON, always as text
// (textContent), never as markup: a rule file's words cannot become HTML here.
"use strict";

const WORDS = {
  en: {you: "You are", designer: "Designer (sees everything)", options: "Your options", counters: "Counters",
       log: "What happened", undo: "Undo", lang: "JA", yourTurn: "Your turn", waitingFor: "Waiting for",
       ended: "The game has ended", hidden: "face down", empty: "empty", step: "Step", of: "of",
       designerView: "Designer's view", seatView: "view", noOptions: "Nothing to choose right now.",
       connecting: "connecting…", lost: "connection lost: rejoining…", refused: "Refused",
       gone: "This link no longer opens a seat", notSent: "not connected: nothing was sent, rejoining…",
       narration: "Narration", lobby: "Games on this table", start: "Start another game", open: "open",
       plays: "plays itself", pickOne: "Several options use this: pick one", cards: "pieces",
       deadEnd: "Dead end", note: "Note", choosing: "choosing", human: "person", bot: "bot:",
       happened: "What just happened", carryOn: "Continue", lookingStill: "Still looking:", out: "out",
       chosen: "has chosen (face down)", yourChoice: "your choice, face down:", results: "Result",
       place: "place", choices: "choices made", steps: "steps in all", replay: "Step through the replay",
       payoff: "score"},
  ja: {you: "あなたは", designer: "デザイナー(すべて見える)", options: "選べること", counters: "カウンター",
       log: "これまでの出来事", undo: "取り消す", lang: "EN", yourTurn: "あなたの番です", waitingFor: "待っている人:",
       ended: "ゲーム終了", hidden: "裏向き", empty: "空", step: "手順", of: "/",
       designerView: "デザイナーの視点", seatView: "の視点", noOptions: "今は選ぶことがありません。",
       connecting: "接続中…", lost: "接続が切れました。再接続しています…", refused: "受け付けられません",
       gone: "このリンクではもう席につけません", notSent: "接続していないため送られていません。再接続しています…",
       narration: "実況", lobby: "このテーブルのゲーム", start: "もう1ゲーム始める", open: "開く",
       plays: "自動でプレイ", pickOne: "これを使う選択肢が複数あります。1つ選んでください", cards: "個",
       deadEnd: "行き詰まり", note: "メモ", choosing: "選択中", human: "人", bot: "ボット:",
       happened: "いま起きたこと", carryOn: "続ける", lookingStill: "まだ見ている人:", out: "脱落",
       chosen: "選択済み(伏せ札)", yourChoice: "あなたの伏せた選択:", results: "結果",
       place: "位", choices: "選択の数", steps: "全手数", replay: "リプレイを1手ずつ見る",
       payoff: "得点"},
};

const $ = (id) => document.getElementById(id);
const mode = location.pathname.split("/")[1];          // table | replay | lobby
const room = location.pathname.split("/")[2] || "";
const token = decodeURIComponent(location.hash.slice(1));
// the page's language: the one last chosen here, else the one the server was started with
let lang = localStorage.getItem("playtest-lang") || "en";
const chosen = !!localStorage.getItem("playtest-lang");
let socket = null, last = null, retry = 500, picking = null, arrived = Promise.resolve();
let stopped = false;                // the server said this link opens no seat: no more retries
let diceFamilies = new Set();       // zone families (hand(1), hand(2)...) whose visible pieces are dice

function t(key) { return WORDS[lang][key]; }

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function colour(c) { return typeof c === "string" && /^#[0-9a-fA-F]{3,8}$/.test(c) ? c : null; }

// ------------------------------------------------------------------ the connection
function connect() {
  if (stopped) return;
  setState("connecting", t("connecting"));
  socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + room);
  socket.onopen = () => { send(chosen ? {type: "join", token: token, lang: lang} : {type: "join", token: token}); };
  socket.onmessage = (e) => { arrived = arrived.then(() => receive(JSON.parse(e.data))); };
  socket.onclose = () => {
    if (stopped) return;
    setState("lost", t("lost"));
    setTimeout(connect, retry);           // a dropped connection rejoins the same seat with the same token
    retry = Math.min(retry * 2, 5000);
  };
}

// while not joined, nothing can be chosen: a click would go nowhere
function setState(state, banner) {
  document.body.dataset.state = state;
  $("link").title = banner || "";
  $("banner").textContent = banner || "";
  $("banner").hidden = !banner;
  $("banner").classList.toggle("final", state === "gone");
  const on = state === "live";
  document.querySelectorAll("button, input, select").forEach((b) => { b.disabled = !on; });
}

function live() { return document.body.dataset.state === "live"; }

function controls() {
  if (!live()) document.querySelectorAll("button, input, select").forEach((b) => { b.disabled = true; });
}

function send(msg) {
  // the join goes out as soon as the socket opens; anything else only on a live, joined page
  if (socket && socket.readyState === 1 && (msg.type === "join" || live())) {
    socket.send(JSON.stringify(msg));
    return true;
  }
  toast(t("notSent"));
  return false;
}

// Japanese text drawn before its font has loaded keeps empty boxes in chromium even after the
// font arrives, so nothing Japanese is drawn until the font is there (the machine's own, or the
// one the table serves)
function fontFor(l) {
  return l === "ja" ? document.fonts.load("16px 'Table JP'", "日本語あア").catch(() => null) : Promise.resolve();
}

async function receive(msg) {
  if (msg.type === "refused") {
    if (msg.final) {            // a wrong or forgotten link: retrying would never help
      stopped = true;
      setState("gone", t("gone") + ": " + msg.reason);
      return;
    }
    toast(t("refused") + ": " + msg.reason);
    if (last && document.body.dataset.state === "live") render();     // the options it disabled while waiting come back
    return;
  }
  if (msg.type !== "view") return;
  await fontFor(msg.lang);
  retry = 500;
  last = msg;
  setState("live", "");
  lang = msg.lang || lang;
  picking = null;
  document.body.dataset.picking = "no";
  render();
  if (typeof drawRuling === "function") drawRuling(msg);     // ruling.js: a dead end the table rules on
  if (typeof drawNotes === "function") drawNotes(msg);       // notes.js: notes and the questionnaire
}

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
}

// ------------------------------------------------------------------ drawing
function render() {
  const msg = last, v = msg.view;
  marks = v.marks || [];
  document.documentElement.lang = lang;
  document.title = v.game;
  document.body.dataset.version = msg.version === undefined ? "" : msg.version;
  document.body.dataset.ended = v.ended ? "yes" : "no";
  document.body.dataset.mode = msg.mode;
  $("game").textContent = v.game;
  $("who").textContent = msg.mode === "replay" ? "" : (msg.role === "designer" ? t("designer") : t("you") + " " + v.you);
  $("lang").textContent = t("lang");
  $("undo").textContent = t("undo");
  $("undo").hidden = !(msg.mode === "table" && msg.role === "designer");
  $("options-panel").hidden = msg.mode === "table" && msg.role === "designer";     // the designer watches
  $("options-title").textContent = msg.mode === "replay" ? t("narration") : t("options");
  $("log-title").textContent = t("log");
  const choosable = choosableOf(v.options || []);
  drawZones(v, msg, choosable);
  drawTurn(v, msg);
  if (msg.mode === "replay") drawReplay(msg); else drawOptions(v.options || []);
  drawCounters(v.counters || []);
  drawFaceDown(v.face_down || []);
  drawMoment(v, msg);
  drawFinal(v, msg);
  $("log-panel").hidden = msg.mode === "replay";
  if (msg.mode !== "replay") drawLog(v.log || []);
  controls();
}

function choosableOf(options) {
  const pieces = new Map(), spaces = new Map();
  for (const o of options) {
    for (const p of o.pieces || []) { if (!pieces.has(p)) pieces.set(p, []); pieces.get(p).push(o); }
    for (const s of o.spaces || []) { if (!spaces.has(s)) spaces.set(s, []); spaces.get(s).push(o); }
  }
  return {pieces, spaces};
}

function seatName(i) { return "P" + (i + 1); }

// each seat's colour and shape (for those who cannot tell the colours apart), from the view
let marks = [];
function markOf(i) { return marks[i] || null; }
function seatBadge(i) {
  const m = markOf(i), b = el("span", "seat-mark", m ? m.shape : "");
  if (m && colour(m.colour)) b.style.color = m.colour;
  return b;
}

function drawZones(v, msg, choosable) {
  const others = $("others"), mine = $("mine"), shared = $("shared");
  others.replaceChildren(); mine.replaceChildren(); shared.replaceChildren();
  const seatBoxes = [];
  const me = msg.role === "seat" ? v.seat : null;
  const actors = new Set((v.turn && v.turn.actors) || []);
  for (let i = 0; i < v.players; i++) {
    const box = el("div", "seat");
    box.dataset.seat = i;
    if (actors.has(i)) box.classList.add("acting");
    if (i === me) box.classList.add("me");
    const out = v.alive && v.alive[i] === false;
    if (out) box.classList.add("out");
    const m = markOf(i);
    if (m && colour(m.colour)) box.style.setProperty("--seat", m.colour);
    const head = el("div", "seat-head");
    head.append(seatBadge(i), el("span", "seat-name", seatName(i)));
    if (out) head.append(el("span", "seat-out", t("out")));
    const kind = (msg.seats || [])[i];
    if (kind) head.append(el("span", "seat-kind", kind === "human" ? t("human") : t("bot") + " " + kind));
    if (actors.has(i)) head.append(el("span", "seat-acting", t("choosing")));
    box.append(head, el("div", "seat-values"), el("div", "seat-zones"));
    seatBoxes.push(box);
    (i === me ? mine : others).append(box);
  }
  const teams = new Map();
  const teamBox = (k) => {
    // a team's own zones together, as a seat's are (the view does not say who is in which team)
    if (!teams.has(k)) {
      const box = el("div", "seat team");
      const head = el("div", "seat-head");
      head.append(el("span", "seat-name", "T" + (k + 1)));
      box.append(head, el("div", "seat-zones"));
      teams.set(k, box);
      $("teams").append(box);
    }
    return teams.get(k);
  };
  $("teams").replaceChildren();
  const grids = new Map();
  diceFamilies = new Set();
  const family = (z) => z.name.split("(")[0];
  for (const z of v.zones) if ((z.pieces || []).some(isDie)) diceFamilies.add(family(z));
  for (const z of v.zones) {
    if (z.grid) {
      const key = z.name.split("(")[0] + ":" + z.grid.rows + "x" + z.grid.cols;
      if (!grids.has(key)) grids.set(key, {rows: z.grid.rows, cols: z.grid.cols, cells: []});
      grids.get(key).cells.push(z);
      continue;
    }
    const area = drawZone(z, choosable, diceFamilies.has(family(z)));
    if (z.owner !== null && z.owner !== undefined && seatBoxes[z.owner]) seatBoxes[z.owner].lastChild.append(area);
    else if (z.team !== null && z.team !== undefined) teamBox(z.team).lastChild.append(area);
    else shared.append(area);
  }
  for (const g of grids.values()) shared.prepend(drawGrid(g, choosable));
}

function drawZone(z, choosable, dice) {
  const area = el("div", "zone kind-" + (z.kind || "pile"));
  area.dataset.zone = z.name;
  const label = el("div", "zone-title");
  label.append(el("span", "", z.title || z.name), el("span", "count", z.count));
  area.append(label);
  markSpace(area, z.name, choosable);
  const row = el("div", "pieces");
  const pieces = z.pieces || [];
  if (pieces.length === 0) row.append(el("span", "empty", t("empty")));
  else if (z.kind === "pile") row.append(drawPile(pieces, choosable));
  else pieces.forEach((p, k) => {
    const e = drawPiece(p, choosable, dice);
    if (z.kind === "hand" && pieces.length > 1) {
      const mid = (pieces.length - 1) / 2, tilt = Math.max(-18, Math.min(18, (k - mid) * (24 / pieces.length)));
      e.style.setProperty("--tilt", tilt.toFixed(1) + "deg");
      e.style.setProperty("--lift", (Math.abs(k - mid) * 1.5).toFixed(1) + "px");
    }
    row.append(e);
  });
  area.append(row);
  return area;
}

function drawPile(pieces, choosable) {
  // a pile shows its top piece on a stack as thick as it is tall
  const stack = el("div", "stack");
  const depth = Math.min(pieces.length - 1, 4);
  for (let k = 0; k < depth; k++) {
    const under = el("div", "under");
    under.style.setProperty("--d", (depth - k) * 2 + "px");
    stack.append(under);
  }
  const top = drawPiece(pieces[pieces.length - 1], choosable);
  stack.classList.toggle("of-tokens", top.classList.contains("token"));
  stack.classList.toggle("of-dice", top.classList.contains("die"));
  stack.append(top);
  return stack;
}

function drawGrid(g, choosable) {
  const board = el("div", "board");
  // hexagons: each row half a space to the right of the row above, so a space spans two half-columns
  const hex = g.cells.length > 0 && g.cells[0].grid.hex;
  board.classList.toggle("hex", hex);
  board.style.gridTemplateColumns = hex ? "repeat(" + (2 * g.cols + g.rows - 1) + ", minmax(32px, 1fr))"
                                        : "repeat(" + g.cols + ", minmax(64px, 1fr))";
  for (const z of g.cells) {
    const cell = el("div", "cell");
    cell.dataset.zone = z.name;
    cell.style.gridRow = String(z.grid.row + 1);
    cell.style.gridColumn = hex ? (2 * z.grid.col + z.grid.row + 1) + " / span 2" : String(z.grid.col + 1);
    markSpace(cell, z.name, choosable);
    // a track's or route's space shows its label, a route's also the spaces it is joined to
    if (z.grid.label !== undefined) {
      const label = el("span", "label");
      label.textContent = z.grid.label + (z.grid.joined ? " → " + z.grid.joined.join(", ") : "");
      cell.append(label);
    }
    for (const p of z.pieces || []) cell.append(drawPiece(p, choosable));
    board.append(cell);
  }
  return board;
}

function markSpace(node, name, choosable) {
  const options = choosable.spaces.get(name);
  if (!options) return;
  node.classList.add("choosable");
  node.addEventListener("click", (e) => { if (e.target === node || !e.target.closest(".piece.choosable")) choose(options); });
}

const PIPS = {1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9]};

// a die: a piece with a face from 1 to 6 and no suit
function isDie(p) { return !!p && Number.isInteger(p.face) && !p.suit && !!PIPS[p.face]; }

function drawPiece(p, choosable, dice) {
  if (p === null || p === undefined) {
    // a hidden piece has no kind in the view: it is drawn like the pieces its zone's family shows
    const back = dice ? el("div", "piece die hidden", "?") : el("div", "piece back");
    back.title = t("hidden");
    return back;
  }
  let e;
  if (isDie(p)) {
    e = el("div", "piece die");
    e.title = p.name || p.label || "";
    for (let k = 1; k <= 9; k++) e.append(el("i", PIPS[p.face].includes(k) ? "pip" : ""));
  } else if (!p.index && !p.suit) {
    // neither a die nor a card with a printed value: a token, as the token sheets print it
    e = el("div", "piece token", p.name || p.label || "");
    const ink = colour(p.color);
    if (ink) e.style.background = ink;
    e.title = p.name || p.label || "";
  } else {
    e = el("div", "piece card");
    const ink = colour(p.color);
    if (ink) e.style.color = ink;
    // the printed name is the suit's mark before the index ("♦7"): the corners show both
    const name = p.name || "", index = p.index || "";
    const mark = index && name.endsWith(index) && name.length - index.length <= 2 ? name.slice(0, name.length - index.length) : "";
    if (p.index || mark) {
      for (const side of ["tl", "br"]) {
        const corner = el("div", "corner " + side);
        if (p.index) corner.append(el("b", "", p.index));
        if (mark) corner.append(el("span", "", mark));
        e.append(corner);
      }
    }
    if (mark) {
      const middle = el("div", "face big");
      middle.append(el("span", "", index), el("span", "mark", mark));
      e.append(middle);
    } else {
      e.append(el("div", "face", p.name || p.label || ""));
    }
    e.title = p.name || p.label || "";
  }
  e.dataset.piece = p.id;
  if (p.owner !== null && p.owner !== undefined && markOf(p.owner)) {
    // whose piece it is: the owner's colour, and the owner's shape on it
    const m = markOf(p.owner);
    e.dataset.owner = p.owner;
    e.style.setProperty("--owner", colour(m.colour) || "#888");
    e.classList.add("owned");
    if (e.classList.contains("token")) { e.textContent = m.shape; e.style.background = colour(m.colour) || ""; }
    else e.append(el("span", "owner-mark", m.shape));
    e.title = (e.title ? e.title + " — " : "") + seatName(p.owner);
  }
  const options = choosable.pieces.get(p.id);
  if (options) {
    e.classList.add("choosable");
    e.addEventListener("click", (ev) => { ev.stopPropagation(); choose(options); });
  }
  return e;
}

function drawTurn(v, msg) {
  const box = $("turn"), res = $("result");
  box.replaceChildren();
  const turn = v.turn || {};
  if (v.ended) {
    box.append(el("div", "turn-line", t("ended")));
  } else if (turn.waiting_for_you) {
    box.append(el("div", "turn-line yours", t("yourTurn")));
  } else if ((turn.actors || []).length) {
    box.append(el("div", "turn-line", t("waitingFor") + " " + turn.actors.map(seatName).join(", ")));
  }
  if (turn.step) box.append(el("div", "step", turn.step));
  res.hidden = !v.result;
  res.textContent = v.result || "";
  res.classList.toggle("dead", !!msg.dead_end);
}

function drawOptions(options) {
  const box = $("options");
  box.replaceChildren();
  if (!options.length) { box.append(el("p", "quiet", t("noOptions"))); return; }
  if (picking) box.append(el("p", "quiet", t("pickOne")));
  for (const o of options) {
    const b = el("button", "option", o.text);
    b.dataset.index = o.index;
    b.dataset.option = o.option || "";
    if (picking && !picking.includes(o)) b.classList.add("faded");
    b.addEventListener("click", () => act(o.index));
    box.append(b);
  }
}

function choose(options) {
  if (!live()) { toast(t("notSent")); return; }
  if (options.length === 1) { act(options[0].index); return; }
  picking = options;
  document.body.dataset.picking = "yes";
  drawOptions(last.view.options || []);
}

function act(index) {
  if (!send({type: "act", token: token, index: index, version: last.version})) return;
  document.querySelectorAll("button.option").forEach((b) => { b.disabled = true; });
}

// the standing values on the table's centre; a value per player in that player's seat
function drawCounters(counters) {
  const box = $("standing");
  box.replaceChildren();
  for (const c of counters) {
    const values = c.texts || c.values;
    if (c.per === "player" && values) {
      for (const [who, x] of Object.entries(values)) {
        const seat = document.querySelector(`.seat[data-seat="${Number(who.slice(1)) - 1}"] .seat-values`);
        if (seat) seat.append(tile(c.title || c.name, show(x)));
      }
      continue;
    }
    if (values !== null && typeof values === "object") {
      const chips = el("span", "chips");
      for (const [k, x] of Object.entries(values)) {
        const chip = el("span", "chip");
        chip.append(el("b", "", k), el("span", "", show(x)));
        chips.append(chip);
      }
      const row = tile(c.title || c.name, "");
      row.lastChild.replaceWith(chips);
      box.append(row);
    } else {
      box.append(tile(c.title || c.name, show(c.text !== undefined ? c.text : c.value)));
    }
  }
}

function tile(title, value) {
  const e = el("div", "tile");
  e.append(el("span", "tile-title", title), el("span", "tile-value", value));
  return e;
}

function show(x) {
  if (x === null || x === undefined) return "—";
  if (Array.isArray(x)) return x.map(show).join(", ");
  if (typeof x === "object") return Object.entries(x).map(([k, y]) => k + ": " + show(y)).join(", ");
  return String(x);
}

// the narration marks a step's start with "== " and indents what happened in it
function logLine(line) {
  if (line.startsWith("== ")) return el("li", "heading", line.slice(3));
  const li = el("li", "", line.trim());
  const who = /^(?:\s*)P(\d+)\b/.exec(line) || /\bP(\d+)\b/.exec(line);
  // the seat the line is about, by its colour and shape: a line of "your cup" is this page's seat's
  const me = last && last.view && Number.isInteger(last.view.seat) ? last.view.seat : null;
  const seat = who ? Number(who[1]) - 1 : (me !== null && /\byour\b|あなたの/.test(line) ? me : null);
  if (seat !== null && markOf(seat)) {
    li.dataset.seat = seat;
    li.prepend(seatBadge(seat), " ");
    li.style.borderLeftColor = colour(markOf(seat).colour) || "";
  }
  return li;
}

// a moment: what just happened stays on the felt, in words, until this person continues
function drawMoment(v, msg) {
  const box = $("moment");
  const m = msg.mode === "table" ? v.moment : null;
  document.body.dataset.moment = m ? (m.yours ? "yours" : "waiting") : "no";
  box.hidden = !m;
  box.replaceChildren();
  if (!m) return;
  box.append(el("h2", "", t("happened")));
  // the outcome in one sentence first: what was compared and who it fell on
  for (const said of m.outcome || []) box.append(el("p", "moment-outcome", said));
  const lines = el("ul", "moment-lines");
  for (const line of m.lines) lines.append(logLine(line));
  box.append(lines);
  if (m.yours) {
    const b = el("button", "carry-on", t("carryOn"));
    b.addEventListener("click", () => {
      if (send({type: "continue", token: token})) b.disabled = true;
    });
    box.append(b);
  }
  if (m.waiting.length) box.append(el("p", "quiet", t("lookingStill") + " " + m.waiting.map(seatName).join(", ")));
}

// a face-down choice: a card face down before its chooser for everyone; its chooser reads it
function drawFaceDown(list) {
  for (const f of list) {
    const seat = document.querySelector(`.seat[data-seat="${f.seat}"] .seat-zones`);
    if (!seat) continue;
    const spot = el("div", "zone face-down-choice");
    spot.dataset.chooser = f.seat;
    const title = el("div", "zone-title");
    title.append(el("span", "", f.mine ? t("yourChoice") : t("chosen")));
    const back = el("div", "piece back chosen");
    back.title = t("hidden");
    spot.append(title, back);
    if (f.mine && f.text) spot.append(el("div", "chosen-text", f.text));
    seat.prepend(spot);
  }
}

// the end: the ranking, each seat's score and what made it, the game's length, the replay
function drawFinal(v, msg) {
  const box = $("final");
  const f = msg.mode === "table" ? v.final : null;
  box.hidden = !f;
  box.replaceChildren();
  if (!f) return;
  box.append(el("h2", "", t("results")), el("p", "final-text", f.text));
  const table = el("table", "ranking");
  for (const r of f.ranking) {
    const row = el("tr", r.winner ? "winner" : "");
    row.dataset.seat = r.seat;
    const who = el("td", "");
    who.append(seatBadge(r.seat), " " + seatName(r.seat) + (r.out ? " (" + t("out") + ")" : ""));
    row.append(el("td", "", r.place + (lang === "ja" ? t("place") : ".")), who,
               el("td", "", t("payoff") + " " + r.payoff),
               el("td", "quiet", r.made_of.map((x) => x.title + " " + x.text).join(", ")));
    table.append(row);
  }
  box.append(table, el("p", "quiet", t("choices") + ": " + f.length.choices + " · " + t("steps") + ": " + f.length.steps));
  if (msg.replay) {
    const a = el("a", "replay-link", t("replay"));
    a.href = msg.replay;
    a.target = "_blank";
    box.append(a);
  }
}

function drawLog(lines) {
  const box = $("log");
  box.replaceChildren(...lines.map(logLine));
  box.scrollTop = box.scrollHeight;
}

// ------------------------------------------------------------------ the replay stepper
function drawReplay(msg) {
  $("replay-controls").hidden = false;
  $("stepno").textContent = t("step") + " " + msg.step + " " + t("of") + " " + msg.steps;
  const scrub = $("scrub");
  scrub.max = msg.steps;
  scrub.value = msg.step;
  const look = $("lookas");
  const want = msg.looking_as === null ? "" : String(msg.looking_as);
  look.replaceChildren(el("option", "", t("designerView")));
  look.firstChild.value = "";
  (msg.seats || []).forEach((_, i) => {
    const o = el("option", "", seatName(i) + " " + t("seatView"));
    o.value = String(i);
    look.append(o);
  });
  look.value = want;
  const box = $("options");
  box.replaceChildren();
  if (msg.note) box.append(el("p", "note", msg.note));
  const lines = msg.view.log || [], from = lines.length - (msg.fresh || 0);
  const said = el("ol", "narration");
  lines.forEach((line, k) => {
    const li = logLine(line);
    if (k >= from) li.classList.add("now");
    said.append(li);
  });
  box.append(said);
  const now = said.querySelector(".now");
  if (now) now.scrollIntoView({block: "nearest"}); else said.scrollTop = said.scrollHeight;
}

function step(to) {
  if (!last || last.mode !== "replay") return;
  const seat = $("lookas").value === "" ? null : Number($("lookas").value);
  send({type: "step", step: Math.max(0, Math.min(last.steps, to)), seat: seat});
}

// ------------------------------------------------------------------ the lobby
async function lobby(start) {
  await fontFor(lang);
  document.body.dataset.mode = "lobby";
  $("main").hidden = true;
  $("lobby").hidden = false;
  $("lobby-title").textContent = t("lobby");
  $("start").textContent = t("start");
  const seats = $("new-seats").value.trim();
  const body = {key: token};
  if (start) { body.start = true; if (seats) body.seats = seats; }
  const answer = await fetch("/games", {method: "POST", body: JSON.stringify(body)});
  const data = await answer.json();
  if (!answer.ok) { toast(data.error); return; }
  const box = $("games");
  box.replaceChildren();
  for (const g of data.games) {
    const card = el("div", "panel");
    card.append(el("h3", "", g.game));
    for (const l of g.links) {
      const line = el("p", "");
      line.append(el("b", "", l.seat === null ? t("designer") : seatName(l.seat) + " (" + l.kind + ")"), " ");
      if (l.url) { const a = el("a", "", l.url); a.href = l.url; line.append(a); }
      else line.append(el("span", "quiet", t("plays")));
      card.append(line);
    }
    box.append(card);
  }
}

// ------------------------------------------------------------------ wiring
$("lang").addEventListener("click", () => {
  lang = lang === "ja" ? "en" : "ja";
  localStorage.setItem("playtest-lang", lang);
  if (mode === "lobby") lobby(false); else send({type: "lang", lang: lang});
});
$("undo").addEventListener("click", () => send({type: "undo", token: token}));
$("first").addEventListener("click", () => step(0));
$("back").addEventListener("click", () => step(last.step - 1));
$("forward").addEventListener("click", () => step(last.step + 1));
$("last").addEventListener("click", () => step(last.steps));
$("scrub").addEventListener("input", (e) => step(Number(e.target.value)));
$("lookas").addEventListener("change", () => step(last.step));
document.addEventListener("keydown", (e) => {
  if (!last || last.mode !== "replay" || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowLeft") step(last.step - 1);
  if (e.key === "ArrowRight") step(last.step + 1);
});
$("start").addEventListener("click", () => lobby(true));
$("lang").textContent = t("lang");
// The first view must find ruling.js, picker.js and notes.js loaded: a view that arrived while
// the page still fetched them was drawn without their panels (no notes box, no ruling) until
// the next view, so the socket opens only once the whole page has been read.
function begin() { if (mode === "lobby") lobby(false); else connect(); }
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", begin); else begin();
