// The trip form's place search as you type: asks /commute/my-trips/places for the same radio
// choices the "Find places" button shows without JavaScript. Enter in a search field searches;
// Enter anywhere else saves the trip (without JavaScript it presses the first button).
(function () {
  "use strict";
  function search(input) {
    var end = input.getAttribute("data-place-search");
    var target = document.getElementById(end + "-choices");
    if (!target) { return; }
    var checked = input.form.querySelector("input[name=" + end + "]:checked");
    var query = input.value.trim();
    if (query.length < 2) { return; }
    var url = "/commute/my-trips/places?end=" + encodeURIComponent(end) + "&q=" + encodeURIComponent(query) +
      (checked ? "&chosen=" + encodeURIComponent(checked.value) : "");
    fetch(url, { credentials: "same-origin" }).then(function (response) {
      return response.ok ? response.text() : null;
    }).then(function (html) {
      if (html !== null && input.value.trim() === query) { target.innerHTML = html; }
    }).catch(function () { /* the Find places button still works */ });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("[data-commute-form]");
    if (!form) { return; }
    var timers = {};
    form.querySelectorAll("[data-place-search]").forEach(function (input) {
      input.addEventListener("input", function () {
        var end = input.getAttribute("data-place-search");
        clearTimeout(timers[end]);
        timers[end] = setTimeout(function () { search(input); }, 250);
      });
    });
    form.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || event.target.tagName !== "INPUT") { return; }
      var type = event.target.type;
      if (type === "checkbox" || type === "radio" || type === "submit") { return; }
      event.preventDefault();
      if (event.target.hasAttribute("data-place-search")) {
        search(event.target);
      } else {
        var save = form.querySelector("[data-commute-save]");
        if (form.requestSubmit) { form.requestSubmit(save); } else { save.click(); }
      }
    });
  });
})();
