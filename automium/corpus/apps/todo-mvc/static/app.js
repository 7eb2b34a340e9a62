// TodoMVC: the list lives in localStorage (under AUTOMIUM.storageKey), so it survives
// reloads and the filter routes; a new run starts from the fixture's seed.
"use strict";

const ROUTES = {
  "/": { filter: "all", title: "All todos" },
  "/active": { filter: "active", title: "Active todos" },
  "/completed": { filter: "completed", title: "Completed todos" },
};

function load() {
  const saved = localStorage.getItem(AUTOMIUM.storageKey);
  if (saved !== null) return JSON.parse(saved);
  return { todos: (AUTOMIUM.data.todos || []).map((todo) => ({ ...todo })) };
}

const state = load();

function save() {
  localStorage.setItem(AUTOMIUM.storageKey, JSON.stringify(state));
}

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "checked") node.checked = Boolean(value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children);
  return node;
}

function nextId() {
  return state.todos.reduce((max, todo) => Math.max(max, todo.id), 0) + 1;
}

function shown(filter) {
  if (filter === "active") return state.todos.filter((todo) => !todo.completed);
  if (filter === "completed") return state.todos.filter((todo) => todo.completed);
  return state.todos;
}

function change(update) {
  update();
  save();
  render();
}

function row(todo) {
  return el(
    "li",
    { class: todo.completed ? "completed" : null },
    el("input", {
      type: "checkbox",
      class: "toggle",
      "aria-label": "Toggle Todo",
      checked: todo.completed,
      onchange: (event) => change(() => { todo.completed = event.target.checked; }),
    }),
    el("label", {}, todo.title),
    el(
      "button",
      {
        class: "destroy",
        "aria-label": "Delete",
        onclick: () => change(() => { state.todos = state.todos.filter((t) => t !== todo); }),
      },
      "×",
    ),
  );
}

function filterLink(href, label, current) {
  return el("li", {}, el("a", { href, class: current ? "selected" : null }, label));
}

let parts = null;

function build(route) {
  const input = el("input", {
    class: "new-todo",
    placeholder: "What needs to be done?",
    autofocus: true,
    onkeydown: (event) => {
      const title = input.value.trim();
      if (event.key !== "Enter" || !title) return;
      change(() => { state.todos.push({ id: nextId(), title, completed: false }); });
      input.value = "";
    },
  });
  const toggleAll = el("input", {
    id: "toggle-all",
    class: "toggle-all",
    type: "checkbox",
    onchange: (event) =>
      change(() => { for (const todo of state.todos) todo.completed = event.target.checked; }),
  });
  const list = el("ul", { class: "todo-list" });
  const count = el("span", { class: "todo-count", role: "status", "aria-label": "Items left" });
  const clear = el(
    "button",
    {
      class: "clear-completed",
      onclick: () => change(() => { state.todos = state.todos.filter((t) => !t.completed); }),
    },
    "Clear completed",
  );
  const main = el(
    "main",
    { class: "main" },
    toggleAll,
    el("label", { for: "toggle-all" }, "Mark all as complete"),
    list,
  );
  const footer = el(
    "footer",
    { class: "footer" },
    count,
    el(
      "ul",
      { class: "filters", "aria-label": "Filters" },
      filterLink("/", "All", route.filter === "all"),
      filterLink("/active", "Active", route.filter === "active"),
      filterLink("/completed", "Completed", route.filter === "completed"),
    ),
    clear,
  );
  const app = document.getElementById("app");
  app.append(el("header", { class: "header" }, el("h1", {}, "todos"), input), main, footer);
  input.focus();
  return { route, toggleAll, list, count, clear, main, footer };
}

function render() {
  const { route, toggleAll, list, count, clear, main, footer } = parts;
  const empty = state.todos.length === 0;
  main.hidden = empty;
  footer.hidden = empty;
  list.replaceChildren(...shown(route.filter).map(row));
  const left = shown("active").length;
  count.textContent = `${left} ${left === 1 ? "item" : "items"} left`;
  toggleAll.checked = !empty && left === 0;
  clear.hidden = shown("completed").length === 0;
}

function notFound() {
  document.title = "Page not found";
  document.getElementById("app").append(
    el("main", {}, el("h1", {}, "Page not found"), el("a", { href: "/" }, "All todos")),
  );
}

const route = ROUTES[location.pathname];
if (route === undefined) {
  notFound();
} else {
  document.title = route.title;
  parts = build(route);
  render();
}
