// "How to play here": a short help for the game at this table, opened from the top bar. The
// texts are static files, one per game (static/help/<game>.html, a general one for games
// without their own) followed by what every table shares (static/help/common.html); they are
// our own pages, loaded as HTML into a <dialog>.

import {el} from './util.js';

const HELP_DIR = '/static/help';

async function fetchText(url) {
  const response = await fetch(url);
  return response.ok ? response.text() : null;
}

/** The help of `game` as HTML: its own page, or the general one, then the common part. */
export async function helpHtml(game) {
  const own = await fetchText(`${HELP_DIR}/${encodeURIComponent(game)}.html`);
  const body = own ?? await fetchText(`${HELP_DIR}/generic.html`) ?? '';
  const common = await fetchText(`${HELP_DIR}/common.html`) ?? '';
  return body + common;
}

/** A "How to play" button in the top bar that opens the game's help in a dialog. */
export function installHelp(topbar, gameOf) {
  const dialog = el('dialog', {class: 'help-dialog', testid: 'help-dialog'});
  const content = el('div', {class: 'help-content', testid: 'help-content'});
  const close = el('button', {type: 'button', class: 'help-close', testid: 'help-close',
    onclick: () => dialog.close()}, 'Close');
  dialog.append(close, content);
  document.body.append(dialog);
  let loaded = null;
  const button = el('button', {type: 'button', class: 'help-button', testid: 'help-button',
    title: 'How to play at this table', onclick: async () => {
      const game = gameOf();
      if (!game) return;
      if (loaded !== game) {
        content.innerHTML = await helpHtml(game);  // our own static pages, not user input
        loaded = game;
      }
      dialog.showModal();
    }}, 'How to play');
  const spacer = topbar.querySelector('.spacer');
  topbar.insertBefore(button, spacer ? spacer.nextSibling : null);
  dialog.addEventListener('click', (event) => {  // a click outside the box closes it
    if (event.target === dialog) dialog.close();
  });
  return button;
}
