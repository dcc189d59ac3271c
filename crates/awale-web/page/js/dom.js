// The page's elements made the same way everywhere.

// An element `tag` of class `className` saying `text`: text only, never
// read as HTML.
export function textEl(tag, className, text) {
  const e = document.createElement(tag);
  e.className = className;
  e.textContent = text;
  return e;
}

// When `items` is empty, says so in the list `list` (an item of class
// `empty` saying `text`): whether it is.
export function sayEmpty(list, items, text) {
  if (items.length) return false;
  list.append(textEl("li", "empty", text));
  return true;
}

// A button (not a form's submit) saying `text`, of class `cls` when given,
// that runs `onclick`.
export function button(text, cls, onclick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (cls) b.className = cls;
  b.onclick = onclick;
  return b;
}

// The icon `name` of the page's own drawings (`#i-NAME` in index.html,
// never a font's glyph), hidden from screen readers: its element says it.
export function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "i");
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
  use.setAttribute("href", `#i-${name}`);
  svg.append(use);
  return svg;
}
