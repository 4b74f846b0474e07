// Site search. Enhances the layout's search form:
//
//   <form role="search" action="{base}search/">
//     <input id="search-input" name="q" data-index="{base}search/index.json" data-base="{base}">
//     <ul id="search-results" hidden></ul>
//   </form>
//
// Without this script the form submits to the search page. With it, the
// index (built by generator/internal/search: [{t, u, k, s, x, a, w, b}]) is fetched
// on the first focus or key press, and the top matches are listed as links
// while typing: every query word must prefix a word of the entry; a match
// in the title ranks above one in the title's aliases, then the keywords,
// then the summary. It follows the ARIA combobox pattern (the input keeps focus
// and points at the highlighted option with aria-activedescendant):
// ArrowDown/ArrowUp move, Enter opens the highlighted result (or submits the
// form when none is), Escape closes the list and then clears the box, and
// "/" focuses the box from anywhere on the page except while typing in a
// field. An optional element #search-status (role="status") receives the
// result count. No inline styles: the list uses the hidden attribute and
// the highlighted option the class "active".
import { fill, readStrings, tr as word } from "./_shared.mjs";

(() => {
  const input = document.getElementById("search-input");
  const list = document.getElementById("search-results");
  if (!input || !list || !input.dataset.index) return;
  const status = document.getElementById("search-status");
  const MAX = 8;
  let base = input.dataset.base || "/";
  if (!base.endsWith("/")) base += "/";
  const KIND_WEIGHT = { gpu: 3, provider: 3, model: 2, guide: 1, offer: 0 };
  // The edition's words (data-i18n, from templates/i18n/<lang>.toml's
  // "search.js.*" keys), with English defaults.
  const T = readStrings(input);
  const tr = (k, d) => word(T, k, d);
  const KIND_LABEL = {
    gpu: tr("kind.gpu", "GPU"),
    provider: tr("kind.provider", "Provider"),
    offer: tr("kind.offer", "Instance"),
    model: tr("kind.model", "Model"),
    guide: tr("kind.guide", "Guide"),
    page: tr("kind.page", "Page"),
  };
  const count = (n) => (n === 1 ? tr("one", "1 result") : fill(tr("many", "{0} results"), n));

  let index = null; // prepared entries, once loaded
  let loading = null; // the pending load
  let shown = []; // the entries listed
  let active = -1; // position in shown of the highlighted option

  if (!list.id) list.id = "search-results";
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", list.id);
  input.setAttribute("aria-expanded", "false");
  input.setAttribute("autocomplete", "off");
  list.setAttribute("role", "listbox");
  list.hidden = true;

  // words lowercases, strips accents and splits at anything that is not a
  // letter or digit (as the generator's search.Words does); a run of Han
  // characters, which has no spaces between words, becomes its overlapping
  // character pairs ("按量计费" -> 按量 量计 计费), so any word inside it can
  // be found.
  const HAN = /\p{Script=Han}/u;
  const bigrams = (run) => {
    const cs = Array.from(run);
    if (cs.length < 2) return cs;
    const out = [];
    for (let i = 0; i + 1 < cs.length; i++) out.push(cs[i] + cs[i + 1]);
    return out;
  };
  const split = (s) =>
    (s || "")
      .toLowerCase()
      .normalize("NFKC")
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      // Han runs apart from Latin letters and digits: "h100价格" -> h100, 价格.
      .flatMap((w) => w.split(/(\p{Script=Han}+)/u).filter(Boolean));
  const words = (s) => split(s).flatMap((w) => (HAN.test(w) ? bigrams(w) : [w]));

  function prepare(entries) {
    return entries.map((e, i) => ({
      e,
      i,
      title: words(e.t).join(" "),
      t: words(e.t),
      a: words(e.a),
      x: words(e.x),
      s: words(e.s).concat(words(e.w)),
      b: words(e.b),
    }));
  }

  function load() {
    if (index) return Promise.resolve(index);
    if (!loading) {
      loading = fetch(input.dataset.index, { credentials: "same-origin" })
        .then((r) => {
          if (!r.ok) throw new Error(`search index: HTTP ${r.status}`);
          return r.json();
        })
        .then((entries) => {
          index = prepare(entries);
          return index;
        })
        .catch((err) => {
          loading = null; // try again on the next focus
          say(tr("unavailable", "Search is unavailable; press Enter to use the search page."));
          throw err;
        });
    }
    return loading;
  }

  // field scores one query word against a field's words: 2 for a whole
  // word, 1 for a word prefix, 0 for none.
  function field(ws, q) {
    let best = 0;
    for (const w of ws) {
      if (w === q) return 2;
      if (best === 0 && w.startsWith(q)) best = 1;
    }
    return best;
  }

  // score ranks an entry for the query words, or returns -1 when a word
  // matches nowhere.
  function score(p, qs, phrase) {
    let total = 0;
    for (const q of qs) {
      const t = field(p.t, q);
      if (t) {
        total += 8 + 4 * t;
        continue;
      }
      // An alias (another name of a term the title uses) ranks below the
      // title's own words: "显存" finds the calculator before a page whose
      // title only names the calculator ("计算器有多准").
      const a = field(p.a, q);
      if (a) {
        total += 6 + 2 * a;
        continue;
      }
      const x = field(p.x, q);
      if (x) {
        total += 4 + x;
        continue;
      }
      const s = field(p.s, q);
      if (s) {
        total += 1 + s;
        continue;
      }
      // A guide's text ranks last: it finds the guide, never outranks the
      // pages about the word.
      if (field(p.b, q)) {
        total += 1;
        continue;
      }
      if (q.length > 1 && p.title.includes(q)) {
        total += 3; // inside a title word: "100" finds H100 and A100
        continue;
      }
      return -1;
    }
    if (p.title.startsWith(phrase)) total += 10;
    return total + (KIND_WEIGHT[p.e.k] || 0);
  }

  // hanScore scores a run of Han characters of the query: its character
  // pairs are looked up like words, and the entry matches when at least 60 %
  // of them are found (推理延迟 finds a page on 推理 and 延迟 that never
  // writes 理延), or -1.
  function hanScore(p, run) {
    const bs = bigrams(run);
    let found = 0;
    let total = 0;
    for (const b of bs) {
      const sc = score(p, [b], "");
      if (sc > 0) {
        found++;
        total += sc - (KIND_WEIGHT[p.e.k] || 0);
      }
    }
    return found >= Math.ceil(bs.length * 0.6) ? total : -1;
  }

  function search(query, limit = MAX) {
    const parts = split(query);
    const qs = parts.filter((w) => !HAN.test(w));
    const runs = parts.filter((w) => HAN.test(w));
    if (!parts.length || !index) return [];
    const phrase = qs.join(" ");
    const hits = [];
    for (const p of index) {
      let sc = qs.length ? score(p, qs, phrase) : KIND_WEIGHT[p.e.k] || 0;
      for (const r of runs) {
        if (sc < 0) break;
        const h = hanScore(p, r);
        sc = h < 0 ? -1 : sc + h;
      }
      if (sc >= 0) hits.push({ p, sc });
    }
    hits.sort((a, b) => b.sc - a.sc || a.p.e.t.length - b.p.e.t.length || a.p.i - b.p.i);
    return hits.slice(0, limit).map((h) => h.p.e);
  }

  function say(text) {
    if (status) status.textContent = text;
  }

  function optionID(i) {
    return `${list.id}-${i}`;
  }

  function setActive(i) {
    const items = list.querySelectorAll("[role=option]");
    if (active >= 0 && items[active]) {
      items[active].classList.remove("active");
      items[active].setAttribute("aria-selected", "false");
    }
    active = i;
    if (active >= 0 && items[active]) {
      items[active].classList.add("active");
      items[active].setAttribute("aria-selected", "true");
      input.setAttribute("aria-activedescendant", optionID(active));
      items[active].scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  }

  function open(show) {
    list.hidden = !show;
    input.setAttribute("aria-expanded", show ? "true" : "false");
    if (!show) setActive(-1);
  }

  function render() {
    const query = input.value.trim();
    shown = search(query);
    active = -1;
    input.removeAttribute("aria-activedescendant");
    const items = shown.map((e, i) => {
      const li = document.createElement("li");
      li.id = optionID(i);
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      li.className = `search-result search-${e.k}`;
      const a = document.createElement("a");
      a.href = base + e.u;
      a.tabIndex = -1;
      const title = document.createElement("span");
      title.className = "search-title";
      title.textContent = e.t;
      const kind = document.createElement("span");
      kind.className = "search-kind";
      kind.textContent = KIND_LABEL[e.k] || e.k;
      a.append(title, " ", kind);
      if (e.s) {
        const sum = document.createElement("span");
        sum.className = "search-summary";
        sum.textContent = e.s;
        if (e.l) sum.lang = e.l; // a data text in another language
        a.append(" ", sum);
      }
      li.append(a);
      li.addEventListener("mousemove", () => {
        if (active !== i) setActive(i);
      });
      return li;
    });
    if (!items.length && query) {
      const li = document.createElement("li");
      li.className = "search-none";
      li.setAttribute("role", "option");
      li.setAttribute("aria-disabled", "true");
      li.textContent = tr("none", "No matches");
      items.push(li);
    }
    list.replaceChildren(...items);
    open(items.length > 0);
    say(query ? (shown.length ? count(shown.length) : tr("none", "No matches")) : "");
  }

  function update() {
    if (index) render();
    else load().then(render, () => {});
  }

  input.addEventListener("focus", () => {
    load().then(() => {
      if (document.activeElement === input && input.value.trim()) render();
    }, () => {});
  });
  input.addEventListener("input", update);
  input.addEventListener("blur", () => open(false));
  // Keep the focus in the box while a result is clicked.
  list.addEventListener("mousedown", (ev) => ev.preventDefault());

  input.addEventListener("keydown", (ev) => {
    if (!index) load().catch(() => {});
    const n = shown.length;
    switch (ev.key) {
      case "ArrowDown":
      case "ArrowUp":
        if (!n) return;
        ev.preventDefault();
        if (list.hidden) {
          open(true);
          setActive(ev.key === "ArrowDown" ? 0 : n - 1);
        } else if (ev.key === "ArrowDown") {
          setActive(active + 1 >= n ? 0 : active + 1);
        } else {
          setActive(active <= 0 ? n - 1 : active - 1);
        }
        break;
      case "Enter":
        if (!list.hidden && active >= 0 && active < n) {
          ev.preventDefault();
          window.location.assign(base + shown[active].u);
        }
        break; // otherwise the form submits to the search page
      case "Escape":
        if (!list.hidden) {
          ev.preventDefault();
          open(false);
        } else if (input.value) {
          ev.preventDefault();
          input.value = "";
          shown = [];
          say("");
        }
        break;
    }
  });

  // "/" focuses the box unless the user is typing somewhere.
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "/" || ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented) return;
    const t = ev.target;
    if (t instanceof Element && (t.closest("input, textarea, select, [contenteditable]") || t.isContentEditable)) return;
    ev.preventDefault();
    input.focus();
    input.select();
  });

  // The search page (/search/?q=): every match (up to 50) for the query
  // in the URL, listed in the page with its kind and a snippet whose
  // matching words are marked. The page's own box edits the query (kept
  // in the URL); ArrowDown moves from it into the results, ArrowDown and
  // ArrowUp between them, Escape back to the box. The header's list stays
  // closed here.
  const page = document.getElementById("search-page-results");
  const pageInput = document.getElementById("search-q");
  if (!page || !pageInput) return;
  const pageStatus = document.getElementById("search-page-status");
  pageInput.value = new URLSearchParams(window.location.search).get("q") || "";

  // marked appends text to el with each word that starts with a query
  // word in a <mark>.
  function marked(el, text, qs) {
    const re = /[\p{L}\p{N}]+/gu;
    let at = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const w = words(m[0])[0] || "";
      if (!qs.some((q) => w.startsWith(q))) continue;
      el.append(text.slice(at, m.index));
      const mk = document.createElement("mark");
      mk.textContent = m[0];
      el.append(mk);
      at = m.index + m[0].length;
    }
    el.append(text.slice(at));
  }

  function renderPage(push) {
    const query = pageInput.value.trim();
    const hits = query && index ? search(query, 50) : [];
    const qs = words(query);
    page.replaceChildren(
      ...hits.map((e) => {
        const li = document.createElement("li");
        li.className = `search-hit search-${e.k}`;
        const a = document.createElement("a");
        a.href = base + e.u;
        marked(a, e.t, qs);
        const kind = document.createElement("span");
        kind.className = "search-kind";
        kind.textContent = KIND_LABEL[e.k] || e.k;
        li.append(kind, " ", a);
        if (e.s) {
          const p = document.createElement("p");
          p.className = "search-snippet";
          if (e.l) p.lang = e.l;
          marked(p, e.s, qs);
          li.append(p);
        }
        return li;
      }),
    );
    if (pageStatus) pageStatus.textContent = query ? (hits.length ? count(hits.length) : tr("none", "No matches")) : "";
    if (push) {
      const q = new URLSearchParams(window.location.search);
      if (query) q.set("q", query);
      else q.delete("q");
      const qstr = q.toString();
      history.replaceState(null, "", qstr ? "?" + qstr : window.location.pathname);
    }
  }

  load().then(
    () => renderPage(false),
    () => {
      if (pageStatus) pageStatus.textContent = tr("unavailable", "Search is unavailable.");
    },
  );
  pageInput.addEventListener("input", () => renderPage(true));
  if (pageInput.form) {
    pageInput.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      renderPage(true);
    });
  }
  const links = () => [...page.querySelectorAll("a")];
  pageInput.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowDown" && links().length) {
      ev.preventDefault();
      links()[0].focus();
    }
  });
  page.addEventListener("keydown", (ev) => {
    const ls = links();
    const i = ls.indexOf(document.activeElement);
    if (i < 0) return;
    if (ev.key === "ArrowDown" && i + 1 < ls.length) {
      ev.preventDefault();
      ls[i + 1].focus();
    } else if (ev.key === "ArrowUp") {
      ev.preventDefault();
      (i > 0 ? ls[i - 1] : pageInput).focus();
    } else if (ev.key === "Escape") {
      ev.preventDefault();
      pageInput.focus();
    }
  });
})();
