// Shop Lite: a small storefront. The session (cart, orders, who is signed in) lives in
// localStorage under AUTOMIUM.storageKey, initialised from the fixture's seed; credentials
// are checked by the host (POST /api/sign-in), so the page never holds a password.
"use strict";

const { h, stored, signIn } = window.kit;

const PAGE_SIZE = 5;
const TITLES = {
  home: "Storefront home",
  login: "Sign in",
  search: "Search results",
  product: "Product details",
  cart: "Shopping cart",
  checkout: "Checkout",
  "order-confirmation": "Order confirmation",
  orders: "Order history",
  help: "Help",
};
// Routes a signed-out visitor is sent to sign in from.
const SIGNED_IN_ONLY = new Set(["checkout", "orders"]);

const { state, save } = stored((boot) => ({
  cart: boot.data.cart || [],
  orders: boot.data.orders || [],
  account: boot.account,
}));
const data = AUTOMIUM.data;
const products = new Map(data.products.map((product) => [product.id, product]));

function money(cents) {
  return `$${(cents / 100).toFixed(2)}`;
}

function route() {
  const path = location.pathname;
  if (path === "/") return { id: "home" };
  if (path === "/login") return { id: "login" };
  if (path === "/search") return { id: "search" };
  if (path === "/cart") return { id: "cart" };
  if (path === "/checkout") return { id: "checkout" };
  if (path === "/orders") return { id: "orders" };
  let match = path.match(/^\/products\/([^/]+)$/);
  if (match && products.has(decodeURIComponent(match[1]))) {
    return { id: "product", product: products.get(decodeURIComponent(match[1])) };
  }
  match = path.match(/^\/orders\/([^/]+)\/confirmation$/);
  if (match) return { id: "order-confirmation", orderId: decodeURIComponent(match[1]) };
  match = path.match(/^\/help\/(shipping|contact|account|password)$/);
  if (match) return { id: "help", topic: match[1] };
  return { id: "not-found" };
}

// -- the parts every page shares -------------------------------------------------------------

function searchForm(query = "") {
  const input = h("input", { id: "site-search", type: "search", name: "q", value: query });
  return h(
    "search",
    { "aria-label": "Site search" },
    h(
      "form",
      { action: "/search", method: "get" },
      h("label", { for: "site-search", class: "visually-hidden" }, "Search"),
      input,
      h("button", { type: "submit" }, "Search"),
    ),
  );
}

function signOut() {
  state.account = null;
  save();
  location.assign("/login");
}

function banner({ search = true, account = true, query = "", signOutButton = false } = {}) {
  const parts = [h("a", { href: "/", class: "brand" }, "Shop Lite home")];
  if (search) parts.push(searchForm(query));
  parts.push(h("a", { href: "/cart" }, "Cart"));
  if (account) {
    if (state.account) parts.push(h("a", { href: "/orders" }, "Your orders"));
    else parts.push(h("a", { href: "/login" }, "Sign in"));
  }
  if (signOutButton && state.account) {
    parts.push(h("button", { type: "button", onclick: signOut }, "Sign out"));
  }
  return h("header", {}, ...parts);
}

function cartUpdates() {
  return h("p", { role: "status", "aria-label": "Cart updates", hidden: true });
}

function addToCart(productId, quantity, status) {
  const line = state.cart.find((item) => item.id === productId);
  if (line) line.quantity += quantity;
  else state.cart.push({ id: productId, quantity });
  save();
  status.textContent = "Added to cart";
  status.hidden = false;
}

function productItem(product, status) {
  return h(
    "li",
    {},
    h("a", { href: `/products/${product.id}` }, product.name),
    h("span", { class: "price" }, money(product.price)),
    h("button", { type: "button", onclick: () => addToCart(product.id, 1, status) }, "Add to cart"),
  );
}

function cartCount() {
  return state.cart.reduce((sum, line) => sum + line.quantity, 0);
}

function cartTotal() {
  return state.cart.reduce((sum, line) => sum + products.get(line.id).price * line.quantity, 0);
}

// -- pages ---------------------------------------------------------------------------------

function home() {
  const status = cartUpdates();
  const featured = data.products.filter((product) => product.featured);
  return [
    banner({ signOutButton: true }),
    h(
      "main",
      {},
      h("h1", {}, "Featured"),
      h("ul", { "aria-label": "Featured products", class: "products" }, ...featured.map((p) => productItem(p, status))),
      status,
    ),
    h(
      "footer",
      {},
      h("a", { href: "/help/shipping" }, "Shipping and returns"),
      h("a", { href: "/help/contact" }, "Contact us"),
    ),
  ];
}

async function submitSignIn(event, form) {
  event.preventDefault();
  const email = form.elements.email.value;
  const password = form.elements.password.value;
  const account = await signIn({ email }, { password });
  if (account === null) {
    const error = document.getElementById("sign-in-error");
    error.textContent = "That email and password do not match an account.";
    error.hidden = false;
    return;
  }
  state.account = { ref: account, email };
  save();
  location.assign("/");
}

function login() {
  const form = h(
    "form",
    { "aria-label": "Sign in", novalidate: true },
    h("label", { for: "email" }, "Email"),
    h("input", { id: "email", name: "email", type: "email", autocomplete: "username" }),
    h("label", { for: "password" }, "Password"),
    h("input", { id: "password", name: "password", type: "password", autocomplete: "current-password" }),
    h("label", {}, h("input", { type: "checkbox", name: "keep" }), " Keep me signed in"),
    h("p", { id: "sign-in-error", role: "alert", hidden: true }),
    h("button", { type: "submit" }, "Sign in"),
  );
  form.addEventListener("submit", (event) => submitSignIn(event, form));
  return [
    banner({ search: false, account: false }),
    h(
      "main",
      {},
      h("h1", {}, "Sign in"),
      form,
      h("a", { href: "/help/account" }, "Create an account"),
      h("a", { href: "/help/password" }, "Forgot your password?"),
    ),
  ];
}

const SORTS = {
  relevance: { label: "Relevance", order: () => 0 },
  "price-asc": { label: "Price: low to high", order: (a, b) => a.price - b.price },
  "price-desc": { label: "Price: high to low", order: (a, b) => b.price - a.price },
};

function searchUrl(query, sort, page) {
  const params = new URLSearchParams();
  if (query) params.set("q", query);
  if (sort !== "relevance") params.set("sort", sort);
  if (page > 1) params.set("page", String(page));
  const text = params.toString();
  return text ? `/search?${text}` : "/search";
}

function pageLink(label, href) {
  if (href === null) return h("a", { role: "link", "aria-disabled": "true" }, label);
  return h("a", { href }, label);
}

function search() {
  const params = new URLSearchParams(location.search);
  const query = (params.get("q") || "").trim();
  const sort = SORTS[params.get("sort")] ? params.get("sort") : "relevance";
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  // A stable sort keeps the catalog's order among equals: relevance is that order.
  const found = data.products
    .filter((product) => words.every((word) => product.name.toLowerCase().includes(word)))
    .sort(SORTS[sort].order);
  const pages = Math.max(1, Math.ceil(found.length / PAGE_SIZE));
  const page = Math.min(pages, Math.max(1, Number.parseInt(params.get("page") || "1", 10) || 1));
  const shown = found.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const status = cartUpdates();
  const select = h(
    "select",
    {
      id: "sort",
      onchange: () => location.assign(searchUrl(query, select.value, 1)),
    },
    ...Object.entries(SORTS).map(([value, { label }]) =>
      h("option", { value, selected: value === sort }, label),
    ),
  );
  return [
    banner({ query }),
    h(
      "main",
      {},
      h("h1", {}, "Search results"),
      h("p", { role: "status", "aria-label": "Result count" }, `${found.length} ${found.length === 1 ? "result" : "results"}`),
      h("label", { for: "sort" }, "Sort by"),
      select,
      h("ul", { "aria-label": "Results", class: "products" }, ...shown.map((p) => productItem(p, status))),
      h(
        "nav",
        { "aria-label": "Pagination" },
        pageLink("Previous page", page > 1 ? searchUrl(query, sort, page - 1) : null),
        h("span", {}, `Page ${page} of ${pages}`),
        pageLink("Next page", page < pages ? searchUrl(query, sort, page + 1) : null),
      ),
      status,
    ),
  ];
}

function product({ product: item }) {
  const status = cartUpdates();
  const quantity = h("input", { id: "quantity", type: "number", min: "1", value: "1" });
  return [
    banner(),
    h(
      "main",
      {},
      h("h1", {}, item.name),
      h("div", {}, "In stock, ships in 2 days"),
      h("label", { for: "quantity" }, "Quantity"),
      quantity,
      h(
        "button",
        {
          type: "button",
          onclick: () => addToCart(item.id, Math.max(1, Number.parseInt(quantity.value, 10) || 1), status),
        },
        "Add to cart",
      ),
      h("a", { href: "/search" }, "Back to results"),
      status,
      h(
        "section",
        { "aria-labelledby": "reviews" },
        h("h2", { id: "reviews" }, "Reviews"),
        h("div", {}, "4.6 out of 5, 32 reviews"),
      ),
    ),
  ];
}

function remove(productId) {
  state.cart = state.cart.filter((line) => line.id !== productId);
  save();
  render();
}

function cart() {
  const parts = [
    h("h1", {}, state.cart.length ? "Your cart" : "Your cart is empty"),
    h("a", { href: "/" }, "Continue shopping"),
  ];
  if (state.cart.length) {
    parts.push(
      h(
        "table",
        {},
        h("caption", {}, "Cart items"),
        h("thead", {}, h("tr", {}, h("th", {}, "Item"), h("th", {}, "Quantity"), h("th", {}, "Price"))),
        h(
          "tbody",
          {},
          ...state.cart.map((line) => {
            const item = products.get(line.id);
            return h(
              "tr",
              {},
              h("td", {}, item.name),
              h("td", {}, String(line.quantity)),
              h("td", {}, money(item.price * line.quantity)),
            );
          }),
        ),
      ),
      ...state.cart.map((line) =>
        h("button", { type: "button", onclick: () => remove(line.id) }, `Remove ${products.get(line.id).name}`),
      ),
      h("a", { href: "/checkout" }, "Checkout"),
    );
  }
  return [banner(), h("main", {}, ...parts)];
}

function nextOrderId() {
  const known = [...(data.orders || []), ...state.orders].map((order) => Number.parseInt(order.id, 10));
  return String(Math.max(1042, ...known) + 1);
}

function placeOrder() {
  if (!state.cart.length) {
    const error = document.getElementById("checkout-error");
    error.textContent = "Your cart is empty: add something before placing an order.";
    error.hidden = false;
    return;
  }
  const id = nextOrderId();
  state.orders.unshift({
    id,
    placed: data.today,
    status: "Processing",
    items: state.cart.map((line) => ({ ...line })),
    confirmation: true,
  });
  state.cart = [];
  save();
  location.assign(`/orders/${id}/confirmation`);
}

function checkout() {
  const count = cartCount();
  return [
    banner({ search: false, account: false }),
    h(
      "main",
      {},
      h("h1", {}, "Checkout"),
      h(
        "section",
        { "aria-label": "Shipping address" },
        h("div", {}, data.address || ""),
        h("button", { type: "button" }, "Change address"),
      ),
      h(
        "div",
        { role: "radiogroup", "aria-label": "Payment method" },
        h("input", { type: "radio", id: "saved-card", name: "payment", checked: true }),
        h("label", { for: "saved-card" }, `Saved card ending ${data.savedCard || ""}`),
        h("input", { type: "radio", id: "new-card", name: "payment" }),
        h("label", { for: "new-card" }, "New card"),
      ),
      h(
        "section",
        { "aria-label": "Order summary" },
        h("div", {}, `${count} ${count === 1 ? "item" : "items"}, ${money(cartTotal())}`),
      ),
      h("p", { id: "checkout-error", role: "alert", hidden: true }),
      h("button", { type: "button", onclick: placeOrder }, "Place order"),
    ),
  ];
}

function confirmation({ orderId }) {
  return [
    banner({ search: false, account: false }),
    h(
      "main",
      {},
      h("h1", {}, "Thank you for your order"),
      h("p", { role: "status", "aria-label": "Order number" }, `Order #${orderId}`),
      h("div", {}, "A confirmation email is on its way."),
      h("a", { href: "/orders" }, "View your orders"),
      h("a", { href: "/" }, "Continue shopping"),
    ),
  ];
}

function orders() {
  const rows = state.orders.map((order) =>
    h(
      "tr",
      {},
      h(
        "td",
        {},
        order.confirmation
          ? h("a", { href: `/orders/${order.id}/confirmation` }, `Order #${order.id}`)
          : `Order #${order.id}`,
      ),
      h("td", {}, order.placed),
      h("td", {}, ...order.items.map((line) => h("a", { href: `/products/${line.id}` }, products.get(line.id).name))),
      h("td", {}, order.status),
    ),
  );
  return [
    banner({ search: false, account: false, signOutButton: true }),
    h(
      "main",
      {},
      h("h1", {}, "Your orders"),
      h(
        "table",
        {},
        h("caption", {}, "Past orders"),
        h(
          "thead",
          {},
          h("tr", {}, h("th", {}, "Order"), h("th", {}, "Placed"), h("th", {}, "Items"), h("th", {}, "Status")),
        ),
        h("tbody", {}, ...rows),
      ),
    ),
  ];
}

const HELP = {
  shipping: ["Shipping and returns", "Orders ship in 2 days. Returns are free within 30 days."],
  contact: ["Contact us", "Write to the shop at help@shop-lite.test."],
  account: ["Create an account", "Accounts are created at checkout in this store."],
  password: ["Forgot your password?", "Ask the shop to reset it: help@shop-lite.test."],
};

function help({ topic }) {
  const [heading, text] = HELP[topic];
  return [banner(), h("main", {}, h("h1", {}, heading), h("div", {}, text))];
}

function notFound() {
  return [banner(), h("main", {}, h("h1", {}, "Page not found"), h("a", { href: "/" }, "Shop Lite home"))];
}

const PAGES = {
  home,
  login,
  search,
  product,
  cart,
  checkout,
  "order-confirmation": confirmation,
  orders,
  help,
  "not-found": notFound,
};

const current = route();

function render() {
  document.title = TITLES[current.id] || "Page not found";
  document.getElementById("app").replaceChildren(...PAGES[current.id](current));
}

if (SIGNED_IN_ONLY.has(current.id) && !state.account) {
  location.replace("/login");
} else {
  render();
}
