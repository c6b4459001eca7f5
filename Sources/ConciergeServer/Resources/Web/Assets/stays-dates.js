// The stays search: check-out stays after check-in while a person picks dates. The server checks
// the range either way; without this script the form works the same.
(function () {
  "use strict";
  function nextDay(value) {
    var date = new Date(value + "T12:00:00Z");
    if (isNaN(date.getTime())) { return ""; }
    date.setUTCDate(date.getUTCDate() + 1);
    return date.toISOString().slice(0, 10);
  }
  document.addEventListener("DOMContentLoaded", function () {
    var checkIn = document.getElementById("checkIn");
    var checkOut = document.getElementById("checkOut");
    if (!checkIn || !checkOut) { return; }
    function keepOrder() {
      var earliest = nextDay(checkIn.value);
      if (!earliest) { return; }
      checkOut.min = earliest;
      if (!checkOut.value || checkOut.value < earliest) { checkOut.value = earliest; }
    }
    checkIn.addEventListener("change", keepOrder);
  });
})();
