// Pricing table: filters, sort, display currency and a CSV download of
// what is shown. The table is complete without this script; the form's
// state lives in the URL query string so every view can be shared.
import { fmt, money, readStrings } from "./_shared.mjs";

(() => {
  const form = document.getElementById("filters");
  const table = document.getElementById("prices");
  if (!form || !table) return;
  const tbody = table.tBodies[0];
  let rows = [...tbody.rows];
  // The edition's words: data-i18n holds templates/i18n/<lang>.toml's
  // "pricing.js.*" strings, printf formats (%d, %s): say(key, args...)
  // fills one.
  const T = readStrings(form);
  const say = (key, ...args) => fmt(T[key], ...args);
  // Text sorts in the page's language (pinyin order for Chinese names).
  const collator = new Intl.Collator(document.documentElement.lang || undefined);
  // /pricing/ renders the cheapest rows only; the first filter, sort or
  // "show all" fetches the rest from the pages of the full list,
  // /pricing/all/, /pricing/all/2/, ... (data-pages of them: the same
  // table in pages, which also serve readers without JavaScript), and
  // adds their rows in the list's order.
  const total = parseInt(table.dataset.total, 10) || rows.length;
  let expanding = null;
  function expand() {
    if (!table.dataset.all || rows.length >= total) return Promise.resolve();
    if (!expanding) {
      const pages = Math.max(1, parseInt(table.dataset.pages, 10) || 1);
      const urls = Array.from({ length: pages }, (_, i) => table.dataset.all + (i ? i + 1 + "/" : ""));
      expanding = Promise.all(urls.map((u) => fetch(u).then((r) => {
        if (!r.ok) throw new Error(r.status + " " + r.statusText + " " + u);
        return r.text();
      })))
        .then((htmls) => {
          const have = new Set(rows.map((r) => r.dataset.key));
          for (const html of htmls) {
            const doc = new DOMParser().parseFromString(html, "text/html");
            for (const r of doc.querySelectorAll("#prices tbody tr")) {
              if (!have.has(r.dataset.key)) tbody.append(document.adoptNode(r));
            }
          }
          rows = [...tbody.rows];
          lastSort = "";
        })
        .catch((e) => {
          shown.textContent = say("error", e.message);
        });
    }
    return expanding;
  }
  const fx = JSON.parse(form.dataset.fx);
  const base = form.dataset.currency;
  const shown = document.getElementById("shown");
  const csvButton = document.getElementById("f-csv");
  // Single-valued facets; country (data-countries: the regions' countries,
  // where the GPU runs) and region hold lists.
  const facets = ["gpu", "vendor", "form", "count", "provider", "billing", "ic"];
  const numeric = { pergpu: 1, inst: 1, tpd: 1, vram: 1, count: 1, age: 1 };
  const textColumns = { gpu: ".c-gpu", provider: ".c-prov", billing: ".c-bill" }; // cells sorted by their text
  const staleBox = document.getElementById("hide-stale");
  const maxCur = document.getElementById("f-max-cur");

  // Native (quoted-currency) price cells, kept to restore them; taken
  // lazily, the first time the currency changes.
  let lastCur = base;
  let lastSort = "pergpu asc"; // the server's order

  // The query keys this script owns; others (cols, stale: tables.js) are
  // kept as they are.
  const own = new Set([...form.elements].map((el) => el.name).filter(Boolean).concat("all"));

  function state() {
    const q = new URLSearchParams(location.search);
    for (const k of own) q.delete(k);
    for (const el of form.elements) {
      if (el.type === "checkbox") {
        if (el.checked) q.set(el.name, el.value);
        continue;
      }
      if (el.name && el.value && !(el.name === "sort" && el.value === "pergpu") && !(el.name === "dir" && el.value === "asc") && !(el.name === "cur" && el.value === base)) {
        q.set(el.name, el.value);
      }
    }
    return q;
  }

  function restore(q) {
    for (const el of form.elements) {
      if (el.type === "checkbox") el.checked = q.get(el.name) === el.value;
      else if (el.name && q.has(el.name)) el.value = q.get(el.name);
    }
  }

  // Rows shown before "show all": those the server rendered.
  const limit = rows.length;
  const showAllLink = document.getElementById("show-all");
  let showAll = limit === total;

  function apply(push) {
    expand().then(() => applyNow(push));
  }

  function applyNow(push) {
    const f = form.elements;
    const minVram = parseFloat(f["min-vram"].value) || 0;
    const maxPrice = parseFloat(f["max-price"].value);
    const region = f.region.value;
    const country = f.country.value;
    const city = f.city ? f.city.value : "";
    const cur = f.cur.value || base;
    const rate = fx[cur] || 1;
    const hideStale = !!(staleBox && staleBox.checked);
    // First-party: the provider's own page, document, API or docs repository.
    const firstParty = !!(f.evidence && f.evidence.checked);
    const filtering = facets.some((k) => f[k].value) || country || region || city || minVram > 0 || !isNaN(maxPrice) || hideStale || firstParty;
    let matches = 0;
    for (const r of rows) {
      const d = r.dataset;
      let ok = facets.every((k) => !f[k].value || d[k] === f[k].value);
      ok = ok && (!country || (d.countries || "").split(" ").includes(country));
      ok = ok && (!region || d.regions.split(" ").includes(region));
      // A city: every provider's regions there (data-cities, catalog.Region.CityKey).
      ok = ok && (!city || (d.cities || "").split("|").includes(city));
      ok = ok && parseFloat(d.vram) >= minVram;
      ok = ok && (isNaN(maxPrice) || parseFloat(d.pergpu) * rate <= maxPrice);
      ok = ok && !(hideStale && d.band === "stale");
      ok = ok && !(firstParty && !d.evidence.startsWith("first-party"));
      r._match = ok;
      if (ok) matches++;
    }
    // Sort: numeric keys by value, text keys by the cell text; ties keep
    // the server's order (price per GPU-hour, then offer id).
    const key = f.sort.value;
    const dir = f.dir.value === "desc" ? -1 : 1;
    if (key + " " + f.dir.value !== lastSort) sortRows(key, dir);
    lastSort = key + " " + f.dir.value;
    // Without a filter, the first `limit` rows until "show all".
    const all = showAll || filtering;
    let n = 0;
    for (const r of tbody.rows) {
      const show = r._match && (all || n < limit);
      r.hidden = !show;
      if (show) n++;
    }
    if (showAllLink) showAllLink.hidden = all;
    if (cur !== lastCur) convert(cur, rate);
    lastCur = cur;
    // The max-price filter compares prices in the chosen currency.
    if (maxCur) maxCur.textContent = cur;
    shown.textContent = n === total ? say("all", n) : say("some", n, total) + (filtering && matches !== n ? say("matches", matches) : "");
    if (push) {
      const q = state();
      if (showAll && limit < total) q.set("all", "1");
      const qs = q.toString().replace(/%2C/g, ",");
      history.replaceState(null, "", qs ? "?" + qs : location.pathname);
    }
  }

  function sortRows(key, dir) {
    const order = rows.map((r, i) => [r, i]);
    const col = textColumns[key] || ".c-gpu";
    // The billing cell sorts by its mode's label, not the term or region after it.
    const text = (r) => {
      const c = r.querySelector(col);
      return !c ? "" : key === "billing" ? (c.firstChild || c).textContent : c.textContent;
    };
    order.sort((a, b) => {
      let c;
      if (numeric[key]) c = parseFloat(a[0].dataset[key]) - parseFloat(b[0].dataset[key]);
      else c = collator.compare(text(a[0]), text(b[0]));
      return c * dir || a[1] - b[1];
    });
    tbody.append(...order.map((x) => x[0]));
    markSort(key, dir);
  }

  // aria-sort names the column the rows are sorted by, and its direction.
  function markSort(key, dir) {
    for (const th of table.tHead.rows[0].cells) {
      th.removeAttribute("aria-sort");
      if (th.dataset.sort === key) th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
    }
  }

  // Currency: the quoted price stays; the converted line follows the switch.
  function convert(cur, rate) {
    for (const r of rows) {
      for (const [sel, key] of [[".c-price", "inst"], [".c-pergpu", "pergpu"]]) {
        const cell = r.querySelector(sel);
        const v = parseFloat(r.dataset[key]) * rate;
        let conv = cell.querySelector(".conv");
        if (r.dataset.cur !== cur) {
          if (!conv) {
            conv = document.createElement("span");
            conv.className = "conv";
            cell.append(conv);
          }
          conv.textContent = "≈ " + money(v, cur);
        } else if (conv) {
          conv.remove();
        }
      }
    }
  }

  function csvField(s) {
    return /[",\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }

  // The CSV holds the visible rows in their order, the visible columns,
  // and the per-GPU and per-instance prices converted to the chosen currency.
  function csv() {
    const cur = form.elements.cur.value || base;
    const rate = fx[cur] || 1;
    const head = ["gpu", "provider", "instance", "gpu_count", "vram_per_gpu_gb", "billing", "price_per_hour_quoted", "currency", "price_per_hour_" + cur, "price_per_gpu_hour_" + cur, "as_of", "source"];
    const lines = [head.join(",")];
    for (const r of tbody.rows) {
      if (r.hidden) continue;
      const d = r.dataset;
      const quoted = d.price; // the catalog's exact figure, not the rounded display
      lines.push([d.gpu, d.provider, r.querySelector(".c-inst").textContent.trim(), d.count, d.vram, d.billing, quoted, d.cur,
        (parseFloat(d.inst) * rate).toFixed(4), (parseFloat(d.pergpu) * rate).toFixed(4),
        r.querySelector(".c-age time").getAttribute("datetime"), r.querySelector(".c-src a").href].map(csvField).join(","));
    }
    const blob = new Blob([lines.join("\n") + "\n"], { type: "text/csv" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "gpu-atlas-offers.csv";
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  // Sortable headers: the server renders a button in each; clicking sorts
  // by that column, a second click reverses the order.
  for (const th of table.tHead.rows[0].cells) {
    const b = th.querySelector("button.sort");
    if (!b) continue;
    b.addEventListener("click", () => {
      const f = form.elements;
      if (f.sort.value === th.dataset.sort) f.dir.value = f.dir.value === "asc" ? "desc" : "asc";
      else { f.sort.value = th.dataset.sort; f.dir.value = "asc"; }
      apply(true);
    });
  }
  restore(new URLSearchParams(location.search));
  form.addEventListener("input", () => apply(true));
  form.addEventListener("submit", (e) => { e.preventDefault(); apply(true); });
  form.addEventListener("reset", () => setTimeout(() => apply(true), 0));
  if (staleBox) staleBox.addEventListener("change", () => apply(true));
  csvButton.hidden = false;
  // The CSV lists the rows shown: once the rest of the rows arrived, apply
  // the form to them (they come unhidden) before reading the table.
  csvButton.addEventListener("click", () => expand().then(() => { applyNow(false); csv(); }));
  if (showAllLink) {
    showAllLink.addEventListener("click", (e) => {
      e.preventDefault();
      showAll = true;
      apply(true);
    });
  }
  // The server-rendered table is the default view; only a shared URL
  // needs work on load.
  const q0 = new URLSearchParams(location.search);
  // The filters start folded on a phone (CSS shows them on wider
  // screens); a URL that sets one opens them.
  const box = document.getElementById("filter-box");
  if (box && [...q0.keys()].some((k) => own.has(k) && k !== "all")) box.open = true;
  if (q0.get("all") === "1") showAll = true;
  if ([...q0.keys()].some((k) => own.has(k)) || (staleBox && staleBox.checked)) apply(false);
  else markSort(lastSort.split(" ")[0], 1);
})();
