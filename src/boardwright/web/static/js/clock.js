// The clocks at the table: each human seat's remaining time, the one of the seat to move
// counting down. The server keeps the time; each state frame says how much every seat had when
// the frame was built, and the page counts down from the frame's arrival (performance.now(),
// which no change of the computer's clock moves). Bots have no clock.

import {el, replace} from './util.js';

/** Seconds as m:ss (or h:mm:ss); tenths under 10 s. */
export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const whole = Math.ceil(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

function describeControl(clock) {
  const mode = clock.on_timeout === 'lose' ? 'out of time loses' : 'out of time: a bot moves';
  if (clock.per_move) return `${clock.per_move} s per move · ${mode}`;
  const inc = clock.increment ? ` + ${clock.increment} s` : '';
  return `${clock.minutes} min${inc} · ${mode}`;
}

export class ClockPanel {
  /** @param {{box: HTMLElement, seatName: Function}} parts */
  constructor(parts) {
    Object.assign(this, parts);
    this.clock = null;
    this.received = 0;
    this.timer = null;
  }

  update(frame) {
    this.clock = frame.clock || null;
    this.received = performance.now();
    this.status = frame.status;
    this.me = frame.seat;
    clearInterval(this.timer);
    if (!this.clock) {
      replace(this.box);
      this.box.classList.add('hidden');
      return;
    }
    this.box.classList.remove('hidden');
    this.draw();
    if (this.clock.running !== null && this.clock.running !== undefined) {
      this.timer = setInterval(() => this.draw(), 100);
    }
  }

  /** The seat's remaining seconds now (counting down for the running seat). */
  left(seat) {
    const base = this.clock.remaining[seat];
    if (base === null || base === undefined) return null;
    if (seat !== this.clock.running) return base;
    return Math.max(0, base - (performance.now() - this.received) / 1000);
  }

  draw() {
    const clock = this.clock;
    const rows = clock.remaining.map((_, seat) => {
      const left = this.left(seat);
      const running = seat === clock.running;
      const lost = clock.lost.includes(seat);
      const flagged = clock.flagged.includes(seat);
      let text = left === null ? 'bot' : formatClock(left);
      if (lost) text = 'lost on time';
      else if (flagged) text = '0:00 (bot plays)';
      const cls = ['clock-seat', running ? 'running' : '', left !== null && left < 10 && running ? 'low' : '',
        lost || flagged ? 'out' : '', seat === this.me ? 'me' : ''].filter(Boolean).join(' ');
      return el('div', {class: cls, testid: `clock-${seat}`, dataset: {running: String(running),
        seconds: left === null ? '' : left.toFixed(1)}},
      el('span', {class: 'clock-name'}, this.seatName(seat), seat === this.me ? ' (you)' : ''),
      el('span', {class: 'clock-time', testid: `clock-time-${seat}`}, text));
    });
    replace(this.box, el('div', {class: 'clock-head muted'}, describeControl(clock)), ...rows);
    if (clock.running === null || clock.running === undefined) clearInterval(this.timer);
  }
}
