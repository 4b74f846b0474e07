// Offer tables (GPU, provider and pricing pages). The column chooser and
// "hide stale" work without this script (CSS :has on their checkboxes);
// the script keeps them in the URL (?cols=vcpu,ram&stale=hide) so a view
// can be shared, and counts the instances picked for comparison.
import { fill } from "./_shared.mjs";

(() => {
  const boxes = [...document.querySelectorAll("input[data-col]")];
  const stale = document.getElementById("hide-stale");
  const chooser = document.querySelector(".offer-tools details.cols");
  const q = new URLSearchParams(location.search);
  const cols = (q.get("cols") || "").split(",");
  for (const b of boxes) b.checked = cols.includes(b.dataset.col);
  if (chooser && boxes.some((b) => b.checked)) chooser.open = true;
  if (stale) stale.checked = q.get("stale") === "hide";

  function save() {
    const q = new URLSearchParams(location.search);
    const on = boxes.filter((b) => b.checked).map((b) => b.dataset.col);
    if (on.length) q.set("cols", on.join(","));
    else q.delete("cols");
    if (stale && stale.checked) q.set("stale", "hide");
    else q.delete("stale");
    const s = q.toString().replace(/%2C/g, ",");
    history.replaceState(null, "", s ? "?" + s : location.pathname);
  }
  for (const b of boxes.concat(stale || [])) b.addEventListener("change", save);

  // "Compare selected (2)": how many rows are ticked, in the edition's
  // words (data-count: the offers.compare.count string, "{0}" the count).
  const button = document.querySelector("#pick button");
  if (!button) return;
  const label = button.textContent;
  const withCount = button.dataset.count || label + " ({0})";
  const count = () => {
    const n = new Set([...document.querySelectorAll("input[name=o]:checked")].map((c) => c.value)).size;
    button.textContent = n ? fill(withCount, n) : label;
  };
  document.addEventListener("change", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.name === "o") count();
  });
  count();
})();
