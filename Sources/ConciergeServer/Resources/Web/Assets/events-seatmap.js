// The show page's seat map: each seat becomes a checkbox (click, or Tab to the map, arrow keys
// between seats, Enter or Space to choose), the choice with its total is listed and announced,
// and the seats' states follow the seat list API every few seconds. The map chooses the same
// checkboxes the page's seat list has, so the form posted is the same with or without this file.
(function () {
  "use strict";
  var POLL_MS = 4000;

  document.addEventListener("DOMContentLoaded", function () {
    var svg = document.getElementById("seatmap");
    var form = document.getElementById("seat-form");
    if (!svg || !form) { return; }
    var seats = Array.prototype.slice.call(svg.querySelectorAll(".seat"));
    var boxes = {};
    form.querySelectorAll("input[name=seat]").forEach(function (box) { boxes[box.value] = box; });
    var status = document.getElementById("selection-status");
    var list = document.getElementById("selection-list");
    var total = document.getElementById("selection-total");
    var locale = form.getAttribute("data-locale") || document.documentElement.lang;
    var currency = form.getAttribute("data-currency") || "CHF";
    var words = {
      available: svg.getAttribute("data-word-available"), reserved: svg.getAttribute("data-word-reserved"),
      sold: svg.getAttribute("data-word-sold")
    };
    var number = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

    svg.setAttribute("role", "group");
    svg.setAttribute("aria-describedby", "seatmap-help");
    svg.classList.add("interactive");
    var listDetails = document.getElementById("seat-list");
    if (listDetails) { listDetails.removeAttribute("open"); }
    document.getElementById("selection").hidden = false;

    function box(seat, create) {
      var id = seat.getAttribute("data-seat-id");
      if (!boxes[id] && create) {
        // A seat freed since the page was drawn has no checkbox in the list yet.
        var extra = document.createElement("input");
        extra.type = "checkbox"; extra.name = "seat"; extra.value = id; extra.hidden = true;
        form.appendChild(extra);
        boxes[id] = extra;
      }
      return boxes[id];
    }
    function isFree(seat) { return seat.getAttribute("data-status") === "available"; }
    function isChosen(seat) { var b = box(seat, false); return !!(b && b.checked && !b.disabled); }

    function money(cents) { return currency + " " + number.format(cents / 100); }

    function draw() {
      var chosen = [];
      var cents = 0;
      seats.forEach(function (seat) {
        var state = seat.getAttribute("data-status");
        var on = isChosen(seat);
        seat.setAttribute("class", "seat " + state + (on ? " selected" : ""));
        seat.setAttribute("aria-checked", on ? "true" : "false");
        if (state === "available") { seat.removeAttribute("aria-disabled"); } else { seat.setAttribute("aria-disabled", "true"); }
        seat.setAttribute("aria-label", seat.getAttribute("data-label") + ", " + (words[state] || state));
        if (on) { chosen.push(seat); cents += Number(seat.getAttribute("data-price-cents")) || 0; }
      });
      list.textContent = "";
      chosen.forEach(function (seat) {
        var item = document.createElement("li");
        item.textContent = seat.getAttribute("data-label");
        list.appendChild(item);
      });
      total.textContent = chosen.length ? money(cents) : "–";
      return chosen;
    }

    function announce(text) { status.textContent = text; }
    function describe(chosen) {
      if (!chosen.length) { return status.getAttribute("data-none"); }
      return status.getAttribute("data-count").replace("{count}", chosen.length).replace("{total}", total.textContent);
    }

    function toggle(seat) {
      if (!isFree(seat)) { return; }
      var b = box(seat, true);
      b.checked = !b.checked;
      announce(describe(draw()));
    }

    // Roving focus: one seat is in the Tab order; arrow keys move it.
    function focusSeat(seat) {
      seats.forEach(function (s) { s.setAttribute("tabindex", "-1"); });
      seat.setAttribute("tabindex", "0");
      seat.focus();
    }
    var first = seats.filter(isFree)[0] || seats[0];
    seats.forEach(function (s) { s.setAttribute("role", "checkbox"); s.setAttribute("tabindex", s === first ? "0" : "-1"); });

    function position(seat) { return { x: Number(seat.getAttribute("cx")), y: Number(seat.getAttribute("cy")) }; }
    function neighbour(seat, key) {
      var here = position(seat);
      var best = null, bestScore = Infinity;
      seats.forEach(function (other) {
        if (other === seat) { return; }
        var p = position(other), dx = p.x - here.x, dy = p.y - here.y, score;
        if (key === "ArrowRight" && dy === 0 && dx > 0) { score = dx; }
        else if (key === "ArrowLeft" && dy === 0 && dx < 0) { score = -dx; }
        else if (key === "ArrowDown" && dy > 0) { score = dy * 1000 + Math.abs(dx); }
        else if (key === "ArrowUp" && dy < 0) { score = -dy * 1000 + Math.abs(dx); }
        else { return; }
        if (score < bestScore) { bestScore = score; best = other; }
      });
      return best;
    }

    svg.addEventListener("click", function (event) {
      var seat = event.target.closest && event.target.closest(".seat");
      if (!seat) { return; }
      focusSeat(seat);
      toggle(seat);
    });
    svg.addEventListener("keydown", function (event) {
      var seat = event.target.closest && event.target.closest(".seat");
      if (!seat) { return; }
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(seat); return; }
      var next = null;
      if (event.key === "Home") { next = seats[0]; }
      else if (event.key === "End") { next = seats[seats.length - 1]; }
      else if (/^Arrow/.test(event.key)) { next = neighbour(seat, event.key); }
      if (next) { event.preventDefault(); focusSeat(next); }
    });
    form.addEventListener("change", function (event) {
      if (event.target.name === "seat") { announce(describe(draw())); }
    });

    // Live availability: seats others take leave the choice, with a sentence saying so.
    var showID = svg.getAttribute("data-show-id");
    var byID = {};
    seats.forEach(function (seat) { byID[seat.getAttribute("data-seat-id")] = seat; });
    function poll() {
      if (document.hidden) { return; }
      fetch("/events/api/shows/" + encodeURIComponent(showID) + "/seats", { headers: { Accept: "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (rows) {
          if (!rows) { return; }
          var lost = [];
          rows.forEach(function (row) {
            var seat = byID[row.id];
            if (!seat || seat.getAttribute("data-status") === row.status) { return; }
            if (row.status !== "available" && isChosen(seat)) {
              box(seat, false).checked = false;
              lost.push(seat.getAttribute("data-label"));
            }
            var b = box(seat, false);
            if (b) { b.disabled = row.status !== "available"; }
            seat.setAttribute("data-status", row.status);
          });
          var chosen = draw();
          if (lost.length) { announce(status.getAttribute("data-taken").replace("{seats}", lost.join("; ")) + " " + describe(chosen)); }
        })
        .catch(function () { /* offline for a moment: the next poll tries again */ });
    }
    draw();
    setInterval(poll, POLL_MS);
  });
})();
