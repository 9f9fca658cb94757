// Lessons (issue 18): the Exercises panel, the library viewer's "Replay on the board", and the lesson panel
// beside the live board (the exercise's task and tries; the replay's move, the engine's score and blunders).

import { _ } from "./i18n.js";
import { STATES } from "/states.js";

const $ = (sel) => document.querySelector(sel);

/** ctx: {command(kind, fields), query() -> "?token=..." or "", showLive(), say(text)} */
export function bindLessons(ctx) {
  const step = (name) => () => ctx.command("lesson_step", { step: name });
  const start = (exercise) => ctx.command("start_exercise", { variant: $("#ex-variant").value, exercise });
  $("#ex-start").onclick = () => start($("#ex-id").value.trim());
  $("#lesson-next").onclick = step("next");   // the next exercise of the same variant (issue 28 item 13)
  $("#lesson-hint").onclick = step("hint");
  $("#lesson-back").onclick = step("back");
  $("#lesson-forward").onclick = step("forward");
  $("#lesson-stop").onclick = step("stop");
  $("#v-replay").onclick = async () => {
    const id = $("#viewer").dataset.id;
    if (!id) return;
    const res = await fetch(`/api/games/${encodeURIComponent(id)}.pdn${ctx.query()}`);
    if (!res.ok) { ctx.say(_("Replay: the server answered {status}.", { status: res.status })); return; }
    ctx.command("start_replay", { pdn: await res.text(), game: 1 });
    ctx.showLive();
  };

  function fillVariants(list) {
    const sel = $("#ex-variant");
    if (sel.options.length || !list) return;
    for (const v of list) {
      const o = document.createElement("option");
      o.value = v;
      o.textContent = v.charAt(0).toUpperCase() + v.slice(1);
      sel.appendChild(o);
    }
  }

  function render(s) {
    fillVariants(s.exercise_variants);
    const sel = $("#ex-variant");
    if (!sel.dataset.userSet && [...sel.options].some((o) => o.value === s.variant)) sel.value = s.variant;
    sel.onchange = () => { sel.dataset.userSet = "1"; };
    const lesson = s.lesson;
    $("#lesson-panel").hidden = !lesson;
    if (!lesson) return;
    const exercise = lesson.kind === "exercise";
    $("#lesson-panel").dataset.kind = lesson.kind;
    for (const id of ["#lesson-hint", "#lesson-next"]) $(id).hidden = !exercise;
    for (const id of ["#lesson-back", "#lesson-forward"]) $(id).hidden = exercise;
    const status = $("#lesson-status");
    const blunders = $("#lesson-blunders");
    blunders.textContent = "";
    if (exercise) {
      $("#lesson-title").textContent = _("Exercise {id} ({number} of {of})", lesson);
      const state = lesson.solved ? _("Solved.") : s.state === STATES.SETUP ? _("Set up the position as the LEDs show.")
        : _("Your move.");
      status.textContent = `${lesson.task}. ${state} ` + _("Tries: {tries}. You solved {solved}.", { tries: lesson.tries, solved: lesson.player_solved });
      status.dataset.solved = lesson.solved ? "yes" : "no";
      return;
    }
    $("#lesson-title").textContent = _("Replay: {title}", { title: lesson.title || lesson.label || lesson.name });
    const next = lesson.next ? _("Next: {move}.", { move: lesson.next }) : _("The end: {result}.", lesson);
    const review = lesson.review ? ` ${lesson.review.text}.` : "";
    const pending = lesson.reviewed < lesson.plies ? " " + _("(engine review: {reviewed}/{plies})", lesson) : "";
    status.textContent = _("Move {ply} of {plies}.", lesson) + ` ${next}${review}${pending}`;
    $("#lesson-forward").disabled = !lesson.next;
    $("#lesson-back").disabled = lesson.ply === 0;
    for (const b of lesson.blunders || []) {
      const li = document.createElement("li");
      li.className = b.verdict;
      li.textContent = `${b.ply}. ${b.text}`;
      blunders.appendChild(li);
    }
  }
  return { render };
}
