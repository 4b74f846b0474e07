// The TCO page's arithmetic (static/js/_tco.mjs) against the vectors
// derive's TestTCOVectors writes from the Go code (derive.TCOIn), without a
// browser: node --test static/js/test/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { monthly } from "../_tco.mjs";

const vectors = JSON.parse(readFileSync(new URL("./testdata/tco-vectors.json", import.meta.url)));

const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

test("the vectors cover every kind of line and cost", () => {
  assert.ok(vectors.length >= 60, `${vectors.length} vectors`);
  const missing = new Set(vectors.flatMap((v) => v.want.missing));
  for (const m of ["storage", "egress", "public IP"]) assert.ok(missing.has(m), `no vector leaves out ${m}`);
  assert.ok(vectors.some((v) => (v.offer.ip || []).some((a) => a.on === "idle")), "no idle-address charge");
  assert.ok(vectors.some((v) => v.offer.egress && v.offer.egress.tiers.length > 1), "no egress tiers");
});

test("monthly equals derive.TCOIn", async (t) => {
  for (const v of vectors) {
    await t.test(v.name, () => {
      const got = monthly(v.offer, v.input);
      assert.deepEqual(got.missing, v.want.missing);
      assert.equal(got.lines.length, v.want.lines.length);
      got.lines.forEach((l, i) => {
        const w = v.want.lines[i];
        for (const k of ["hours", "compute", "extras", "total"]) {
          assert.ok(near(l[k], w[k]), `line ${i} (${v.offer.lines[i].billing}) ${k}: ${l[k]}, want ${w[k]}`);
        }
      });
    });
  }
});
