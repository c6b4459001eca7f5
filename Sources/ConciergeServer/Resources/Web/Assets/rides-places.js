// Place autocomplete for the rides booking form (progressive enhancement: without it the page
// searches the typed text itself and offers the matches as radio buttons). Turns each place
// field into an ARIA 1.2 combobox with a listbox fed by GET /rides/places/autocomplete; arrow
// keys move, Enter picks, Escape closes; picking fills the hidden place id the form posts.
(function () {
  "use strict";

  function token() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    return String(Date.now()) + Math.random().toString(16).slice(2);
  }

  function hidden(form, name) {
    var field = form.querySelector("input[type=hidden][name='" + name + "']");
    if (!field) {
      field = document.createElement("input");
      field.type = "hidden";
      field.name = name;
      form.appendChild(field);
    }
    return field;
  }

  function enhance(wrapper) {
    var name = wrapper.getAttribute("data-place-field");
    var input = wrapper.querySelector("input#" + name);
    var form = wrapper.closest("form");
    if (!input || !form) { return; }
    var placeId = hidden(form, name + "Id");
    var chosen = hidden(form, name + "Chosen");
    var listbox = document.createElement("ul");
    listbox.id = name + "-listbox";
    listbox.className = "place-listbox";
    listbox.setAttribute("role", "listbox");
    listbox.setAttribute("aria-label", wrapper.querySelector("label").textContent);
    listbox.hidden = true;
    input.insertAdjacentElement("afterend", listbox);
    var status = document.createElement("p");
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    wrapper.appendChild(status);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", listbox.id);

    var suggestions = [];
    var active = -1;
    var timer = null;
    var session = token();
    var asked = 0;

    function close() {
      listbox.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      active = -1;
    }

    function highlight(index) {
      var options = listbox.querySelectorAll("[role=option]");
      options.forEach(function (option, i) { option.setAttribute("aria-selected", i === index ? "true" : "false"); });
      active = index;
      if (index >= 0 && options[index]) {
        input.setAttribute("aria-activedescendant", options[index].id);
        options[index].scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }

    function pick(index) {
      var suggestion = suggestions[index];
      if (!suggestion) { return; }
      input.value = suggestion.description;
      placeId.value = suggestion.placeId;
      chosen.value = suggestion.description;
      input.removeAttribute("aria-invalid");
      // A listbox pick replaces the radio buttons a search without the script offered.
      var choices = wrapper.querySelector(".place-choices");
      if (choices) { choices.remove(); }
      close();
      session = token();
    }

    function show(list) {
      suggestions = list;
      listbox.textContent = "";
      list.forEach(function (suggestion, i) {
        var option = document.createElement("li");
        option.id = name + "-option-" + i;
        option.setAttribute("role", "option");
        option.setAttribute("aria-selected", "false");
        option.textContent = suggestion.mainText || suggestion.description;
        if (suggestion.secondaryText) {
          var secondary = document.createElement("span");
          secondary.className = "secondary";
          secondary.textContent = suggestion.secondaryText;
          option.appendChild(secondary);
        }
        option.addEventListener("mousedown", function (event) { event.preventDefault(); pick(i); });
        listbox.appendChild(option);
      });
      var open = list.length > 0;
      listbox.hidden = !open;
      input.setAttribute("aria-expanded", open ? "true" : "false");
      active = -1;
      status.textContent = open
        ? (wrapper.getAttribute("data-suggestions-text") || "").replace("{count}", String(list.length))
        : (wrapper.getAttribute("data-none-text") || "");
    }

    function search() {
      var text = input.value.trim();
      if (text.length < 2) { show([]); status.textContent = ""; return; }
      var mine = ++asked;
      var url = "/rides/places/autocomplete?input=" + encodeURIComponent(text) + "&sessionToken=" + encodeURIComponent(session);
      fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.json() : { suggestions: [] }; })
        .then(function (body) { if (mine === asked) { show(body.suggestions || []); } })
        .catch(function () { if (mine === asked) { show([]); } });
    }

    input.addEventListener("input", function () {
      // Typed text no longer names the place picked before.
      placeId.value = "";
      chosen.value = "";
      clearTimeout(timer);
      timer = setTimeout(search, 200);
    });
    input.addEventListener("keydown", function (event) {
      var open = !listbox.hidden && suggestions.length > 0;
      if (event.key === "ArrowDown") {
        event.preventDefault();
        if (!open) { search(); return; }
        highlight(active + 1 >= suggestions.length ? 0 : active + 1);
      } else if (event.key === "ArrowUp") {
        if (!open) { return; }
        event.preventDefault();
        highlight(active <= 0 ? suggestions.length - 1 : active - 1);
      } else if (event.key === "Enter") {
        if (open && active >= 0) { event.preventDefault(); pick(active); }
      } else if (event.key === "Escape") {
        if (open) { event.preventDefault(); close(); }
      }
    });
    input.addEventListener("blur", function () { setTimeout(close, 150); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-place-field]").forEach(enhance);
  });
})();
