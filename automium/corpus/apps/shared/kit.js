// The helpers every owned app loads before its own script: the element builder, the form
// and table pieces the apps build alike, the run's stored state and the sign-in call. Each
// app used to carry its own copy of these; one copy keeps them from drifting apart. It is a
// plain script, as the apps are (no modules, no build step): it defines nothing global but
// window.kit, so no name of an app's script can collide with one of these.
"use strict";

window.kit = (() => {
  // ---- elements ----

  // An element with attributes and children, so a page reads as the tree it builds.
  // Attributes: false, null and undefined leave the attribute off and true sets it empty, so a
  // condition can stand in place; on<event> adds a listener; text sets the text; checked sets
  // the control's state itself (the property: the attribute is only its default).
  // Children: nodes, strings (or numbers), or arrays of them, such as a map's result; null,
  // undefined and false are skipped, so a part that is shown only sometimes stays in place.
  function h(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value === false || value === null || value === undefined) continue;
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "text") node.textContent = value;
      else if (key === "checked") node.checked = Boolean(value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === false || child === null || child === undefined) continue;
      node.append(child);
    }
    return node;
  }

  // A labelled control: the label names the control by its id, so the id is set here.
  function field(id, label, control) {
    control.id = id;
    return h("div", { class: "field" }, h("label", { for: id, text: label }), control);
  }

  // A select whose options are their own values, with `chosen` selected.
  function select(options, chosen, attributes = {}) {
    return h("select", attributes, options.map((o) => h("option", { value: o, selected: o === chosen }, o)));
  }

  // A table named by `name`, with column headers; a row's cells are text or nodes.
  function table(name, headers, rows) {
    return h("table", { "aria-label": name },
      h("thead", {}, h("tr", {}, headers.map((text) => h("th", { scope: "col", text })))),
      h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((c) => h("td", {}, c))))));
  }

  // An error message region, in the page only while it holds a message.
  function alertSlot() {
    return h("div", { role: "alert", hidden: true });
  }

  // Shows `message` in a slot, or hides the slot when there is none.
  function say(slot, message) {
    slot.textContent = message;
    slot.hidden = !message;
  }

  // Saves what `href` holds as a file named `filename`: a download link, clicked once.
  function downloadUrl(filename, href) {
    const link = h("a", { href, download: filename });
    document.body.append(link);
    link.click();
    link.remove();
  }

  // Saves `text`, made by the page, as a file.
  function download(filename, text, type = "text/csv") {
    downloadUrl(filename, URL.createObjectURL(new Blob([text], { type })));
  }

  // ---- dates: the seed's, shown the same way by every app ----

  const MONTHS = Object.freeze(["January", "February", "March", "April", "May", "June", "July",
    "August", "September", "October", "November", "December"]);

  // "2024-03" -> "March 2024".
  function monthYear(isoMonth) {
    const [year, month] = isoMonth.split("-");
    return `${MONTHS[Number(month) - 1]} ${year}`;
  }

  // ---- the run's state and the host ----

  // The run's state, kept in localStorage under the key the host's boot object gives (new for
  // every server), so it survives navigation and reloads within a run and a new run starts
  // from the seed. When nothing is stored yet, initial(boot) makes it from a copy of the boot
  // object, so the state never shares an object with the seed. save() writes it back.
  function stored(initial) {
    const key = window.AUTOMIUM.storageKey;
    const saved = localStorage.getItem(key);
    const state = saved !== null ? JSON.parse(saved) : initial(JSON.parse(JSON.stringify(window.AUTOMIUM)));
    return { state, save: () => localStorage.setItem(key, JSON.stringify(state)) };
  }

  // The account ref the host matches to these credentials, or null. The host checks them
  // against the app's accounts, so no expected secret ever reaches the page.
  async function signIn(profile, secrets) {
    const response = await fetch("/api/sign-in", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ profile, secrets }),
    });
    return response.ok ? (await response.json()).account : null;
  }

  return Object.freeze({
    h, field, select, table, alertSlot, say, downloadUrl, download, MONTHS, monthYear, stored, signIn,
  });
})();
