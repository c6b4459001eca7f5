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
  // A hold's countdown is role=timer (never read out as it ticks); its data-announce-<seconds>
  // texts are said once each, in the polite live region data-announcer names, when the time left
  // falls to that mark (5 min, 1 min, lapse). A mark already passed when the page opened is not
  // said. At 0 the Pay link goes and the page's "lapsed, hold again" notice shows.
  var said = new WeakMap();
  function marks(el) {
    return Object.keys(el.dataset).map(function (key) {
      var found = /^announce-?(\d+)$/.exec(key);
      return found ? Number(found[1]) : null;
    }).filter(function (mark) { return mark !== null; }).sort(function (a, b) { return b - a; });
  }
  function announce(el, left) {
    var region = document.getElementById(el.getAttribute("data-announcer") || "");
    if (!region) { return; }
    if (!said.has(el)) {
      // The marks already behind us when the page opened stay unsaid.
      said.set(el, marks(el).filter(function (mark) { return left <= mark; }));
      return;
    }
    var done = said.get(el);
    marks(el).forEach(function (mark) {
      if (left <= mark && done.indexOf(mark) < 0) {
        done.push(mark);
        region.textContent = el.getAttribute("data-announce-" + mark);
      }
    });
  }
  function lapsed() {
    document.querySelectorAll("[data-until-hold-lapses]").forEach(function (el) { el.remove(); });
    document.querySelectorAll("[data-hold-lapsed]").forEach(function (el) { el.hidden = false; });
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-countdown-until]").forEach(function (el) {
      var raw = el.getAttribute("data-countdown-until");
      var until = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
      var left = Math.max(0, Math.round((until - now) / 1000));
      var m = Math.floor(left / 60), s = left % 60;
      el.textContent = m + ":" + (s < 10 ? "0" : "") + s;
      if (left === 0 && el.dataset.expiredText) { el.textContent = el.dataset.expiredText; }
      announce(el, left);
      if (left === 0 && el.hasAttribute("data-announce-0")) { lapsed(); }
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (document.querySelector("[data-countdown-until]")) { tick(); setInterval(tick, 1000); }
  });
})();
