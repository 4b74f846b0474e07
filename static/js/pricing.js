// Pricing table: filters, sort, display currency and a CSV download of
// the rows the filters select. The table is complete without this script; the form's
// state lives in the URL query string so every view can be shared.
import { fmt, money, readStrings } from "./_shared.mjs";
import { refreshAges } from "./_age.mjs";

(() => {
  const form = document.getElementById("filters");
  const table = document.getElementById("prices");
  if (!form || !table) return;
  const tbody = table.tBodies[0];
  // The edition's words: data-i18n holds templates/i18n/<lang>.toml's
  // "pricing.js.*" strings, printf formats (%d, %s): say(key, args...)
  // fills one.
  const T = readStrings(form);
  const say = (key, ...args) => fmt(T[key], ...args);
  // Text sorts in the page's language (pinyin order for Chinese names).
  const collator = new Intl.Collator(document.documentElement.lang || undefined);
  // /pricing/ renders the cheapest rows only; the first filter, sort,
  // "show all" or CSV reads every row from the list's index
  // (data-index: pages.PricingIndex, built with the site): each row's
  // data attributes, to filter and sort on, and its cells, as the page's
  // template wrote them. A row is made into a <tr> only when it is shown;
  // the rows the server rendered are reused as they are.
  const total = parseInt(table.dataset.total, 10) || tbody.rows.length;
  // recs: every row of the list in its order ({v: attribute values, c:
  // cell indexes, el: its <tr> once made}), once the index has loaded.
  let recs = null;
  let attrs = [];
  let cells = [];
  const at = {}; // attribute name -> index into a record's v
  let loading = null;
  function load() {
    if (!table.dataset.index) return Promise.reject(new Error("no index"));
    if (!loading) {
      // Say that something is happening when it takes longer than 100 ms.
      const slow = setTimeout(() => { shown.textContent = say("loading", total); }, 100);
      loading = fetch(table.dataset.index)
        .then((r) => {
          if (!r.ok) throw new Error(r.status + " " + r.statusText + " " + table.dataset.index);
          return r.json();
        })
        .then((ix) => {
          attrs = ix.attrs;
          cells = ix.cells;
          attrs.forEach((name, i) => { at[name] = i; });
          const have = new Map([...tbody.rows].map((r) => [r.dataset.key, r]));
          // The index is in the list's order (lastSort's "pergpu asc": by
          // price per GPU-hour, then offer id), the server's sort.
          recs = ix.rows.map((r) => ({ v: r.a, c: r.c, el: have.get(r.a[at.key]) || null }));
        })
        .finally(() => clearTimeout(slow));
      loading.catch((e) => { shown.textContent = say("error", e.message); });
    }
    return loading;
  }
  // rowOf returns a record's row, making it from the index on first use
  // and aging its price on the day it is read, as age.js does the page's.
  function rowOf(rec) {
    if (!rec.el) {
      const tr = document.createElement("tr");
      attrs.forEach((name, i) => tr.setAttribute("data-" + name, rec.v[i]));
      tr.innerHTML = rec.c.map((i) => cells[i]).join("");
      refreshAges(document, new Date(), tr);
      rec.el = tr;
    }
    return rec.el;
  }
  // cell is cell i of the index as an element (for sorting by name and
  // for the CSV), parsed once.
  const parsed = new Map();
  function cell(i) {
    let td = parsed.get(i);
    if (!td) {
      const t = document.createElement("template");
      t.innerHTML = "<table><tr>" + cells[i] + "</tr></table>";
      td = t.content.querySelector("td");
      parsed.set(i, td);
    }
    return td;
  }
  // recCell is a record's cell of class cls (c-gpu, c-inst, ...).
  function recCell(rec, cls) {
    if (rec.el) return rec.el.querySelector("." + cls);
    for (const i of rec.c) {
      const td = cell(i);
      if (td && td.classList.contains(cls)) return td;
    }
    return null;
  }
  const fx = JSON.parse(form.dataset.fx);
  const base = form.dataset.currency;
  const shown = document.getElementById("shown");
  const csvButton = document.getElementById("f-csv");
  // Single-valued facets; country (data-countries: the regions' countries,
  // where the GPU runs) and region hold lists.
  const facets = ["gpu", "vendor", "form", "count", "provider", "billing", "ic"];
  const numeric = { pergpu: 1, inst: 1, tpd: 1, vram: 1, count: 1, age: 1 };
  const textColumns = { gpu: "c-gpu", provider: "c-prov", billing: "c-bill" }; // cells sorted by their text
  const staleBox = document.getElementById("hide-stale");
  const maxCur = document.getElementById("f-max-cur");

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
  const limit = tbody.rows.length;
  const showAllLink = document.getElementById("show-all");
  const showAllText = showAllLink ? showAllLink.textContent : "";
  let showAll = limit === total;

  function apply(push) {
    return load().then(() => applyNow(push), () => {});
  }

  // matches says whether a record passes the form's filters.
  function matcher() {
    const f = form.elements;
    const minVram = parseFloat(f["min-vram"].value) || 0;
    const maxPrice = parseFloat(f["max-price"].value);
    const region = f.region.value;
    const country = f.country.value;
    const city = f.city ? f.city.value : "";
    const rate = fx[f.cur.value || base] || 1;
    const hideStale = !!(staleBox && staleBox.checked);
    // First-party: the provider's own page, document, API or docs repository.
    const firstParty = !!(f.evidence && f.evidence.checked);
    const want = facets.filter((k) => f[k].value).map((k) => [at[k], f[k].value]);
    const filtering = want.length > 0 || country || region || city || minVram > 0 || !isNaN(maxPrice) || hideStale || firstParty;
    const test = (r) => {
      const v = r.v;
      return want.every(([i, x]) => v[i] === x) &&
        (!country || v[at.countries].split(" ").includes(country)) &&
        (!region || v[at.regions].split(" ").includes(region)) &&
        // A city: every provider's regions there (data-cities, catalog.Region.CityKey).
        (!city || v[at.cities].split("|").includes(city)) &&
        parseFloat(v[at.vram]) >= minVram &&
        (isNaN(maxPrice) || parseFloat(v[at.pergpu]) * rate <= maxPrice) &&
        !(hideStale && v[at.band] === "stale") &&
        !(firstParty && !v[at.evidence].startsWith("first-party"));
    };
    return { filtering, test };
  }

  // applyNow shows the rows the form selects: the first `limit` of them
  // (so the first answer is on screen at once, even on a phone) until
  // "show all", which shows every one.
  function applyNow(push) {
    const f = form.elements;
    const cur = f.cur.value || base;
    const { filtering, test } = matcher();
    // Sort: numeric keys by value, text keys by the cell text; ties keep
    // the list's order (price per GPU-hour, then offer id).
    const key = f.sort.value;
    const dir = f.dir.value === "desc" ? -1 : 1;
    if (key + " " + f.dir.value !== lastSort) sortRecs(key, dir);
    lastSort = key + " " + f.dir.value;
    const show = [];
    let matches = 0;
    for (const r of recs) {
      if (!test(r)) continue;
      matches++;
      if (showAll || show.length < limit) show.push(r);
    }
    const trs = show.map(rowOf);
    for (const tr of trs) convert(tr, cur);
    tbody.replaceChildren(...trs);
    if (showAllLink) {
      showAllLink.hidden = show.length === matches;
      showAllLink.textContent = filtering ? say("showall", matches) : showAllText;
    }
    // The max-price filter compares prices in the chosen currency.
    if (maxCur) maxCur.textContent = cur;
    const n = show.length;
    shown.textContent = n === total ? say("all", n) : say("some", n, total) + (filtering && matches !== n ? say("matches", matches) : "");
    if (push) {
      const q = state();
      if (showAll && limit < total) q.set("all", "1");
      const qs = q.toString().replace(/%2C/g, ",");
      history.replaceState(null, "", qs ? "?" + qs : location.pathname);
    }
  }

  // sortRecs orders the records; text keys compare the cell's text (the
  // billing cell by its mode's label, not the term or region after it).
  function sortRecs(key, dir) {
    const order = recs.map((r, i) => [r, i]);
    let val = null;
    if (numeric[key]) {
      const i = at[key];
      val = (r) => parseFloat(r.v[i]);
    } else {
      const cls = textColumns[key] || "c-gpu";
      const text = new Map();
      val = (r) => {
        let t = text.get(r);
        if (t === undefined) {
          const c = recCell(r, cls);
          t = !c ? "" : key === "billing" ? (c.firstChild || c).textContent : c.textContent;
          text.set(r, t);
        }
        return t;
      };
    }
    order.sort((a, b) => {
      const c = numeric[key] ? val(a[0]) - val(b[0]) : collator.compare(val(a[0]), val(b[0]));
      return c * dir || a[1] - b[1];
    });
    recs = order.map((x) => x[0]);
    markSort(key, dir);
  }

  // aria-sort names the column the rows are sorted by, and its direction.
  function markSort(key, dir) {
    for (const th of table.tHead.rows[0].cells) {
      th.removeAttribute("aria-sort");
      if (th.dataset.sort === key) th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
    }
  }

  // Currency: the quoted price stays; the converted line follows the
  // switch. A row remembers the currency it shows (_cur).
  function convert(r, cur) {
    if ((r._cur || base) === cur) return;
    r._cur = cur;
    const rate = fx[cur] || 1;
    for (const [sel, key] of [[".c-price", "inst"], [".c-pergpu", "pergpu"]]) {
      const c = r.querySelector(sel);
      const v = parseFloat(r.dataset[key]) * rate;
      let conv = c.querySelector(".conv");
      if (r.dataset.cur !== cur) {
        if (!conv) {
          conv = document.createElement("span");
          conv.className = "conv";
          c.append(conv);
        }
        conv.textContent = "≈ " + money(v, cur);
      } else if (conv) {
        conv.remove();
      }
    }
  }

  function csvField(s) {
    return /[",\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }

  // The CSV holds every row the filters select, in the table's order
  // (all of them, not only those shown before "show all"), and the
  // per-GPU and per-instance prices converted to the chosen currency.
  function csv() {
    const cur = form.elements.cur.value || base;
    const rate = fx[cur] || 1;
    const { test } = matcher();
    const head = ["gpu", "provider", "instance", "gpu_count", "vram_per_gpu_gb", "billing", "price_per_hour_quoted", "currency", "price_per_hour_" + cur, "price_per_gpu_hour_" + cur, "as_of", "source"];
    const lines = [head.join(",")];
    for (const r of recs) {
      if (!test(r)) continue;
      const v = (name) => r.v[at[name]];
      const quoted = v("price"); // the catalog's exact figure, not the rounded display
      const src = recCell(r, "c-src").querySelector("a").getAttribute("href");
      lines.push([v("gpu"), v("provider"), recCell(r, "c-inst").textContent.trim(), v("count"), v("vram"), v("billing"), quoted, v("cur"),
        (parseFloat(v("inst")) * rate).toFixed(4), (parseFloat(v("pergpu")) * rate).toFixed(4),
        recCell(r, "c-age").querySelector("time").getAttribute("datetime"), new URL(src, document.baseURI).href].map(csvField).join(","));
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
  // The CSV lists the rows the form selects, once the form is applied to
  // the whole list.
  csvButton.addEventListener("click", () => load().then(() => { applyNow(false); csv(); }, () => {}));
  // The index is fetched when the reader first reaches for the filters
  // or a sort button, so that their first change answers at once.
  const early = () => { load().catch(() => {}); };
  form.addEventListener("focusin", early, { once: true });
  form.addEventListener("pointerdown", early, { once: true });
  table.tHead.addEventListener("pointerdown", early, { once: true });
  table.tHead.addEventListener("focusin", early, { once: true });
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
