// Unit tests of static/js/_age.mjs with a minimal document and a clock
// moved forward: node --test static/js/test/
import { test } from "node:test";
import assert from "node:assert/strict";
import { ageDays, band, refreshAges } from "../_age.mjs";

test("ageDays and band follow the Go rule", () => {
  const now = new Date("2026-12-06T15:00:00Z");
  assert.equal(ageDays("2026-12-06", now), 0);
  assert.equal(ageDays("2025-12-06", now), 365);
  assert.equal(ageDays("2025-12-05", now), 366);
  assert.equal(ageDays("2027-01-01", now), 0);
  assert.equal(band(90, 90, 365), "fresh");
  assert.equal(band(91, 90, 365), "ageing");
  assert.equal(band(365, 90, 365), "ageing");
  assert.equal(band(366, 90, 365), "stale");
});

// A minimal DOM: a cell holding a badge and a <time class="asof">.
function el(tag, cls = "") {
  const e = {
    tag,
    classes: new Set(cls.split(" ").filter(Boolean)),
    attrs: {},
    textContent: "",
    parentElement: null,
    children: [],
    nextElementSibling: null,
    get className() {
      return [...this.classes].join(" ");
    },
    set className(v) {
      this.classes = new Set(v.split(" ").filter(Boolean));
    },
    getAttribute(k) {
      return this.attrs[k];
    },
    setAttribute(k, v) {
      this.attrs[k] = v;
    },
    after(n) {
      n.parentElement = this.parentElement;
      this.nextElementSibling = n;
      this.parentElement.children.push(n);
    },
    querySelector(sel) {
      const want = sel.split(",").map((s) => s.trim().split(".").filter(Boolean));
      return this.children.find((c) => want.some((w) => w.every((x) => c.classes.has(x)))) || null;
    },
  };
  e.classList = {
    contains: (x) => e.classes.has(x),
    add: (x) => e.classes.add(x),
    remove: (x) => e.classes.delete(x),
  };
  return e;
}

function page(built, iso, shownBand) {
  const cell = el("td", "c-age");
  const badge = el("span", "badge " + shownBand);
  badge.textContent = shownBand;
  const time = el("time", "asof");
  time.attrs.datetime = iso;
  for (const c of [badge, time]) {
    c.parentElement = cell;
    cell.children.push(c);
  }
  const cfg = { fresh: 90, stale: 365, built, t: { fresh: "较新", ageing: "偏旧", stale: "过时", age: "报价距今 {0} 天", aged: "（现已超过 {0} 天）" } };
  const doc = {
    body: { dataset: { age: JSON.stringify(cfg) } },
    querySelectorAll: (sel) => (sel === "time.asof" ? [time] : []),
    createElement: (tag) => el(tag),
  };
  return { doc, badge, time, cell };
}

test("a page read two years after it was built tells the truth", async (t) => {
  const cases = [
    // [name, built, price date, band shown at build, read on, want band, want marked]
    ["read on the build day", "2026-12-06", "2026-10-01", "fresh", "2026-12-06", "fresh", 0],
    ["a quarter later", "2026-12-06", "2026-10-01", "fresh", "2027-03-06", "ageing", 0],
    ["two years ahead", "2026-12-06", "2026-10-01", "fresh", "2028-12-06", "stale", 1],
    ["stale already when built: not marked again", "2026-12-06", "2024-05-07", "stale", "2028-12-06", "stale", 0],
  ];
  for (const [name, built, iso, shown, read, want, marked] of cases) {
    await t.test(name, () => {
      const { doc, badge, time, cell } = page(built, iso, shown);
      assert.equal(refreshAges(doc, new Date(read + "T08:00:00Z")), marked);
      assert.ok(badge.classList.contains(want), `badge ${badge.className}`);
      assert.equal(badge.textContent, { fresh: "较新", ageing: "偏旧", stale: "过时" }[want] === undefined ? want : shown === want ? shown : { fresh: "较新", ageing: "偏旧", stale: "过时" }[want]);
      const notes = cell.children.filter((c) => c.classList.contains("aged"));
      assert.equal(notes.length, marked);
      if (marked) assert.equal(notes[0].textContent, "（现已超过 365 天）");
      assert.equal(time.getAttribute("datetime"), iso, "the stated date never changes");
      // Idempotent: a second pass adds nothing.
      refreshAges(doc, new Date(read + "T08:00:00Z"));
      assert.equal(cell.children.filter((c) => c.classList.contains("aged")).length, marked);
    });
  }
});
