// Fallback renderer for a game without its own module (a game of one's own, installed as a
// plugin): the seat's view as a readable table of its fields, each nested value as compact
// JSON, the whole view as JSON below it, and the moves as the shell's list of legal moves
// (buttons with the game's descriptions, opened by default).

import {el, replace} from '../util.js';

const label = (key) => key.replace(/_/g, ' ');

/** A field's value as short text: scalars as they are, a list of scalars joined, else JSON. */
function valueText(value) {
  if (value === null || value === undefined) return '—';
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) {
    return value.length ? value.map((v) => (v === null ? '—' : String(v))).join(', ') : '(none)';
  }
  return JSON.stringify(value);
}

export function createGeneric(ctx) {
  return {
    render(frame) {
      const details = document.getElementById('all-actions');
      if (details && ctx.interactive) details.open = true;
      const view = frame.view || {};
      const rows = Object.entries(view).map(([key, value]) => el('tr', {testid: `view-${key}`},
        el('th', {}, label(key)), el('td', {}, valueText(value))));
      replace(ctx.board, el('div', {class: 'generic-view', testid: 'generic-view'},
        el('p', {class: 'muted'}, 'This game has no board drawing: its position is shown as the game describes it. Choose a move in the list of legal moves.'),
        el('table', {class: 'generic-fields', testid: 'generic-fields'}, el('tbody', {}, rows)),
        el('details', {}, el('summary', {}, 'The view as JSON'),
          el('pre', {testid: 'generic-json'}, JSON.stringify(view, null, 1)))));
    },
  };
}

export const create = createGeneric;
