// Monthly cost of an offer for a usage pattern, the same arithmetic as
// derive.TCO at build time (tco_test.go has worked examples). State lives
// in the URL query string.
(() => {
  const form = document.getElementById("tco");
  const el = document.getElementById("tco-data");
  if (!form || !el) return;
  const offers = JSON.parse(el.textContent);
  const f = form.elements;
  const HOURS = 730;
  const modes = { "on-demand": "On-demand", "reserved-1y": "Reserved 1 year", "reserved-3y": "Reserved 3 years", spot: "Spot" };
  const $ = (id) => document.getElementById(id);

  function money(v, cur) {
    return (v < 1 ? v.toFixed(3) : v.toFixed(2)) + " " + cur;
  }

  function billed(o, used, job) {
    if (job <= 0 || used <= 0) return used;
    const runs = Math.ceil(used / job);
    let per = job * 3600;
    if (o.inc === "per-hour") per = Math.ceil(per / 3600) * 3600;
    else if (o.inc === "per-minute") per = Math.ceil(per / 60) * 60;
    if (o.min && per < o.min) per = o.min;
    return (runs * per) / 3600;
  }

  function update(push) {
    const o = offers[f.offer.value];
    if (!o) return;
    const util = Math.min(Math.max(+f.util.value || 0, 0), 100) / 100;
    const job = +f.job.value || 0;
    const missing = [];
    let extras = 0;
    [["storage", o.storage, +f.storage.value], ["egress", o.egress, +f.egress.value], ["public IP", o.ip, (+f.ips.value) * HOURS]].forEach(([name, rate, qty]) => {
      if (!(qty > 0)) return;
      if (rate == null) missing.push(name);
      else extras += rate * qty;
    });
    const used = util * HOURS;
    const hours = billed(o, used, job);
    const body = $("t-result").tBodies[0];
    body.replaceChildren();
    const notes = [];
    for (const m of Object.keys(modes)) {
      const price = o.prices[m];
      if (price == null) continue;
      const bh = m.startsWith("reserved") ? HOURS : hours;
      const compute = bh * price;
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = modes[m];
      tr.append(th);
      for (const [v, cls] of [[bh.toFixed(1)], [money(compute, o.currency)], [money(extras, o.currency)], [money(compute + extras, o.currency)]]) {
        const td = document.createElement("td");
        td.className = "num";
        td.textContent = v;
        tr.append(td);
      }
      body.append(tr);
      if (m.startsWith("reserved") && o.prices["on-demand"] > 0) {
        notes.push(modes[m] + " is cheaper than on-demand above " + ((price / o.prices["on-demand"]) * 100).toFixed(0) + " % utilisation.");
      }
    }
    $("t-title").textContent = o.label;
    $("t-result").caption.textContent = "Monthly cost in " + o.currency + " (730 hours a month; reserved capacity is paid for every hour)";
    $("t-breakeven").textContent = notes.length ? notes.join(" ") : "This offer has no reserved price in the catalog, so there is no break-even to show.";
    $("t-missing").textContent = missing.length ? "Not recorded for this provider, so not counted: " + missing.join(", ") + "." : "";
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
  form.addEventListener("input", () => update(true));
  form.addEventListener("submit", (e) => { e.preventDefault(); update(true); });
  update(false);
})();
