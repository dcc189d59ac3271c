// The page's elements made the same way everywhere.

// An element `tag` of class `className` saying `text`: text only, never
// read as HTML.
export function textEl(tag, className, text) {
  const e = document.createElement(tag);
  e.className = className;
  e.textContent = text;
  return e;
}
