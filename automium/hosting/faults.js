// Breaks the page as the server was told (AUTOMIUM.faults), after every render, so that a
// journey has a failing variant: the element whose role and accessible name match a fault is
// removed, disabled, or renamed. Roles and names are found as getByRole sees them, for the
// elements the owned apps use (native elements first, explicit roles, aria-label[ledby],
// <label for>, text content); a MutationObserver re-applies the faults after each render.
(function () {
  "use strict";
  const faults = (window.AUTOMIUM && window.AUTOMIUM.faults) || [];
  if (!faults.length) return;

  const INPUT_ROLES = {
    button: "button", submit: "button", reset: "button", image: "button",
    checkbox: "checkbox", radio: "radio", range: "slider", number: "spinbutton",
    search: "searchbox",
  };
  const TAG_ROLES = {
    A: (el) => (el.hasAttribute("href") ? "link" : null),
    BUTTON: () => "button", SELECT: (el) => (el.multiple || el.size > 1 ? "listbox" : "combobox"),
    TEXTAREA: () => "textbox", H1: () => "heading", H2: () => "heading", H3: () => "heading",
    H4: () => "heading", H5: () => "heading", H6: () => "heading", NAV: () => "navigation",
    MAIN: () => "main", DIALOG: () => "dialog", UL: () => "list", OL: () => "list",
    LI: () => "listitem", TABLE: () => "table", TR: () => "row", TD: () => "cell",
    TH: () => "columnheader", FORM: () => "form", IMG: () => "img", OPTION: () => "option",
    HEADER: () => "banner", FOOTER: () => "contentinfo", ASIDE: () => "complementary",
    IFRAME: () => "iframe",
    INPUT: (el) => {
      const type = (el.getAttribute("type") || "text").toLowerCase();
      if (type === "hidden") return null;
      if (type === "file") return "button";
      return INPUT_ROLES[type] || "textbox";
    },
  };

  function roleOf(el) {
    const explicit = el.getAttribute("role");
    if (explicit) return explicit.split(/\s+/)[0];
    const implicit = TAG_ROLES[el.tagName];
    return implicit ? implicit(el) : null;
  }

  function text(value) {
    return (value || "").replace(/\s+/g, " ").trim();
  }

  function nameOf(el) {
    if (el.hasAttribute("aria-labelledby")) {
      return text(el.getAttribute("aria-labelledby").split(/\s+/)
        .map((id) => document.getElementById(id)).filter(Boolean)
        .map((n) => n.textContent).join(" "));
    }
    if (el.hasAttribute("aria-label")) return text(el.getAttribute("aria-label"));
    if (el.id && ["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName)) {
      const label = document.querySelector(`label[for="${CSS.escape(el.id)}"]`);
      if (label) return text(label.textContent);
    }
    const wrapping = el.closest("label");
    if (wrapping && wrapping !== el && ["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName)) {
      return text(wrapping.textContent);
    }
    if (el.tagName === "INPUT" && ["submit", "button", "reset"].includes(el.type)) {
      return text(el.value);
    }
    if (["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName)) {
      return text(el.getAttribute("title") || el.getAttribute("placeholder"));
    }
    if (["IFRAME", "IMG"].includes(el.tagName)) return text(el.getAttribute("title") || el.alt);
    return text(el.textContent);
  }

  function rename(el, to) {
    if (el.hasAttribute("aria-label")) { el.setAttribute("aria-label", to); return; }
    if (el.hasAttribute("aria-labelledby")) { el.removeAttribute("aria-labelledby"); el.setAttribute("aria-label", to); return; }
    if (el.id && ["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName)) {
      const label = document.querySelector(`label[for="${CSS.escape(el.id)}"]`);
      if (label) { label.textContent = to; return; }
    }
    if (el.tagName === "INPUT" && ["submit", "button", "reset"].includes(el.type)) { el.value = to; return; }
    if (["INPUT", "SELECT", "TEXTAREA", "IFRAME", "IMG"].includes(el.tagName)) { el.setAttribute("aria-label", to); return; }
    el.textContent = to;
  }

  let applying = false;
  function apply() {
    if (applying) return;
    applying = true;
    try {
      for (const fault of faults) {
        for (const el of document.body.querySelectorAll("*")) {
          if (roleOf(el) !== fault.role || nameOf(el) !== text(fault.name)) continue;
          if (fault.kind === "remove") el.remove();
          else if (fault.kind === "rename") rename(el, fault.to || "");
          else if (!el.disabled && el.getAttribute("aria-disabled") !== "true") {
            if ("disabled" in el) el.disabled = true;
            el.setAttribute("aria-disabled", "true");
          }
        }
      }
    } finally {
      applying = false;
    }
  }

  function start() {
    apply();
    new MutationObserver(apply).observe(document.body, {
      childList: true, subtree: true, characterData: true, attributes: true,
      attributeFilter: ["aria-label", "role", "disabled", "hidden"],
    });
  }
  if (document.body) start();
  else document.addEventListener("DOMContentLoaded", start);
})();
