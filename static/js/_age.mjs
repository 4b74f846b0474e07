// Price ages on the day a page is read. The build states every price's
// date in a <time class="asof" datetime="YYYY-MM-DD"> and picks answers
// from the prices current on the build day (catalog.Staleness.Current:
// at most stale_days old). A page served later would otherwise keep
// calling a price "fresh" or present it as current long after it is not:
// refreshAges re-derives each age band from the date and the reader's
// clock, and marks a price that was current when the page was built and
// is stale now. The rule and its thresholds are the Go side's, passed in
// <body data-age='{"fresh":90,"stale":365,"built":"2026-12-06","t":{...}}'>.
// An ES module (.mjs) so that Node's test runner imports it as it is.
import { fill } from "./_shared.mjs";

// ageDays is the number of whole UTC calendar days from an ISO date to
// now (never negative), as catalog.AgeDays counts them.
export function ageDays(iso, now) {
  const [y, m, d] = String(iso).split("-").map(Number);
  const a = Date.UTC(y, m - 1, d);
  const n = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.max(0, Math.floor((n - a) / 86400000));
}

// band names an age as derive.Band does: fresh, ageing or stale.
export function band(days, fresh, stale) {
  if (days <= fresh) return "fresh";
  if (days <= stale) return "ageing";
  return "stale";
}

const BANDS = ["fresh", "ageing", "stale"];

// refreshAges updates doc's price ages for now, those within root (the
// whole document by default: a script that adds rows later passes them);
// it returns how many prices it marked as no longer current.
export function refreshAges(doc, now, root = doc) {
  let cfg = null;
  try {
    cfg = JSON.parse((doc.body && doc.body.dataset.age) || "null");
  } catch {
    return 0;
  }
  if (!cfg) return 0;
  const built = cfg.built ? new Date(cfg.built + "T00:00:00Z") : now;
  let marked = 0;
  for (const time of root.querySelectorAll("time.asof")) {
    const iso = time.getAttribute("datetime");
    if (!/^\d{4}-\d{2}-\d{2}$/.test(iso || "")) continue;
    const days = ageDays(iso, now);
    const b = band(days, cfg.fresh, cfg.stale);
    // An offer row's age badge sits beside its date.
    const cell = time.parentElement;
    const badge = cell && cell.querySelector(".badge.fresh, .badge.ageing, .badge.stale");
    if (badge && !badge.classList.contains(b)) {
      for (const x of BANDS) badge.classList.remove(x);
      badge.classList.add(b);
      badge.textContent = (cfg.t && cfg.t[b]) || b;
      if (cfg.t && cfg.t.age) badge.setAttribute("title", fill(cfg.t.age, days));
    }
    // Current when the page was built, stale now: say so beside it.
    if (b === "stale" && ageDays(iso, built) <= cfg.stale) {
      const next = time.nextElementSibling;
      if (!(next && next.classList.contains("aged"))) {
        const note = doc.createElement("span");
        note.className = "aged";
        note.textContent = fill((cfg.t && cfg.t.aged) || " (now over {0} days old)", cfg.stale);
        time.after(note);
      }
      marked++;
    }
  }
  return marked;
}
