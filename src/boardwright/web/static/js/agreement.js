// Undo by agreement: with several human players, the Undo button asks the others to take back
// the asker's last move; each other player sees the request with Accept and Refuse. The server
// refuses a request across a random draw or hidden information (agreement.py).

import {el, replace} from './util.js';

export class UndoPanel {
  /** @param {{box: HTMLElement, send: Function, seatName: Function}} parts */
  constructor(parts) {
    Object.assign(this, parts);
  }

  update(frame) {
    const request = frame.undo_request;
    const refused = frame.undo_refused;
    const me = frame.seat;
    const box = this.box;
    box.dataset.state = '';
    const names = (seats) => seats.map((s) => this.seatName(s)).join(', ');
    if (request) {
      const moves = request.steps === 1 ? 'their last move' : `their last ${request.steps} moves`;
      if (request.seat === me) {
        box.dataset.state = 'asked';
        replace(box, el('span', {}, `You asked to take back your last move; waiting for ${names(request.waiting)}.`));
      } else if (request.waiting.includes(me)) {
        box.dataset.state = 'asking';
        replace(box, el('span', {}, `${this.seatName(request.seat)} asks to take back ${moves}. `),
          el('button', {type: 'button', class: 'small primary', testid: 'undo-accept',
            onclick: () => this.send({type: 'accept_undo'})}, 'Accept'),
          ' ',
          el('button', {type: 'button', class: 'small', testid: 'undo-refuse',
            onclick: () => this.send({type: 'refuse_undo'})}, 'Refuse'));
      } else {
        box.dataset.state = 'waiting';
        replace(box, el('span', {}, `${this.seatName(request.seat)} asks to take back ${moves}; waiting for ${names(request.waiting)}.`));
      }
    } else if (refused) {
      box.dataset.state = 'refused';
      const who = refused.seat === me ? 'your' : `${this.seatName(refused.seat)}'s`;
      replace(box, el('span', {}, `${this.seatName(refused.by)} refused ${who} undo request.`));
    } else {
      replace(box);
      box.classList.add('hidden');
      return;
    }
    box.classList.remove('hidden');
  }
}
