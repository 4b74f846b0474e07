// The TCO page's arithmetic, the same as derive.TCOIn (generator/internal/
// derive/tco.go): the billed hours of each price line, and the hidden costs
// from the rates the page's JSON carries (derive.TCORates, in the offer's
// currency and in GB). static/js/test/tco.test.mjs checks it against the
// vectors derive's TestTCOVectors writes from the Go code.

/** The average month, 365 × 24 / 12 hours (derive.HoursPerMonth). */
export const HOURS = 730;

/** Hours an instance runs at a utilisation (0..1, clamped). */
export function runHours(util) {
  return Math.min(Math.max(util, 0), 1) * HOURS;
}

/** Hours paid for: each run of job hours rounded up to the billing increment and the minimum. */
export function billed(o, used, job) {
  if (job <= 0 || used <= 0) return used;
  const runs = Math.ceil(used / job);
  let per = job * 3600;
  if (o.inc === "per-hour") per = Math.ceil(per / 3600) * 3600;
  else if (o.inc === "per-minute") per = Math.ceil(per / 60) * 60;
  if (o.min && per < o.min) per = o.min;
  return (runs * per) / 3600;
}

/** A volume rate's charge for gb in a month: the free volume, then the tiers. */
export function volume(rate, gb) {
  const vol = Math.max(gb - rate.free, 0);
  let total = 0;
  let below = 0;
  for (const t of rate.tiers) {
    const up = t.upTo == null ? Infinity : t.upTo;
    if (vol > below) total += (Math.min(vol, up) - below) * t.price;
    below = up;
  }
  return total;
}

/** One address charge for n addresses in a month with run hours of use. */
export function address(a, n, run) {
  let hours = HOURS;
  if (a.on === "bound") hours = run;
  else if (a.on === "idle") hours = HOURS - run;
  if (hours <= 0) return 0;
  return n * (a.hour * hours + a.month);
}

/**
 * The monthly cost of an offer (the page JSON's offer) for an input
 * {util: 0..1, job, storage, egress, ips}: per price line {hours,
 * compute, extras, total}, and the hidden costs asked for that are not
 * recorded ("storage", "egress", "public IP"), as derive.TCOIn.
 */
export function monthly(o, inp) {
  const missing = [];
  let extras = 0;
  for (const [name, rate, qty] of [["storage", o.storage, inp.storage], ["egress", o.egress, inp.egress]]) {
    if (!(qty > 0)) continue;
    if (rate == null) missing.push(name);
    else extras += volume(rate, qty);
  }
  const run = runHours(inp.util);
  if (inp.ips > 0) {
    const no = o.noIP || [];
    if ((no.includes("bound") && run > 0) || (no.includes("idle") && run < HOURS)) missing.push("public IP");
    for (const a of o.ip || []) extras += address(a, inp.ips, run);
  }
  const hours = billed(o, inp.util * HOURS, inp.job);
  const lines = o.lines.map((l) => {
    let bh, compute;
    if (l.billing === "committed" && l.term === 0 && l.unitHours > 1) {
      const units = Math.ceil(hours / l.unitHours - 1e-9);
      bh = units * l.unitHours;
      compute = units * l.price;
    } else if (l.billing === "committed") {
      bh = HOURS;
      compute = HOURS * l.hourly;
    } else if (l.unitHours > 1) {
      const units = Math.ceil(hours / l.unitHours - 1e-9);
      bh = units * l.unitHours;
      compute = units * l.price;
    } else {
      bh = hours;
      compute = hours * l.price;
    }
    return { hours: bh, compute, extras, total: compute + extras };
  });
  return { lines, missing };
}
