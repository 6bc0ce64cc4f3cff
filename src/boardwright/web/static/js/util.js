// Small DOM helpers shared by every page (no framework, no build step).

export const SVG_NS = 'http://www.w3.org/2000/svg';

/** Create an HTML element: el('button', {class: 'x', dataset: {testid: 'y'}, onclick}, 'text', child). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  applyAttrs(node, attrs);
  appendChildren(node, children);
  return node;
}

/** Create an SVG element with attributes. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  applyAttrs(node, attrs);
  appendChildren(node, children);
  return node;
}

function applyAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'dataset') {
      for (const [k, v] of Object.entries(value)) node.dataset[k] = v;
    } else if (key === 'testid') {
      node.setAttribute('data-testid', value);
    } else if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else if (key === 'text') {
      node.textContent = value;
    } else if (value === true) {
      node.setAttribute(key, '');
    } else {
      node.setAttribute(key, value);
    }
  }
}

function appendChildren(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** Replace the children of `node`. */
export function replace(node, ...children) {
  clear(node);
  appendChildren(node, children);
  return node;
}

/** A small popup menu of choices at the mouse position (or centred); resolves with the chosen
 *  option or null. Every button has data-testid="choice-<i>". */
export function chooseFrom(options, {title = 'Choose', event = null} = {}) {
  closeMenus();
  return new Promise((resolve) => {
    const menu = el('div', {class: 'choice-menu', testid: 'choice-menu', role: 'menu'});
    menu.append(el('div', {class: 'choice-title'}, title));
    options.forEach((option, i) => {
      menu.append(el('button', {
        class: 'choice', testid: `choice-${i}`, type: 'button',
        onclick: (e) => { e.stopPropagation(); closeMenus(); resolve(option); },
      }, option.label));
    });
    menu.append(el('button', {
      class: 'choice cancel', testid: 'choice-cancel', type: 'button',
      onclick: (e) => { e.stopPropagation(); closeMenus(); resolve(null); },
    }, 'Cancel'));
    document.body.append(menu);
    const rect = menu.getBoundingClientRect();
    let x = event ? event.clientX + 8 : (window.innerWidth - rect.width) / 2;
    let y = event ? event.clientY + 8 : (window.innerHeight - rect.height) / 2;
    x = Math.max(4, Math.min(x, window.innerWidth - rect.width - 4));
    y = Math.max(4, Math.min(y, window.innerHeight - rect.height - 4));
    menu.style.left = `${x}px`;
    menu.style.top = `${y}px`;
  });
}

export function closeMenus() {
  for (const menu of document.querySelectorAll('.choice-menu')) menu.remove();
}

const jsonCache = new Map();
/** Fetch a static JSON file once per page. */
export function loadJson(url) {
  if (!jsonCache.has(url)) {
    jsonCache.set(url, fetch(url).then((r) => {
      if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
      return r.json();
    }));
  }
  return jsonCache.get(url);
}

export function titleCase(text) {
  return String(text).replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}
