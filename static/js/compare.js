// Compare picker: 2 to 4 GPUs side by side, from data embedded in the page.
// The selection lives in the URL (?gpu=a&gpu=b...). With exactly two GPUs
// of the same class a link points to the pre-rendered pair page.
import { dated, fill, h, readStrings, tr as word } from "./_shared.mjs";

(() => {
  const form = document.getElementById("compare");
  const out = document.getElementById("compare-out");
  const el = document.getElementById("compare-data");
  if (!form || !out || !el) return;
  const data = JSON.parse(el.textContent);
  // The edition's words (data-i18n: templates/i18n/<lang>.toml's
  // "compare.js.*" keys), with English defaults; its strings ("{0} ({1})",
  // "{0}（{1}）") are filled by fill.
  const T = readStrings(form);
  const tr = (k, d) => word(T, k, d);
  const selects = [...form.querySelectorAll("select")];

  function table(caption, head, rows) {
    const wrap = h("div", null, { class: "table-wrap", tabindex: "0", role: "region", "aria-label": caption });
    const t = h("table", null, { class: "compare" });
    t.append(h("caption", caption));
    const tr = h("tr");
    head.forEach((x) => tr.append(h("th", x, { scope: "col" })));
    const thead = h("thead");
    thead.append(tr); // append returns nothing: no chaining
    t.append(thead);
    const tb = h("tbody");
    for (const r of rows) {
      const row = h("tr");
      row.append(h("th", r[0], { scope: "row" }));
      r.slice(1).forEach((x) => {
        const td = h("td");
        td.append(...[].concat(x)); // text, or text and a dated line
        row.append(td);
      });
      tb.append(row);
    }
    t.append(tb);
    wrap.append(t);
    return wrap;
  }

  // stats is a summary's cell: the figures, then the line that dates them
  // (Go's segments: text, <time> dates and a stale badge).
  function stats(s) {
    if (!s.n) return "–";
    return [s.min + " · " + s.median + " · " + s.max + fill(tr("paren", " ({0})"), s.n), dated(s.dated)];
  }

  function render(push) {
    const ids = [...new Set(selects.map((s) => s.value).filter(Boolean))];
    out.replaceChildren();
    if (push) {
      const q = new URLSearchParams();
      ids.forEach((id) => q.append("gpu", id));
      const qs = q.toString();
      history.replaceState(null, "", qs ? "?" + qs : location.pathname);
    }
    if (ids.length < 2) {
      out.append(h("p", tr("choose", "Choose at least two GPUs.")));
      return;
    }
    const gs = ids.map((id) => data.gpus[id]);
    const names = gs.map((g) => g.name);
    const sorted = [...ids].sort();
    if (ids.length === 2 && data.pairs.includes(sorted[0] + "-vs-" + sorted[1])) {
      const p = h("p", tr("permanent", "Permanent page for this pair: "));
      p.append(h("a", fill(tr("pair", "{0} vs {1}"), names[0], names[1]), { href: form.dataset.base + "compare/" + sorted[0] + "-vs-" + sorted[1] + "/" }));
      out.append(p);
    }
    out.append(table(tr("specs", "Specifications (dense tensor throughput)"), [tr("spec", "Spec"), ...names], data.rows.map((r) => [r, ...gs.map((g) => g.specs[r])])));
    out.append(table(tr("prices", "Price per GPU-hour (min · median · max)"), [tr("billing", "Billing"), ...names], [
      [tr("ondemand", "On-demand"), ...gs.map((g) => stats(g.onDemand))],
      [tr("spot", "Spot"), ...gs.map((g) => stats(g.spot))],
    ]));
    const rows = data.models.map((m, mi) => [m, ...data.scenarios.map((_, si) => gs.map((g) => g.fits[mi][si] || "–").join(" / "))]);
    out.append(table(fill(tr("fits", "GPUs needed per model preset ({0})"), names.join(" / ")), [tr("model", "Model"), ...data.scenarios], rows));
  }

  const q = new URLSearchParams(location.search).getAll("gpu");
  selects.forEach((s, i) => { if (q[i] && data.gpus[q[i]]) s.value = q[i]; });
  form.addEventListener("change", () => render(true));
  render(false);
})();
