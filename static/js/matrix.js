// Price matrix: sort each table's rows by a column (the header buttons the
// page renders), the same column in every table of the page, kept in the
// URL (?sort=0&dir=desc) so a view can be shared. The prices are the
// build's (each cell's data-v, per GPU-hour); current prices sort before
// stale ones and empty cells last, whatever the direction. The name
// column sorts in the page's language (pinyin order for Chinese names);
// without a sort the rows keep the build's order.
(() => {
  const tables = [...document.querySelectorAll("table.matrix")];
  if (!tables.length) return;
  const collator = new Intl.Collator(document.documentElement.lang || undefined);
  const original = new Map(tables.map((t) => [t, [...t.tBodies[0].rows]]));

  // key orders a row by column col: [rank, value], rank 0 current, 1
  // stale, 2 empty.
  function key(tr, col) {
    const td = tr.cells[col + 1];
    if (!td || td.dataset.v === undefined) return [2, 0];
    return [td.dataset.stale ? 1 : 0, +td.dataset.v];
  }
  function sort(col, dir) {
    for (const t of tables) {
      const rows = original.get(t).slice();
      if (col === "name") rows.sort((a, b) => dir * collator.compare(a.cells[0].textContent.trim(), b.cells[0].textContent.trim()));
      else if (col !== null) {
        rows.sort((a, b) => {
          const [ra, va] = key(a, col), [rb, vb] = key(b, col);
          return ra !== rb ? ra - rb : dir * (va - vb);
        });
      }
      t.tBodies[0].append(...rows);
      for (const th of t.tHead.rows[0].cells) {
        th.removeAttribute("aria-sort");
        if (col !== null && th.dataset.sort === String(col)) th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
      }
    }
  }
  const q = new URLSearchParams(location.search);
  let col = q.get("sort"), dir = q.get("dir") === "desc" ? -1 : 1;
  if (col !== null && col !== "name") col = +col;
  if (col !== null) sort(col, dir);

  document.addEventListener("click", (e) => {
    const b = e.target.closest("table.matrix th button.sort");
    if (!b) return;
    const c = b.closest("th").dataset.sort;
    const next = c === "name" ? "name" : +c;
    dir = next === col ? -dir : 1;
    col = next;
    sort(col, dir);
    const p = new URLSearchParams(location.search);
    p.set("sort", String(col));
    if (dir < 0) p.set("dir", "desc");
    else p.delete("dir");
    history.replaceState(null, "", "?" + p.toString() + location.hash);
  });
})();
