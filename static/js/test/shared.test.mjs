// Unit tests of static/js/_shared.mjs, without a browser:
//   node --test static/js/test/
import { test } from "node:test";
import assert from "node:assert/strict";
import { dated, fmt, money, h, readStrings, tr } from "../_shared.mjs";

test("fmt", async (t) => {
  const cases = [
    // [name, format, args, want]
    ["plain", "No matches", [], "No matches"],
    ["%s", "Could not load every price: %s", ["404 Not Found"], "Could not load every price: 404 Not Found"],
    ["%d", "%d results", [12], "12 results"],
    ["%d zero", "%d results", [0], "0 results"],
    ["in order", "%d of %d prices shown", [50, 1234], "50 of 1234 prices shown"],
    ["mixed verbs", "%s (%d× %s)", ["p4d.24xlarge", 8, "A100"], "p4d.24xlarge (8× A100)"],
    ["%%", "%s is cheaper than on-demand above %s %% utilisation.", ["1-year", "62"], "1-year is cheaper than on-demand above 62 % utilisation."],
    ["%% glued", "%s在利用率高于 %s%% 时比按量计费更便宜。", ["一年预留", "62"], "一年预留在利用率高于 62% 时比按量计费更便宜。"],
    ["%% only", "100%%", [], "100%"],
    ["%%s is not a verb", "%%s", ["x"], "%s"],
    ["indexed", "%[2]s, %[1]s", ["a", "b"], "b, a"],
    ["indexed %d", "%[2]d/%[1]d", [1, 2], "2/1"],
    ["indexed repeat", "%[1]s %[1]s", ["x"], "x x"],
    // As Go: after %[n]v the next plain verb takes argument n+1.
    ["indexed then next", "%[2]s %s %s", ["a", "b", "c"], "b c "],
    ["next after indexed 1", "%[1]s-%s", ["a", "b"], "a-b"],
    ["index out of range", "%[3]s|%s", ["a"], "|"],
    ["missing argument", "%s vs %s", ["H100"], "H100 vs "],
    ["no arguments", " (%s)", [], " ()"],
    ["extra arguments", "%s", ["a", "b"], "a"],
    ["null argument", "[%s]", [null], "[]"],
    ["undefined argument", "[%s|%d]", [undefined, 3], "[|3]"],
    ["zero and empty", "%d/%s/", [0, ""], "0//"],
    ["false", "%s", [false], "false"],
    ["number as %s", "Monthly cost in %s (%s hours a month)", ["USD", 730], "Monthly cost in USD (730 hours a month)"],
    ["float", "%s", [0.5], "0.5"],
    ["argument not rescanned", "%s vs %s", ["%s", "%d"], "%s vs %d"],
    ["CJK full-width parens", "%s（%s）", ["H100", "80 GB"], "H100（80 GB）"],
    ["CJK paren", "（%s）", [7], "（7）"],
    ["CJK colon", "%s：%s", ["按量计费", "每 GPU 小时最低价"], "按量计费：每 GPU 小时最低价"],
    ["CJK count", "显示 %d 条价格（共 %d 条）", [50, 1234], "显示 50 条价格（共 1234 条）"],
    ["other verbs stay", "%v%% discount %x", [5], "%v% discount %x"],
    ["lone percent", "50% off", [], "50% off"],
    ["trailing percent", "%", [], "%"],
  ];
  for (const [name, format, args, want] of cases) {
    await t.test(name, () => assert.equal(fmt(format, ...args), want));
  }
  await t.test("missing format", () => {
    assert.equal(fmt(undefined), "");
    assert.equal(fmt(undefined, "a"), "");
    assert.equal(fmt(null, 1), "");
    assert.equal(fmt("", 1), "");
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
    ["valid", el('{"one":"1 result","many":"%d results"}'), { one: "1 result", many: "%d results" }],
    ["valid CJK", el('{"paren":"（%s）"}'), { paren: "（%s）" }],
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
  await t.test("absent: fallback", () => assert.equal(tr(T, "many", "%d results"), "%d results"));
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
