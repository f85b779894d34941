// A ruling at the table: when play runs into a dead end, the server's view carries `ruling`
// (the open question in the rulebook's words and the choices that settle it). A seat proposes
// a choice; the designer's link rules, and the game plays on. Drawn as text only, like the rest.
"use strict";

const RULING_WORDS = {
  en: {head: "The rules do not say what happens now", where: "Play stopped in", propose: "Propose",
       rule: "Rule this way", proposed: "proposes this", waiting: "The designer's link confirms the ruling.",
       designer: "Confirm one: the game plays on under it."},
  ja: {head: "ルールにこの場合の決まりがありません", where: "止まった場所", propose: "提案する",
       rule: "これに決める", proposed: "がこれを提案", waiting: "デザイナーのリンクで決定します。",
       designer: "1つ選んで決めると、その決まりでゲームが続きます。"},
};

function drawRuling(msg) {
  let panel = document.getElementById("ruling-panel");
  const r = msg.mode === "table" ? msg.ruling : null;
  document.body.dataset.ruling = r ? "open" : "none";
  if (!r) { if (panel) panel.remove(); return; }
  const w = RULING_WORDS[msg.lang] || RULING_WORDS.en;
  if (!panel) {
    panel = el("div", "panel ruling");
    panel.id = "ruling-panel";
    const side = document.getElementById("side");
    side.insertBefore(panel, side.firstChild);
  }
  panel.replaceChildren();
  panel.appendChild(el("h2", null, w.head));
  if (r.question) {
    panel.appendChild(el("p", "ruling-question", r.question.title));
    if (r.question.text) panel.appendChild(el("p", "ruling-text", r.question.text));
  }
  panel.appendChild(el("p", "ruling-where", w.where + ": " + r.rule + " (" + r.where + ")"));
  const designer = msg.role === "designer";
  panel.appendChild(el("p", "ruling-how", designer ? w.designer : w.waiting));
  const list = el("ol", "ruling-choices");
  for (const c of r.choices) {
    const li = el("li", "ruling-choice");
    li.dataset.name = c.name;
    li.appendChild(el("strong", null, c.title));
    if (c.why) li.appendChild(el("span", "ruling-why", " " + c.why));
    if (r.proposed && r.proposed.index === c.index) {
      li.classList.add("proposed");
      li.appendChild(el("em", null, " P" + (r.proposed.seat + 1) + " " + w.proposed));
    }
    const b = el("button", "tool ruling-pick", designer ? w.rule : w.propose);
    b.addEventListener("click", () => send({type: "rule", index: c.index, token: token}));
    li.appendChild(b);
    list.appendChild(li);
  }
  panel.appendChild(list);
}
