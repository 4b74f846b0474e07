// The language switch keeps the reader's place: a link to another edition
// (layout.html's .lang-switch) carries, when followed, the page's query
// (the calculator's inputs, the price filters) and fragment as they are at
// that moment, so the same answer opens in the other language.
for (const a of document.querySelectorAll(".lang-switch a[hreflang]")) {
  a.addEventListener("click", () => {
    const u = new URL(a.href, location.href);
    u.search = location.search;
    u.hash = location.hash;
    a.href = u.href;
  });
}
