// The lobby's "you" card: choose or change your name, the games where your name holds a seat
// (with a link to play or replay each), and the leaderboards. Names are inserted as text only.

import * as api from './api.js';
import {el, replace} from './util.js';

const box = document.getElementById('me');

let me = {id: null, name: null};
let editing = false;

function nameForm() {
  const input = el('input', {type: 'text', name: 'name', testid: 'name-input', maxlength: '24',
    placeholder: 'your name', autocomplete: 'nickname', value: me.name || ''});
  const error = el('div', {class: 'error hidden', testid: 'name-error', role: 'alert'});
  const form = el('form', {class: 'name-form', testid: 'name-form'},
    el('label', {}, me.name ? 'New name ' : 'Choose a name to play under ', input), ' ',
    el('button', {type: 'submit', class: 'primary', testid: 'name-save'}, me.name ? 'Change' : 'Save'),
    me.name ? el('button', {type: 'button', testid: 'name-cancel', onclick: () => { editing = false; render(); }}, 'Cancel') : '',
    error);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      me = await api.setMyName(input.value);
    } catch (err) {
      replace(error, err.message);
      error.classList.remove('hidden');
      return;
    }
    editing = false;
    render();
    refreshGames();
  });
  return form;
}

function who() {
  if (!me.name || editing) return nameForm();
  return el('p', {class: 'me-line'}, 'Playing as ',
    el('strong', {testid: 'my-name'}, me.name), ' ',
    el('button', {type: 'button', class: 'small', testid: 'name-change', onclick: () => { editing = true; render(); }}, 'change'),
    el('span', {class: 'muted'}, ' — this browser keeps your name in a private cookie; there is no password, so clearing cookies loses it.'));
}

function seatNames(game) {
  return (game.seats || []).map((s) => el('span', {class: `seat-chip ${s.kind === 'human' ? 'on' : 'bot'}${s.seat === game.my_seat ? ' mine' : ''}`},
    s.name || (s.kind === 'human' ? `seat ${s.seat + 1}` : (s.level || s.kind))));
}

const REASON_WORDS = {score: 'on score', time: 'on time', resignation: 'by resignation',
  abandonment: 'the others left'};

/** A finished game's outcome for this player: "won on score", "lost by resignation", "2nd
 * of 3 on score", "no result (the others left)"; else the game's status. */
function statusText(game) {
  const result = game.result;
  if (!result) return game.status;
  const reason = REASON_WORDS[result.reason] || result.reason;
  if (result.outcome === 'none') return `no result (${reason})`;
  const mine = (result.standings || []).find((s) => s.seat === game.my_seat);
  if (!mine || !mine.place) return `finished ${reason}`;
  if ((result.winners || []).includes(game.my_seat)) return `won ${reason}`;
  const count = (result.standings || []).length;
  return count > 2 ? `place ${mine.place} of ${count} ${reason}` : `lost ${reason}`;
}

function gamesTable(list) {
  if (!list.length) return el('p', {class: 'muted', testid: 'my-games-empty'}, 'No game yet: open a join link, or take an open seat, while your name is set.');
  return el('table', {class: 'games-table', testid: 'my-games-table'},
    el('thead', {}, el('tr', {}, ['Game', 'Id', 'Players', 'Status', 'Step', ''].map((h) => el('th', {}, h)))),
    el('tbody', {}, list.map((game) => el('tr', {testid: `my-game-${game.id}`, dataset: {gameId: game.id}},
      el('td', {}, game.game, game.rated ? el('span', {class: 'rated-mark', title: 'rated'}, ' ★') : ''),
      el('td', {class: 'mono'}, game.id),
      el('td', {}, seatNames(game)),
      el('td', {testid: `my-game-status-${game.id}`}, statusText(game)),
      el('td', {class: 'num'}, String(game.step ?? '')),
      el('td', {}, el('a', {href: game.url, testid: `my-game-link-${game.id}`},
        game.status === 'finished' ? 'replay' : 'play'))))));
}

let gamesBox = null;
let boardsBox = null;

async function refreshGames() {
  if (!gamesBox) return;
  if (!me.name) {
    replace(gamesBox, el('p', {class: 'muted'}, 'Choose a name to see your games here.'));
    return;
  }
  try {
    replace(gamesBox, gamesTable(await api.myGames()));
  } catch (err) {
    replace(gamesBox, el('p', {class: 'error'}, err.message));
  }
}

async function renderBoards() {
  try {
    const data = await api.catalog();
    replace(boardsBox, 'Leaderboards: ', (data.games || []).map((g, i) => [i ? ' · ' : '',
      el('a', {href: `/leaderboard/${encodeURIComponent(g.name)}`, testid: `leaderboard-link-${g.name}`}, g.name)]));
  } catch {
    replace(boardsBox, '');
  }
}

function render() {
  gamesBox = gamesBox || el('div', {id: 'my-games', testid: 'my-games'});
  boardsBox = boardsBox || el('p', {class: 'boards', testid: 'leaderboards'});
  replace(box, el('h2', {}, 'You'), who(), el('h3', {}, 'My games'), gamesBox, boardsBox);
  box.dataset.name = me.name || '';
}

async function start() {
  if (!box) return;
  try {
    me = await api.getMe();
  } catch {
    me = {id: null, name: null};
  }
  render();
  renderBoards();
  await refreshGames();
  box.dataset.ready = 'true';
  setInterval(refreshGames, 5000);
}

start();
