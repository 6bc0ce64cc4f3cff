// The lobby's "Table" settings, built from the catalog's `table_form` (what POST /api/games
// takes beside the game's options): a time control (none, seconds per turn, or minutes plus an
// increment), what a time-out does, and whether the game is rated.

import {el, replace} from './util.js';

const CONTROL_LABELS = {per_move: 'seconds per turn', fischer: 'minutes + increment'};

function numberField(name, spec) {
  const input = el('input', {type: 'number', name, min: spec.min, max: spec.max,
    step: 'any', value: spec.default, testid: `clock-${name}`});
  return {input, label: el('label', {title: spec.help}, `${spec.unit === 'minutes' ? 'Minutes' : name === 'increment' ? 'Increment (s)' : 'Seconds per turn'}`, input,
    el('span', {class: 'muted small'}, spec.help))};
}

/** Build the settings into `box`; returns {read()} giving the body fields to send. */
export function tableForm(box, form) {
  const clock = form.clock;
  const control = el('select', {name: 'clock', testid: 'clock-control'},
    el('option', {value: ''}, 'no clock'),
    Object.keys(clock.choices).map((key) => el('option', {value: key}, CONTROL_LABELS[key] || key)));
  const fields = {};
  const groups = {};
  for (const [key, parts] of Object.entries(clock.choices)) {
    groups[key] = el('div', {class: 'clock-fields hidden', testid: `clock-fields-${key}`});
    for (const [name, spec] of Object.entries(parts)) {
      const field = numberField(name, spec);
      fields[name] = field.input;
      groups[key].append(field.label);
    }
  }
  const timeout = el('select', {name: 'on_timeout', testid: 'clock-timeout'},
    form.on_timeout.choices.map((choice) => el('option', {value: choice, selected: choice === form.on_timeout.default},
      choice === 'bot' ? 'a bot plays the turn' : choice === 'lose' ? 'the player loses' : choice)));
  const timeoutLabel = el('label', {class: 'hidden', title: form.on_timeout.help}, 'Out of time', timeout);
  const rated = el('input', {type: 'checkbox', name: 'rated', testid: 'rated', checked: form.rated.default});
  const sync = () => {
    for (const [key, group] of Object.entries(groups)) group.classList.toggle('hidden', control.value !== key);
    timeoutLabel.classList.toggle('hidden', !control.value);
  };
  control.addEventListener('change', sync);
  replace(box,
    el('label', {title: clock.help}, 'Clock', control),
    Object.values(groups), timeoutLabel,
    el('div', {class: 'check-row'},
      el('label', {class: 'check inline', testid: 'rated-label', title: form.rated.help}, rated, ' Rated'),
      el('small', {class: 'muted option-help'}, form.rated.help)));
  sync();
  return {
    read() {
      const body = {rated: rated.checked};
      if (!control.value) return body;
      const chosen = {};
      for (const name of Object.keys(clock.choices[control.value])) chosen[name] = Number(fields[name].value);
      body.clock = chosen;
      body.on_timeout = timeout.value;
      return body;
    },
  };
}
