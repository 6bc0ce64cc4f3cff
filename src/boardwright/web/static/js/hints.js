// Hints at the table: the Hint button of the seat to move, the agreement among several human
// players (propose, accept, refuse), and the list of the bot's best moves with their expected
// margins. Drawing the hints on the board belongs to each game's renderer (`showHints`), and
// pre-selecting a move clicked in the list too (`pickHint`).

import {el, replace} from './util.js';

/** An expected margin in points, signed: "+2.5", "-0.8", "+0.0". */
export function formatMargin(margin) {
  const value = Number(margin) || 0;
  const shown = Math.abs(value) < 0.05 ? 0 : value;
  return `${shown >= 0 ? '+' : '-'}${Math.abs(shown).toFixed(1)}`;
}

export class HintPanel {
  /**
   * @param {{button: HTMLElement, consent: HTMLElement, list: HTMLElement, send: Function,
   *          seatName: Function, onHints: Function, onPick: Function}} parts
   *   send(frame) -> bool; onHints(hints) redraws the board's hints; onPick(hint) pre-selects.
   */
  constructor(parts) {
    Object.assign(this, parts);
    this.frame = null;
    this.hint = null;  // the last hint frame received
    this.pending = false;
    this.button.addEventListener('click', () => this.request());
  }

  /** The hints of the position at `step`, or null. */
  current(step) {
    return this.hint && this.hint.step === step ? this.hint.hints : null;
  }

  update(frame) {
    const stepChanged = !this.frame || this.frame.step !== frame.step;
    this.frame = frame;
    if (stepChanged) this.pending = false;
    if (this.hint && this.hint.step !== frame.step) this.hint = null;
    const info = frame.hints || {};
    const seated = frame.seat !== null && frame.seat !== undefined;
    const live = frame.status !== 'finished';
    this.button.classList.toggle('hidden', !(seated && live && info.allowed));
    this.button.disabled = !info.can_ask || this.pending;
    this.button.textContent = this.pending ? '… Thinking' : '? Hint';
    this.button.title = info.can_ask ? "The bot's three best moves for you, with their expected margins (key ?)"
      : 'Hints are for your own turn';
    this.renderConsent(frame, info, seated && live);
    this.renderList();
  }

  renderConsent(frame, info, active) {
    const box = this.consent;
    box.dataset.state = '';
    if (!active || info.training || info.training === undefined) {
      replace(box);
      box.classList.add('hidden');
      return;
    }
    const me = frame.seat;
    const names = (seats) => seats.map((s) => this.seatName(s)).join(', ');
    const button = (label, type, testid, cls = '') => el('button', {type: 'button', testid, class: cls,
      onclick: () => this.vote(type)}, label);
    let parts;
    if (info.allowed) {
      box.dataset.state = 'allowed';
      parts = [el('span', {}, 'Hints: allowed by every player. '),
        button('Stop hints', 'refuse_hints', 'hints-stop', 'small')];
    } else if (!info.accepted.length) {
      box.dataset.state = 'none';
      parts = [el('span', {class: 'muted'}, 'Hints need every player\'s agreement. '),
        button('Propose hints', 'allow_hints', 'hints-propose', 'small')];
    } else if (info.accepted.includes(me)) {
      box.dataset.state = 'proposed';
      parts = [el('span', {}, `Hints proposed; waiting for ${names(info.waiting)}. `),
        button('Withdraw', 'refuse_hints', 'hints-withdraw', 'small')];
    } else {
      box.dataset.state = 'asked';
      parts = [el('span', {}, `${names(info.accepted)} proposes hints (the bot's best moves for the player to move). `),
        button('Accept', 'allow_hints', 'hints-accept', 'small primary'),
        ' ', button('Refuse', 'refuse_hints', 'hints-refuse', 'small')];
    }
    replace(box, parts);
    box.classList.remove('hidden');
  }

  vote(type) {
    this.send({type});
  }

  request() {
    if (this.pending || !this.frame || !(this.frame.hints || {}).can_ask) return;
    // a rating measures unaided play: a hint in a rated game ends its rating, for everyone
    if (this.frame.rated && this.frame.status !== 'finished') {
      this.confirmUnrating();
      return;
    }
    this.ask();
  }

  ask() {
    if (this.pending || !this.frame || !(this.frame.hints || {}).can_ask) return;
    if (!this.send({type: 'hint'})) return;
    this.pending = true;
    this.update(this.frame);
  }

  /** The question before a hint unrates a rated game: nothing is sent unless the player says
   *  Ask (Cancel, Escape or a click beside it send nothing). */
  confirmUnrating() {
    if (this.dialog && this.dialog.open) return;
    const close = (ask) => {
      this.dialog.close();
      this.dialog.remove();
      this.dialog = null;
      if (ask) this.ask();
    };
    this.dialog = el('dialog', {class: 'confirm-dialog', testid: 'hint-unrate-dialog'},
      el('p', {}, 'Asking for a hint makes this game unrated for everyone. Ask?'),
      el('div', {class: 'dialog-buttons'},
        el('button', {type: 'button', class: 'primary', testid: 'hint-unrate-ask', onclick: () => close(true)},
          'Ask for a hint'), ' ',
        el('button', {type: 'button', testid: 'hint-unrate-cancel', onclick: () => close(false)}, 'Cancel')));
    this.dialog.addEventListener('cancel', (e) => {  // Escape
      e.preventDefault();
      close(false);
    });
    document.body.append(this.dialog);
    this.dialog.showModal();
  }

  onHint(frame) {
    this.pending = false;
    this.hint = frame;
    if (this.frame) this.update(this.frame);
    if (this.frame && frame.step === this.frame.step) this.onHints(frame.hints);
  }

  onError() {
    if (!this.pending) return;
    this.pending = false;
    if (this.frame) this.update(this.frame);
  }

  renderList() {
    const hints = this.frame ? this.current(this.frame.step) : null;
    if (!hints) {
      replace(this.list);
      this.list.classList.add('hidden');
      return;
    }
    const budget = this.hint.budget || {};
    const items = hints.map((hint) => el('li', {testid: `hint-${hint.rank}`, class: 'hint-item',
      dataset: {rank: hint.rank, margin: hint.margin}, title: `${hint.samples} samples; click to pre-select this move`,
      onclick: () => this.onPick(hint)},
    el('span', {class: 'hint-rank'}, String(hint.rank)),
    el('span', {class: 'hint-text'}, hint.text),
    el('span', {class: `hint-margin ${hint.margin >= 0 ? 'plus' : 'minus'}`, testid: `hint-margin-${hint.rank}`},
      formatMargin(hint.margin))));
    replace(this.list,
      el('div', {class: 'hint-head'}, 'Hint — expected margin in points',
        budget.seconds ? el('span', {class: 'muted'}, ` (${budget.seconds} s of search)`) : ''),
      el('ol', {class: 'hint-list'}, items));
    this.list.classList.remove('hidden');
  }
}
