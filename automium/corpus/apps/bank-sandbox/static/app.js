// Bank Sandbox: an online bank with no real money. One script renders every route from the
// run's state, synchronously, so each page is complete at the load event. Money is held in
// integer cents; the host's boot script (window.AUTOMIUM) hands over the fixture's seed.
"use strict";

(() => {
  const { h, field, select, table, downloadUrl, monthYear, stored, signIn } = window.kit;
  const root = document.getElementById("app");
  const VERIFIED = "bank-sandbox:verified";

  const ROUTES = [
    ["login", /^\/login$/, "Sign in"],
    ["accounts", /^\/accounts$/, "Accounts overview"],
    ["transfer", /^\/transfer$/, "New transfer"],
    ["transfer-review", /^\/transfer\/review$/, "Review transfer"],
    ["transfer-receipt", /^\/transfer\/receipt\/([^/]+)$/, "Transfer receipt"],
    ["statements", /^\/statements$/, "Statements"],
  ];
  const SIGNED_IN_ROUTES = new Set(ROUTES.map(([id]) => id).filter((id) => id !== "login"));
  // A locked account keeps read access; every route that moves money sends it back.
  const MOVES_MONEY = new Set(["transfer", "transfer-review"]);
  const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

  // ---- state: the run's session, kept in localStorage so it survives page loads ----

  const { state, save } = stored((boot) => ({
    data: boot.data,
    session: boot.account ? boot.account.ref : null,
    pendingSignIn: null,
    editingDraft: false,
  }));
  save();

  const customer = () => (state.session ? state.data.customers[state.session] || null : null);
  const accountNamed = (who, name) => who.accounts.find((a) => a.name === name) || null;
  const accountById = (who, id) => who.accounts.find((a) => a.id === id) || null;
  const money = (cents) => dollars.format(cents / 100);
  const masked = (number) => `\u2022\u2022\u2022\u2022 ${number}`;

  // ---- DOM helpers of this app alone (the common ones are the shared script's) ----

  // A select named as its id: the bank names every control of its forms.
  function namedSelect(id, options, chosen) {
    return select(options, chosen, { id, name: id });
  }

  function showError(container, message) {
    container.querySelector(".error")?.remove();
    if (message) container.prepend(h("div", { role: "alert", class: "error" }, message));
  }

  function download(filename, type, text) {
    downloadUrl(filename, `data:${type};charset=utf-8,${encodeURIComponent(text)}`);
  }

  // The verification iframe is its own page (/static/otp.html): it checks the code with the
  // host and tells this page which account it verified, and nothing else.
  function verificationFrame() {
    return h("iframe", { title: "Verification", class: "verification" });
  }

  // One verification is open at a time; opening another replaces it.
  let verification = null;
  window.addEventListener("message", (event) => {
    if (!verification || event.origin !== location.origin) return;
    if (event.source !== verification.frame.contentWindow) return;
    const message = event.data;
    if (message && message.type === VERIFIED && message.for === verification.purpose) {
      verification.onVerified(message.account);
    }
  });

  function openVerification(frame, purpose, customerId, onVerified) {
    const query = new URLSearchParams({ for: purpose, customer: customerId });
    frame.src = `/static/otp.html?${query}`;
    verification = { frame, purpose, onVerified };
  }

  function signOut() {
    state.session = null;
    state.pendingSignIn = null;
    save();
    location.assign("/login");
  }

  function banner(who) {
    return h(
      "header",
      { class: "banner" },
      h("span", { class: "brand" }, "Bank Sandbox"),
      h(
        "nav",
        { "aria-label": "Main" },
        h("a", { href: "/accounts" }, "Accounts"),
        who.locked ? null : h("a", { href: "/transfer" }, "Transfer money"),
        h("a", { href: "/statements" }, "Statements"),
      ),
      h("button", { type: "button", onclick: signOut }, "Sign out"),
    );
  }

  // ---- routes ----

  function login() {
    const customerId = h("input", { id: "customer-id", name: "customer-id", autocomplete: "username" });
    const password = h("input", {
      id: "password", name: "password", type: "password", autocomplete: "current-password",
    });
    const phone = h("div", null, "We sent a code to your phone ending 55.");
    const frame = verificationFrame();
    const verify = h("section", { role: "group", "aria-label": "Verify it's you", class: "verify", hidden: true }, phone, frame);
    const form = h(
      "form",
      { "aria-label": "Sign in", class: "card", novalidate: true },
      field("customer-id", "Customer ID", customerId),
      field("password", "Password", password),
      h("button", { type: "submit", class: "primary" }, "Continue"),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const id = customerId.value.trim();
      const ref = id && password.value ? await signIn({ customerId: id }, { password: password.value }) : null;
      const who = ref ? state.data.customers[ref] : null;
      if (!ref) {
        showError(form, "That customer ID and password do not match our records.");
        return;
      }
      if (!who) {
        showError(form, "This customer has no accounts in this sandbox.");
        return;
      }
      showError(form, null);
      state.pendingSignIn = ref;
      save();
      phone.textContent = `We sent a code to your phone ending ${who.phoneEnding}.`;
      verify.hidden = false;
      openVerification(frame, "sign-in", who.customerId, (account) => {
        if (account !== state.pendingSignIn) return;
        state.session = account;
        state.pendingSignIn = null;
        save();
        location.assign("/accounts");
      });
    });
    return [h("main", null, h("h1", null, "Sign in to Bank Sandbox"), form, verify)];
  }

  function accounts(who) {
    const main = h("main", null, h("h1", null, "Your accounts"));
    if (who.locked) {
      const why = h(
        "section",
        { id: "why-locked", "aria-label": "Why accounts are locked", hidden: true },
        h("div", null, "We lock an account when a payment looks like fraud, to protect your money."),
      );
      const toggle = h(
        "button",
        { type: "button", "aria-expanded": "false", "aria-controls": "why-locked" },
        "Why is my account locked?",
      );
      toggle.addEventListener("click", () => {
        why.hidden = !why.hidden;
        toggle.setAttribute("aria-expanded", String(!why.hidden));
      });
      main.append(
        h(
          "div",
          { role: "alert", "aria-label": "Account locked", class: "notice" },
          h("div", null, "We locked your account after unusual activity. Transfers are blocked until you contact support."),
          toggle,
          why,
        ),
      );
    }
    main.append(
      table(
        "Accounts",
        ["Account", "Number", "Balance"],
        who.accounts.map((a) => [a.name, masked(a.number), money(a.balanceCents)]),
      ),
    );
    const actions = h("section", { "aria-label": "Quick actions", class: "actions" });
    const payBill = h("button", { type: "button", disabled: who.locked }, "Pay a bill");
    payBill.addEventListener("click", () => {
      if (actions.querySelector("[role=status]")) return;
      actions.append(h("div", { role: "status" }, "Bill payments are not available in the sandbox."));
    });
    actions.append(
      h("button", { type: "button", class: "primary", disabled: who.locked, onclick: () => location.assign("/transfer") }, "Move money"),
      payBill,
      h("a", { href: "/statements" }, "View statements"),
    );
    main.append(actions);
    return [banner(who), main];
  }

  const AMOUNT = /^\$?(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/;

  function parseCents(text) {
    const trimmed = text.trim();
    if (!AMOUNT.test(trimmed)) return null;
    const [whole, fraction = ""] = trimmed.replace(/[$,]/g, "").split(".");
    return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  }

  function transfer(who) {
    const names = who.accounts.map((a) => a.name);
    // "Edit transfer" brings the draft back; a new visit starts a blank transfer.
    const draft = state.editingDraft ? who.pendingTransfer : null;
    state.editingDraft = false;
    save();
    const fromName = draft ? accountById(who, draft.from).name : names[0];
    const toName = draft ? accountById(who, draft.to).name : names[1] || names[0];
    const from = namedSelect("from-account", names, fromName);
    const to = namedSelect("to-account", names, toName);
    const amount = h("input", { id: "amount", name: "amount", inputmode: "decimal", autocomplete: "off" });
    const reference = h("input", { id: "reference", name: "reference", maxlength: 40, autocomplete: "off" });
    if (draft) {
      amount.value = (draft.amountCents / 100).toFixed(2);
      reference.value = draft.reference;
    }
    const form = h(
      "form",
      { "aria-label": "Transfer details", class: "card", novalidate: true },
      field("from-account", "From account", from),
      field("to-account", "To account", to),
      field("amount", "Amount", amount),
      field("reference", "Reference", reference),
      h("button", { type: "submit", class: "primary" }, "Review transfer"),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const source = accountNamed(who, from.value);
      const target = accountNamed(who, to.value);
      const cents = parseCents(amount.value);
      let problem = null;
      if (source === target) problem = "Choose two different accounts.";
      else if (cents === null || cents === 0) problem = "Enter an amount in dollars, such as 250.00.";
      else if (cents > source.balanceCents) problem = `${source.name} holds ${money(source.balanceCents)}; enter a smaller amount.`;
      if (problem) {
        showError(form, problem);
        return;
      }
      who.pendingTransfer = { from: source.id, to: target.id, amountCents: cents, reference: reference.value.trim() };
      save();
      location.assign("/transfer/review");
    });
    return [banner(who), h("main", null, h("h1", null, "New transfer"), form, h("a", { href: "/accounts" }, "Cancel"))];
  }

  function nextTransferId(who) {
    const base = `TR-${state.data.today.replaceAll("-", "")}`;
    const taken = new Set(who.transfers.map((t) => t.id));
    let id = base;
    for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
    return id;
  }

  function commitTransfer(who) {
    const pending = who.pendingTransfer;
    const source = accountById(who, pending.from);
    const target = accountById(who, pending.to);
    source.balanceCents -= pending.amountCents;
    target.balanceCents += pending.amountCents;
    const id = nextTransferId(who);
    who.transfers.push({
      id,
      date: state.data.today,
      from: source.name,
      to: target.name,
      amountCents: pending.amountCents,
      reference: pending.reference,
    });
    who.pendingTransfer = null;
    save();
    return id;
  }

  function transferReview(who) {
    const pending = who.pendingTransfer;
    const source = accountById(who, pending.from);
    const target = accountById(who, pending.to);
    const summary = h(
      "section",
      { "aria-label": "Transfer summary", class: "summary" },
      h("div", null, `${money(pending.amountCents)} from ${source.name} to ${target.name}`),
      pending.reference ? h("div", null, `Reference: ${pending.reference}`) : null,
    );
    const frame = verificationFrame();
    const dialog = h(
      "dialog",
      { "aria-label": "Confirm with a one-time code" },
      h("div", null, `We sent a code to your phone ending ${who.phoneEnding}.`),
      frame,
      h("button", { type: "button", onclick: () => dialog.close() }, "Cancel"),
    );
    const confirm = h("button", { type: "button", class: "primary" }, "Confirm transfer");
    confirm.addEventListener("click", () => {
      // A fresh frame each time, so a code typed before a cancel is gone.
      openVerification(frame, "transfer", who.customerId, (account) => {
        if (account !== state.session || !who.pendingTransfer) return;
        location.assign(`/transfer/receipt/${encodeURIComponent(commitTransfer(who))}`);
      });
      dialog.showModal();
    });
    const edit = h("button", { type: "button" }, "Edit transfer");
    edit.addEventListener("click", () => {
      state.editingDraft = true;
      save();
      location.assign("/transfer");
    });
    return [banner(who), h("main", null, h("h1", null, "Review transfer"), summary, confirm, edit, dialog)];
  }

  function transferReceipt(who, transferId) {
    const done = who.transfers.find((t) => t.id === transferId);
    const back = h("a", { href: "/accounts" }, "Back to accounts");
    if (!done) {
      return [
        banner(who),
        h("main", null, h("h1", null, "Receipt not found"), h("div", null, `No transfer has the reference ${transferId}.`), back),
      ];
    }
    const sentence = `${money(done.amountCents)} from ${done.from} to ${done.to}, reference ${done.id}`;
    const receiptText = [
      "Bank Sandbox transfer receipt",
      `Reference: ${done.id}`,
      `Date: ${done.date}`,
      `From: ${done.from}`,
      `To: ${done.to}`,
      `Amount: ${money(done.amountCents)}`,
      `Note: ${done.reference}`,
      "",
    ].join("\n");
    const downloadReceipt = h("button", { type: "button" }, "Download receipt");
    downloadReceipt.addEventListener("click", () => download(`receipt-${done.id}.txt`, "text/plain", receiptText));
    return [
      banner(who),
      h(
        "main",
        null,
        h("h1", null, "Transfer complete"),
        h("section", { "aria-label": "Receipt", class: "summary" }, h("div", null, sentence)),
        downloadReceipt,
        back,
      ),
    ];
  }

  function statements(who) {
    const names = who.accounts.map((a) => a.name);
    const years = [...new Set(who.statements.map((s) => s.month.slice(0, 4)))].sort().reverse();
    const accountSelect = namedSelect("statement-account", names, names[0]);
    const yearSelect = namedSelect("statement-year", years, years[0]);
    const holder = h("div");
    const showTable = () => {
      const account = accountNamed(who, accountSelect.value);
      const rows = who.statements
        .filter((s) => s.account === account.id && s.month.startsWith(yearSelect.value))
        .sort((a, b) => b.month.localeCompare(a.month))
        .map((s) => {
          const label = monthYear(s.month);
          const csv = [
            "Account,Number,Month,Closing balance",
            `${account.name},${account.number},${label},"${money(s.closingCents)}"`,
            "",
          ].join("\n");
          const button = h("button", { type: "button" }, `Download ${label} statement`);
          button.addEventListener("click", () =>
            download(`statement-${account.number}-${s.month}.csv`, "text/csv", csv),
          );
          return [label, money(s.closingCents), button];
        });
      holder.replaceChildren(table("Monthly statements", ["Month", "Closing balance", "Download"], rows));
    };
    accountSelect.addEventListener("change", showTable);
    yearSelect.addEventListener("change", showTable);
    showTable();
    return [
      banner(who),
      h(
        "main",
        null,
        h("h1", null, "Statements"),
        h("div", { class: "filters" }, field("statement-account", "Account", accountSelect), field("statement-year", "Year", yearSelect)),
        holder,
      ),
    ];
  }

  function notFound() {
    return [h("main", null, h("h1", null, "Page not found"), h("a", { href: "/accounts" }, "Go to your accounts"))];
  }

  // ---- routing: redirects first, then one synchronous render ----

  function route(path) {
    for (const [id, pattern, title] of ROUTES) {
      const match = pattern.exec(path);
      if (match) return { id, title, param: match[1] ? decodeURIComponent(match[1]) : null };
    }
    return null;
  }

  function redirect(current, who) {
    if (location.pathname === "/") return who ? "/accounts" : "/login";
    if (!current) return null;
    if (SIGNED_IN_ROUTES.has(current.id) && !who) return "/login";
    if (who && who.locked && MOVES_MONEY.has(current.id)) return "/accounts";
    if (current.id === "transfer-review" && !who.pendingTransfer) return "/transfer";
    return null;
  }

  const current = route(location.pathname);
  const who = customer();
  const target = redirect(current, who);
  if (target) {
    location.replace(target);
    return;
  }
  const views = {
    login: () => login(),
    accounts: () => accounts(who),
    transfer: () => transfer(who),
    "transfer-review": () => transferReview(who),
    "transfer-receipt": () => transferReceipt(who, current.param),
    statements: () => statements(who),
  };
  document.title = current ? `${current.title} \u2013 Bank Sandbox` : "Page not found \u2013 Bank Sandbox";
  root.replaceWith(...(current ? views[current.id]() : notFound()));
})();
