/* Nightfall: live updates (server-sent events -> htmx refresh), countdowns, copy buttons.
   No build step; htmx is vendored next to this file. */
(function () {
  "use strict";

  function connect() {
    var url = document.body.dataset.events;
    if (!url || !window.EventSource) { return; }
    var source = new EventSource(url);
    ["post", "phase", "notice", "change"].forEach(function (name) {
      source.addEventListener(name, function () {
        document.body.dataset.lastEvent = name;
        announce(name);
        if (window.htmx) { window.htmx.trigger(document.body, "nf:" + name); }
      });
    });
    /* On every (re)connect, the thread catches up: the stream starts from the head it
       finds, so a post that came between the page's rendering and the connection (or
       while the connection was down) would otherwise never show. Appending is
       idempotent (only entries after the page's last) and touches no form, unlike a
       refresh of a page's live region, which would wipe a half-filled form at every
       reconnect. */
    source.addEventListener("open", function () {
      document.body.dataset.live = "1";
      if (window.htmx) { window.htmx.trigger(document.body, "nf:post"); }
    });
  }

  /* Say in the polite live region (#live-status, role=status) what a live update
     brought; the region itself is never replaced, so screen readers hear it. */
  function announce(name) {
    var region = document.getElementById("live-status");
    var key = "msg" + name.charAt(0).toUpperCase() + name.slice(1);
    if (!region || !region.dataset[key]) { return; }
    region.textContent = "";
    window.setTimeout(function () { region.textContent = region.dataset[key]; }, 50);
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var left = Math.floor((Date.parse(el.dataset.deadline) - Date.now()) / 1000);
      if (isNaN(left)) { return; }
      if (left <= 0) { el.textContent = el.dataset.expired; el.classList.add("over"); return; }
      var d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600);
      var m = Math.floor(left % 3600 / 60), s = left % 60;
      el.textContent = (d ? d + " " + el.dataset.day + " " : "") + pad(h) + ":" + pad(m) + ":" + pad(s);
    });
  }

  function copy(event) {
    var button = event.target.closest("[data-copy]");
    if (!button) { return; }
    var source = document.querySelector(button.dataset.copy);
    if (!source) { return; }
    var text = source.value !== undefined ? source.value : source.textContent;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text);
    } else if (source.select) {
      source.select(); document.execCommand("copy");
    }
    button.classList.add("copied");
  }

  function browserZone() {
    document.querySelectorAll("[data-browser-zone]").forEach(function (input) {
      try {
        var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
        if (zone && !input.dataset.touched) { input.value = zone; }
      } catch (e) { /* keep the game's zone */ }
    });
  }

  /* A form with data-confirm (the GM's acts that cannot be taken back at once: new
     links, revoking, skipping, modkill, undo) asks first; one stray click must not cut
     every player off. */
  function confirmSubmit(event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    connect();
    tick();
    setInterval(tick, 1000);
    browserZone();
    document.addEventListener("click", copy);
    document.addEventListener("submit", confirmSubmit);
  });
  document.addEventListener("htmx:afterSwap", tick);
})();
