// Helpers shared by the page scripts (a partial: the leading "_" keeps it
// out of the bundles' entry points; esbuild inlines what a script imports).
// An ES module, .mjs so that Node's test runner imports it as it is
// (node --test static/js/test/).

// fmt fills a UI string of templates/i18n/<lang>.toml, the printf subset
// the Go side fills with fmt.Sprintf too: %s and %d take the next
// argument, %[n]s and %[n]d the n-th (1-based; the next plain verb then
// takes argument n+1, as in Go), %% is a percent sign. An absent, null or
// undefined argument writes "", and so does a missing format.
export function fmt(format, ...args) {
  let i = 0;
  return String(format || "").replace(/%(?:\[(\d+)\])?([sd%])/g, (m, n, v) => {
    if (v === "%") return "%";
    const a = n ? args[n - 1] : args[i++];
    if (n) i = +n;
    return a == null ? "" : String(a);
  });
}

// money writes an amount as the price tables do: three decimals below 1,
// else two (toFixed's rounding), then the currency code.
export function money(v, cur) {
  return (v < 1 ? v.toFixed(3) : v.toFixed(2)) + " " + cur;
}

// h makes an element with its text (none when null or undefined) and
// attributes. doc is the document to make it in: the page's by default.
export function h(tag, text, attrs, doc = globalThis.document) {
  const e = doc.createElement(tag);
  if (text != null) e.textContent = text;
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  return e;
}

// readStrings returns the edition's words an element carries in
// data-i18n (a JSON object of templates/i18n/<lang>.toml's strings, keys
// without their prefix), or {} when it has none or they are not a JSON
// object.
export function readStrings(el) {
  try {
    const v = JSON.parse((el && el.dataset && el.dataset.i18n) || "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch (_) {
    return {};
  }
}

// tr returns T's string for key, or fallback (the English default) when
// T has none or an empty one.
export function tr(T, key, fallback) {
  return (T && T[key]) || fallback;
}

// dated renders a dated line Go wrote as segments (pages.dateSegment):
// text, a date ({t, iso}: a <time datetime>) or a stale badge ({t,
// badge}), in a span.sub.line.
export function dated(segments, doc = globalThis.document) {
  const sub = h("span", null, { class: "sub line" }, doc);
  for (const seg of segments || []) {
    if (seg.iso) sub.append(h("time", seg.t, { class: "asof", datetime: seg.iso }, doc));
    else if (seg.badge) sub.append(h("span", seg.t, { class: "badge stale" }, doc));
    else sub.append(seg.t);
  }
  return sub;
}
