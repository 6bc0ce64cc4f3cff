// What a game is, as the server declares it once for every front end (the game's GameInfo, in
// GET /api/catalog): its title and its seats' names and colours. Every page (the table, the
// replay and its analysis, the leaderboard) and every game's renderer draws seats from here, so
// the browser and the terminal call a seat by the same name in the same colour.

import * as api from './api.js';

const UNKNOWN_COLOUR = '#888888';
let loading = null;

/** {title, seats: [{name, colour}, ...]} of game `name` (its name and no seats when the
 *  server does not list it, or cannot be reached: seats are then named by number). */
export async function gameInfo(name) {
  if (!loading) {
    loading = api.catalog().catch((err) => {
      loading = null;  // asked again next time
      console.warn('the catalog could not be loaded', err);
      return {games: []};
    });
  }
  const data = await loading;
  const entry = (data.games || []).find((g) => g.name === name);
  return entry ? {title: entry.title || name, seats: entry.seats || []} : {title: name, seats: []};
}

/** Seat `seat` of a game's info: {name, colour}; named by number beyond the game's table. */
export function seatOf(info, seat) {
  const seats = (info && info.seats) || [];
  return seats[seat] || {name: `Seat ${seat + 1}`, colour: UNKNOWN_COLOUR};
}
