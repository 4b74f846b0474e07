// Pricing table: filters, sort, display currency and a CSV download of
// the rows the filters select. The table is complete without this script; the form's
// state lives in the URL query string so every view can be shared.
import { fill, money, readStrings } from "./_shared.mjs";
import { refreshAges } from "./_age.mjs";

(() => {
  const form = document.getElementById("filters");
  const table = document.getElementById("prices");
  if (!form || !table) return;
  const tbody = table.tBodies[0];
  // The edition's words: data-i18n holds templates/i18n/<lang>.toml's
  // "pricing.js.*" strings, their arguments as {0} {1} …: say(key,
  // args...) fills one.
  const T = readStrings(form);
  const say = (key, ...args) => fill(T[key], ...args);
  // Text sorts in the page's language (pinyin order for Chinese names).
  const collator = new Intl.Collator(document.documentElement.lang || undefined);
  // /pricing/ renders the cheapest rows only; the first filter, sort,
  // "show all" or CSV reads every row from the list's index (data-index:
  // pages.PricingIndex, built with the site): each row's data attributes,
  // to filter and sort on, and the text of the columns sorted by text.
  // The rows' cells, as the page's template wrote them, are in files of
  // ix.chunk rows (pages.PricingCells), fetched for the rows shown. A row
  // is made into a <tr> only when it is shown; the rows the server
  // rendered are reused as they are.
  const total = parseInt(table.dataset.total, 10) || tbody.rows.length;
  // list: every row of the list in its order ({n: its place, c: cell
  // indexes once its file has loaded, el: its <tr> once made}), once the
  // index has loaded; recs: the same, in the shown order. A row's
  // attribute values are read by column (attr), not copied per row.
  let list = null;
  let recs = null;
  let ix = null;
  const at = {}; // attribute name -> its column in ix
  const files = []; // the cells files: promises of their loading
  const loaded = []; // the cells files, once loaded
  let loading = null;
  function load() {
    if (!table.dataset.index) return Promise.reject(new Error("no index"));
    if (!loading) {
      loading = fetchJSON(table.dataset.index)
        .then((index) => {
          ix = index;
          ix.attrs.forEach((name, i) => { at[name] = i; });
          // The index is in the list's order (lastSort's "pergpu asc": by
          // price per GPU-hour, then offer id), the server's sort, whose
          // first rows the server rendered.
          list = [];
          for (let n = 0; n < ix.rows; n++) list.push({ n, c: null, el: tbody.rows[n] || null });
          recs = list.slice();
        });
      loading.catch(() => { loading = null; });
    }
    return loading;
  }
  function fetchJSON(url) {
    return fetch(url).then((r) => {
      if (!r.ok) throw new Error(r.status + " " + r.statusText + " " + url);
      return r.json();
    });
  }
  // attr is the value of attribute name for record r: from the index's
  // column, or for an attribute it has none for, from r's row or else its
  // cells file (loaded: cellsFor).
  function attr(r, name) {
    const c = ix.cols[at[name]];
    if (c) return c.i ? c.v[c.i[r.n]] : c.v[r.n];
    if (r.el) return r.el.getAttribute("data-" + name);
    return loaded[Math.floor(r.n / ix.chunk)].attrs[name][r.n % ix.chunk];
  }
  // test makes a test of rows by the value of attribute name: ok(value)
  // is asked once per distinct value of a dictionary column.
  function test(name, ok) {
    const c = ix.cols[at[name]];
    if (!c.i) return (r) => ok(c.v[r.n]);
    const pass = c.v.map(ok);
    return (r) => pass[c.i[r.n]];
  }
  // number is attribute name's values as numbers, by row, parsed once.
  const numbers = {};
  function number(name) {
    if (!numbers[name]) {
      const c = ix.cols[at[name]];
      numbers[name] = c.i ? Float64Array.from(c.i, (i) => parseFloat(c.v[i])) : Float64Array.from(c.v, parseFloat);
    }
    return numbers[name];
  }
  // cellsFor loads the cells files of the records that have no row yet.
  function cellsFor(rs) {
    const need = new Set();
    for (const r of rs) if (!r.c && !r.el) need.add(Math.floor(r.n / ix.chunk));
    return Promise.all([...need].map((k) => {
      if (!files[k]) {
        files[k] = fetchJSON(ix.cells[k]).then((f) => {
          loaded[k] = f;
          f.rows.forEach((c, j) => { list[k * ix.chunk + j].c = c; });
        });
        files[k].catch(() => { files[k] = null; });
      }
      return files[k];
    }));
  }
  // rowOf returns a record's row, making it from its cells on first use
  // and aging its price on the day it is read, as age.js does the page's.
  function rowOf(rec) {
    if (!rec.el) {
      const tr = document.createElement("tr");
      for (const name of ix.attrs) tr.setAttribute("data-" + name, attr(rec, name));
      const cs = loaded[Math.floor(rec.n / ix.chunk)].cells;
      tr.innerHTML = rec.c.map((i) => cs[i]).join("");
      refreshAges(document, new Date(), tr);
      rec.el = tr;
    }
    return rec.el;
  }
  // cell is the cell i of file k as an element (for the CSV), parsed once.
  const parsed = new Map();
  function cell(k, i) {
    const id = k + ":" + i;
    let td = parsed.get(id);
    if (!td) {
      const t = document.createElement("template");
      t.innerHTML = "<table><tr>" + loaded[k].cells[i] + "</tr></table>";
      td = t.content.querySelector("td");
      parsed.set(id, td);
    }
    return td;
  }
  // recCell is a record's cell of class cls (c-inst, c-src, ...); its
  // cells must have loaded (cellsFor) if it has no row.
  function recCell(rec, cls) {
    if (rec.el) return rec.el.querySelector("." + cls);
    const k = Math.floor(rec.n / ix.chunk);
    for (const i of rec.c) {
      const td = cell(k, i);
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
  // firstScreen is how many rows reach from the table's top to the
  // bottom of the window (a row as tall as the first one), and one more:
  // those go in first.
  function firstScreen() {
    const top = tbody.getBoundingClientRect().top;
    const h = tbody.rows.length ? tbody.rows[0].getBoundingClientRect().height : 0;
    return Math.max(4, Math.ceil((innerHeight - top) / (h || 40)) + 1);
  }
  const showAllLink = document.getElementById("show-all");
  const showAllText = showAllLink ? showAllLink.textContent : "";
  let showAll = limit === total;

  // apply shows the rows the form selects, once the index and the cells
  // of those rows have loaded; a later apply supersedes one still waiting.
  // The row count says that something is happening when it takes longer
  // than 100 ms, and what went wrong if it fails. It resolves to whether
  // the rows are shown.
  let applying = 0;
  function apply(push) {
    const seq = ++applying;
    const slow = setTimeout(() => { shown.textContent = say("loading", total); }, 100);
    return load().then(() => {
      const sel = select();
      return show(sel, push, () => seq === applying);
    }).catch((e) => {
      if (seq === applying) shown.textContent = say("error", e.message);
      return false;
    }).finally(() => clearTimeout(slow));
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
    const tests = facets.filter((k) => f[k].value).map((k) => test(k, (v) => v === f[k].value));
    if (country) tests.push(test("countries", (v) => v.split(" ").includes(country)));
    if (region) tests.push(test("regions", (v) => v.split(" ").includes(region)));
    // A city: every provider's regions there (data-cities, catalog.Region.CityKey).
    if (city) tests.push(test("cities", (v) => v.split("|").includes(city)));
    if (hideStale) tests.push(test("band", (v) => v !== "stale"));
    if (firstParty) tests.push(test("evidence", (v) => v.startsWith("first-party")));
    const filtering = tests.length > 0 || minVram > 0 || !isNaN(maxPrice);
    if (minVram > 0) {
      const vram = number("vram");
      tests.push((r) => vram[r.n] >= minVram);
    }
    if (!isNaN(maxPrice)) {
      const pergpu = number("pergpu");
      tests.push((r) => pergpu[r.n] * rate <= maxPrice);
    }
    return { filtering, test: (r) => tests.every((t) => t(r)) };
  }


  // select sorts the records as the form says and picks the rows to show:
  // the first `limit` that the filters select (so the first answer is on
  // screen at once, even on a phone) until "show all", which shows every
  // one.
  function select() {
    const f = form.elements;
    const { filtering, test } = matcher();
    // Sort: numeric keys by value, text keys by the cell text; ties keep
    // the order before.
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
    return { show, matches, filtering };
  }

  // show puts the selected rows in the table and says how many there
  // are. The first screen of rows goes in as soon as their cells have
  // loaded; the rest follow after that frame is painted (laying out 60
  // rows takes a throttled phone a quarter of a second), unless current()
  // says a later apply took over. It resolves to whether every row went in.
  function show({ show, matches, filtering }, push, current) {
    const cur = form.elements.cur.value || base;
    const put = (rs) => rs.map((r) => {
      const tr = rowOf(r);
      convert(tr, cur);
      return tr;
    });
    const screen = firstScreen();
    const first = show.slice(0, screen);
    const rest = show.slice(screen);
    // The rest's cells are asked for once the first screen is in: asked
    // for together, their parsing delays the first screen.
    const more = cellsFor(first).then(() => {
      if (!current()) return null;
      tbody.replaceChildren(...put(first));
      return Promise.all([cellsFor(rest), new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))]);
    });
    return more.then(() => {
      if (!current()) return false;
      if (rest.length) tbody.append(...put(rest));
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
      return true;
    });
  }

  // sortRecs orders the records; text keys compare the text of the
  // column's cells (the billing cell by its mode's label, not the term or
  // region after it), which the index holds.
  function sortRecs(key, dir) {
    const order = recs.map((r, i) => [r, i]);
    let val = null;
    if (numeric[key]) {
      const v = number(key);
      val = (r) => v[r.n];
    } else {
      const c = ix.text[key] || ix.text.gpu;
      val = c.i ? (r) => c.v[c.i[r.n]] : (r) => c.v[r.n];
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

  // The CSV holds rs, every row the filters select, in the table's order
  // (all of them, not only those shown before "show all"; their cells
  // loaded), and the per-GPU and per-instance prices converted to the
  // chosen currency.
  function csv(rs) {
    const cur = form.elements.cur.value || base;
    const rate = fx[cur] || 1;
    const head = ["gpu", "provider", "instance", "gpu_count", "vram_per_gpu_gb", "billing", "price_per_hour_quoted", "currency", "price_per_hour_" + cur, "price_per_gpu_hour_" + cur, "as_of", "source"];
    const lines = [head.join(",")];
    for (const r of rs) {
      const v = (name) => attr(r, name);
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
  csvButton.removeAttribute("data-needs-js");
  // The CSV lists the rows the form selects, once the form is applied to
  // the whole list.
  csvButton.addEventListener("click", () => apply(false).then((ok) => {
    if (!ok) return null;
    const rs = recs.filter(matcher().test);
    return cellsFor(rs).then(() => csv(rs));
  }).catch((e) => { shown.textContent = say("error", e.message); }));
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
