// Instance comparison: the offers named in ?o=ID&o=ID..., side by side,
// from compare/instances.json. Offer tables link here with their ticked
// rows; the page adds and removes instances and keeps the URL in step, so
// a comparison can be shared. The better figure of each row (most memory,
// compute, CPUs; lowest price) is marked when the instances differ.
import { fill, h } from "./_shared.mjs";

(() => {
  const form = document.getElementById("instances");
  const out = document.getElementById("instances-out");
  const textEl = document.getElementById("instances-text");
  if (!form || !out || !textEl) return;
  const T = JSON.parse(textEl.textContent);
  // T's formats (labelled, paren, offer, missing) are printf strings of
  // templates/i18n/<lang>.toml (the edition's punctuation and word
  // order), filled by fmt.
  const add = document.getElementById("i-add");
  const base = form.dataset.base;
  let data = null;
  let ids = [...new Set(new URLSearchParams(location.search).getAll("o"))];

  const num = (v, unit) => (v == null ? null : (Math.round(v * 100) / 100).toLocaleString("en-US") + (unit ? " " + unit : ""));

  // Each row: a label, a value per offer (number for comparing, text to
  // show) and which way is better (+1 more, -1 less, 0 not compared).
  function rows(offers) {
    const r = [];
    const add = (label, better, f) => r.push({ label, better, cells: offers.map(f) });
    add(T.gpu, 0, (o) => ({ link: base + "gpus/" + o.gid + "/", text: o.gn }));
    add(T.count, 1, (o) => ({ v: o.n, text: String(o.n) }));
    add(T.vram, 1, (o) => ({ v: o.vram, text: num(o.vram, "GB") }));
    add(T.vramt, 1, (o) => ({ v: o.vramt, text: num(o.vramt, "GB") }));
    add(T.bw, 1, (o) => ({ v: o.bw, text: num(o.bw, "GB/s") }));
    add(T.bf16, 1, (o) => ({ v: o.bf16, text: num(o.bf16, "TFLOPS") }));
    add(T.bf16t, 1, (o) => ({ v: o.bf16 == null ? null : o.bf16 * o.n, text: o.bf16 == null ? null : num(o.bf16 * o.n, "TFLOPS") }));
    add(T.vcpu, 1, (o) => ({ v: o.vcpu, text: num(o.vcpu) }));
    add(T.ram, 1, (o) => ({ v: o.ram, text: num(o.ram, "GB") }));
    add(T.disk, 1, (o) => ({ v: o.disk, text: num(o.disk, "GB") }));
    add(T.net, 1, (o) => ({ v: o.net, text: num(o.net, "Gbit/s") }));
    add(T.ic, 0, (o) => ({ text: o.ic }));
    add(T.reg, 0, (o) => ({ text: (o.reg || []).join(", ") }));
    // One row per billing mode any of them has: its cheapest price.
    const modes = [];
    for (const o of offers) for (const p of o.prices) if (!modes.includes(p.b)) modes.push(p.b);
    for (const m of modes) {
      add(fill(T.labelled, m, T.pergpu), -1, (o) => {
        const ps = o.prices.filter((p) => p.b === m).sort((a, b) => a.dc - b.dc);
        if (!ps.length) return {};
        const p = ps[0];
        return { v: p.dc, text: p.g, conv: p.g.endsWith(" " + T.cur) ? null : "≈ " + p.dcs, inst: p.q, price: p };
      });
    }
    return r;
  }

  function cell(c, best) {
    const td = h("td");
    if (c.text == null || c.text === "") {
      td.append(h("span", "–", { title: T.unknown }));
      return td;
    }
    if (c.link) td.append(h("a", c.text, { href: c.link }));
    else td.append(c.text);
    if (best) {
      td.className = "best";
      td.append(h("span", " ✓", { "aria-hidden": "true" }), h("span", fill(T.paren, T.best), { class: "visually-hidden" }));
    }
    if (c.price && c.price.ov) {
      // A team's overlay price: its badge and the public price (build.overlayMark).
      const [kind, label, pub] = c.price.ov;
      td.append(h("span", label, { class: "badge overlay", "data-overlay": kind }));
      if (pub) td.append(h("span", pub, { class: "conv public" }));
    }
    if (c.conv) td.append(h("span", c.conv, { class: "conv" }));
    if (c.price) {
      const p = c.price;
      td.append(h("span", fill(T.labelled, T.inst, c.inst), { class: "conv" }));
      const meta = h("span", null, { class: "conv" });
      meta.append(h("span", T["band-" + p.band] || p.band, { class: "badge " + p.band }), " " + p.d + " · ");
      meta.append(h("a", T.source, { href: p.src, rel: "nofollow" }));
      if (p.ev) meta.append(" ", h("span", p.ev, { class: "badge ev" }));
      if (p.r) meta.append(" · " + p.r);
      td.append(meta);
    }
    return td;
  }

  function render() {
    out.replaceChildren();
    const known = ids.filter((id) => data.offers[id]);
    const missing = ids.filter((id) => !data.offers[id]);
    if (missing.length) out.append(h("p", fill(T.missing, missing.join(T.list)), { class: "note" }));
    if (!known.length) {
      out.append(h("p", T.none));
      return;
    }
    if (known.length === 1) out.append(h("p", T.one));
    const offers = known.map((id) => data.offers[id]);
    const wrap = h("div", null, { class: "table-wrap", tabindex: "0", role: "region", "aria-label": T.caption });
    const table = h("table", null, { class: "compare instances" });
    table.append(h("caption", T.caption));
    const hr = h("tr");
    hr.append(h("th", T.spec, { scope: "col" }));
    known.forEach((id, i) => {
      const o = offers[i];
      const th = h("th", null, { scope: "col" });
      th.append(h("a", o.p, { href: base + "providers/" + o.pid + "/" }), h("br"), o.i + " ");
      const rm = h("button", "×", { type: "button", class: "remove", "aria-label": fill(T.labelled, T.remove, o.p + " " + o.i) });
      rm.addEventListener("click", () => {
        ids = ids.filter((x) => x !== id);
        save();
        render();
      });
      th.append(rm);
      hr.append(th);
    });
    const thead = h("thead");
    thead.append(hr);
    const tbody = h("tbody");
    for (const r of rows(offers)) {
      const tr = h("tr");
      tr.append(h("th", r.label, { scope: "row" }));
      const vs = r.cells.map((c) => c.v).filter((v) => v != null);
      const best = r.better && vs.length > 1 && new Set(vs).size > 1 ? (r.better > 0 ? Math.max(...vs) : Math.min(...vs)) : null;
      r.cells.forEach((c) => tr.append(cell(c, best != null && c.v === best)));
      tbody.append(tr);
    }
    table.append(thead, tbody);
    wrap.append(table);
    out.append(wrap);
  }

  function save() {
    const q = new URLSearchParams();
    ids.forEach((id) => q.append("o", id));
    const s = q.toString().replace(/%2F/g, "/");
    history.replaceState(null, "", s ? "?" + s : location.pathname);
  }

  fetch(form.dataset.json)
    .then((r) => {
      if (!r.ok) throw new Error(r.status + " " + r.statusText);
      return r.json();
    })
    .then((d) => {
      data = d;
      const groups = {};
      for (const [id, o] of Object.entries(d.offers)) (groups[o.p] = groups[o.p] || []).push([id, o]);
      const collator = new Intl.Collator(document.documentElement.lang || undefined);
      for (const p of Object.keys(groups).sort(collator.compare)) {
        const g = h("optgroup", null, { label: p });
        for (const [id, o] of groups[p].sort((a, b) => a[1].i.localeCompare(b[1].i))) g.append(h("option", fill(T.offer, o.i, o.n, o.gn), { value: id }));
        add.append(g);
      }
      add.addEventListener("change", () => {
        if (add.value && !ids.includes(add.value)) {
          ids.push(add.value);
          save();
          render();
        }
        add.value = "";
      });
      add.disabled = false;
      form.addEventListener("submit", (e) => e.preventDefault());
      render();
    })
    .catch((e) => out.replaceChildren(h("p", e.message)));
})();
