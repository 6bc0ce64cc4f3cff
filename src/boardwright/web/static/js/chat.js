// The table's chat: seated players write, spectators read. Messages are shown with
// textContent only (util.js `el` puts strings in text nodes), never as HTML: what a player
// types is text, whatever it looks like.

import {el, replace} from './util.js';

const MAX_CHARS = 500;

export class ChatPanel {
  /** @param {{box: HTMLElement, list: HTMLElement, form: HTMLFormElement, input: HTMLInputElement,
   *           note: HTMLElement, send: Function, seatName: Function}} parts */
  constructor(parts) {
    Object.assign(this, parts);
    this.messages = new Map();  // id -> message
    this.seat = undefined;
    this.input.maxLength = MAX_CHARS;
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      if (this.send({type: 'chat', text})) this.input.value = '';
    });
  }

  /** The seat of this page (null: spectator), from the state frames. */
  update(frame) {
    const seat = frame.seat === undefined ? null : frame.seat;
    if (seat === this.seat) return;
    this.seat = seat;
    const seated = seat !== null;
    this.form.classList.toggle('hidden', !seated);
    this.note.classList.toggle('hidden', seated);
    this.box.dataset.seated = String(seated);
    this.draw();
  }

  onChat(frame) {
    for (const message of frame.messages || []) this.messages.set(message.id, message);
    this.draw();
    this.box.dataset.count = String(this.messages.size);
  }

  draw() {
    const items = [...this.messages.values()].sort((a, b) => a.id - b.id).slice(-200)
      .map((m) => el('li', {class: 'chat-message', testid: `chat-message-${m.id}`, dataset: {seat: m.seat}},
        el('span', {class: 'chat-who'}, `${this.seatName(m.seat)}: `),
        el('span', {class: 'chat-text', testid: 'chat-text'}, m.text)));
    if (!items.length) items.push(el('li', {class: 'muted'}, 'No message yet.'));
    replace(this.list, items);
    this.list.scrollTop = this.list.scrollHeight;
  }
}
