// Options made of several values (a face and a count; a card and a target) picked value by
// value: one row of values per parameter, in the rule file's order; a value no legal option
// has with the values already picked is greyed; the option's reading (the rulebook's words)
// stands above the rows and on every option's hover. Keys: type a value (a number) to pick
// it in the current row, arrows move between values and rows, Enter takes the option.
// It works on what table.js drew: the option buttons stay the way to act (act(index)).
"use strict";

const PICKER_WORDS = {
  en: {take: "Take", pick: "Pick each value; greyed ones are not allowed with what you picked.", keys: "keys: type a value, ← → ↑ ↓, Enter"},
  ja: {take: "これにする", pick: "値を1つずつ選んでください。灰色は選んだ値と組み合わせられません。", keys: "キー: 値を入力、← → ↑ ↓、Enter"},
};
const PICK_FROM = 4;        // fewer options than this read well as buttons

let pickerState = null;     // {group, chosen: [], row, typed}

function pickerGroups(msg) {
  const opts = (msg.view && msg.view.options) || [], ch = msg.choices;
  if (!ch || !ch.values || ch.values.length !== opts.length) return [];
  const by = new Map();
  opts.forEach((o, i) => {
    const vals = ch.values[i];
    if (vals.length < 2) return;
    if (!by.has(o.option)) by.set(o.option, []);
    by.get(o.option).push({index: o.index, text: o.text, vals: vals.map((x) => x.value), titles: vals.map((x) => x.title)});
  });
  return [...by.entries()].filter(([, g]) => g.length >= PICK_FROM).map(([name, g]) => ({name, items: g}));
}

// a row's values in the order a player counts them: numbers by size, anything else as first met
function rowOrder(g, i) {
  const seen = [];
  for (const it of g.items) if (!seen.includes(it.vals[i])) seen.push(it.vals[i]);
  return seen.every((v) => /^-?\d+$/.test(v)) ? seen.sort((a, b) => Number(a) - Number(b)) : seen;
}

function pickerMatches(g, chosen, except) {
  return g.items.filter((it) => chosen.every((v, i) => i === except || v === undefined || it.vals[i] === v));
}

function drawPicker() {
  const box = document.getElementById("options");
  if (!box || !last || last.mode !== "table") return;
  const msg = last, readings = (msg.choices && msg.choices.readings) || {};
  box.querySelectorAll("button.option").forEach((b) => {
    const r = readings[b.dataset.option];
    if (r) b.title = r;
  });
  if (box.querySelector(".picker")) return;
  const groups = pickerGroups(msg);
  document.body.dataset.picker = groups.length ? "yes" : "no";
  for (const g of groups) {
    const buttons = g.items.map((it) => box.querySelector(`button.option[data-index="${it.index}"]`)).filter(Boolean);
    if (!buttons.length) continue;
    buttons.forEach((b) => b.classList.add("picked-away"));
    const same = pickerState && pickerState.version === msg.version && pickerState.name === g.name;
    const st = same ? pickerState : {name: g.name, version: msg.version, chosen: g.items[0].vals.map(() => undefined), row: 0, typed: ""};
    pickerState = st;
    buttons[0].before(buildPicker(g, st, readings[g.name], msg.lang));
  }
}

function buildPicker(g, st, reading, l) {
  const w = PICKER_WORDS[l] || PICKER_WORDS.en;
  const root = el("div", "picker");
  root.tabIndex = 0;
  root.dataset.option = g.name;
  const head = g.items[0].text.split(":")[0];
  root.append(el("div", "picker-head", head));
  if (reading) root.append(el("p", "picker-reading", reading));
  root.append(el("p", "quiet", w.pick));
  g.items[0].titles.forEach((title, i) => {
    const row = el("div", "picker-row" + (i === st.row ? " current" : ""));
    row.dataset.param = i;
    row.append(el("span", "picker-title", title));
    const fits = new Set(pickerMatches(g, st.chosen, i).map((it) => it.vals[i]));
    for (const v of rowOrder(g, i)) {
      const b = el("button", "tool picker-value", v);
      b.dataset.value = v;
      if (!fits.has(v)) { b.classList.add("greyed"); b.disabled = true; }
      if (st.chosen[i] === v) b.classList.add("chosen");
      b.addEventListener("click", () => pickValue(g, st, i, v));
      row.append(b);
    }
    root.append(row);
  });
  const match = st.chosen.every((v) => v !== undefined) ? pickerMatches(g, st.chosen, -1)[0] : null;
  const take = el("button", "tool picker-take", match ? w.take + ": " + match.text : w.take);
  take.disabled = !match;
  take.addEventListener("click", () => { if (match) act(match.index); });
  root.append(take);
  root.append(el("p", "quiet picker-keys", w.keys));
  root.addEventListener("keydown", (e) => pickerKey(e, g, st, match));
  return root;
}

function redrawPicker(g, st, focus) {
  const old = document.querySelector(`.picker[data-option="${g.name}"]`);
  if (!old) return;
  const fresh = buildPicker(g, st, ((last.choices || {}).readings || {})[g.name], last.lang);
  old.replaceWith(fresh);
  if (focus) fresh.focus();
}

function pickValue(g, st, i, v, advance = true) {
  st.chosen[i] = st.chosen[i] === v && advance ? undefined : v;
  // a value picked may rule out what was picked in another row: that row is picked again
  st.chosen.forEach((c, j) => {
    if (j !== i && c !== undefined && !pickerMatches(g, st.chosen, j).some((it) => it.vals[j] === c)) st.chosen[j] = undefined;
  });
  if (advance && st.chosen[i] !== undefined && i + 1 < st.chosen.length && st.chosen[i + 1] === undefined) st.row = i + 1;
  redrawPicker(g, st, true);
}

function pickerKey(e, g, st, match) {
  const rowValues = (i) => {
    const fits = new Set(pickerMatches(g, st.chosen, i).map((it) => it.vals[i]));
    return rowOrder(g, i).filter((v) => fits.has(v));
  };
  if (e.key === "Enter") { if (match) act(match.index); e.preventDefault(); return; }
  if (e.key === "ArrowUp" || e.key === "ArrowDown") {
    st.row = Math.max(0, Math.min(st.chosen.length - 1, st.row + (e.key === "ArrowDown" ? 1 : -1)));
    st.typed = "";
    redrawPicker(g, st, true);
    e.preventDefault();
    return;
  }
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    const vals = rowValues(st.row);
    if (!vals.length) return;
    const at = vals.indexOf(st.chosen[st.row]);
    const next = at < 0 ? 0 : Math.max(0, Math.min(vals.length - 1, at + (e.key === "ArrowRight" ? 1 : -1)));
    st.chosen[st.row] = vals[next];
    redrawPicker(g, st, true);
    e.preventDefault();
    return;
  }
  if (e.key.length === 1 && /\S/.test(e.key)) {
    // typed: the value whose name is what was typed so far in this row (10 is typed 1, 0)
    const vals = rowValues(st.row);
    const typed = st.typed + e.key;
    if (vals.includes(typed)) {
      // a longer value may still follow (1, then 10): the row stays until it cannot
      st.typed = vals.some((v) => v !== typed && v.startsWith(typed)) ? typed : "";
      pickValue(g, st, st.row, typed, !st.typed);
    } else {
      st.typed = vals.some((v) => v.startsWith(typed)) ? typed : "";
    }
    e.preventDefault();
  }
}

// table.js redraws the options on every view (and after a refusal): the picker follows
if (document.getElementById("options")) new MutationObserver(drawPicker).observe(document.getElementById("options"), {childList: true});
