// TodoMVC: the list lives in localStorage (under AUTOMIUM.storageKey), so it survives
// reloads and the filter routes; a new run starts from the fixture's seed.
"use strict";

const { h, stored } = window.kit;

const ROUTES = {
  "/": { filter: "all", title: "All todos" },
  "/active": { filter: "active", title: "Active todos" },
  "/completed": { filter: "completed", title: "Completed todos" },
};

const { state, save } = stored((boot) => ({ todos: boot.data.todos || [] }));

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
  return h(
    "li",
    { class: todo.completed ? "completed" : null },
    h("input", {
      type: "checkbox",
      class: "toggle",
      "aria-label": "Toggle Todo",
      checked: todo.completed,
      onchange: (event) => change(() => { todo.completed = event.target.checked; }),
    }),
    h("label", {}, todo.title),
    h(
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
  return h("li", {}, h("a", { href, class: current ? "selected" : null }, label));
}

let parts = null;

function build(route) {
  const input = h("input", {
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
  const toggleAll = h("input", {
    id: "toggle-all",
    class: "toggle-all",
    type: "checkbox",
    onchange: (event) =>
      change(() => { for (const todo of state.todos) todo.completed = event.target.checked; }),
  });
  const list = h("ul", { class: "todo-list" });
  const count = h("span", { class: "todo-count", role: "status", "aria-label": "Items left" });
  const clear = h(
    "button",
    {
      class: "clear-completed",
      onclick: () => change(() => { state.todos = state.todos.filter((t) => !t.completed); }),
    },
    "Clear completed",
  );
  const main = h(
    "main",
    { class: "main" },
    toggleAll,
    h("label", { for: "toggle-all" }, "Mark all as complete"),
    list,
  );
  const footer = h(
    "footer",
    { class: "footer" },
    count,
    h(
      "ul",
      { class: "filters", "aria-label": "Filters" },
      filterLink("/", "All", route.filter === "all"),
      filterLink("/active", "Active", route.filter === "active"),
      filterLink("/completed", "Completed", route.filter === "completed"),
    ),
    clear,
  );
  const app = document.getElementById("app");
  app.append(h("header", { class: "header" }, h("h1", {}, "todos"), input), main, footer);
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
    h("main", {}, h("h1", {}, "Page not found"), h("a", { href: "/" }, "All todos")),
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
