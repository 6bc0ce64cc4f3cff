// The lobby's options form, built from a game's option specs (GET /api/catalog: each game's
// option_specs by player count; the game declares them once, core/options.py). Nothing is typed
// as JSON: a true/false option is a checkbox, a choice a select, a whole number a number field
// with its range, a list of choices a set of checkboxes (expansions) or one select per item when
// its length is fixed (one hero per seat), a free list a text field of names separated by spaces
// or commas. Options that need another option's value (the Abbey & Mayor pieces need the
// expansion) are shown only when it holds. Object-valued options (a map given inline, a
// position) are named but set through the API or the CLI. Only values that differ from the
// defaults are sent. Each option is shown by its label (the game's words: "Starting tile"); a
// whole number that names a seat is a choice of seats counted from 1; options the game marks
// advanced (puzzles, tests, tools) go in a second box, the lobby's folded "Advanced" section.

import {el, replace} from './util.js';

const label = (spec, value) => (spec.labels && spec.labels[value]) || String(value);

function holds(values, key, wanted) {
  const value = values[key];
  return Array.isArray(value) ? value.includes(wanted) : value === wanted;
}

function applies(spec, values) {
  return Object.entries(spec.requires || {}).every(([key, wanted]) => holds(values, key, wanted));
}

function fixedLength(spec) {
  return spec.type === 'list' && spec.choices && spec.min !== undefined && spec.min === spec.max;
}

/** The control of one option and how to read it back (undefined: not set). */
function control(spec, previous) {
  const id = `option-${spec.name}`;
  const start = previous !== undefined ? previous : spec.default;
  if (spec.type === 'int' && spec.seat) { // a seat: 0 in the data, "Seat 1" for people
    const count = (spec.max ?? 0) - (spec.min ?? 0) + 1;
    const select = el('select', {id, testid: id, name: id}, Array.from({length: Math.max(count, 1)}, (_, i) => {
      const seat = (spec.min ?? 0) + i;
      return el('option', {value: String(seat), selected: seat === start}, `Seat ${seat + 1}`);
    }));
    return {node: select, read: () => Number(select.value)};
  }
  if (spec.type === 'bool') {
    const box = el('input', {type: 'checkbox', id, testid: id, name: id, checked: Boolean(start)});
    return {node: box, read: () => box.checked};
  }
  if (spec.type === 'int') {
    const input = el('input', {type: 'number', id, testid: id, name: id, step: 1, min: spec.min, max: spec.max,
      value: start === null || start === undefined ? '' : String(start),
      placeholder: spec.default === null ? 'not set' : String(spec.default)});
    return {node: input, read: () => (input.value.trim() === '' ? undefined : Number(input.value))};
  }
  if (spec.type === 'str' && spec.choices) {
    const select = el('select', {id, testid: id, name: id},
      spec.choices.map((c) => el('option', {value: c, selected: c === start}, label(spec, c))));
    return {node: select, read: () => select.value};
  }
  if (spec.type === 'list' && fixedLength(spec)) {
    const chosen = Array.isArray(start) ? start : [];
    const selects = Array.from({length: spec.min}, (_, i) => el('select', {testid: `${id}-${i}`, name: `${id}-${i}`,
      'aria-label': `${spec.name} ${i + 1}`},
    el('option', {value: ''}, '—'),
    spec.choices.map((c) => el('option', {value: c, selected: chosen[i] === c}, label(spec, c)))));
    return {node: el('span', {class: 'option-items', id}, selects),
      read: () => (selects.every((s) => s.value === '') ? undefined : selects.map((s) => s.value))};
  }
  if (spec.type === 'list' && spec.choices) {
    const chosen = new Set(Array.isArray(start) ? start : []);
    const boxes = spec.choices.map((c) => el('input', {type: 'checkbox', testid: `${id}-${c}`, name: `${id}-${c}`,
      value: c, checked: chosen.has(c)}));
    return {node: el('span', {class: 'option-items', id},
      boxes.map((box, i) => el('label', {class: 'check'}, box, ' ', label(spec, spec.choices[i])))),
    read: () => boxes.filter((b) => b.checked).map((b) => b.value)};
  }
  if (spec.type === 'list') {
    const input = el('input', {type: 'text', id, testid: id, name: id, spellcheck: 'false',
      value: Array.isArray(start) ? start.join(' ') : '', placeholder: 'names separated by spaces or commas'});
    return {node: input, read: () => {
      const items = input.value.split(/[\s,]+/).filter(Boolean);
      return items.length ? items : undefined;
    }};
  }
  if (spec.type === 'str') {
    const input = el('input', {type: 'text', id, testid: id, name: id, value: start ?? ''});
    return {node: input, read: () => (input.value === '' ? undefined : input.value)};
  }
  if (spec.type === 'json') { // a plugin option known only by name: JSON when it parses, else text
    const input = el('input', {type: 'text', id, testid: id, name: id, spellcheck: 'false',
      value: start === null || start === undefined ? '' : (typeof start === 'string' ? start : JSON.stringify(start))});
    return {node: input, read: () => {
      const text = input.value.trim();
      if (text === '') return undefined;
      try { return JSON.parse(text); } catch { return text; }
    }};
  }
  return null; // "object": not in the form
}

function same(a, b) {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Build the form for `specs` in `box` (the advanced ones in `advancedBox` when given), keeping
 *  `previous` values (name -> value) where the options still exist. Returns {read(): the
 *  options to send, values(): every current value}. */
export function optionForm(box, specs, previous = {}, advancedBox = null) {
  const fields = [];
  const elsewhere = [];
  for (const spec of specs) {
    const made = control(spec, previous[spec.name]);
    if (!made) {
      elsewhere.push(spec);
      continue;
    }
    const help = el('small', {class: 'option-help muted', testid: `option-help-${spec.name}`}, spec.help);
    const title = spec.label || spec.name.replace(/_/g, ' ');
    const row = spec.type === 'bool'
      ? el('label', {class: 'option check', testid: `option-row-${spec.name}`, title: spec.help}, made.node, ' ', title, help)
      : el('label', {class: 'option', testid: `option-row-${spec.name}`, title: spec.help}, title, made.node, help);
    fields.push({spec, row, read: made.read, advanced: Boolean(spec.advanced && advancedBox)});
  }
  const values = () => {
    const out = {};
    for (const f of fields) out[f.spec.name] = f.read();
    return out;
  };
  const refresh = () => {
    const now = values();
    for (const f of fields) {
      const on = applies(f.spec, now);
      f.row.classList.toggle('hidden', !on);
      for (const input of f.row.querySelectorAll('input, select')) input.disabled = !on;
    }
  };
  const main = fields.filter((f) => !f.advanced);
  const folded = fields.filter((f) => f.advanced);
  const away = elsewhere.length ? el('p', {class: 'muted option-elsewhere', testid: 'options-elsewhere'},
    'Through the API or the CLI only: ', elsewhere.map((s) => s.label || s.name).join(', '), '.') : null;
  replace(box,
    main.length ? main.map((f) => f.row) : el('p', {class: 'muted'}, 'This game has no options.'),
    advancedBox ? null : away);
  if (advancedBox) replace(advancedBox, folded.map((f) => f.row), away);
  box.onchange = refresh; // one listener per form, replaced with the form
  if (advancedBox) advancedBox.onchange = refresh;
  refresh();
  return {
    values,
    read() {
      const now = values();
      const out = {};
      for (const f of fields) {
        const value = now[f.spec.name];
        if (value === undefined || !applies(f.spec, now) || same(value, f.spec.default)) continue;
        out[f.spec.name] = value;
      }
      return out;
    },
  };
}
