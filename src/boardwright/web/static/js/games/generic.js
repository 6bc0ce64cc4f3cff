// Fallback renderer for a game without its own module: the view as text, and the moves as the
// shell's list of legal moves (opened by default).

import {el, replace} from '../util.js';

export function createGeneric(ctx) {
  return {
    render(frame) {
      const details = document.getElementById('all-actions');
      if (details) details.open = true;
      replace(ctx.board, el('pre', {class: 'generic-view', testid: 'generic-view'},
        JSON.stringify(frame.view, null, 1)));
    },
  };
}

export const create = createGeneric;
