// The Broadcast panel: where this board stands in the tournament hall (event, round, board number) and who
// plays at it. Shown only when the board broadcasts; the session keeps the place through a power cut.

const $ = (sel) => document.querySelector(sel);
const FIELDS = ["event", "round", "board", "white", "black"];

/** Fill the panel from the state (never over what the person is typing) and show it when broadcasting. */
export function renderBroadcast(place) {
  const panel = $("#broadcast-panel");
  panel.hidden = !place;
  if (!place || panel.contains(document.activeElement)) return;
  for (const name of FIELDS) $(`#bc-${name}`).value = place[name] || "";
}

/** Send the panel's values as one set_broadcast command. */
export function bindBroadcast(command) {
  $("#broadcast-form").onsubmit = (e) => {
    e.preventDefault();
    const fields = {};
    for (const name of FIELDS) fields[name] = $(`#bc-${name}`).value.trim();
    command("set_broadcast", fields);
  };
}
