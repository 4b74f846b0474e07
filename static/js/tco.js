// The TCO page: the monthly cost of an offer for a usage pattern. The
// arithmetic is _tco.mjs (derive.TCOIn's, checked against vectors from the
// Go code); this script reads the form, renders the table and keeps the
// state in the URL query string. A figure that leaves out a hidden cost the
// provider data does not record says so ("not recorded", "at least").
import { dated, fill, money } from "./_shared.mjs";
import { monthly, HOURS } from "./_tco.mjs";

(() => {
  const form = document.getElementById("tco");
  const el = document.getElementById("tco-data");
  if (!form || !el) return;
  const { offers, text } = JSON.parse(el.textContent);
  const f = form.elements;
  const $ = (id) => document.getElementById(id);
  // text holds the edition's strings (templates/i18n/<lang>.toml, through
  // pages/tco.go): caption, breakEven, missing, extrasMissing and atLeast
  // are printf formats, filled by fmt.

  function update(push) {
    const o = offers[f.offer.value];
    if (!o) return;
    const inp = {
      util: Math.min(Math.max(+f.util.value || 0, 0), 100) / 100,
      job: +f.job.value || 0,
      storage: +f.storage.value || 0,
      egress: +f.egress.value || 0,
      ips: +f.ips.value || 0,
    };
    const { lines, missing } = monthly(o, inp);
    const body = $("t-result").tBodies[0];
    body.replaceChildren();
    const notes = [];
    const od = o.lines.find((l) => l.billing === "on-demand");
    const cur = o.currency;
    const extrasText = (v) => (!missing.length ? money(v, cur) : v > 0 ? fill(text.extrasMissing, money(v, cur)) : text.extrasNone);
    const totalText = (v) => (missing.length ? fill(text.atLeast, money(v, cur)) : money(v, cur));
    o.lines.forEach((l, i) => {
      const r = lines[i];
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = o.labels[i];
      th.append(dated(o.dates[i])); // the price's date, stale worded as stale
      tr.append(th);
      // The total, which answers the question, first (on screen on a phone).
      for (const [v, cls] of [[totalText(r.total), "num total"], [money(r.compute, cur), "num"], [extrasText(r.extras), "num"], [r.hours.toFixed(1), "num"]]) {
        const td = document.createElement("td");
        td.className = cls;
        td.textContent = v;
        tr.append(td);
      }
      body.append(tr);
      if (l.billing === "committed" && l.term > 0 && od && od.hourly > 0) {
        notes.push(fill(text.breakEven, o.labels[i], ((l.hourly / od.hourly) * 100).toFixed(0)));
      }
    });
    $("t-title").textContent = o.label;
    $("t-region").textContent = o.region;
    $("t-result").caption.textContent = fill(text.caption, o.currency, String(HOURS));
    $("t-breakeven").textContent = notes.length ? notes.join(text.sep) : text.noBreakEven;
    $("t-missing").textContent = missing.length ? fill(text.missing, missing.map((m) => text.missingName[m]).join(text.list)) : "";
    const costs = $("t-costs");
    costs.replaceChildren();
    for (const c of o.costs) {
      const li = document.createElement("li");
      li.textContent = c;
      costs.append(li);
    }
    // The data's note keeps its language (lang="en" on a Chinese page).
    const stopped = $("t-stopped");
    stopped.textContent = o.stopped;
    if (o.stoppedNote) {
      const note = document.createElement("span");
      if (o.noteLang) note.lang = o.noteLang;
      note.textContent = o.stoppedNote;
      stopped.append(" ", note);
    }
    if (push) {
      const q = new URLSearchParams();
      for (const e of form.elements) if (e.name) q.set(e.name, e.value);
      history.replaceState(null, "", "?" + q.toString());
    }
  }

  const q = new URLSearchParams(location.search);
  for (const e of form.elements) {
    // An offer id the catalog no longer has keeps the default offer.
    if (e.name && q.has(e.name) && (e.name !== "offer" || offers[q.get("offer")])) e.value = q.get(e.name);
  }
  // The offer list is long: the filter (shown with this script) keeps the
  // options whose label holds every word typed, and the chosen offer, and
  // says how many match. It names no state: the URL keeps the offer.
  const filter = $("t-filter");
  if (filter) {
    const all = [...f.offer.options];
    $("t-filter-box").removeAttribute("data-needs-js");
    filter.addEventListener("input", (e) => {
      e.stopPropagation(); // filtering changes no figure
      const chosen = f.offer.value;
      const words = filter.value.toLocaleLowerCase().split(/\s+/).filter(Boolean);
      const keep = all.filter((o) => o.value === chosen || words.every((w) => o.textContent.toLocaleLowerCase().includes(w)));
      f.offer.replaceChildren(...keep);
      f.offer.value = chosen;
      $("t-filter-count").textContent = words.length ? fill(text.filterCount, keep.length, all.length) : "";
    });
  }
  form.addEventListener("input", () => update(true));
  form.addEventListener("submit", (e) => { e.preventDefault(); update(true); });
  update(false);
})();
