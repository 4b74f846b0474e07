// Helpers shared by the page scripts (a partial: the leading "_" keeps it
// out of the bundles' entry points; esbuild inlines what a script imports).
// An ES module, .mjs so that Node's test runner imports it as it is
// (node --test static/js/test/).

// fill fills a UI string of templates/i18n/<lang>.toml as the Go side's
// package message does: {0} {1} … are the arguments in order, from 0 (a
// language may take them in any order). An absent, null or undefined
// argument writes "", and so does a missing string; other text, a percent
// sign or a brace that starts no placeholder included, is kept.
export function fill(tmpl, ...args) {
  return fillWith(tmpl, args);
}

// fillWith is fill with the arguments as an array and {field}, the name
// of the field args[0] names: field(args[0]), or args[0] without field.
export function fillWith(tmpl, args, field) {
  return String(tmpl || "").replace(/\{([0-9]{1,2}|field)\}/g, (_, name) => {
    const a = name === "field" ? (field ? field(args[0]) : args[0]) : args[+name];
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
