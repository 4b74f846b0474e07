package devserver

// reloadJS is served at /_atlas/reload.js and referenced from every page the
// dev server serves (never from the built files). It listens to the event
// stream: "reload" reloads the page, "build-error" shows the positioned
// errors in an overlay (built with textContent, so a message is always
// text, never markup), "building" shows a small badge and "hello" means
// the page is current. EventSource reconnects by itself, naming the last
// build it saw, so a page open across a server restart reloads too.
const reloadJS = `// GPU Atlas dev server: live reload and build-error overlay.
(function () {
  "use strict";
  var me = document.currentScript;
  var build = (me && me.getAttribute("data-build")) || "";
  var overlay = null, badge = null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function stylesheet() {
    if (document.getElementById("atlas-dev-css")) return;
    var l = el("link");
    l.id = "atlas-dev-css";
    l.rel = "stylesheet";
    l.href = "/_atlas/overlay.css";
    (document.head || document.documentElement).appendChild(l);
  }
  function hide() {
    if (overlay) overlay.remove();
    overlay = null;
  }
  function busy(on) {
    if (on && !badge) {
      stylesheet();
      badge = el("div", "atlas-badge", "Rebuilding\u2026");
      badge.setAttribute("role", "status");
      document.body.appendChild(badge);
    } else if (!on && badge) {
      badge.remove();
      badge = null;
    }
  }
  function show(data) {
    stylesheet();
    hide();
    var errs = data.errors || [];
    overlay = el("div", "atlas-overlay");
    overlay.id = "atlas-overlay";
    overlay.setAttribute("role", "alertdialog");
    overlay.setAttribute("aria-label", "Build failed");
    var box = el("div", "atlas-overlay-box");
    box.appendChild(el("h2", "", "Build failed: " + errs.length + " error" + (errs.length === 1 ? "" : "s")));
    box.appendChild(el("p", "", "This page shows the last successful build. Fix the file and save: the page reloads by itself."));
    var list = el("ol", "atlas-overlay-errors");
    errs.forEach(function (e) {
      var li = el("li");
      li.appendChild(el("code", "", e.text));
      list.appendChild(li);
    });
    box.appendChild(list);
    var close = el("button", "atlas-overlay-close", "Dismiss");
    close.type = "button";
    close.addEventListener("click", hide);
    box.appendChild(close);
    overlay.appendChild(box);
    document.body.appendChild(overlay);
  }
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") hide();
  });

  var es = new EventSource("/_atlas/events?build=" + encodeURIComponent(build) + "&page=" + encodeURIComponent(location.pathname));
  es.addEventListener("hello", function () { busy(false); hide(); });
  es.addEventListener("building", function () { busy(true); });
  es.addEventListener("build-error", function (e) { busy(false); show(JSON.parse(e.data)); });
  es.addEventListener("reload", function () { es.close(); location.reload(); });
})();
`

// overlayCSS is served at /_atlas/overlay.css: the styles of the overlay,
// the badge and the placeholder page, kept out of the page because the
// site's CSP forbids inline styles.
const overlayCSS = `.atlas-overlay{position:fixed;inset:0;z-index:2147483647;display:flex;align-items:flex-start;justify-content:center;padding:5vh 1rem;overflow:auto;background:rgba(16,16,20,.75);font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
.atlas-overlay-box{box-sizing:border-box;width:100%;max-width:64rem;padding:1.25rem 1.5rem;border-top:6px solid #c62828;border-radius:6px;background:#fff;color:#1a1a1a;box-shadow:0 12px 40px rgba(0,0,0,.45)}
.atlas-overlay h2{margin:0 0 .5rem;font-size:1.3rem;color:#b71c1c}
.atlas-overlay p{margin:0 0 .75rem}
.atlas-overlay-errors{margin:0 0 1rem;padding-left:1.75rem}
.atlas-overlay-errors li{margin:.35rem 0}
.atlas-overlay-errors code,.atlas-dev-page code{white-space:pre-wrap;overflow-wrap:anywhere;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.atlas-overlay-close{font:inherit;padding:.3rem .9rem;border:1px solid #888;border-radius:4px;background:#f4f4f4;color:#1a1a1a;cursor:pointer}
.atlas-badge{position:fixed;right:1rem;bottom:1rem;z-index:2147483647;padding:.35rem .75rem;border-radius:4px;background:#1a1a1a;color:#fff;font:13px/1.4 system-ui,sans-serif;opacity:.9}
.atlas-dev-page{max-width:64rem;margin:3rem auto;padding:0 1rem;font:16px/1.5 system-ui,sans-serif}
@media (prefers-color-scheme:dark){.atlas-overlay-box{background:#1e1e22;color:#eee}.atlas-overlay h2{color:#ff8a80}.atlas-overlay-close{background:#333;color:#eee}}
`
