// A form's error box: what the server (or the page) refused, in its own words. Every refusal
// of the lobby's forms is shown through here, whatever its HTTP status (a 400 naming an
// option, a 409, a 413, a 429 saying when to try again), so each form shows them alike.

import {replace} from './util.js';

/** Show `message` in `box` (a role="alert" element), or hide the box when it is empty;
 *  `lead` is said before it ("The game was not created: "). */
export function showFormError(box, message, lead = '') {
  if (!box) return;
  replace(box, message ? `${lead}${message}` : '');
  box.classList.toggle('hidden', !message);
  if (message) box.dataset.status = '';
  // below the button on a short screen: a refusal (a bad option, a limit reached) is seen
  if (message && box.scrollIntoView) box.scrollIntoView({block: 'nearest'});
}

/** Show an API error (api.js's ApiError: message and HTTP status) in `box`. */
export function showServerError(box, err, lead = '') {
  showFormError(box, err && err.message ? err.message : String(err), lead);
  if (box && err && err.status !== undefined) box.dataset.status = String(err.status);
}
