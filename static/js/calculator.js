// The sizing calculator: reads the form, asks the Go sizing engine
// (WebAssembly, gpuAtlasSize) for the figures, and renders them. The page
// works without this script: it then shows the server-rendered result of
// the default inputs. The URL query string holds the inputs. The page
// carries only what the form needs before the engine loads (pages.calcBoot);
// the catalog, offers and UI strings (pages.calcData) load with the engine,
// from form[data-json]. Every text it writes comes from those UI strings
// (data.msgs): the engine returns
// message keys with arguments and quantities as {n, u} (a number and the
// key of its unit), which msg() places as message.Fill does.
import { fillWith, money } from "./_shared.mjs";

(() => {
  const form = document.getElementById("calc");
  const dataEl = document.getElementById("calc-data");
  if (!form || !dataEl) return;
  const boot = JSON.parse(dataEl.textContent);
  // data is pages.calcData, set when it loads with the engine; offers are
  // its price rows, from their array form (pages.calcOffer), planOffers
  // the same rows as the engine prices them (pages.CalcOffers).
  let data = null, offers = [], planOffers = [];
  function setData(d) {
    data = d;
    offers = d.offers.map(([id, g, count, p, instance, mode, price, asOf, , asOfText, term], i) => ({
      id, gpu: d.gpus[g].id, gpuName: d.gpus[g].name, count, provider: d.providers[p][0],
      providerName: d.providers[p][1], instance, billing: d.modes[mode], price, asOf, asOfText, term, mark: d.marks && d.marks["r" + i],
    }));
    planOffers = d.offers.map(([, g, count, , , mode, price, , stale]) => [g, count, mode, price, stale]);
  }
  const $ = (id) => document.getElementById(id);
  const f = form.elements;
  const parts = ["weights", "kv_cache", "activations", "gradients", "optimizer", "adapters", "gathered", "reference", "critic", "rollout", "overhead"];
  // The parts only some setups have: their rows show when not zero.
  const optional = ["gathered", "reference", "critic", "rollout"];
  const camel = { kv_cache: "kvCache" };
  // The check boxes that are booleans of the input ("true" in the URL when
  // on); flash is on by default and so is always written.
  const booleans = ["flash", "sequence-parallel", "quant-embeddings", "no-master", "optimizer-in-backward", "offload-activations", "tied", "include-stale", "train-vision"];

  // Messages: msg(key, args...) fills a UI string as message.Fill does
  // ({0} {1} … are the arguments; {field} is the translated name of the
  // field the first one names).
  const T = (key) => {
    const m = data ? data.msgs : boot.msgs;
    return key in m ? m[key] : "[" + key + "]";
  };
  const field = (name) => {
    const k = "sizing.field." + (name || "");
    return data && k in data.msgs ? data.msgs[k] : name || "";
  };
  const msg = (key, ...args) => fillWith(T(key), args, field);
  const Q = (q) => msg(q.u, "", q.n);
  function errText(e) {
    const s = msg(e.key, ...e.args);
    return e.line ? msg("hfconfig.at", s, String(e.line), String(e.col)) : s;
  }

  // What applies: an element with data-show="a b" is shown when every
  // named condition holds; a control inside a hidden element does not
  // apply, takes its default in the input and stays out of the URL.
  const conditions = {
    infer: () => f.workload.value === "inference",
    train: () => f.workload.value !== "inference",
    lora: () => f.workload.value === "lora" || f.workload.value === "qlora",
    full: () => f.workload.value === "full",
    // A vision-language model: the preset's, or the custom model's, vision encoder.
    vision: () => (f.model.value === "custom" ? +f["vision-params"].value > 0 : boot.vision.includes(f.model.value)),
    rollout: () => ["grpo", "grpo-kl", "ppo"].includes(f.method.value),
    // The calibration set's spreads are of supervised runs (SFT).
    sft: () => f.method.value === "sft",
    multi: () => +f.gpus.value > 1,
    tpset: () => f.tp.value !== "",
    int4: () => f.dtype.value === "int4",
    grouped: () => f.quant.value === "gptq" || f.quant.value === "awq",
    quantized: () => ["fp8", "int8", "int4"].includes(f.dtype.value),
    weightonly: () => ["int8", "int4"].includes(f.dtype.value),
    custom: () => f.model.value === "custom",
    window: () => +f["sliding-window"].value > 0,
    moe: () => +f.experts.value > 0,
    mla: () => +f["kv-lora-rank"].value > 0,
  };
  function applies() {
    for (const el of document.querySelectorAll("[data-show]")) {
      // Set only what changes: a hidden set to the value it has still
      // costs the page a style pass.
      const hide = !el.dataset.show.split(" ").every((c) => conditions[c]());
      if (el.hidden !== hide) el.hidden = hide;
    }
  }
  const on = (el) => !el.closest("[hidden]");
  // val is a named control's value, or its default when it does not apply.
  function val(name) {
    const el = f[name];
    if (on(el)) return el.type === "checkbox" ? el.checked : el.value;
    if (el.type === "checkbox") return el.defaultChecked;
    if (el.tagName === "SELECT") return [...el.options].find((o) => o.defaultSelected).value;
    return el.defaultValue;
  }

  // URL state: every named control that applies; check boxes as
  // repeated keys (LoRA targets) or "true".
  function toQuery() {
    const q = new URLSearchParams();
    for (const el of form.elements) {
      if (!el.name || !on(el)) continue;
      if (el.type === "checkbox") {
        // flash and no-master have defaults that are not "off" (FlashAttention;
        // QLoRA's recipe): written either way.
        if (el.name === "flash" || el.name === "no-master") q.set(el.name, el.checked ? "true" : "false");
        else if (el.checked) q.append(el.name, el.value);
      } else {
        q.set(el.name, el.value);
      }
    }
    return q;
  }
  // The workloads' recipes (sizing.RecipeFor, in the page's data): what a
  // practitioner sets first. Choosing a workload applies its recipe; the
  // reader changes any of it afterwards.
  function applyRecipe(w) {
    const r = boot.recipes[w];
    if (!r) return;
    f.dtype.value = r.dtype;
    f.checkpointing.value = r.checkpointing;
    f.zero.value = String(r.zero);
    f.optimizer.value = r.optimizer;
    f.loss.value = r.loss;
    f["no-master"].checked = r.noMaster;
  }
  function fromQuery(q) {
    if (![...q.keys()].length) return;
    // The workload's recipe first, then what the URL sets.
    if (q.has("workload")) {
      f.workload.value = q.get("workload");
      applyRecipe(f.workload.value);
    }
    const targets = q.getAll("lora-targets");
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.type === "checkbox") {
        if (booleans.includes(el.name)) { if (q.has(el.name)) el.checked = q.get(el.name) !== "false"; }
        else if (targets.length) el.checked = targets.includes(el.value); // absent: keep the defaults
      } else if (q.has(el.name)) {
        el.value = q.get(el.name);
      }
    }
    if (f.model.value === "custom") $("advanced").open = true;
  }

  // The custom model's fields, one per figure of the shape; data-model is
  // the engine's key (the template writes them from sizing.ModelFields).
  const modelFields = [...form.querySelectorAll("[data-model]")];

  function input() {
    let model;
    if (f.model.value === "custom") {
      model = {};
      for (const el of modelFields) model[el.dataset.model] = el.type === "checkbox" ? el.checked : +el.value;
    } else {
      model = Object.assign({}, data.models[f.model.value]);
      delete model.name;
    }
    const gpu = data.gpus.find((g) => g.id === f.gpu.value) || null;
    // The chosen GPU's page lists the presets that fit one of it (Go
    // computes the list; the link follows the choice).
    if (gpu) {
      $("gpu-fits").href = form.dataset.base + "gpus/" + gpu.id + "/#one-gpu";
      $("gpu-fits").textContent = msg("calc.gpu.fits", gpu.name);
    }
    const targets = on(f["lora-rank"]) ? [...form.querySelectorAll("input[name=lora-targets]:checked")].map((x) => x.value) : ["q", "k", "v", "o"];
    return {
      model, workload: val("workload"), dtype: val("dtype"), kvDtype: val("kv-dtype"), quant: val("quant"),
      groupSize: +val("group-size"), quantEmbeddings: val("quant-embeddings"),
      seq: +val("seq"), prompt: +val("prompt"), batch: +val("batch"), gpus: +val("gpus"),
      tp: val("tp") === "" ? 0 : +val("tp"), pp: +val("pp"), cp: +val("cp"), sequenceParallel: val("sequence-parallel"),
      zero: +val("zero"), offload: val("offload"), checkpointing: val("checkpointing"), flash: val("flash"),
      optimizer: val("optimizer"), loss: val("loss"), noMaster: val("no-master"), optimizerInBackward: val("optimizer-in-backward"),
      offloadActivations: val("offload-activations"), specTokens: +val("spec-tokens"), specAccept: +val("spec-accept"), loraRank: +val("lora-rank"), loraTargets: targets,
      tokens: +val("tokens"), mfu: +val("mfu"), bpw: +val("bpw"), method: val("method"), images: +val("images"), trainVision: val("train-vision"),
      output: on(f.output) ? +f.output.value : 0, gpu, catalog: data.gpus,
      offers: planOffers, concurrency: +val("concurrency"), includeStale: val("include-stale"),
      maxContext: f.model.value === "custom" ? 0 : (data.models[f.model.value] || {}).maxContext || 0,
      load: { rate: +val("rate"), prompt: +val("plan-prompt"), answer: +val("answer"), ttft: +val("ttft"), tpot: +val("tpot") },
    };
  }

  function cell(tr, text, cls) {
    const td = document.createElement("td");
    if (cls) td.className = cls;
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }
  // offerCell writes "Provider instance (count× GPU)" with a link.
  function offerCell(el, o) {
    const a = document.createElement("a");
    a.href = form.dataset.base + "providers/" + o.provider + "/";
    a.textContent = o.providerName;
    el.append(a, " " + msg("calc.offer", o.instance, String(o.count), o.gpuName));
    return el;
  }
  // mark appends the badge of a team's overlay price ([kind, label, public
  // price], build.calcMark) as the overlaymark template writes it.
  function mark(td, m) {
    if (!m) return;
    const b = document.createElement("span");
    b.className = "badge overlay";
    b.dataset.overlay = m[0];
    b.textContent = m[1];
    td.appendChild(b);
    if (m[2]) {
      const p = document.createElement("span");
      p.className = "conv public";
      p.textContent = m[2];
      td.appendChild(p);
    }
  }
  function rowHeader(tr) {
    const th = document.createElement("th");
    th.scope = "row";
    tr.appendChild(th);
    return th;
  }

  // headline and why are pages.CalcHeadline and CalcWhy on the engine's
  // result: the answer (fits on N, needs at least N with the layout, or
  // does not fit), and why.
  function headline(inp, r, name) {
    const t = r.text, m = inp.gpu && r.minGPUs[inp.gpu.id];
    if (r.fits) return msg("calc.headline.fits", name, Q(t.totalPerGPU), String(inp.gpus), Q(t.usableBytes));
    if (m) {
      return msg("calc.headline.need", name, Q(m.totalText), String(m.n), Q(t.usableBytes),
        msg("calc.layout.short", "", String(m.tp), String(m.pp)));
    }
    return msg("calc.headline.never", name, Q(t.totalPerGPU), String(inp.gpus), t.usableBytes ? Q(t.usableBytes) : "");
  }
  function why(inp, r, name) {
    const t = r.text, m = inp.gpu && r.minGPUs[inp.gpu.id], out = [];
    if (!r.fits) {
      out.push(msg("calc.why.over", T("calc.part." + r.largest), Q(t.totalPerGPU), String(inp.gpus),
        t.usableBytes ? Q(t.usableBytes) : "", Q(t.breakdown[camel[r.largest] || r.largest])));
      // The speeds are the engine's at the layout that holds the job.
      if (m) out.push(msg("calc.why.speedat", name, String(m.n)));
    } else if (m && m.n < inp.gpus) {
      out.push(msg("calc.why.fewer", name, String(m.n), Q(m.totalText)));
    }
    if (r.runs === false) out.push(msg("calc.why.precision", name, inp.dtype));
    return out.join(T("punct.sp"));
  }

  // planRows fills a table body with the engine's plan rows ([offer, n,
  // instances, hourly, monthly, inputPerM, outputPerM, job]) as the
  // page's calccost template writes them.
  function planRows(sel, rows, infer) {
    const body = document.querySelector(sel + " tbody");
    body.replaceChildren();
    const dash = T("sizing.unit.none");
    const show = (x) => (x > 0 ? money(x, data.currency) : dash);
    for (const [i, , inst, hourly, monthly, inM, outM, job] of rows) {
      const o = offers[i];
      const tr = document.createElement("tr");
      offerCell(rowHeader(tr), o);
      mark(cell(tr, show(hourly), "num"), o.mark);
      cell(tr, data.billing[o.billing]);
      cell(tr, String(inst), "num");
      cell(tr, show(monthly), "num");
      for (const [x, show] of [[job, "train"], [inM, "infer"], [outM, "infer"]]) {
        const td = cell(tr, x > 0 ? money(x, data.currency) : dash, "num");
        td.dataset.show = show;
        td.hidden = infer !== (show === "infer");
      }
      cell(tr, "").appendChild(when(o));
      body.appendChild(tr);
    }
    return body.children.length;
  }

  function render(inp, r) {
    const err = $("error");
    const result = $("result");
    const head = $("headline");
    if (!r.ok) {
      const text = errText(r.error);
      err.textContent = text;
      err.hidden = false;
      head.textContent = msg("calc.headline.error", text);
      head.className = "headline nofit";
      $("layout").textContent = "";
      result.classList.add("stale");
      return;
    }
    err.hidden = true;
    result.classList.remove("stale");
    const t = r.text;
    const name = inp.gpu ? inp.gpu.name : "";
    head.textContent = headline(inp, r, name);
    head.className = "headline " + (r.fits ? "fits" : "nofit");
    const w = why(inp, r, name);
    $("why").textContent = w;
    $("why").hidden = !w;
    const l = r.layout;
    // Not fitting, the headline gives the layout that holds the job.
    $("layout").textContent = !r.fits ? "" : msg("calc.layout", String(inp.gpus), String(l.tp), String(l.pp), String(l.dp)) +
      (l.cp > 1 ? msg("calc.layout.cp", "", String(l.cp)) : "") + (l.auto ? msg(l.auto === 2 ? "calc.layout.autodp" : "calc.layout.auto") : "");
    $("total").textContent = Q(t.totalPerGPU);
    $("usable").textContent = t.usableBytes ? Q(t.usableBytes) : "";
    $("gpuname").textContent = name;
    const fits = $("fits");
    fits.textContent = msg(r.fits ? "calc.result.fits" : "calc.result.nofit");
    fits.className = r.fits ? "fits" : "nofit";
    let x = 0;
    const total = r.totalPerGPU || 1;
    for (const k of parts) {
      const key = camel[k] || k;
      $("b-" + k).textContent = Q(t.breakdown[key]);
      const rect = document.querySelector("#bar .seg-" + k);
      const w = (r.breakdown[key] / total) * 1000;
      rect.setAttribute("x", x.toFixed(1));
      rect.setAttribute("width", w.toFixed(1));
      x += w;
    }
    for (const k of optional) $("r-" + k).hidden = !(r.breakdown[k] > 0);
    $("b-paged").textContent = Q(t.pagedOut);
    $("r-paged").hidden = !(r.pagedOut > 0);
    $("decode").textContent = msg("calc.speed.decode", msg(r.computeBound ? "calc.bound.compute" : "calc.bound.memory"), Q(t.decode), Q(t.expDecode));
    $("ttft").textContent = msg("calc.speed.ttft", "", Q(t.ttft), String(inp.prompt || inp.seq), Q(t.expTTFT));
    $("tput").textContent = msg("calc.speed.throughput", Q(t.throughput), Q(t.expThroughput), String(r.speedGPUs), Q(t.expPerGPU));
    $("prefill-flops").textContent = Q(t.prefillFLOPs);
    $("flops").textContent = Q(t.trainFLOPs);
    $("time").textContent = Q(t.trainSeconds);
    // GRPO and PPO: the part of it the rollout engine generates, or why
    // there is no time (no completion length).
    $("rollout-time").textContent = r.rolloutSeconds > 0 ? msg("calc.train.rollout", "", Q(t.rolloutSeconds)) : "";

    const dash = T("sizing.unit.none");
    let any = false;
    for (const tr of document.querySelectorAll("#mingpus tbody tr")) {
      const m = r.minGPUs[tr.dataset.gpu];
      any = any || !!m;
      const td = tr.querySelectorAll("td");
      td[1].textContent = m ? String(m.n) : dash;
      td[2].textContent = m ? Q(m.expDecodeText) : dash;
      td[3].textContent = m ? Q(m.expTTFTText) : dash;
    }
    $("mingpus-none").hidden = any;

    // The engine's plan (sizing.Job.Plan): the chosen GPU's offers, the
    // cheapest alternatives, the cost per token.
    const infer = inp.workload === "inference";
    const p = r.plan;
    $("offers-title").textContent = msg("calc.offers", name);
    const none = $("offers-none");
    none.hidden = planRows("#offers", p.chosen, infer) > 0;
    none.textContent = msg("calc.offers.none", name);
    const cn = $("cheapest-none");
    cn.hidden = planRows("#cheapest", p.cheapest, infer) > 0;
    cn.textContent = msg("calc.cheapest.none");
    const left = [];
    if (p.unsupported > 0) left.push(msg("calc.left.precision", inp.dtype, String(p.unsupported)));
    if (p.stale > 0) left.push(msg("calc.left.stale", "", String(p.stale), String(data.staleDays)));
    $("left").textContent = left.join(T("punct.sp"));
    $("left").hidden = !left.length;
    const pt = document.querySelector("#pertoken tbody");
    pt.replaceChildren();
    for (const [i, , inst, hourly, , inM, outM] of p.perToken) {
      const o = offers[i];
      const tr = document.createElement("tr");
      offerCell(rowHeader(tr), o);
      cell(tr, money(outM, data.currency), "num");
      cell(tr, inM > 0 ? money(inM, data.currency) : dash, "num");
      cell(tr, String(inst), "num");
      mark(cell(tr, money(hourly, data.currency), "num"), o.mark);
      pt.appendChild(tr);
    }
    $("pertoken-none").hidden = p.perToken.length > 0;
    for (const sel of ["#offers", "#cheapest", "#pertoken"]) labelCells(sel);
    renderServing(inp, r);
  }

  // when is a price's date as the pages write it (render.When): a <time>
  // with the ISO date, in the edition's style.
  function when(o) {
    const t = document.createElement("time");
    t.className = "asof";
    t.dateTime = o.asOf;
    t.textContent = o.asOfText || o.asOf;
    return t;
  }

  // renderServing writes the engine's serving answers (inference): what
  // fits the reader's GPUs (pages.serveFitRows) and the cheapest plan per
  // GPU for the load (pages.calcServe).
  function renderServing(inp, r) {
    if (inp.workload !== "inference") return; // the sections are hidden (data-show="infer")
    const dash = T("sizing.unit.none");
    const name = inp.gpu ? inp.gpu.name : "";
    $("serve-title").textContent = msg("calc.serve.title", name, String(inp.gpus));
    const body = document.querySelector("#serve tbody");
    body.replaceChildren();
    let fits = false;
    for (const [format, tp, pp, weights, maxCtx, maxCtxText, , ctxText, conc, concText, over, decode] of r.serving || []) {
      const tr = document.createElement("tr");
      rowHeader(tr).textContent = format;
      cell(tr, maxCtx === 0 ? msg("calc.serve.over", "", Q(over)) : maxCtxText, "num");
      cell(tr, maxCtx === 0 ? dash : conc === 0 ? msg("calc.serve.seqs.none", "", ctxText) : msg("calc.serve.seqs", "", concText, ctxText), "num");
      cell(tr, Q(decode), "num");
      cell(tr, Q(weights), "num");
      cell(tr, msg("calc.serve.layout", "", String(tp), String(pp)));
      fits = fits || conc > 0;
      body.appendChild(tr);
    }
    const note = $("serve-note");
    const rows = r.serving || [];
    note.textContent = !inp.gpu ? "" : !rows.length ? msg("calc.serve.nolayout", "", String(inp.gpus), String(inp.model.layers))
      : fits ? "" : msg("calc.serve.none", name, rows[0][7], String(inp.gpus));
    note.hidden = !note.textContent;

    $("presets-title").textContent = msg("calc.presets.title", name, String(inp.gpus));
    renderRanked(inp, name);

    const p = r.servePlan;
    const pb = document.querySelector("#plans tbody");
    pb.replaceChildren();
    const misses = [];
    let text = "";
    if (!p) text = msg("calc.plan.off");
    else if (!p.ok) text = msg("calc.plan.bad", "", p.context);
    else {
      for (const [g, format, tp, batch, replicas, n, ttft, tpot, load, i, inst, hourly, inM, outM] of p.plans) {
        const o = offers[i], gp = data.gpus[g];
        const tr = document.createElement("tr");
        const a = document.createElement("a");
        a.href = form.dataset.base + "gpus/" + gp.id + "/";
        a.textContent = gp.name;
        rowHeader(tr).appendChild(a);
        cell(tr, money(hourly, data.currency), "num");
        cell(tr, money(outM, data.currency), "num");
        cell(tr, msg("calc.plan.layout", String(replicas), String(tp), String(n), String(batch)), "num");
        cell(tr, format, "nw");
        cell(tr, Q(ttft), "num");
        cell(tr, Q(tpot), "num");
        cell(tr, load + "%", "num");
        cell(tr, money(inM, data.currency), "num");
        const td = cell(tr, inst + " × ");
        const pa = document.createElement("a");
        pa.href = form.dataset.base + "providers/" + o.provider + "/";
        pa.textContent = o.providerName;
        td.append(pa, " " + o.instance + T("punct.comma"), when(o));
        pb.appendChild(tr);
      }
      for (const [g, reason, best, bestText] of p.misses) {
        const arg = reason === "ttft" || reason === "tpot" ? Q(bestText) : reason === "fit" ? String(p.maxNodeTP) : String(best);
        misses.push(msg("calc.plan.miss." + reason, data.gpus[g].name, arg));
      }
      if (!p.plans.length) text = msg("calc.plan.none", "", String(p.misses.length));
    }
    $("plan-note").textContent = text;
    $("plan-note").hidden = !text;
    const md = $("plan-misses");
    md.hidden = !misses.length;
    md.querySelector("summary").textContent = misses.length ? msg("calc.plan.misses", "", String(misses.length)) : "";
    const ul = md.querySelector("ul");
    ul.replaceChildren(...misses.map((m) => { const li = document.createElement("li"); li.textContent = m; return li; }));
    labelCells("#serve");
    labelCells("#plans");
    renderPay(inp);
  }

  // renderRanked writes the model presets that fit the reader's GPUs
  // (sizing.RankFits, from the second module's gpuAtlasRank) while their
  // list is open, as pages.calcServe does for the default inputs.
  function renderRanked(inp, name) {
    if (!$("presets").open || !inp.gpu || typeof globalThis.gpuAtlasRank !== "function") return;
    const r = globalThis.gpuAtlasRank({ gpu: inp.gpu, gpus: inp.gpus, models: data.modelIds.map((id) => data.models[id]) });
    const pb = document.querySelector("#presets-table tbody");
    pb.replaceChildren();
    for (const [i, format, maxCtxText, concText, ctxText, decode] of r.ranked || []) {
      const id = data.modelIds[i];
      const tr = document.createElement("tr");
      const a = document.createElement("a");
      a.href = form.dataset.base + "models/" + id + "/";
      a.textContent = data.models[id].name;
      rowHeader(tr).appendChild(a);
      cell(tr, format, "nw");
      cell(tr, maxCtxText, "num");
      cell(tr, msg("calc.serve.seqs", "", concText, ctxText), "num");
      cell(tr, Q(decode), "num");
      pb.appendChild(tr);
    }
    const pn = $("presets-note");
    pn.textContent = r.error ? errText(r.error) : r.ranked.length ? "" : msg("calc.presets.none", name, String(inp.gpus));
    pn.hidden = !pn.textContent;
    labelCells("#presets-table");
  }

  // renderPay writes the ways to pay for the load (sizing.PayWays, from
  // the second module's gpuAtlasPay) while their section is open, as
  // pages.calcPay does: each way's monthly cost, cost per 1,000 requests
  // and the offer or usage price (data.usage, the model's hosted APIs and
  // every serverless GPU) that prices it, and where each wins.
  function renderPay(inp) {
    const box = $("pay");
    if (!box || !box.open || typeof globalThis.gpuAtlasPay !== "function") return;
    const uses = data.usage.filter((u) => u[0] === "" || u[0] === f.model.value);
    const r = globalThis.gpuAtlasPay({
      model: inp.model, maxContext: inp.maxContext, load: inp.load, catalog: data.gpus, offers: planOffers,
      usage: uses.map((u) => u.slice(1, 7)),
    });
    const body = document.querySelector("#pay-table tbody");
    body.replaceChildren();
    const be = [];
    const dearest = Math.max(...(r.ways || []).map((w) => w[3]));
    for (const [way, , i, monthly, perRequest, , , inst, , , , , key, figure, idleText] of r.ways || []) {
      const tr = document.createElement("tr");
      rowHeader(tr).textContent = T("pay.way." + way);
      cell(tr, money(monthly, data.currency), "num").appendChild(payBar(monthly / dearest * 1000));
      cell(tr, money(perRequest * 1000, data.currency), "num");
      const td = cell(tr, "");
      if (way === "serverless" || way === "api") {
        const u = uses[i];
        td.append(u[7].replace("{3}", idleText) + T("punct.comma"), when({ asOf: u[8], asOfText: u[9] }));
      } else {
        const o = offers[i];
        const a = document.createElement("a");
        a.href = form.dataset.base + "providers/" + o.provider + "/";
        a.textContent = o.providerName;
        const term = o.billing === "committed" && o.term > 0 ? msg("pay.term", String(o.term)) : "";
        td.append(inst + " × ", a, " " + o.instance + term + T("punct.comma"), when(o));
      }
      body.appendChild(tr);
      if (key) be.push(msg("pay.be." + key, T("pay.way." + way), figure));
    }
    if (r.ways && r.ways.length && !r.ways.some((w) => w[0] === "api")) be.push(T("calc.pay.noapi"));
    const note = $("pay-note");
    note.textContent = r.error ? errText(r.error) : !r.ok ? (inp.load.rate > 0 ? msg("calc.plan.bad", "", r.context) : msg("calc.plan.off"))
      : r.ways.length ? "" : T("pay.none");
    note.hidden = !note.textContent;
    $("pay-wrap").hidden = !body.children.length;
    const ul = $("pay-be");
    ul.replaceChildren(...be.map((m) => { const li = document.createElement("li"); li.textContent = m; return li; }));
    ul.hidden = !be.length;
    labelCells("#pay-table");
  }

  // payBar is a way's bar, width w of 1000 (pages.CalcPayRow.Bar): the
  // table's figures drawn, hidden from assistive technology, which reads
  // the figures.
  function payBar(w) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("class", "paybar");
    svg.setAttribute("viewBox", "0 0 1000 10");
    svg.setAttribute("preserveAspectRatio", "none");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    const rect = document.createElementNS(ns, "rect");
    rect.setAttribute("width", w.toFixed(1));
    rect.setAttribute("height", "10");
    svg.appendChild(rect);
    return svg;
  }

  // labelCells names each data cell after its column (data-l), as the
  // page's template does: on a phone the offer tables are cards, where a
  // figure without its column's name is a bare number.
  function labelCells(sel) {
    const t = document.querySelector(sel);
    const heads = [...t.tHead.rows[0].cells].map((h) => h.textContent);
    for (const tr of t.tBodies[0].rows) {
      [...tr.cells].forEach((c, k) => {
        if (c.tagName === "TD" && heads[k]) c.dataset.l = heads[k];
      });
    }
  }

  function update(push) {
    applies();
    if (typeof globalThis.gpuAtlasSize !== "function") return;
    const inp = input();
    render(inp, globalThis.gpuAtlasSize(inp));
    if (push) {
      const q = toQuery().toString();
      history.replaceState(null, "", q ? "?" + q : location.pathname);
    }
  }

  // A Hugging Face config.json, pasted, dropped or chosen: the engine's
  // parser (package hfconfig) fills the custom model's fields.
  const cfg = $("f-config"), cfgFile = $("f-config-file"), cfgMsg = $("config-msg");
  function readConfig(text) {
    cfg.removeAttribute("aria-invalid");
    cfgMsg.className = "note";
    if (!text.trim()) {
      cfgMsg.textContent = "";
      return;
    }
    const c = globalThis.gpuAtlasParseConfig(text);
    if (!c.ok) {
      cfg.setAttribute("aria-invalid", "true");
      cfgMsg.className = "note nofit";
      cfgMsg.textContent = errText(c.error);
      return;
    }
    f.model.value = "custom";
    for (const el of modelFields) {
      if (el.type === "checkbox") el.checked = !!c.model[el.dataset.model];
      else el.value = String(c.model[el.dataset.model]);
    }
    $("advanced").open = true;
    cfgMsg.textContent = msg("calc.config.ok", c.modelType, c.paramsText) + (c.generic ? T("calc.config.generic") : "");
    update(true);
  }
  function configText(text) {
    load();
    if (typeof globalThis.gpuAtlasParseConfig === "function" && data) return readConfig(text);
    cfgMsg.textContent = T("calc.config.loading");
    // The parser, and the engine whose data holds the messages.
    Promise.all([loadConfig(), ready]).then(() => readConfig(text), failed);
  }
  // Opening the config box fetches the parser, which a reader is about to need.
  $("config").addEventListener("toggle", () => {
    if ($("config").open) loadConfig().catch(failed);
  });
  cfg.addEventListener("dragover", (e) => e.preventDefault());
  cfg.addEventListener("drop", (e) => {
    const file = e.dataTransfer && e.dataTransfer.files[0];
    if (!file) return;
    e.preventDefault();
    file.text().then((s) => { cfg.value = s; configText(s); });
  });
  cfgFile.addEventListener("change", () => {
    const file = cfgFile.files[0];
    if (file) file.text().then((s) => { cfg.value = s; configText(s); });
  });

  fromQuery(new URLSearchParams(location.search));
  applies();
  form.addEventListener("input", (e) => {
    if (e.target === cfg) return configText(cfg.value);
    if (e.target === cfgFile) return;
    // A workload brings its recipe (QLoRA: NF4 base, paged AdamW, bf16
    // adapters; training: checkpointing, ZeRO-3), as the engine's defaults
    // do. The custom model's fields are in the advanced section: open it.
    if (e.target === f.workload) applyRecipe(f.workload.value);
    if (e.target === f.model && f.model.value === "custom") $("advanced").open = true;
    update(true);
  });
  form.addEventListener("submit", (e) => { e.preventDefault(); update(true); });
  // The load's fields sit beside the plan they change, outside the form's
  // element (form="calc" makes them its controls).
  const loadBox = $("g-load");
  if (loadBox) loadBox.addEventListener("input", () => update(true));
  // Opening the list of presets that fit loads the engine and the second
  // module, and computes it.
  const presets = $("presets");
  if (presets) {
    presets.addEventListener("toggle", () => {
      if (!presets.open) return;
      load();
      if (typeof globalThis.gpuAtlasRank === "function") return update(false);
      const note = $("presets-note");
      note.textContent = T("calc.presets.loading");
      note.hidden = false;
      Promise.all([loadExtra(), ready]).then(() => update(false), failed);
    });
  }
  // Opening the ways to pay loads the second module and computes them;
  // /calculator/#pay opens them.
  const payBox = $("pay");
  if (payBox) {
    payBox.addEventListener("toggle", () => {
      if (!payBox.open) return;
      load();
      if (typeof globalThis.gpuAtlasPay === "function") return update(false);
      const note = $("pay-note");
      note.textContent = T("calc.pay.loading");
      note.hidden = false;
      Promise.all([loadExtra(), ready]).then(() => update(false), failed);
    });
    if (location.hash === "#pay") payBox.open = true;
  }

  let engineReady;
  const ready = new Promise((resolve) => { engineReady = resolve; });
  globalThis.gpuAtlasReady = () => {
    form.dataset.ready = "true";
    engineReady();
    update(false);
  };
  // The engine (Go's wasm_exec.js, about 470 KB brotli of WebAssembly,
  // and the catalog's data) loads when a shared URL needs it, or on the
  // first sign the reader will use the form; until then the page shows the
  // server-rendered result of the default inputs. The ways to pay and the
  // model presets that fit are a second module (generator/wasmextra),
  // loaded when a reader opens either; the config.json parser a third
  // (generator/wasmconfig), loaded when a reader gives the page a config.
  let loading = false, execLoaded = null, extraLoaded = null, configLoaded = null;
  const enc = new TextEncoder(), dec = new TextDecoder();
  const tag = (k, v) => (typeof v === "bigint" ? "\u0000NaN" : typeof v === "number" && !isFinite(v) ? "\u0000" + v : v);
  const untag = (k, v) => (v === "\u0000NaN" || v === "\u0000Infinity" || v === "\u0000-Infinity" ? Number(v.slice(1)) : v);
  // call runs export fn of a module's exports x on text (null: the
  // argument was not a string): it goes in as UTF-8 JSON text in the
  // module's buffer (a number that is not finite, or a BigInt, as a tagged
  // string the module reads as that number); the result comes back as
  // JSON text.
  function call(x, fn, text) {
    let n = -1;
    if (text !== null) {
      const b = enc.encode(text);
      const p = x.gpuAtlasBuffer(b.length); // may grow the memory: take its buffer after
      new Uint8Array(x.mem.buffer, p, b.length).set(b);
      n = b.length;
    }
    const len = fn(n), at = x.gpuAtlasData();
    return JSON.parse(dec.decode(new Uint8Array(x.mem.buffer, at, len)), untag);
  }
  // instantiate loads Go's wasm_exec.js once, then the module at url, runs
  // its main until it blocks (its exports then work) and gives the exports.
  function instantiate(url) {
    execLoaded = execLoaded || new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = form.dataset.exec;
      s.onerror = () => reject(new Error(form.dataset.exec));
      s.onload = resolve;
      document.head.appendChild(s);
    });
    return execLoaded.then(() => {
      const go = new Go();
      return WebAssembly.instantiateStreaming(fetch(url), go.importObject).then((res) => {
        go.run(res.instance);
        return res.instance.exports;
      });
    });
  }
  function failed(e) {
    const err = $("error");
    err.textContent = msg("calc.err.engine", e.message);
    err.hidden = false;
  }
  // load loads the engine and the catalog's data, and defines
  // gpuAtlasSize(input) -> result.
  function load() {
    if (loading) return;
    loading = true;
    const json = fetch(form.dataset.json).then((r) => (r.ok ? r.json() : Promise.reject(new Error(form.dataset.json))));
    Promise.all([instantiate(form.dataset.wasm), json])
      .then(([x, d]) => {
        setData(d);
        globalThis.gpuAtlasSize = (input) => call(x, x.gpuAtlasSize, JSON.stringify(input, tag) || "null");
        globalThis.gpuAtlasReady();
      })
      .catch(failed);
  }
  // loadExtra loads the second module and defines gpuAtlasPay(input) ->
  // ways and gpuAtlasRank(input) -> ranked.
  function loadExtra() {
    extraLoaded = extraLoaded || instantiate(form.dataset.extra).then((x) => {
      globalThis.gpuAtlasPay = (input) => call(x, x.gpuAtlasPay, JSON.stringify(input, tag) || "null");
      globalThis.gpuAtlasRank = (input) => call(x, x.gpuAtlasRank, JSON.stringify(input, tag) || "null");
    });
    return extraLoaded;
  }
  // loadConfig loads the config.json reader and defines
  // gpuAtlasParseConfig(text) -> config.
  function loadConfig() {
    configLoaded = configLoaded || instantiate(form.dataset.config).then((x) => {
      globalThis.gpuAtlasParseConfig = (text) => call(x, x.gpuAtlasParseConfig, typeof text === "string" ? text : null);
    });
    return configLoaded;
  }
  if (location.search) load();
  for (const ev of ["focusin", "pointerover", "pointerdown", "keydown", "input", "dragenter"]) {
    form.addEventListener(ev, load, { once: true, passive: true });
    if (loadBox) loadBox.addEventListener(ev, load, { once: true, passive: true });
  }
})();
