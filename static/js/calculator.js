// The sizing calculator: reads the form, asks the Go sizing engine
// (WebAssembly, gpuAtlasSize) for the figures, and renders them. The page
// works without this script: it then shows the server-rendered result of
// the default inputs. The URL query string holds the inputs.
(() => {
  const form = document.getElementById("calc");
  const dataEl = document.getElementById("calc-data");
  if (!form || !dataEl) return;
  const data = JSON.parse(dataEl.textContent);
  const $ = (id) => document.getElementById(id);
  const f = form.elements;
  const keys = ["weights", "kv_cache", "activations", "gradients", "optimizer", "adapters", "overhead"];
  const camel = { weights: "weights", kv_cache: "kvCache", activations: "activations", gradients: "gradients", optimizer: "optimizer", adapters: "adapters", overhead: "overhead" };

  // The custom model's fields: in the URL only when the model is custom.
  const custom = ["params", "layers", "hidden", "heads", "kv-heads", "ffn", "vocab"];

  // URL state: every named control; checkboxes as repeated keys.
  function toQuery() {
    const q = new URLSearchParams();
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.type === "checkbox") {
        if (el.name === "flash") q.set("flash", el.checked ? "true" : "false");
        else if (el.checked) q.append(el.name, el.value);
      } else if (!custom.includes(el.name) || f.model.value === "custom") {
        q.set(el.name, el.value);
      }
    }
    return q;
  }
  function fromQuery(q) {
    if (![...q.keys()].length) return;
    const targets = q.getAll("lora-targets");
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.type === "checkbox") {
        if (el.name === "flash") { if (q.has("flash")) el.checked = q.get("flash") !== "false"; }
        else if (targets.length) el.checked = targets.includes(el.value); // absent: keep the defaults
      } else if (q.has(el.name)) {
        el.value = q.get(el.name);
      }
    }
    if (f.model.value === "custom") $("advanced").open = true;
  }

  function input() {
    let model;
    if (f.model.value === "custom") {
      model = { params: +f.params.value, layers: +f.layers.value, hidden: +f.hidden.value, heads: +f.heads.value,
        kvHeads: +f["kv-heads"].value, ffn: +f.ffn.value, vocab: +f.vocab.value };
    } else {
      model = Object.assign({}, data.models[f.model.value]);
      delete model.name;
    }
    const gpu = data.gpus.find((g) => g.id === f.gpu.value) || null;
    const targets = [...form.querySelectorAll("input[name=lora-targets]:checked")].map((x) => x.value);
    return {
      model, workload: f.workload.value, dtype: f.dtype.value, kvDtype: f["kv-dtype"].value,
      seq: +f.seq.value, batch: +f.batch.value, gpus: +f.gpus.value, tp: +f.tp.value, zero: +f.zero.value,
      offload: f.offload.value, checkpointing: f.checkpointing.value, flash: f.flash.checked,
      optimizer: f.optimizer.value, loraRank: +f["lora-rank"].value, loraTargets: targets,
      tokens: +f.tokens.value, mfu: +f.mfu.value, gpu, catalog: data.gpus,
    };
  }

  function money(v) {
    return (v < 1 ? v.toFixed(3) : v.toFixed(2)) + " " + data.currency;
  }

  function cell(tr, text, cls) {
    const td = document.createElement("td");
    if (cls) td.className = cls;
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }

  function render(inp, r) {
    const err = $("error");
    const result = $("result");
    if (!r.ok) {
      err.textContent = r.error;
      err.hidden = false;
      result.classList.add("stale");
      return;
    }
    err.hidden = true;
    result.classList.remove("stale");
    const t = r.text;
    $("total").textContent = t.totalPerGPU;
    $("usable").textContent = t.usableBytes;
    $("gpuname").textContent = inp.gpu ? inp.gpu.name : "";
    const fits = $("fits");
    fits.textContent = r.fits ? "fits" : "does not fit";
    fits.className = r.fits ? "fits" : "nofit";
    let x = 0;
    const total = r.totalPerGPU || 1;
    for (const k of keys) {
      const b = r.breakdown[camel[k]];
      $("b-" + k).textContent = t.breakdown[camel[k]];
      const rect = document.querySelector("#bar .seg-" + k);
      const w = (b / total) * 1000;
      rect.setAttribute("x", x.toFixed(1));
      rect.setAttribute("width", w.toFixed(1));
      x += w;
    }
    $("flops").textContent = t.trainFLOPs;
    $("decode").textContent = t.decodeTokensPerSec;
    $("time").textContent = t.trainSeconds;
    for (const tr of document.querySelectorAll("#mingpus tbody tr")) {
      const n = r.minGPUs[tr.dataset.gpu];
      tr.lastElementChild.textContent = n ? String(n) : "–";
    }
    // Cheapest fitting offer per billing mode: the same rule as the build
    // (derive.CheapestFitting): at least the minimum GPU count, lowest
    // price per instance-hour, ties by offer id.
    const best = {};
    for (const o of data.offers) {
      const n = r.minGPUs[o.gpu];
      if (!n || o.count < n) continue;
      const b = best[o.billing];
      if (!b || o.price < b.price || (o.price === b.price && o.id < b.id)) best[o.billing] = o;
    }
    const body = document.querySelector("#cheapest tbody");
    body.replaceChildren();
    for (const mode of Object.keys(data.billing)) {
      const o = best[mode];
      if (!o) continue;
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = data.billing[mode];
      tr.appendChild(th);
      const td = cell(tr, "");
      const a = document.createElement("a");
      a.href = form.dataset.base + "providers/" + o.provider + "/";
      a.textContent = o.providerName;
      td.append(a, " " + o.instance + " (" + o.count + "× " + o.gpuName + ")");
      cell(tr, money(o.price), "num");
      const g = data.gpus.find((x) => x.id === o.gpu);
      let cost = "–";
      if (r.trainFLOPs > 0 && g && g.bf16Flops > 0) {
        const hours = r.trainFLOPs / (o.count * g.bf16Flops * inp.mfu) / 3600;
        cost = money(hours * o.price);
      }
      cell(tr, cost, "num");
      cell(tr, o.asOf);
      body.appendChild(tr);
    }
  }

  function update(push) {
    if (typeof globalThis.gpuAtlasSize !== "function") return;
    const inp = input();
    render(inp, globalThis.gpuAtlasSize(inp));
    if (push) {
      const q = toQuery().toString();
      history.replaceState(null, "", q ? "?" + q : location.pathname);
    }
  }

  fromQuery(new URLSearchParams(location.search));
  form.addEventListener("input", (e) => {
    // QLoRA quantizes the base to NF4: pick int4 weights, as the engine's
    // default for qlora does. The custom model's fields are in the
    // advanced section: open it.
    if (e.target === f.workload && f.workload.value === "qlora") f.dtype.value = "int4";
    if (e.target === f.model && f.model.value === "custom") $("advanced").open = true;
    update(true);
  });
  form.addEventListener("submit", (e) => { e.preventDefault(); update(true); });

  globalThis.gpuAtlasReady = () => {
    form.dataset.ready = "true";
    update(false);
  };
  // The engine (about 460 KB brotli) loads when a shared URL needs it, or
  // on the first sign the reader will use the form; until then the page
  // shows the server-rendered result of the default inputs.
  let loading = false;
  function load() {
    if (loading) return;
    loading = true;
    const go = new Go();
    WebAssembly.instantiateStreaming(fetch(form.dataset.wasm), go.importObject)
      .then((res) => go.run(res.instance))
      .catch((e) => {
        const err = $("error");
        err.textContent = "The calculator could not load its engine: " + e.message;
        err.hidden = false;
      });
  }
  if (location.search) load();
  for (const ev of ["focusin", "pointerover", "pointerdown", "keydown", "input"]) {
    form.addEventListener(ev, load, { once: true, passive: true });
  }
})();
