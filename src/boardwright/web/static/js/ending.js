// How a game ends, at the table: the end box (why the game ended — score, time, resignation,
// abandonment — and the standings with names, scores and rating changes, from the frame's
// `result`), the Resign button with its confirmation, and the claim offered when every other
// player has been gone long enough (the frame's `abandon`, counted down on the page's clock).
// The replay shows the same headline under its final position (`resultHeadline`).

import {el, replace} from './util.js';

const OUT_WORDS = {time: 'lost on time', resigned: 'resigned', left: 'left the game'};

/** "A, B and C" */
function listOf(names) {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** One sentence saying how the game ended, e.g. "Ann (Red) wins: Bob (Blue) resigned." */
export function resultHeadline(result, seatName) {
  if (!result) return 'Game over.';
  const names = (seats) => listOf((seats || []).map((seat) => seatName(seat)));
  const winners = result.winners || [];
  // several winners level at the top is a draw between them, and named so
  const wins = winners.length === 1 ? `${names(winners)} wins` : winners.length ? `Draw between ${names(winners)}` : '';
  if (result.reason === 'resignation') {
    const who = names(result.resigned);
    return `${wins}: ${who} resigned.`;
  }
  if (result.reason === 'time') {
    return `${wins} on time: ${names(result.lost_on_time)} ran out of time.`;
  }
  if (result.reason === 'abandonment') {
    const claimer = seatName(result.claimed_by);
    if (result.outcome === 'none') {
      return `No result: ${names(result.left)} left the game and ${claimer} ended it.`;
    }
    return `${claimer} claimed the win: ${names(result.left)} left the game.`;
  }
  const out = [];
  for (const [key, words] of [['resigned', 'resigned'], ['lost_on_time', 'lost on time']]) {
    if ((result[key] || []).length) out.push(`${names(result[key])} ${words}`);
  }
  return `${wins} on score.${out.length ? ` (${out.join('; ')}.)` : ''}`;
}

export class EndPanel {
  /** box: the end box; controls: where Resign goes; claim: the claim box; table: the Table
   * (seatName, swatch, scoreText, ratingCell, socket). */
  constructor({box, resign, claim, table}) {
    this.box = box;
    this.resignButton = resign;
    this.claimBox = claim;
    this.table = table;
    this.claimTimer = null;
    this.claimKey = null;
    this.resignButton.addEventListener('click', () => this.askResign());
  }

  update(frame, renderer) {
    this.resignButton.classList.toggle('hidden', !frame.can_resign);
    if (!frame.can_resign) this.closeConfirm();
    this.updateClaim(frame);
    this.renderFinal(frame, renderer);
  }

  // -- resign -----------------------------------------------------------------------------------

  askResign() {
    this.closeConfirm();
    const seats = (this.table.frame && this.table.frame.seats) || [];
    const others = seats.filter((s) => s.seat !== this.table.frame.seat).length;
    const what = others > 1 ? 'You leave the game and rank last; a bot plays your seat to the end.'
      : 'The other player wins.';
    this.confirm = el('div', {class: 'confirm', testid: 'resign-confirm', role: 'alertdialog'},
      el('p', {}, el('b', {}, 'Resign this game? '), what, this.table.frame.rated ? ' It counts in the ratings.' : ''),
      el('button', {type: 'button', testid: 'resign-yes', onclick: () => this.resign()}, 'Yes, resign'),
      ' ',
      el('button', {type: 'button', testid: 'resign-no', onclick: () => this.closeConfirm()}, 'No, play on'));
    this.resignButton.after(this.confirm);
  }

  closeConfirm() {
    if (this.confirm) this.confirm.remove();
    this.confirm = null;
  }

  resign() {
    this.closeConfirm();
    if (!this.table.socket.send({type: 'resign'})) {
      this.table.showError({code: 'offline', message: 'not connected to the server — you did not resign.'});
    }
  }

  // -- claim ------------------------------------------------------------------------------------

  updateClaim(frame) {
    const abandon = frame.abandon;
    clearTimeout(this.claimTimer);
    if (!abandon) {
      this.claimBox.classList.add('hidden');
      this.claimKey = null;
      return;
    }
    const names = listOf(abandon.seats.map((seat) => this.table.seatName(seat)));
    const key = `${frame.step}:${abandon.seats.join(',')}:${abandon.gone_for}`;
    if (key !== this.claimKey) {  // counted from this frame's arrival, on the page's clock
      this.claimKey = key;
      this.claimDue = Date.now() + abandon.wait * 1000;
      this.claimChoice = null;
    }
    const left = Math.max(0, Math.ceil((this.claimDue - Date.now()) / 1000));
    this.claimBox.classList.remove('hidden');
    this.claimBox.dataset.ready = String(left === 0);
    if (left > 0) {
      replace(this.claimBox, el('p', {testid: 'claim-wait'},
        `${names} left the game. If they do not come back within ${left} s you may claim the win or end the game.`));
      this.claimTimer = setTimeout(() => this.updateClaim(frame), Math.min(1000, this.claimDue - Date.now()));
      return;
    }
    if (this.claimChoice) {
      const win = this.claimChoice === 'claim_win';
      replace(this.claimBox, el('p', {}, el('b', {}, win ? 'Claim the win? ' : 'End the game with no result? '),
        win ? `${names} will rank last.` : 'Nobody wins and the ratings do not change.'),
      el('button', {type: 'button', testid: 'claim-yes', onclick: () => this.claim(this.claimChoice)}, win ? 'Yes, claim the win' : 'Yes, end it'),
      ' ', el('button', {type: 'button', testid: 'claim-no', onclick: () => this.choose(frame, null)}, 'No, wait'));
      return;
    }
    replace(this.claimBox,
      el('p', {testid: 'claim-ready'}, `${names} left the game.`),
      el('button', {type: 'button', testid: 'claim-win', onclick: () => this.choose(frame, 'claim_win')}, 'Claim the win'),
      ' ', el('button', {type: 'button', testid: 'claim-end', onclick: () => this.choose(frame, 'claim_end')}, 'End with no result'));
  }

  choose(frame, choice) {
    this.claimChoice = choice;
    this.updateClaim(frame);
  }

  claim(type) {
    this.claimChoice = null;
    if (!this.table.socket.send({type})) {
      this.table.showError({code: 'offline', message: 'not connected to the server — nothing was claimed.'});
    }
  }

  // -- the end box ------------------------------------------------------------------------------

  renderFinal(frame, renderer) {
    if (frame.status !== 'finished') {
      this.box.classList.add('hidden');
      return;
    }
    const t = this.table;
    const result = frame.result;
    const scores = frame.scores || [];
    const standings = result ? result.standings
      : scores.map((score, seat) => ({seat, score, place: null})).sort((a, b) => b.score - a.score);
    const winners = result ? result.winners : [];
    const rows = standings.map((entry) => {
      const seat = entry.seat;
      const won = winners.includes(seat);
      const note = entry.out ? OUT_WORDS[entry.out] || entry.out : won ? (winners.length > 1 ? '= draw' : '★ winner') : '';
      return el('tr', {class: won ? 'winner' : '', testid: `final-row-${seat}`},
        el('td', {class: 'num', testid: `final-place-${seat}`}, entry.place ? `${entry.place}.` : ''),
        el('td', {}, t.swatch(seat), ' ', t.seatName(seat), seat === frame.seat ? ' (you)' : ''),
        el('td', {class: 'num', testid: `final-score-${seat}`}, t.scoreText(frame, renderer, seat, true)),
        el('td', {testid: `final-note-${seat}`}, note),
        t.ratingCell(frame, seat));
    });
    const extra = renderer.finalNote ? renderer.finalNote(frame) : '';
    replace(this.box,
      el('h3', {}, 'Final scores'),
      el('p', {class: 'end-reason', testid: 'end-reason', dataset: {reason: result ? result.reason : ''}},
        resultHeadline(result, (seat) => t.seatName(seat))),
      el('table', {class: 'final-table'}, el('tbody', {}, rows)),
      extra ? el('p', {class: 'muted'}, extra) : '',
      el('p', {class: 'muted', testid: 'rated-note'}, frame.rated
        ? ['Rated game: ratings updated (', el('a', {href: `/leaderboard/${encodeURIComponent(frame.game)}`, testid: 'final-leaderboard-link'}, 'leaderboard'), ').']
        : 'Not rated.'),
      el('p', {}, el('a', {href: `/replay/${encodeURIComponent(t.gameId)}`, testid: 'replay-link'}, 'Watch the replay'),
        ' · ', el('a', {href: '/', testid: 'lobby-link'}, 'Back to the lobby')));
    this.box.classList.remove('hidden');
  }
}
