// The move sound: a short wooden click made with WebAudio (no sound files), off until the player turns it on;
// the choice is remembered in this browser.

const STORE = "dboard.sound";

export class MoveSound {
  constructor() {
    this.on = read() === "on";
    this.ctx = null;
  }

  set(on) {
    this.on = on;
    write(on ? "on" : "off");
    if (on) this.wake();
  }

  /** Browsers start audio only after a gesture: called from the toggle and on the first touch of the page. */
  wake() {
    if (!this.on) return;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!this.ctx && Ctx) this.ctx = new Ctx();
    if (this.ctx && this.ctx.state === "suspended") this.ctx.resume();
  }

  play(capture = false) {
    if (!this.on) return;
    this.wake();
    const ctx = this.ctx;
    if (!ctx) return;
    const t = ctx.currentTime;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "triangle";
    osc.frequency.setValueAtTime(capture ? 480 : 720, t);
    osc.frequency.exponentialRampToValueAtTime(capture ? 220 : 360, t + 0.09);
    gain.gain.setValueAtTime(0.3, t);
    gain.gain.exponentialRampToValueAtTime(0.001, t + (capture ? 0.18 : 0.11));
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + 0.2);
  }
}

function read() {
  try { return localStorage.getItem(STORE); } catch { return null; }
}
function write(value) {
  try { localStorage.setItem(STORE, value); } catch { /* private mode: the choice lasts this visit */ }
}
