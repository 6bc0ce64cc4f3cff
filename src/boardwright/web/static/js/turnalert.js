// "Your move", even in another tab: while it is this page's seat to move, the tab's title starts
// with "● Your move" and the favicon carries a red dot (both back when the move is made); when
// the move comes to the seat, a short chime plays (WebAudio, no file; on unless switched off)
// and, for a player who asked for it, a desktop notification appears while the tab is hidden.
// The two choices are kept in localStorage; the browser's notification permission is asked
// only when the player turns notifications on. Every game's table uses it (table.js).

import {el, replace} from './util.js';

const SOUND_KEY = 'boardwright.turnSound';
const NOTIFY_KEY = 'boardwright.turnNotify';
const ICON = '/static/img/favicon.svg';
const TURN_ICON = '/static/img/favicon-turn.svg';
export const TURN_MARK = '● Your move — ';

function stored(key, fallback) {
  try {
    const value = localStorage.getItem(key);
    return value === null ? fallback : value === 'on';
  } catch {
    return fallback;
  }
}

function store(key, on) {
  try {
    localStorage.setItem(key, on ? 'on' : 'off');
  } catch {
    // storage refused (private mode): the choice lasts for this page only
  }
}

/** Two short rising notes: enough to be heard from another tab, too short to annoy. */
function chime() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return false;
  if (!chime.context) chime.context = new Context();
  const ctx = chime.context;
  if (ctx.state === 'suspended' && ctx.resume) ctx.resume().catch(() => {});
  const start = ctx.currentTime;
  [660, 880].forEach((frequency, i) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'sine';
    osc.frequency.value = frequency;
    const t = start + i * 0.14;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.13);
    osc.connect(gain);
    gain.connect(ctx.destination);
    osc.start(t);
    osc.stop(t + 0.14);
  });
  return true;
}

export class TurnAlert {
  /** box: where the two switches go (sound, desktop notification). */
  constructor(box) {
    this.box = box;
    this.sound = stored(SOUND_KEY, true);
    this.notify = stored(NOTIFY_KEY, false) && this.permission() === 'granted';
    this.mine = null;  // null until the first frame: opening a page on one's turn rings nothing
    this.icon = document.querySelector('link[rel="icon"]');
    this.soundBox = el('input', {type: 'checkbox', testid: 'turn-sound', checked: this.sound,
      onchange: (e) => {
        this.sound = e.target.checked;
        store(SOUND_KEY, this.sound);
      }});
    this.notifyBox = el('input', {type: 'checkbox', testid: 'turn-notify', checked: this.notify,
      onchange: (e) => this.setNotify(e.target.checked)});
    this.note = el('span', {class: 'muted', testid: 'turn-notify-note'});
    replace(box,
      el('label', {title: 'A short chime when the move comes to you'}, this.soundBox, ' Sound on my move'),
      el('label', {title: 'A desktop notification when the move comes to you while this tab is hidden'},
        this.notifyBox, ' Notify me in another tab'),
      this.note);
    box.classList.toggle('hidden', true);  // shown to seated players only
  }

  permission() {
    return 'Notification' in window ? Notification.permission : 'unsupported';
  }

  async setNotify(on) {
    replace(this.note);
    if (!on) {
      this.notify = false;
      store(NOTIFY_KEY, false);
      return;
    }
    let permission = this.permission();
    if (permission === 'unsupported') {
      replace(this.note, ' (this browser has no notifications)');
    } else if (permission !== 'granted' && permission !== 'denied') {
      try {
        permission = await Notification.requestPermission();
      } catch {
        permission = 'denied';
      }
    }
    this.notify = permission === 'granted';
    if (!this.notify && permission === 'denied') replace(this.note, ' (notifications are blocked for this site)');
    this.notifyBox.checked = this.notify;
    store(NOTIFY_KEY, this.notify);
  }

  /** The page's state: seated or not, whether it is this seat's move, and the game's title. */
  update({seated, mine, title}) {
    this.box.classList.toggle('hidden', !seated);
    document.title = `${mine ? TURN_MARK : ''}${title} — boardwright`;
    if (this.icon) this.icon.setAttribute('href', mine ? TURN_ICON : ICON);
    document.body.dataset.turnAlert = mine ? 'on' : 'off';
    const arrived = mine && this.mine === false;
    this.mine = mine;
    if (!arrived) return;
    if (this.sound) {
      try {
        chime();
      } catch (err) {
        console.warn('the chime could not play', err);
      }
    }
    if (this.notify && document.visibilityState === 'hidden' && this.permission() === 'granted') {
      try {
        const notice = new Notification(`Your move — ${title}`, {body: 'It is your move at the boardwright table.',
          icon: TURN_ICON, tag: 'boardwright-turn'});
        notice.onclick = () => window.focus();
      } catch (err) {
        console.warn('the notification could not be shown', err);
      }
    }
  }
}
