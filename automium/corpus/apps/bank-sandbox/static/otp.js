// The sandbox's verification frame: it checks a one-time code with the host (the page never
// sees the code's expected value) and tells the page that embeds it which account it
// verified. The page says what the code is for and whose it is in the frame's query string.
"use strict";

(() => {
  const VERIFIED = "bank-sandbox:verified";
  const query = new URLSearchParams(location.search);
  const purpose = query.get("for");
  const customerId = query.get("customer");
  const form = document.getElementById("otp-form");
  const code = document.getElementById("otp-code");
  const button = form.querySelector("button");

  function showError(message) {
    form.querySelector(".error")?.remove();
    const alert = document.createElement("div");
    alert.setAttribute("role", "alert");
    alert.className = "error";
    alert.textContent = message;
    form.prepend(alert);
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!customerId || window.parent === window) {
      showError("Open this code form from Bank Sandbox.");
      return;
    }
    button.disabled = true;
    const account = await window.kit.signIn({ customerId }, { "one-time-code": code.value.trim() });
    button.disabled = false;
    if (account === null) {
      code.value = "";
      showError("That code is not right. Check the latest text message and try again.");
      return;
    }
    window.parent.postMessage({ type: VERIFIED, for: purpose, account }, location.origin);
  });
})();
