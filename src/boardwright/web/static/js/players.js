// The lobby's "you" card: choose or change your name, the games where your name holds a seat
// (with a link to play or replay each), and the leaderboards. Names are inserted as text only.

import * as api from './api.js';
import {showFormError, showServerError} from './formerror.js';
import {el, replace} from './util.js';

const box = document.getElementById('me');

let me = {id: null, name: null};
let editing = false;
let catalog = null; // GET /api/catalog, once: the games' titles and the names' limits
let limits = {min_length: 2, max_length: 24}; // the server's (names.py), from the catalog

function loadCatalog() {
  if (!catalog) {
    catalog = api.catalog().then((data) => {
      if (data.names) limits = data.names;
      return data;
    }).catch(() => { catalog = null; return {games: []}; });
  }
  return catalog;
}

function titleOf(data, name) {
  return ((data.games || []).find((g) => g.name === name) || {}).title || name;
}

const tooLong = (length) => `A name has at most ${limits.max_length} characters; this one has ${length}.`;

function nameForm() {
  const max = limits.max_length;
  const input = el('input', {type: 'text', name: 'name', testid: 'name-input', maxlength: String(max),
    placeholder: 'your name', autocomplete: 'nickname', value: me.name || '', 'aria-describedby': 'name-hint'});
  const error = el('div', {class: 'error hidden', testid: 'name-error', role: 'alert'});
  // A longer text (typed or pasted) is refused whole, saying so, instead of cut silently at
  // the limit; the server refuses it too.
  input.addEventListener('beforeinput', (event) => {
    if (!event.inputType || !event.inputType.startsWith('insert') || event.data == null) return;
    const kept = input.value.length - Math.abs((input.selectionEnd ?? 0) - (input.selectionStart ?? 0));
    if (kept + event.data.length > max) {
      event.preventDefault();
      showFormError(error, tooLong(kept + event.data.length));
    }
  });
  input.addEventListener('paste', (event) => {
    const text = event.clipboardData ? event.clipboardData.getData('text') : '';
    const kept = input.value.length - Math.abs((input.selectionEnd ?? 0) - (input.selectionStart ?? 0));
    if (kept + text.length > max) {
      event.preventDefault();
      showFormError(error, tooLong(kept + text.length));
    }
  });
  input.addEventListener('input', () => { if (input.value.length <= max) showFormError(error, ''); });
  const form = el('form', {class: 'name-form', testid: 'name-form'},
    el('label', {}, me.name ? 'New name ' : 'Choose a name to play under ', input), ' ',
    el('button', {type: 'submit', class: 'primary', testid: 'name-save'}, me.name ? 'Change' : 'Save'),
    me.name ? el('button', {type: 'button', testid: 'name-cancel', onclick: () => { editing = false; render(); }}, 'Cancel') : '',
    el('small', {class: 'muted name-hint', id: 'name-hint', testid: 'name-hint'},
      `up to ${max} characters: letters, digits, spaces and - _ . '`),
    error);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (input.value.length > max) { // (set by a script, past the field's limit)
      showFormError(error, tooLong(input.value.length));
      return;
    }
    try {
      me = await api.setMyName(input.value);
    } catch (err) {
      showServerError(error, err);
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
    s.name || (s.kind === 'human' ? `seat ${s.seat + 1}` : s.label || s.level || s.kind)));
}

// My games: the game by its title (the server's words), its players, where it stands, and a
// link. The status cell keeps a place (`my-game-result-<id>`) for how a finished game ended.

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
  return el('table', {class: 'games-table my-games-list', testid: 'my-games-table'},
    el('thead', {}, el('tr', {}, ['Game', 'Players', 'Status', ''].map((h) => el('th', {}, h)))),
    el('tbody', {}, list.map((game) => el('tr', {testid: `my-game-${game.id}`, dataset: {gameId: game.id}},
      el('td', {testid: `my-game-title-${game.id}`, title: game.id}, game.title || game.game,
        game.rated ? el('span', {class: 'rated-mark', title: 'rated'}, ' ★') : ''),
      el('td', {class: 'players'}, seatNames(game)),
      el('td', {testid: `my-game-status-${game.id}`},
        game.result ? statusText(game) : `${game.status}, move ${game.step ?? 0}`,
        el('span', {class: 'my-game-result', testid: `my-game-result-${game.id}`})),
      el('td', {class: 'link'}, el('a', {href: game.url, testid: `my-game-link-${game.id}`},
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
    const data = await loadCatalog();
    replace(boardsBox, 'Leaderboards: ', (data.games || []).map((g, i) => [i ? ' · ' : '',
      el('a', {href: `/leaderboard/${encodeURIComponent(g.name)}`, testid: `leaderboard-link-${g.name}`}, titleOf(data, g.name))]));
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
  await loadCatalog(); // the name's limit, before the form is drawn
  render();
  renderBoards();
  await refreshGames();
  box.dataset.ready = 'true';
  setInterval(refreshGames, 5000);
}

start();
