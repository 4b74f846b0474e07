// Unit tests of static/js/_shared.mjs, without a browser:
//   node --test static/js/test/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dated, fill, fillWith, money, h, readStrings, tr } from "../_shared.mjs";

test("fill", async (t) => {
  const cases = [
    // [name, template, args, want]: as package message's Fill.
    ["plain", "No matches", [], "No matches"],
    ["one", "Could not load every price: {0}", ["404 Not Found"], "Could not load every price: 404 Not Found"],
    ["a number", "{0} results", [12], "12 results"],
    ["zero", "{0} results", [0], "0 results"],
    ["in order", "{0} of {1} prices shown", [50, 1234], "50 of 1234 prices shown"],
    ["mixed", "{0} ({1}× {2})", ["p4d.24xlarge", 8, "A100"], "p4d.24xlarge (8× A100)"],
    ["percent signs are text", "{0} is cheaper than on-demand above {1} % utilisation.", ["1-year", "62"], "1-year is cheaper than on-demand above 62 % utilisation."],
    ["percent glued", "{0}在利用率高于 {1}% 时比按量计费更便宜。", ["一年预留", "62"], "一年预留在利用率高于 62% 时比按量计费更便宜。"],
    ["reordered", "{1}, {0}", ["a", "b"], "b, a"],
    ["repeated", "{0} {0}", ["x"], "x x"],
    ["two digits", "{10}", ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "ten"], "ten"],
    ["index out of range", "{2}|{0}", ["a"], "|a"],
    ["missing argument", "{0} vs {1}", ["H100"], "H100 vs "],
    ["no arguments", " ({0})", [], " ()"],
    ["extra arguments", "{0}", ["a", "b"], "a"],
    ["null argument", "[{0}]", [null], "[]"],
    ["undefined argument", "[{0}|{1}]", [undefined, 3], "[|3]"],
    ["zero and empty", "{0}/{1}/", [0, ""], "0//"],
    ["false", "{0}", [false], "false"],
    ["float", "{0}", [0.5], "0.5"],
    ["argument not rescanned", "{0} vs {1}", ["{1}", "{0}"], "{1} vs {0}"],
    ["CJK full-width parens", "{0}（{1}）", ["H100", "80 GB"], "H100（80 GB）"],
    ["CJK count", "显示 {0} 条价格（共 {1} 条）", [50, 1234], "显示 50 条价格（共 1234 条）"],
    ["other braces stay", "{x} {} {123} { and }", ["a"], "{x} {} {123} { and }"],
    ["printf verbs are text", "%s %d", ["a"], "%s %d"],
    ["field without a name function", "{field}", ["seq"], "seq"],
  ];
  for (const [name, tmpl, args, want] of cases) {
    await t.test(name, () => assert.equal(fill(tmpl, ...args), want));
  }
  await t.test("missing template", () => {
    assert.equal(fill(undefined), "");
    assert.equal(fill(undefined, "a"), "");
    assert.equal(fill(null, 1), "");
    assert.equal(fill("", 1), "");
  });
  // The cases package message's TestFill runs: both sides fill alike.
  const shared = JSON.parse(readFileSync(new URL("../../../generator/internal/message/testdata/fill.json", import.meta.url), "utf8"));
  assert.ok(shared.length >= 10);
  for (const c of shared) {
    await t.test("as Go: " + c.name, () => assert.equal(fillWith(c.tmpl, c.args, (f) => "<" + f + ">"), c.want));
  }
  await t.test("field", () => {
    assert.equal(fillWith("{field} must be between {2} and {3} (got {1})", ["seq", "0", "1", "131072"], (f) => "<" + f + ">"),
      "<seq> must be between 1 and 131072 (got 0)");
  });
});

test("money", async (t) => {
  const cases = [
    // [v, cur, want]: three decimals below 1, else two, rounded as toFixed.
    [0, "USD", "0.000 USD"],
    [0.061, "USD", "0.061 USD"],
    [0.5, "EUR", "0.500 EUR"],
    [0.0005, "USD", "0.001 USD"],
    [0.9994, "USD", "0.999 USD"],
    [0.9996, "USD", "1.000 USD"], // below 1, so three decimals, rounding up
    [1, "USD", "1.00 USD"],
    [1.005, "USD", "1.00 USD"], // 1.005 is 1.00499999... in binary
    [2.125, "USD", "2.13 USD"], // exact in binary: toFixed rounds the tie up
    [2.675, "USD", "2.67 USD"], // 2.67499999... in binary
    [12.3456, "CNY", "12.35 CNY"],
    [1234.5678, "CNY", "1234.57 CNY"],
    [-0.5, "USD", "-0.500 USD"],
  ];
  for (const [v, cur, want] of cases) {
    await t.test(`${v} ${cur}`, () => {
      assert.equal(money(v, cur), want);
      assert.equal(money(v, cur), (v < 1 ? v.toFixed(3) : v.toFixed(2)) + " " + cur);
    });
  }
});

// A document with just what h uses.
function fakeDocument() {
  return {
    createElement(tag) {
      return {
        tagName: tag.toUpperCase(),
        textContent: "",
        attrs: {},
        children: [],
        setAttribute(k, v) {
          this.attrs[k] = String(v);
        },
        append(...xs) {
          this.children.push(...xs);
        },
      };
    },
  };
}

test("h", async (t) => {
  const doc = fakeDocument();
  await t.test("tag, text and attributes", () => {
    const e = h("a", "H100 vs A100", { href: "/compare/a100-vs-h100/", class: "x" }, doc);
    assert.equal(e.tagName, "A");
    assert.equal(e.textContent, "H100 vs A100");
    assert.deepEqual(e.attrs, { href: "/compare/a100-vs-h100/", class: "x" });
  });
  await t.test("no text, no attributes", () => {
    for (const text of [null, undefined]) {
      const e = h("tr", text, undefined, doc);
      assert.equal(e.tagName, "TR");
      assert.equal(e.textContent, "");
      assert.deepEqual(e.attrs, {});
    }
  });
  await t.test("empty text and zero are text", () => {
    assert.equal(h("td", "", null, doc).textContent, "");
    assert.equal(h("td", 0, null, doc).textContent, 0);
  });
  await t.test("the page's document by default", () => {
    const had = Object.prototype.hasOwnProperty.call(globalThis, "document");
    const old = globalThis.document;
    globalThis.document = fakeDocument();
    try {
      const e = h("span", " ✓", { "aria-hidden": "true" });
      assert.equal(e.tagName, "SPAN");
      assert.equal(e.textContent, " ✓");
      assert.deepEqual(e.attrs, { "aria-hidden": "true" });
    } finally {
      if (had) globalThis.document = old;
      else delete globalThis.document;
    }
  });
});

test("readStrings", async (t) => {
  const el = (i18n) => ({ dataset: i18n === undefined ? {} : { i18n } });
  const cases = [
    ["valid", el('{"one":"1 result","many":"{0} results"}'), { one: "1 result", many: "{0} results" }],
    ["valid CJK", el('{"paren":"（{0}）"}'), { paren: "（{0}）" }],
    ["empty object", el("{}"), {}],
    ["attribute missing", el(undefined), {}],
    ["attribute empty", el(""), {}],
    ["invalid JSON", el("{one:"), {}],
    ["not an object: null", el("null"), {}],
    ["not an object: array", el('["a"]'), {}],
    ["not an object: string", el('"a"'), {}],
    ["not an object: number", el("3"), {}],
    ["no element", null, {}],
    ["no dataset", {}, {}],
  ];
  for (const [name, e, want] of cases) {
    await t.test(name, () => assert.deepEqual(readStrings(e), want));
  }
});

test("tr", async (t) => {
  const T = { one: "1 条结果", empty: "" };
  await t.test("present", () => assert.equal(tr(T, "one", "1 result"), "1 条结果"));
  await t.test("absent: fallback", () => assert.equal(tr(T, "many", "{0} results"), "{0} results"));
  await t.test("empty: fallback", () => assert.equal(tr(T, "empty", "x"), "x"));
  await t.test("no strings: fallback", () => assert.equal(tr(undefined, "one", "1 result"), "1 result"));
});

test("dated: Go's segments as text, <time datetime> and a stale badge", () => {
  const doc = fakeDocument();
  const sub = dated([{ t: "stale", badge: true }, { t: " " }, { t: "price as of " }, { t: "2024年2月27日", iso: "2024-02-27" }], doc);
  assert.equal(sub.tagName, "SPAN");
  assert.deepEqual(sub.attrs, { class: "sub line" });
  const [badge, sp, words, time] = sub.children;
  assert.deepEqual([badge.tagName, badge.textContent, badge.attrs.class], ["SPAN", "stale", "badge stale"]);
  assert.deepEqual([sp, words], [" ", "price as of "]);
  assert.deepEqual([time.tagName, time.textContent, time.attrs.datetime, time.attrs.class], ["TIME", "2024年2月27日", "2024-02-27", "asof"]);
  assert.equal(dated(undefined, doc).children.length, 0);
});
