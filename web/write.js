// Writes a page update from Python in one call. Python (web/browser/dom.py) hands over the
// update as JSON, element by element, and this applies it as the fields of PageUpdate say
// (src/attention_lessons/views/updates.py). Each call from Python into the DOM crosses Pyodide's
// bridge: a drag frame on Explore's plane made about 60 of them, one a write.
(() => {
  "use strict";
  const each = (part, write) => {
    for (const [id, value] of Object.entries(part)) write(document.getElementById(id), value);
  };
  globalThis.writePage = (json) => {
    const update = JSON.parse(json);
    each(update.texts, (node, text) => { node.textContent = text; });
    each(update.hidden, (node, hidden) => { node.hidden = hidden; });
    each(update.disabled, (node, disabled) => { node.disabled = disabled; });
    each(update.states, (node, state) => { node.dataset.state = state; });
    each(update.invalid, (node, invalid) => {
      node.setAttribute("aria-invalid", invalid ? "true" : "false");
    });
    each(update.attributes, (node, attributes) => {
      for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    });
    each(update.styles, (node, styles) => {
      for (const [name, value] of Object.entries(styles)) node.style.setProperty(name, value);
    });
    each(update.values, (node, value) => { node.value = value; });
    each(update.checked, (node, checked) => { node.checked = checked; });
  };
})();
