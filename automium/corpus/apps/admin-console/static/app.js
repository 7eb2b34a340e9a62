// Admin Console: the back office of one organization. Renders the route of location.pathname
// synchronously from the run's state, so each page is complete at the load event.
"use strict";

const { h, field, select, table, alertSlot, say, download, MONTHS, monthYear, stored, signIn } = window.kit;

const ROLES = ["Admin", "Editor", "Viewer"];
const ACTIONS = ["User invited", "User deactivated", "Role changed", "Users imported", "Settings changed"];

// ---- state: the run's session, kept in localStorage so it survives reloads ----

const { state, save } = stored((boot) => ({
  data: boot.data,
  session: boot.account ? { ref: boot.account.ref, email: boot.account.email } : null,
}));
const data = state.data;

function viewer() {
  if (!state.session) return null;
  return data.consoleAccounts.find((a) => a.email === state.session.email) || null;
}

function isAdmin() {
  const me = viewer();
  return me !== null && me.access === "admin";
}

// The clock is the seed's: every recorded change moves it a minute on, so what is shown
// never depends on when the run happens.
function tick() {
  const [day, time] = data.clock.split("T");
  let [h, m] = time.split(":").map(Number);
  m += 1;
  if (m === 60) { m = 0; h += 1; }
  data.clock = `${day}T${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
  return data.clock;
}

function record(action, details) {
  data.auditEvents.unshift({ at: tick(), who: viewer().name, action, details });
}

function formatWhen(at) {
  const [day, time] = at.split("T");
  const [y, mo, d] = day.split("-").map(Number);
  return `${d} ${MONTHS[mo - 1]} ${y}, ${time}`;
}

// ---- DOM helpers of this app alone (the common ones are the shared script's) ----

function statusNote(name, text, hidden) {
  return h("div", { role: "status", "aria-label": name, hidden }, text);
}

function dialog(name, ...children) {
  return h("dialog", { "aria-label": name }, ...children);
}

function csvLine(values) {
  return values.map((v) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v)).join(",") + "\n";
}

// ---- the frame of every signed-in page ----

function frame(current, ...content) {
  const link = (route, href, label) =>
    h("a", { href, "aria-current": route === current ? "page" : null }, label);
  return [
    h("header", {},
      h("span", {}, data.organization.name),
      h("button", { type: "button", onclick: signOut }, "Sign out")),
    h("nav", { "aria-label": "Main" },
      link("dashboard", "/", "Dashboard"),
      link("users", "/users", "Users"),
      isAdmin() ? link("settings", "/settings", "Settings") : null,
      link("audit-log", "/audit-log", "Audit log")),
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
  const sso = new URLSearchParams(location.search).get("method") === "sso";
  const form = h("form", { "aria-label": "Sign in", class: "panel-form" },
    field("email", "Work email", email),
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
    location.assign("/");
  });
  return [h("main", { class: "panel" },
    h("h1", {}, "Sign in to Admin Console"),
    sso ? h("div", { role: "status", class: "note" }, "Single sign-on is not set up for this organization. Sign in with your work email.") : null,
    form,
    h("div", { class: "more" }, h("a", { href: "/login?method=sso" }, "Use single sign-on")))];
}

function activitySentence(event) {
  switch (event.action) {
    case "Role changed": {
      const [who, change] = event.details.split(": ");
      return `${event.who} changed ${who}'s role to ${change.split(" to ")[1]}`;
    }
    case "User invited":
      return `${event.who} invited ${event.details.split(" as ")[0]}`;
    case "User deactivated":
      return `${event.who} deactivated ${event.details}`;
    case "Users imported":
      return `${event.who} imported ${event.details.split(":")[0]}`;
    default:
      return `${event.who} changed the organization settings`;
  }
}

function dashboardPage() {
  const active = data.users.filter((u) => u.status === "Active").length;
  const deactivated = data.users.filter((u) => u.status === "Deactivated").length;
  return frame("dashboard",
    h("h1", {}, "Dashboard"),
    h("section", { "aria-labelledby": "members-title" },
      h("h2", { id: "members-title" }, "Members"),
      h("div", {}, `${active} active members, ${deactivated} deactivated`)),
    h("section", { "aria-labelledby": "activity-title" },
      h("h2", { id: "activity-title" }, "Recent activity"),
      h("ul", {}, data.auditEvents.slice(0, 2).map((e) => h("li", {}, activitySentence(e)))),
      h("a", { href: "/audit-log" }, "View audit log")),
    isAdmin() ? h("a", { href: "/users" }, "Invite a user") : null);
}

const STATUS_ORDER = { Active: 0, Deactivated: 1 };

function sortedUsers() {
  return data.users.slice().sort((a, b) =>
    STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || a.name.localeCompare(b.name, "en"));
}

function usersPage() {
  const admin = isAdmin();
  const filter = h("input", { type: "text", autocomplete: "off" });
  const role = select(["All roles", ...ROLES], "All roles");
  const showDeactivated = h("input", { type: "checkbox", id: "show-deactivated", checked: true });
  const tableSlot = h("div", {});
  const importResult = statusNote("Import result", "", true);

  function renderTable() {
    const text = filter.value.trim().toLowerCase();
    const rows = sortedUsers()
      .filter((u) => showDeactivated.checked || u.status !== "Deactivated")
      .filter((u) => role.value === "All roles" || u.role === role.value)
      .filter((u) => !text || u.name.toLowerCase().includes(text) || u.email.toLowerCase().includes(text))
      .map((u) => [h("a", { href: `/users/${u.id}` }, u.name), u.email, u.role, u.status]);
    tableSlot.replaceChildren(table("Users", ["Name", "Email", "Role", "Status"], rows));
    if (rows.length === 0) tableSlot.append(h("div", {}, "No users match these filters."));
  }
  filter.addEventListener("input", renderTable);
  role.addEventListener("change", renderTable);
  showDeactivated.addEventListener("change", renderTable);
  renderTable();

  const content = [
    h("h1", {}, "Users"),
    admin ? null : statusNote("Read-only access", "You can view users but not change them.", false),
    h("div", { class: "toolbar" },
      field("filter-users", "Filter users", filter),
      field("role-filter", "Role", role),
      h("div", { class: "check" }, showDeactivated,
        h("label", { for: "show-deactivated" }, "Show deactivated users"))),
  ];
  if (admin) {
    const importDialog = importUsersDialog(importResult, renderTable);
    const inviteDialog = inviteUserDialog();
    content.push(h("div", { class: "toolbar" },
      data.organization.allowCsvImport
        ? h("button", { type: "button", onclick: () => importDialog.showModal() }, "Import users")
        : null,
      h("button", { type: "button", class: "primary", onclick: () => inviteDialog.showModal() }, "Invite user")));
    content.push(tableSlot, importResult, importDialog, inviteDialog);
  } else {
    content.push(tableSlot);
  }
  return frame("users", ...content);
}

// A small CSV reader: quoted fields, doubled quotes, CRLF or LF line ends.
function parseCsv(text) {
  const rows = [];
  let row = [], value = "", quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { value += '"'; i += 1; }
      else if (c === '"') quoted = false;
      else value += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { row.push(value); value = ""; }
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i += 1;
      row.push(value); rows.push(row); row = []; value = "";
    } else value += c;
  }
  if (value || row.length) { row.push(value); rows.push(row); }
  return rows.filter((r) => r.some((v) => v.trim()));
}

function importUsers(text) {
  const rows = parseCsv(text);
  const header = (rows.shift() || []).map((v) => v.trim().toLowerCase());
  const at = { name: header.indexOf("name"), email: header.indexOf("email"), role: header.indexOf("role") };
  if (at.name < 0 || at.email < 0 || at.role < 0) {
    return { error: "The file needs a header row with name, email and role columns." };
  }
  const added = [];
  let skipped = 0;
  for (const row of rows) {
    const name = (row[at.name] || "").trim();
    const email = (row[at.email] || "").trim().toLowerCase();
    const role = ROLES.find((r) => r.toLowerCase() === (row[at.role] || "").trim().toLowerCase());
    if (!name || !email.includes("@") || !role || data.users.some((u) => u.email === email)) {
      skipped += 1;
      continue;
    }
    const user = { id: data.nextUserId, name, email, role, status: "Active", since: data.clock.slice(0, 7) };
    data.nextUserId += 1;
    data.users.push(user);
    added.push(user);
  }
  if (added.length) {
    record("Users imported", `${added.length} users: ${added.map((u) => u.name).join(", ")}`);
  }
  save();
  const count = `${added.length} ${added.length === 1 ? "user" : "users"} imported`;
  return { message: skipped ? `${count}, ${skipped} skipped` : count };
}

function importUsersDialog(result, refresh) {
  // Named by aria-label, not a <label>: a label's text would run into the instructions above.
  const file = h("input", { type: "file", "aria-label": "Choose CSV file", accept: ".csv,text/csv" });
  const error = alertSlot();
  const dlg = dialog("Import users",
    h("h2", {}, "Import users"),
    h("div", {}, "Upload a CSV file with name, email and role columns."),
    h("div", { class: "field" }, file),
    error,
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", onclick: confirm }, "Import"),
      h("button", { type: "button", onclick: () => dlg.close() }, "Cancel")));
  async function confirm() {
    say(error, "");
    if (!file.files.length) {
      say(error, "Choose a CSV file first.");
      return;
    }
    const outcome = importUsers(await file.files[0].text());
    if (outcome.error) {
      say(error, outcome.error);
      return;
    }
    file.value = "";
    dlg.close();
    result.textContent = outcome.message;
    result.hidden = false;
    refresh();
  }
  return dlg;
}

function inviteUserDialog() {
  const email = h("input", { type: "email" });
  const role = select(["Viewer", "Editor", "Admin"], data.organization.defaultRole);
  const error = alertSlot();
  const dlg = dialog("Invite user",
    h("h2", {}, "Invite user"),
    field("invite-email", "Email address", email),
    field("invite-role", "Role", role),
    error,
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", onclick: send }, "Send invitation"),
      h("button", { type: "button", onclick: () => dlg.close() }, "Cancel")));
  function send() {
    const address = email.value.trim().toLowerCase();
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address)) {
      say(error, "Enter an email address.");
      return;
    }
    if (data.users.some((u) => u.email === address) || data.invitations.some((i) => i.email === address)) {
      say(error, "That person already has an account or an invitation.");
      return;
    }
    data.invitations.push({ email: address, role: role.value, invitedBy: viewer().name });
    record("User invited", `${address} as ${role.value}`);
    save();
    email.value = "";
    say(error, "");
    dlg.close();
  }
  return dlg;
}

function profileText(user) {
  return user.status === "Active"
    ? `${user.role}, active since ${monthYear(user.since)}`
    : `${user.role}, deactivated, a member since ${monthYear(user.since)}`;
}

function userDetailPage(user) {
  const admin = isAdmin();
  const heading = h("h1", {}, user.name);
  const profile = h("div", {}, profileText(user));
  const saved = statusNote("Changes saved", "Changes saved", true);
  const content = [
    heading,
    admin ? null : statusNote("Read-only access", "You can view this user but not change them.", false),
    h("section", { "aria-label": "Profile" }, profile),
  ];
  let onChange = () => {};
  function changed() {
    save();
    onChange();
    heading.textContent = user.name;
    profile.textContent = profileText(user);
    saved.hidden = false;
  }
  if (admin) {
    const actions = h("div", { class: "toolbar" });
    const edit = editUserDialog(user, changed);
    const deactivate = deactivateDialog(user, changed);
    const renderActions = () => actions.replaceChildren(
      h("button", { type: "button", class: "primary", onclick: () => edit.showModal() }, "Edit user"),
      user.status === "Active"
        ? h("button", { type: "button", class: "danger", onclick: () => deactivate.showModal() }, "Deactivate user")
        : h("button", { type: "button", onclick: reactivate }, "Reactivate user"));
    const reactivate = () => { user.status = "Active"; changed(); };
    onChange = renderActions;
    renderActions();
    content.push(actions, h("div", { class: "more" }, h("a", { href: "/users" }, "Back to users")), saved, edit, deactivate);
  } else {
    content.push(h("div", { class: "more" }, h("a", { href: "/users" }, "Back to users")));
  }
  return frame("users", ...content);
}

function editUserDialog(user, changed) {
  const name = h("input", { type: "text", value: user.name });
  const role = select(["Viewer", "Editor", "Admin"], user.role);
  const error = alertSlot();
  const dlg = dialog("Edit user",
    h("h2", {}, "Edit user"),
    field("full-name", "Full name", name),
    field("edit-role", "Role", role),
    error,
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", onclick: saveChanges }, "Save changes"),
      h("button", { type: "button", onclick: () => dlg.close() }, "Cancel")));
  function saveChanges() {
    if (!name.value.trim()) {
      say(error, "Enter a full name.");
      return;
    }
    if (role.value !== user.role) {
      record("Role changed", `${name.value.trim()}: ${user.role} to ${role.value}`);
      user.role = role.value;
    }
    user.name = name.value.trim();
    say(error, "");
    dlg.close();
    changed();
  }
  return dlg;
}

function deactivateDialog(user, changed) {
  const dlg = h("dialog", { role: "alertdialog", "aria-labelledby": "deactivate-title" },
    h("h2", { id: "deactivate-title" }, "Deactivate this user?"),
    h("div", {}, "They will lose access at once. You can reactivate them later."),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "danger", onclick: confirm }, "Deactivate"),
      h("button", { type: "button", onclick: () => dlg.close() }, "Cancel")));
  function confirm() {
    user.status = "Deactivated";
    record("User deactivated", user.name);
    dlg.close();
    changed();
  }
  return dlg;
}

function settingsPage() {
  const org = data.organization;
  const name = h("input", { type: "text", value: org.name });
  const defaultRole = select(["Viewer", "Editor", "Admin"], org.defaultRole);
  const twoFactor = h("input", { type: "checkbox", id: "two-factor", checked: org.requireTwoFactor });
  const csvImport = h("input", { type: "checkbox", role: "switch", id: "csv-import", checked: org.allowCsvImport });
  const saved = statusNote("Settings saved", "Settings saved", true);
  const error = alertSlot();
  const form = h("form", {},
    field("org-name", "Organization name", name),
    field("default-role", "Default role for new users", defaultRole),
    h("div", { class: "check" }, twoFactor,
      h("label", { for: "two-factor" }, "Require two-factor authentication")),
    h("div", { class: "check" }, csvImport, h("label", { for: "csv-import" }, "Allow CSV import")),
    error,
    h("button", { type: "submit", class: "primary" }, "Save changes"));
  const onOff = (v) => (v ? "on" : "off");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!name.value.trim()) {
      say(error, "Enter the organization's name.");
      return;
    }
    say(error, "");
    const changes = [];
    if (name.value.trim() !== org.name) changes.push(`Name: ${org.name} to ${name.value.trim()}`);
    if (defaultRole.value !== org.defaultRole) changes.push(`Default role: ${org.defaultRole} to ${defaultRole.value}`);
    if (twoFactor.checked !== org.requireTwoFactor) {
      changes.push(`Two-factor authentication: ${onOff(org.requireTwoFactor)} to ${onOff(twoFactor.checked)}`);
    }
    if (csvImport.checked !== org.allowCsvImport) {
      changes.push(`CSV import: ${onOff(org.allowCsvImport)} to ${onOff(csvImport.checked)}`);
    }
    Object.assign(org, {
      name: name.value.trim(), defaultRole: defaultRole.value,
      requireTwoFactor: twoFactor.checked, allowCsvImport: csvImport.checked,
    });
    if (changes.length) record("Settings changed", changes.join("; "));
    save();
    document.querySelector("header span").textContent = org.name;
    saved.hidden = false;
  });
  return frame("settings", h("h1", {}, "Organization settings"), form, saved);
}

function auditLogPage() {
  const action = select(["All actions", ...ACTIONS], "All actions");
  const from = h("input", { type: "date" });
  const tableSlot = h("div", {});
  function shown() {
    return data.auditEvents
      .filter((e) => action.value === "All actions" || e.action === action.value)
      .filter((e) => !from.value || e.at.slice(0, 10) >= from.value);
  }
  function renderTable() {
    const rows = shown().map((e) => [formatWhen(e.at), e.who, e.action, e.details]);
    tableSlot.replaceChildren(table("Audit events", ["When", "Who", "Action", "Details"], rows));
    if (rows.length === 0) tableSlot.append(h("div", {}, "No events match these filters."));
  }
  action.addEventListener("change", renderTable);
  from.addEventListener("input", renderTable);
  from.addEventListener("change", renderTable);
  renderTable();
  function exportCsv() {
    const lines = [csvLine(["When", "Who", "Action", "Details"])];
    for (const e of shown()) lines.push(csvLine([e.at.replace("T", " "), e.who, e.action, e.details]));
    download("audit-log.csv", lines.join(""));
  }
  return frame("audit-log",
    h("h1", {}, "Audit log"),
    h("div", { class: "toolbar" },
      field("action-filter", "Action", action),
      field("from-date", "From date", from),
      isAdmin() ? h("button", { type: "button", onclick: exportCsv }, "Export CSV") : null),
    tableSlot);
}

function notFoundPage() {
  return [h("main", {}, h("h1", {}, "Page not found"), h("div", { class: "more" }, h("a", { href: "/" }, "Go to the dashboard")))];
}

// ---- routing ----

const ROUTES = [
  { path: /^\/login$/, title: "Sign in", page: loginPage, open: true },
  { path: /^\/$/, title: "Dashboard", page: dashboardPage },
  { path: /^\/users$/, title: "Users", page: usersPage },
  { path: /^\/users\/(\d+)$/, title: "User details", page: (id) => {
    const user = data.users.find((u) => String(u.id) === id);
    return user ? userDetailPage(user) : notFoundPage();
  } },
  // Only admins change the organization; anyone else is sent to the dashboard.
  { path: /^\/settings$/, title: "Organization settings", page: settingsPage, adminOnly: true },
  { path: /^\/audit-log$/, title: "Audit log", page: auditLogPage },
];

function route() {
  const path = location.pathname.replace(/(.)\/+$/, "$1");
  for (const r of ROUTES) {
    const match = path.match(r.path);
    if (!match) continue;
    if (!r.open && !viewer()) return location.replace("/login");
    if (r.adminOnly && !isAdmin()) return location.replace("/");
    document.title = r.title;
    return document.getElementById("app").replaceWith(...r.page(...match.slice(1)));
  }
  document.title = "Page not found";
  document.getElementById("app").replaceWith(...notFoundPage());
}

route();
