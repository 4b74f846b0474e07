// Monthly cost of an offer for a usage pattern, the same arithmetic as
// derive.TCO at build time (tco_test.go has worked examples): each price of
// the offer's default region is a line; a committed term is paid for every
// hour of the month and gets a break-even against on-demand; a day, week
// or month price, and a prepaid day or week, is paid in whole units. Hidden-cost rates arrive converted
// into the offer's currency (egress as tiers in GB). State lives in the URL
// query string.
import { fmt, money } from "./_shared.mjs";

(() => {
  const form = document.getElementById("tco");
  const el = document.getElementById("tco-data");
  if (!form || !el) return;
  const { offers, text } = JSON.parse(el.textContent);
  const f = form.elements;
  const HOURS = 730;
  const $ = (id) => document.getElementById(id);
  // text holds the edition's strings (templates/i18n/<lang>.toml, through
  // build/tco.go): caption, breakEven and missing are printf formats,
  // filled by fmt.

  function billed(o, used, job) {
    if (job <= 0 || used <= 0) return used;
    const runs = Math.ceil(used / job);
    let per = job * 3600;
    if (o.inc === "per-hour") per = Math.ceil(per / 3600) * 3600;
    else if (o.inc === "per-minute") per = Math.ceil(per / 60) * 60;
    if (o.min && per < o.min) per = o.min;
    return (runs * per) / 3600;
  }

  function egress(tiers, gb) {
    let total = 0;
    let below = 0;
    for (const [upper, price] of tiers) {
      const up = upper == null ? Infinity : upper;
      if (gb > below) total += (Math.min(gb, up) - below) * price;
      below = up;
    }
    return total;
  }

  function update(push) {
    const o = offers[f.offer.value];
    if (!o) return;
    const util = Math.min(Math.max(+f.util.value || 0, 0), 100) / 100;
    const job = +f.job.value || 0;
    const missing = [];
    let extras = 0;
    const storage = +f.storage.value, gb = +f.egress.value, ips = +f.ips.value;
    if (storage > 0) {
      if (o.storage == null) missing.push("storage");
      else extras += o.storage * storage;
    }
    if (gb > 0) {
      if (o.egress == null) missing.push("egress");
      else extras += egress(o.egress, gb);
    }
    if (ips > 0) {
      if (o.ip == null) missing.push("public IP");
      else extras += o.ip * ips;
    }
    const hours = billed(o, util * HOURS, job);
    const body = $("t-result").tBodies[0];
    body.replaceChildren();
    const notes = [];
    const od = o.lines.find((l) => l.billing === "on-demand");
    for (const l of o.lines) {
      let bh, compute;
      if (l.billing === "committed" && (l.term > 0 || l.unitHours <= 1)) {
        bh = HOURS;
        compute = HOURS * l.hourly;
      } else if (l.unitHours > 1) {
        const units = Math.ceil(hours / l.unitHours - 1e-9);
        bh = units * l.unitHours;
        compute = units * l.price;
      } else {
        bh = hours;
        compute = hours * l.price;
      }
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = l.label;
      tr.append(th);
      for (const v of [bh.toFixed(1), money(compute, o.currency), money(extras, o.currency), money(compute + extras, o.currency)]) {
        const td = document.createElement("td");
        td.className = "num";
        td.textContent = v;
        tr.append(td);
      }
      body.append(tr);
      if (l.billing === "committed" && l.term > 0 && od && od.hourly > 0) {
        notes.push(fmt(text.breakEven, l.label, ((l.hourly / od.hourly) * 100).toFixed(0)));
      }
    }
    $("t-title").textContent = o.label;
    $("t-region").textContent = o.region;
    $("t-result").caption.textContent = fmt(text.caption, o.currency, String(HOURS));
    $("t-breakeven").textContent = notes.length ? notes.join(text.sep) : text.noBreakEven;
    $("t-missing").textContent = missing.length ? fmt(text.missing, missing.map((m) => text.missingName[m]).join(text.list)) : "";
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
  form.addEventListener("input", () => update(true));
  form.addEventListener("submit", (e) => { e.preventDefault(); update(true); });
  update(false);
})();
