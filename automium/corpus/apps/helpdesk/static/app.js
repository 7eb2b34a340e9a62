// Helpdesk: agents work a ticket queue, customers open and follow their own tickets. Renders
// the route of location.pathname synchronously from the run's state, so each page is complete
// at the load event.
"use strict";

const { h, field, select, table, alertSlot, say, download, MONTHS, stored, signIn } = window.kit;

const QUEUES = ["Open", "Pending", "Solved", "All tickets"];
const STATUSES = ["Open", "Pending", "Solved"];
// How long the desk takes to confirm a reply: the notification arrives after the click, as a
// real one does, so a journey has to wait for it.
const CONFIRM_DELAY_MS = 300;

// ---- state: the run's session, kept in localStorage so it survives reloads ----

const { state, save } = stored((boot) => ({
  data: boot.data,
  session: boot.account ? { ref: boot.account.ref, email: boot.account.email } : null,
}));
const data = state.data;

function me() {
  if (!state.session) return null;
  return data.people.find((p) => p.email === state.session.email) || null;
}

function isAgent() {
  const person = me();
  return person !== null && person.access === "agent";
}

// The clock is the seed's: every change moves it a minute on, so what is shown never depends
// on when the run happens.
function tick() {
  const next = new Date(minutes(data.clock) * 60000 + 60000).toISOString();
  data.clock = next.slice(0, 16);
  return data.clock;
}

function minutes(at) {
  return Date.parse(`${at}:00Z`) / 60000;
}

function ago(at) {
  const m = Math.round(minutes(data.clock) - minutes(at));
  const days = Math.round((minutes(data.clock.slice(0, 10) + "T00:00") - minutes(at.slice(0, 10) + "T00:00")) / 1440);
  if (m < 1) return "Just now";
  if (m < 60) return m === 1 ? "1 minute ago" : `${m} minutes ago`;
  if (days === 0) return Math.floor(m / 60) === 1 ? "1 hour ago" : `${Math.floor(m / 60)} hours ago`;
  if (days === 1) return "Yesterday";
  const [, mo, d] = at.slice(0, 10).split("-").map(Number);
  return `${d} ${MONTHS[mo - 1]}`;
}

// ---- the frame of every signed-in page ----

function frame(current, ...content) {
  const link = (route, href, label) =>
    h("a", { href, "aria-current": route === current ? "page" : null }, label);
  const agent = isAgent();
  return [
    h("header", {},
      agent ? link("inbox", "/inbox", "Inbox") : link("inbox", "/inbox", "My tickets"),
      link("new-ticket", "/tickets/new", "New ticket"),
      agent ? link("reports", "/reports", "Reports") : null,
      h("button", { type: "button", onclick: signOut }, "Sign out")),
    h("main", {}, ...content),
  ];
}

function signOut() {
  state.session = null;
  save();
  location.assign("/login");
}

// ---- pages ----

function loginPage() {
  const email = h("input", { type: "email", autocomplete: "username", required: true });
  const password = h("input", { type: "password", autocomplete: "current-password", required: true });
  const error = alertSlot();
  const reset = new URLSearchParams(location.search).get("help") === "password";
  const form = h("form", { "aria-label": "Sign in" },
    field("email", "Email", email),
    field("password", "Password", password),
    error,
    h("button", { type: "submit", class: "primary" }, "Sign in"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    say(error, "");
    const account = await signIn({ email: email.value.trim() }, { password: password.value });
    if (account === null) {
      say(error, "That email and password do not match an account.");
      return;
    }
    state.session = { ref: account, email: email.value.trim() };
    save();
    location.assign("/inbox");
  });
  return [h("main", { class: "panel" },
    h("h1", {}, "Sign in to Helpdesk"),
    reset ? h("div", { role: "status" }, "Ask your helpdesk administrator for a new password.") : null,
    form,
    h("div", { class: "more" }, h("a", { href: "/login?help=password" }, "Forgot your password?")))];
}

function ticketLink(ticket) {
  return h("a", { href: `/tickets/${ticket.id}` }, ticket.subject);
}

function byUpdated(a, b) {
  return minutes(b.updated) - minutes(a.updated) || b.id - a.id;
}

function inboxPage() {
  if (!isAgent()) return myTicketsPage();
  const queue = select(QUEUES, "Open");
  const slot = h("div", {});
  function render() {
    const rows = data.tickets
      .filter((t) => queue.value === "All tickets" || t.status === queue.value)
      .sort(byUpdated)
      .map((t) => [ticketLink(t), t.requester, t.priority, ago(t.updated)]);
    slot.replaceChildren(table("Tickets", ["Subject", "Requester", "Priority", "Updated"], rows));
    if (!rows.length) slot.append(h("div", {}, "No tickets in this queue."));
  }
  queue.addEventListener("change", render);
  render();
  return frame("inbox", h("h1", {}, "Inbox"), h("div", { class: "toolbar" }, field("queue", "Queue", queue)), slot);
}

function myTicketsPage() {
  const mine = data.tickets.filter((t) => t.requesterEmail === me().email).sort(byUpdated);
  const content = [h("h1", {}, "My tickets")];
  if (!mine.length) {
    content.push(h("div", {}, "You have not opened a ticket yet."),
      h("div", { class: "more" }, h("a", { href: "/tickets/new" }, "Open a ticket")));
  } else {
    content.push(table("Tickets", ["Subject", "Status", "Updated"],
      mine.map((t) => [ticketLink(t), t.status, ago(t.updated)])));
  }
  return frame("inbox", ...content);
}

// A reply keeps the formatting the toolbar offers and nothing else: bold, italic, lists and
// line breaks, rebuilt as new elements so no markup of the editor reaches the page unchecked.
const KEPT = { B: "strong", STRONG: "strong", I: "em", EM: "em", UL: "ul", OL: "ol", LI: "li", BR: "br", DIV: "div", P: "div" };

function cleanCopy(source, target) {
  for (const node of source.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) target.append(node.textContent);
    else if (node.nodeType === Node.ELEMENT_NODE) {
      const tag = KEPT[node.tagName];
      if (tag) target.append(cleanCopy(node, document.createElement(tag)));
      else cleanCopy(node, target);
    }
  }
  return target;
}

let messagesShown = 0;

// A message is an article named by its author's visible name.
function messageArticle(message) {
  const body = h("div", { class: "body" });
  if (message.html) {
    const parsed = new DOMParser().parseFromString(message.html, "text/html").body;
    cleanCopy(parsed, body);
  } else {
    body.textContent = message.body;
  }
  messagesShown += 1;
  const id = `message-${messagesShown}`;
  return h("article", { "aria-labelledby": id, class: message.fromAgent ? "agent" : "" },
    h("h2", { id, class: "author" }, message.author),
    body,
    message.attachments.length
      ? h("ul", { "aria-label": "Attachments" }, message.attachments.map((name) => h("li", {}, name)))
      : null);
}

function ticketPage(ticket) {
  const agent = isAgent();
  const waiting = !ticket.messages.some((m) => m.fromAgent);
  // Customers see the desk's acknowledgement until an agent replies; agents, only after an action.
  const notice = h("div", { role: "status", "aria-label": "Notification", hidden: agent || !waiting },
    agent || !waiting ? "" : "Ticket created. We will reply by email.");
  const conversation = h("section", { "aria-label": "Conversation" }, ticket.messages.map(messageArticle));
  const editor = h("div", {
    id: "reply", role: "textbox", contenteditable: "true", "aria-multiline": "true", "aria-label": "Reply",
    class: "editor",
  });
  const files = h("input", { type: "file", "aria-label": "Attach a file", multiple: true });
  const attached = h("ul", { "aria-label": "Attached files", hidden: true });
  files.addEventListener("change", () => {
    attached.replaceChildren(...[...files.files].map((f) => h("li", {}, f.name)));
    attached.hidden = files.files.length === 0;
  });
  const format = (command) => () => { editor.focus(); document.execCommand(command); };
  const toolbar = h("div", { role: "toolbar", "aria-label": "Formatting", "aria-controls": "reply" },
    h("button", { type: "button", onclick: format("bold") }, "Bold"),
    h("button", { type: "button", onclick: format("italic") }, "Italic"),
    h("button", { type: "button", onclick: format("insertUnorderedList") }, "Bulleted list"),
    files);
  const status = select(STATUSES, ticket.status);
  const error = alertSlot();
  function send() {
    const text = editor.innerText.trim();
    const names = [...files.files].map((f) => f.name);
    if (!text && !names.length) {
      editor.setAttribute("aria-invalid", "true");
      say(error, "Write a reply or attach a file first.");
      return;
    }
    editor.removeAttribute("aria-invalid");
    say(error, "");
    const message = {
      author: me().name, fromAgent: agent, at: tick(), body: text,
      html: cleanCopy(editor, document.createElement("div")).innerHTML, attachments: names,
    };
    ticket.messages.push(message);
    ticket.updated = message.at;
    if (agent) ticket.status = status.value;
    save();
    conversation.append(messageArticle(message));
    editor.replaceChildren();
    files.value = "";
    attached.replaceChildren();
    attached.hidden = true;
    setTimeout(() => {
      notice.textContent = "Reply sent";
      notice.hidden = false;
    }, CONFIRM_DELAY_MS);
  }
  return frame("ticket",
    h("h1", {}, ticket.subject),
    agent ? null : notice,
    conversation,
    h("div", { class: "composer" },
      toolbar,
      editor,
      attached,
      agent ? field("status", "Status", status) : null,
      error,
      h("button", { type: "button", class: "primary", onclick: send }, "Send reply")),
    agent ? notice : null);
}

function newTicketPage() {
  const category = select(data.categories.map((c) => c.name), data.categories[0].name);
  const subject = h("input", { type: "text" });
  const description = h("textarea", { rows: "6" });
  const files = h("input", { type: "file", "aria-label": "Attach a file", multiple: true });
  const updates = h("input", { type: "checkbox", id: "email-updates" });
  const error = alertSlot();
  const details = h("fieldset", { hidden: true },
    h("legend", {}, "Step 2 of 2"),
    h("h2", {}, "Describe your issue"),
    field("subject", "Subject", subject),
    field("description", "Describe the problem", description),
    h("div", { class: "field" }, files),
    h("div", { class: "check" }, updates, h("label", { for: "email-updates" }, "Email me updates")),
    error,
    h("div", { class: "actions" },
      h("button", { type: "button", onclick: back }, "Back"),
      h("button", { type: "submit", class: "primary" }, "Submit ticket")));
  // Step 1 stays on the page, so the category can be changed; step 2 keeps what was typed.
  const first = h("fieldset", {},
    h("legend", {}, "Step 1 of 2"),
    field("category", "Category", category),
    h("button", { type: "button", onclick: next }, "Next"));
  function next() {
    details.hidden = false;
    subject.focus();
  }
  function back() {
    details.hidden = true;
    category.focus();
  }
  const form = h("form", { novalidate: true }, first, details);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (details.hidden) return next();
    subject.toggleAttribute("aria-invalid", !subject.value.trim());
    description.toggleAttribute("aria-invalid", !description.value.trim());
    if (!subject.value.trim() || !description.value.trim()) {
      say(error, "Give the ticket a subject and describe the problem.");
      return;
    }
    const person = me();
    const chosen = data.categories.find((c) => c.name === category.value);
    const at = tick();
    const ticket = {
      id: data.nextTicketId, subject: subject.value.trim(), category: chosen.name,
      requester: person.name, requesterEmail: person.email, priority: chosen.priority,
      status: "Open", updated: at, emailUpdates: updates.checked,
      messages: [{
        author: person.name, fromAgent: false, at, body: description.value.trim(),
        attachments: [...files.files].map((f) => f.name),
      }],
    };
    data.nextTicketId += 1;
    data.tickets.push(ticket);
    save();
    location.assign(`/tickets/${ticket.id}`);
  });
  return frame("new-ticket", h("h1", {}, "New ticket"), form);
}

function reportsPage() {
  const period = select(data.reports.map((r) => r.period), data.reports[0].period);
  const summary = h("div", {});
  const slot = h("div", {});
  function render() {
    const report = data.reports.find((r) => r.period === period.value);
    summary.textContent = `${report.solved} solved, median first reply ${report.firstReply}`;
    slot.replaceChildren(table("Agent performance", ["Agent", "Solved", "First reply"],
      report.agents.map(([agent, solved, reply]) => [agent, String(solved), reply])));
  }
  period.addEventListener("change", render);
  render();
  function csv() {
    const report = data.reports.find((r) => r.period === period.value);
    const lines = ["Agent,Solved,First reply", ...report.agents.map((row) => row.join(","))];
    download(`report-${period.value.toLowerCase().replaceAll(" ", "-")}.csv`, lines.join("\n") + "\n");
  }
  return frame("reports",
    h("h1", {}, "Reports"),
    h("div", { class: "toolbar" }, field("period", "Period", period)),
    h("section", { "aria-labelledby": "solved-title" },
      h("h2", { id: "solved-title" }, "Tickets solved"), summary),
    slot,
    h("button", { type: "button", onclick: csv }, "Download CSV"));
}

function notFoundPage() {
  return [h("main", {}, h("h1", {}, "Page not found"),
    h("div", { class: "more" }, h("a", { href: "/inbox" }, "Go to the inbox")))];
}

// ---- routing ----

function visibleTicket(id) {
  const ticket = data.tickets.find((t) => String(t.id) === id);
  if (!ticket || (!isAgent() && ticket.requesterEmail !== me().email)) return null;
  return ticket;
}

const ROUTES = [
  { path: /^\/login$/, title: "Sign in", page: loginPage, open: true },
  { path: /^\/inbox$/, title: "Ticket inbox", page: inboxPage },
  { path: /^\/tickets\/new$/, title: "New ticket", page: newTicketPage },
  { path: /^\/tickets\/(\d+)$/, title: "Ticket conversation", page: (id) => {
    const ticket = visibleTicket(id);
    return ticket ? ticketPage(ticket) : notFoundPage();
  } },
  // Reports are for agents; a customer is sent to their tickets.
  { path: /^\/reports$/, title: "Reports", page: reportsPage, agentsOnly: true },
];

function route() {
  const path = location.pathname.replace(/(.)\/+$/, "$1");
  if (path === "/") return location.replace(me() ? "/inbox" : "/login");
  for (const r of ROUTES) {
    const match = path.match(r.path);
    if (!match) continue;
    if (!r.open && !me()) return location.replace("/login");
    if (r.agentsOnly && !isAgent()) return location.replace("/inbox");
    document.title = r.title;
    return document.getElementById("app").replaceWith(...r.page(...match.slice(1)));
  }
  document.title = "Page not found";
  document.getElementById("app").replaceWith(...notFoundPage());
}

route();
