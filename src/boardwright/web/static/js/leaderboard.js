// A game's leaderboard: /leaderboard/<game> shows /api/leaderboard/<game> (names as text),
// under the game's title.

import * as api from './api.js';
import {el, replace} from './util.js';
import {gameInfo} from './gameinfo.js';

const game = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');
const board = document.getElementById('board');
const error = document.getElementById('error');

async function start() {
  const {title} = await gameInfo(game);  // the game's title, as the server declares it
  document.getElementById('game-title').textContent = `Leaderboard · ${title}`;
  document.title = `${title} leaderboard — boardwright`;
  let me = {id: null};
  try {
    me = await api.getMe();
  } catch { /* nobody */ }
  let data;
  try {
    data = await api.leaderboard(game);
  } catch (err) {
    replace(error, err.message);
    error.classList.remove('hidden');
    document.body.dataset.ready = 'true';
    return;
  }
  const players = data.players || [];
  if (!players.length) {
    replace(board, el('p', {class: 'muted', testid: 'leaderboard-empty'}, 'No rated game of this game has ended yet.'));
  } else {
    replace(board, el('table', {class: 'leaderboard-table'},
      el('thead', {}, el('tr', {}, el('th', {class: 'num'}, '#'), el('th', {}, 'Name'), el('th', {}, ''),
        el('th', {class: 'num'}, 'Rating'), el('th', {class: 'num'}, 'Games'))),
      el('tbody', {}, players.map((p) => el('tr', {testid: `leaderboard-row-${p.rank}`,
        class: me.id && p.player === `id:${me.id}` ? 'me' : '', dataset: {player: p.player}},
      el('td', {class: 'num'}, String(p.rank)),
      el('td', {class: 'name', testid: `leaderboard-name-${p.rank}`}, p.name),
      el('td', {class: 'muted'}, p.kind === 'bot' ? 'bot' : ''),
      el('td', {class: 'num', testid: `leaderboard-rating-${p.rank}`, title: `mu ${p.mu}, sigma ${p.sigma}`}, p.rating.toFixed(1)),
      el('td', {class: 'num', testid: `leaderboard-games-${p.rank}`}, String(p.games)))))));
  }
  document.body.dataset.ready = 'true';
}

start();
