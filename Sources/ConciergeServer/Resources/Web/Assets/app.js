// Small progressive enhancements shared by every page; every flow works without them.
(function () {
  "use strict";
  // Focus the first field a person must correct (its message is announced by role=alert).
  document.addEventListener("DOMContentLoaded", function () {
    var invalid = document.querySelector("[aria-invalid=true]");
    if (invalid) { invalid.focus(); return; }
    var alert = document.querySelector(".errors[role=alert]");
    if (alert) { alert.setAttribute("tabindex", "-1"); alert.focus(); }
  });
  // Countdowns: <span data-countdown-until="ISO or epoch ms">; the server's text stays until then.
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-countdown-until]").forEach(function (el) {
      var raw = el.getAttribute("data-countdown-until");
      var until = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
      var left = Math.max(0, Math.round((until - now) / 1000));
      var m = Math.floor(left / 60), s = left % 60;
      el.textContent = m + ":" + (s < 10 ? "0" : "") + s;
      if (left === 0 && el.dataset.expiredText) { el.textContent = el.dataset.expiredText; }
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (document.querySelector("[data-countdown-until]")) { tick(); setInterval(tick, 1000); }
  });
})();
