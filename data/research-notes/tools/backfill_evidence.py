"""Backfill `evidence` (and `date_basis` for FSDL dataset rows) on every [[offers.prices]] block
of the given offers files. The kind is judged from the source (and dataset):
  dataset = "fsdl-cloud-gpus"             -> community-dataset (date_basis dataset-row-date)
  third-party compiles and transcriptions -> third-party
An unknown source aborts the run so that a new source is judged by a person, not guessed."""
import re, sys

THIRD_PARTY = [
    "https://github.com/tsaol/aws-gpu/",                                   # compile of instances.vantage.sh data
    "https://github.com/Cyclenerd/google-cloud-pricing-cost-calculator/",  # compile of Google Cloud Billing SKUs
    "https://raw.githubusercontent.com/tgarg01/silybench-data/",           # silybench third-party records
    "https://github.com/fernandobandeira/djinn/",                          # harvested copies of pricing pages
    "https://raw.githubusercontent.com/datareceipts/data-receipts/",       # datareceipts records
    "https://github.com/datareceipts/data-receipts/",
    "https://raw.githubusercontent.com/api-evangelist/",                   # API Evangelist transcriptions
    "https://github.com/skypilot-org/skypilot-catalog/",                   # SkyPilot's catalog
    "https://github.com/dstackai/",                                        # dstack / gpuhunt PR threads
    "https://verda.com/pricing",        # read "as recorded in a third-party research note" (offer notes)
    "https://jarvislabs.ai/pricing",    # idem
]

def kind(source, dataset):
    if dataset:
        return "community-dataset"
    for p in THIRD_PARTY:
        if source.startswith(p):
            return "third-party"
    raise SystemExit("no rule for source %r: judge it and add a rule" % source)

for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8").read().split("\n")
    # find blocks: from a [[offers.prices]] header to the next header or EOF
    out, i, n = [], 0, 0
    while i < len(lines):
        if lines[i].strip() == "[[offers.prices]]":
            j = i + 1
            while j < len(lines) and not lines[j].startswith("["):
                j += 1
            block = lines[i:j]
            keys = {}
            for k, l in enumerate(block):
                m = re.match(r'^(\w+)\s*=\s*(.*)$', l)
                if m:
                    keys[m.group(1)] = (k, m.group(2))
            if "evidence" not in keys:
                src = keys["source"][1].strip().strip('"')
                ds = keys.get("dataset", (0, ""))[1].strip().strip('"')
                ev = kind(src, ds)
                # insert after the last key line of the block
                last = max(k for k, _ in keys.values())
                add = ['evidence = "%s"' % ev]
                if ev == "community-dataset" and "date_basis" not in keys:
                    add.insert(0, 'date_basis = "dataset-row-date"')
                block = block[:last + 1] + add + block[last + 1:]
                n += 1
            out.extend(block)
            i = j
        else:
            out.append(lines[i])
            i += 1
    open(path, "w", encoding="utf-8").write("\n".join(out))
    print(path, n, "blocks backfilled")
