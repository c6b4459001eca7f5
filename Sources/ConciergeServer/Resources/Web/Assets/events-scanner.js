// The door scanner's camera: where the browser has a camera and a QR reader (BarcodeDetector),
// a button starts the camera; the first code read goes into the ticket code field and the
// form is sent, exactly as if it had been typed. Everywhere else the typed form is the scanner.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var section = document.getElementById("camera");
    var form = document.getElementById("scan-form");
    var field = document.getElementById("code");
    if (!section || !form || !field) { return; }
    var status = document.getElementById("camera-status");
    var video = document.getElementById("camera-video");
    var start = document.getElementById("camera-start");
    var canRead = "BarcodeDetector" in window && navigator.mediaDevices && navigator.mediaDevices.getUserMedia;
    section.hidden = false;
    if (!canRead) {
      status.textContent = status.getAttribute("data-unavailable");
      start.hidden = true;
      return;
    }
    var detector;
    try { detector = new window.BarcodeDetector({ formats: ["qr_code"] }); } catch (e) { detector = null; }
    if (!detector) {
      status.textContent = status.getAttribute("data-unavailable");
      start.hidden = true;
      return;
    }
    start.addEventListener("click", function () {
      navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false })
        .then(function (stream) {
          video.srcObject = stream;
          video.hidden = false;
          start.hidden = true;
          status.textContent = status.getAttribute("data-starting");
          return video.play().then(function () { scan(stream); });
        })
        .catch(function () { status.textContent = status.getAttribute("data-unavailable"); });
    });
    function scan(stream) {
      detector.detect(video).then(function (codes) {
        if (codes.length && codes[0].rawValue) {
          field.value = codes[0].rawValue;
          status.textContent = status.getAttribute("data-read");
          stream.getTracks().forEach(function (track) { track.stop(); });
          form.submit();
          return;
        }
        window.requestAnimationFrame(function () { scan(stream); });
      }).catch(function () { window.setTimeout(function () { scan(stream); }, 300); });
    }
  });
})();
