// Notes pinned to the moment and, after the end, the questionnaire. The server's view carries
// `notes`: the rules a note may name (as the rulebook titles them), the notes this page may see
// (its own until the end; the designer's link sees all) and, once the game has ended, the
// questions for a seat that has not answered. Everything is drawn as text, never as markup.
"use strict";

const NOTE_WORDS = {
  en: {head: "Notes", placeholder: "What you noticed here (\"this rule was unclear\", \"no good choice here\")",
       rule: "About a rule (optional)", none: "no rule in particular", add: "Keep this note",
       at: "at action", by: "by", designer: "the designer", q: "A few questions about the game",
       send: "Send answers", skip: "Skip", thanks: "Thank you: your answers are kept with the game."},
  ja: {head: "メモ", placeholder: "気づいたこと(「このルールが分かりにくい」「ここは良い選択肢がない」など)",
       rule: "関係するルール(任意)", none: "特になし", add: "メモを残す",
       at: "手数", by: "記入", designer: "デザイナー", q: "ゲームについての質問",
       send: "回答を送る", skip: "答えない", thanks: "ありがとうございました。回答はゲームと一緒に保存されました。"},
};

function noteEl(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

let noteDraft = "", noteRule = "";
let stepAsked = false;      // a replay link with ?step=N opens at that step, once

function drawNotes(msg) {
  if (msg.mode === "replay") { openAtStep(msg); drawReplayNotes(msg); return; }
  const n = msg.notes;
  const side = document.getElementById("side");
  let panel = document.getElementById("notes-panel");
  if (!n || !side) { if (panel) panel.remove(); return; }
  const w = NOTE_WORDS[msg.lang] || NOTE_WORDS.en;
  const typed = document.getElementById("note-text");
  if (typed) noteDraft = typed.value;         // a redraw keeps what is being written
  const picked = document.getElementById("note-rule");
  if (picked) noteRule = picked.value;
  if (!panel) {
    panel = noteEl("div", "panel notes");
    panel.id = "notes-panel";
    side.appendChild(panel);
  }
  panel.replaceChildren();
  panel.appendChild(noteEl("h2", null, w.head));
  const titles = {};
  for (const r of n.rules) titles[r.name] = r.title;
  if (n.notes.length) {
    const list = noteEl("ol", "notes-list");
    for (const note of n.notes) {
      const li = noteEl("li", "note-item");
      const who = note.seat === null ? w.designer : "P" + (note.seat + 1);
      li.appendChild(noteEl("span", "note-where", w.at + " " + note.step + ", " + who +
                            (note.rule ? ", " + (titles[note.rule] || note.rule) : "") + ": "));
      li.appendChild(noteEl("span", "note-text", note.text));
      list.appendChild(li);
    }
    panel.appendChild(list);
  }
  const text = noteEl("textarea");
  text.id = "note-text";
  text.maxLength = n.max;
  text.placeholder = w.placeholder;
  text.value = noteDraft;
  panel.appendChild(text);
  const sel = noteEl("select");
  sel.id = "note-rule";
  sel.title = w.rule;
  const none = noteEl("option", null, w.none);
  none.value = "";
  sel.appendChild(none);
  for (const r of n.rules) {
    const o = noteEl("option", null, r.title);
    o.value = r.name;
    sel.appendChild(o);
  }
  sel.value = noteRule;
  const about = noteEl("label", "note-rule-label", w.rule + " ");
  about.appendChild(sel);
  panel.appendChild(about);
  const add = noteEl("button", "tool", w.add);
  add.id = "note-add";
  add.addEventListener("click", () => {
    const body = text.value.trim();
    if (!body) return;
    if (send({type: "note", text: body, rule: sel.value || null, token: token})) {
      noteDraft = ""; noteRule = ""; text.value = ""; sel.value = "";
    }
  });
  panel.appendChild(add);
  drawQuestionnaire(msg, w);
}

function drawQuestionnaire(msg, w) {
  const n = msg.notes;
  let box = document.getElementById("questionnaire");
  if (n.answered) {
    if (box && !box.dataset.done) { box.replaceChildren(noteEl("p", null, w.thanks)); box.dataset.done = "yes"; }
    return;
  }
  if (!n.questions) { if (box) box.remove(); return; }
  if (box) return;            // drawn once: a redraw must not wipe what is being answered
  box = noteEl("div", "panel questionnaire");
  box.id = "questionnaire";
  box.appendChild(noteEl("h2", null, w.q));
  // inputs are named by position: a designer's question may share a common one's key
  n.questions.forEach((q, i) => {
    const row = noteEl("div", "q q-" + q.kind);
    row.dataset.key = q.key;
    row.appendChild(noteEl("p", "q-text", q.text));
    if (q.kind === "text") {
      const t = noteEl("textarea");
      t.name = "q" + i; t.maxLength = n.max_answer;
      row.appendChild(t);
    } else {
      const values = q.kind === "scale" ? [1, 2, 3, 4, 5].map((v) => ({key: v, text: String(v)}))
        : q.kind === "yes_no" ? n.yes_no : n.lengths;
      for (const v of values) {
        const l = noteEl("label");
        const r = noteEl("input");
        r.type = "radio"; r.name = "q" + i; r.value = String(v.key);
        l.appendChild(r);
        l.appendChild(document.createTextNode(" " + v.text));
        row.appendChild(l);
      }
    }
    box.appendChild(row);
  });
  const sendB = noteEl("button", "tool", w.send);
  sendB.id = "answers-send";
  sendB.addEventListener("click", () => {
    const answers = {}, asked = [];
    n.questions.forEach((q, i) => {
      let v = null;
      if (q.kind === "text") {
        v = box.querySelector("textarea[name=q" + i + "]").value.trim() || null;
      } else {
        const c = box.querySelector("input[name=q" + i + "]:checked");
        if (c) v = q.kind === "scale" ? Number(c.value) : c.value;
      }
      if (q.asked) asked.push(v);
      else if (v !== null) answers[q.key] = v;
    });
    if (asked.some((v) => v !== null)) answers.asked = asked;
    send({type: "answers", answers: answers, token: token});
  });
  const skip = noteEl("button", "tool", w.skip);
  skip.id = "answers-skip";
  skip.addEventListener("click", () => send({type: "answers", answers: null, token: token}));
  box.appendChild(sendB);
  box.appendChild(skip);
  const side = document.getElementById("side");
  side.insertBefore(box, side.firstChild);
}

function openAtStep(msg) {
  if (stepAsked) return;
  stepAsked = true;
  const want = Number(new URLSearchParams(location.search).get("step"));
  if (Number.isInteger(want) && want >= 0 && want <= msg.steps && want !== msg.step && new URLSearchParams(location.search).has("step"))
    send({type: "step", step: want, seat: null});
}

// a replay lists the notes kept with it; those left at the step shown are marked, and a click
// on one steps there
function drawReplayNotes(msg) {
  const side = document.getElementById("side");
  let panel = document.getElementById("notes-panel");
  if (!msg.notes || !msg.notes.length || !side) { if (panel) panel.remove(); return; }
  const w = NOTE_WORDS[msg.lang] || NOTE_WORDS.en;
  if (!panel) {
    panel = noteEl("div", "panel notes");
    panel.id = "notes-panel";
    side.appendChild(panel);
  }
  panel.replaceChildren(noteEl("h2", null, w.head));
  const list = noteEl("ol", "notes-list");
  for (const note of msg.notes) {
    const li = noteEl("li", "note-item" + (note.step === msg.step ? " here" : ""));
    const who = note.seat === null ? w.designer : "P" + (note.seat + 1);
    const go = noteEl("button", "tool note-go", w.at + " " + note.step);
    go.addEventListener("click", () => send({type: "step", step: note.step, seat: null}));
    li.appendChild(go);
    li.appendChild(noteEl("span", "note-where", " " + who + (note.rule ? ", " + note.rule : "") + ": "));
    li.appendChild(noteEl("span", "note-text", note.text));
    list.appendChild(li);
  }
  panel.appendChild(list);
}
