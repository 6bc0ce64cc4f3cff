// Who sits at each seat, as every page names them: the player's name, a bot's label ("bot:
// hard", as the players list calls it) or, for a seat nobody named, the seat's name in the game;
// always with the seat's colour from the game's seat table (GameInfo, gameinfo.js). The games'
// sentences that name seats come as pieces (`words`: text, and {seat: n} where a seat goes; see
// core/seatwords.py): the game words the line, this module fills in who. Names are text only.

import {el} from './util.js';
import {seatOf} from './gameinfo.js';

/** A bot's label, as the players list shows it: its level's name, else its agent. */
export function botLabel(seat) {
  return `bot: ${seat.level || seat.kind}`;
}

export class People {
  /** info: the game's GameInfo ({title, seats}); seats: [{seat, kind, name, level}]. */
  constructor(info, seats = []) {
    this.info = info;
    this.seats = seats;
  }

  update(seats) {
    this.seats = seats || [];
  }

  entry(seat) {
    return this.seats.find((s) => s.seat === seat) || null;
  }

  /** The seat's display name: "Ann", "bot: hard", else the game's name of the seat ("Red"). */
  name(seat) {
    const s = this.entry(seat);
    if (s && s.name) return s.name;
    if (s && s.kind && s.kind !== 'human') return botLabel(s);
    return seatOf(this.info, seat).name;
  }

  colour(seat) {
    return seatOf(this.info, seat).colour;
  }

  swatch(seat) {
    return el('span', {class: 'swatch', style: `background:${this.colour(seat)}`});
  }

  /** The seat as a page shows it in a line: a swatch of its colour and the display name (the
   *  game's name of the seat as the tooltip). */
  tag(seat) {
    return el('span', {class: 'person', dataset: {seat: String(seat)}, title: seatOf(this.info, seat).name},
      this.swatch(seat), this.name(seat));
  }

  /** A game's sentence ({text, words}) as nodes, each seat as its tag; its text without words. */
  sentence(entry) {
    if (!entry.words) return entry.text || '';
    return entry.words.map((piece) => (typeof piece === 'string' ? piece : this.tag(piece.seat)));
  }

  /** A game's sentence as plain text (tooltips, labels), seats by display name. */
  text(entry) {
    if (!entry.words) return entry.text || '';
    return entry.words.map((piece) => (typeof piece === 'string' ? piece : this.name(piece.seat))).join('');
  }
}
