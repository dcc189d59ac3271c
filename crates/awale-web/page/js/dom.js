// The page's elements made the same way everywhere.

// An element `tag` of class `className` saying `text`: text only, never
// read as HTML.
export function textEl(tag, className, text) {
  const e = document.createElement(tag);
  e.className = className;
  e.textContent = text;
  return e;
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
